func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %a[%i] : memref<4xf32>
  }
  memref.dealloc %a : memref<4xf32>
  return
}
