// C = A + B on a 2-D row-major matrix. Row j of the loop nest walks the
// contiguous dimension, which is what should end up on threadIdx.x.
// Run on a GPU (scripts/demo.sh reads these lines):
// threadbind-run: --entry matrix_add --size 1031,2053

func.func @matrix_add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 45 : index
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %b = memref.alloc(%m, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %c1000 = arith.constant 1000 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %r = arith.muli %i, %c1000 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      memref.store %vf, %a[%i, %j] : memref<?x?xf32>
      memref.store %jf, %b[%i, %j] : memref<?x?xf32>
    }
  }
  call @matrix_add(%a, %b, %c) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %u = memref.cast %c : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}
