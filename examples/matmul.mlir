// C = A B on row-major f32 matrices, each output's sum over k carried by a
// loop. Every output reads a row of A and a column of B, so outputs in the
// same row or column read the same values: ThreadBind gives each thread a
// tile of outputs, and where the tiles fill the device a block reads 8
// steps of k of its rows of A and columns of B into shared memory at a
// time, coalesced, and its threads compute 8x8 outputs each from there.
// The sums run in k order, as written. Run on a GPU (scripts/demo.sh reads
// these lines; the first size takes the shared tiles, the second a thread
// an output):
// threadbind-run: --entry matmul --shape 0=1100x515 --shape 1=515x2000 --shape 2=1100x2000
// threadbind-run: --entry matmul --shape 0=33x29 --shape 1=29x31 --shape 2=33x31

func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
      %x = memref.load %a[%i, %l] : memref<?x?xf32>
      %y = memref.load %b[%l, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// A 3x4 by 4x2 product: A[i][k] = i + k, B[k][j] = k - j.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc(%c3, %c4) : memref<?x?xf32>
  %b = memref.alloc(%c4, %c2) : memref<?x?xf32>
  %c = memref.alloc(%c3, %c2) : memref<?x?xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %v = arith.addi %i, %k : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %a[%i, %k] : memref<?x?xf32>
    }
  }
  scf.for %k = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %ki = arith.index_cast %k : index to i32
      %ji = arith.index_cast %j : index to i32
      %d = arith.subi %ki, %ji : i32
      %df = arith.sitofp %d : i32 to f32
      memref.store %df, %b[%k, %j] : memref<?x?xf32>
    }
  }
  call @matmul(%a, %b, %c) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %u = memref.cast %c : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}
