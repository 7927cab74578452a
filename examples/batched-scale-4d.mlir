// y[b][c][h][w] = x[b][c][h][w] * s + c: a 4-D loop. w (contiguous) goes to
// threadIdx.x, h to y, and b and c are linearised onto z.
// Run on a GPU (scripts/demo.sh reads these lines):
// threadbind-run: --entry batched_scale --size 3,17,31,257 --scalar 2=0.5

func.func @batched_scale(%x: memref<?x?x?x?xf32>, %y: memref<?x?x?x?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %nb = memref.dim %x, %c0 : memref<?x?x?x?xf32>
  %nc = memref.dim %x, %c1 : memref<?x?x?x?xf32>
  %nh = memref.dim %x, %c2 : memref<?x?x?x?xf32>
  %nw = memref.dim %x, %c3 : memref<?x?x?x?xf32>
  scf.parallel (%b, %c, %h, %w) = (%c0, %c0, %c0, %c0) to (%nb, %nc, %nh, %nw) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %x[%b, %c, %h, %w] : memref<?x?x?x?xf32>
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %p = arith.mulf %v, %s : f32
    %q = arith.addf %p, %cf : f32
    memref.store %q, %y[%b, %c, %h, %w] : memref<?x?x?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %half = arith.constant 0.5 : f32
  %x = memref.alloc(%c2, %c3, %c2, %c5) : memref<?x?x?x?xf32>
  %y = memref.alloc(%c2, %c3, %c2, %c5) : memref<?x?x?x?xf32>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c3 step %c1 {
      scf.for %h = %c0 to %c2 step %c1 {
        scf.for %w = %c0 to %c5 step %c1 {
          %s = arith.addi %b, %c : index
          %t = arith.addi %s, %h : index
          %u = arith.addi %t, %w : index
          %ui = arith.index_cast %u : index to i32
          %uf = arith.sitofp %ui : i32 to f32
          memref.store %uf, %x[%b, %c, %h, %w] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  call @batched_scale(%x, %y, %half) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, f32) -> ()
  %cast = memref.cast %y : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<?x?x?x?xf32>
  memref.dealloc %y : memref<?x?x?x?xf32>
  return
}
