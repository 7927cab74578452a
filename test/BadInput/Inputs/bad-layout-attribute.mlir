func.func @bad_layout(%a: memref<?xf32, strided<[1, 1]>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32, strided<[1, 1]>>
  }
  return
}
