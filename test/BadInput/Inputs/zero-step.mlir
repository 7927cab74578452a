func.func @zero_step(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c0) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
