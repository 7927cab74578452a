func.func @negative_step(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%n) to (%c0) step (%cm1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
