func.func @arity(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<?x?xf32>
  }
  return
}
