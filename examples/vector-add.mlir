// c = a + b over a dynamically sized vector: the "hello world" of mapping
// a parallel loop onto blocks and threads. @main fills the inputs and prints
// the result so the CPU emulation can be compared with the original.
// Run on a GPU (scripts/demo.sh reads these lines):
// threadbind-run: --entry vector_add --size 1000003

func.func @vector_add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %k = arith.constant 7.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.mulf %f, %k : f32
    memref.store %f, %a[%i] : memref<?xf32>
    memref.store %g, %b[%i] : memref<?xf32>
  }
  call @vector_add(%a, %b, %c) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %u = memref.cast %c : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}
