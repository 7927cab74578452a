func.func @reads_on_host(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.load %a[%c0] : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %first, %a[%i] : memref<?xf32>
  }
  return
}
