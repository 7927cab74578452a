// Kernels with one divergent branch each kind, and uniform ones.
func.func @branches(%a: memref<?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = arith.constant 0 : i32
  %n = memref.dim %a, %c0 : memref<?xf32>
  %on = arith.cmpi ne, %flag, %z : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %negative = arith.cmpf olt, %v, %zero : f32
    scf.if %negative {
      memref.store %zero, %a[%i] : memref<?xf32>
    }
    scf.if %on {
      memref.store %v, %a[%c0] : memref<?xf32>
    }
  }
  return
}
