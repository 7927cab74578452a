func.func @unregistered(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = mystery.square %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
