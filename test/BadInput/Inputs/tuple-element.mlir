func.func @pairs(%a: memref<?xtuple<f32, f32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xtuple<f32, f32>>
    memref.store %x, %a[%i] : memref<?xtuple<f32, f32>>
  }
  return
}
