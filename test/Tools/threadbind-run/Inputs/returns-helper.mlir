func.func @fill(%a: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return %n : index
}
func.func @twice(%a: memref<?xf32>) {
  %n = call @fill(%a) : (memref<?xf32>) -> index
  %m = call @fill(%a) : (memref<?xf32>) -> index
  return
}
