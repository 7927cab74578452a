// y[i] = 2 x[i] over arguments padded to a multiple of 256 elements.
func.func @scale(%x: memref<?xf32> {threadbind.padded_to = 256},
                 %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %d = arith.mulf %v, %two : f32
    memref.store %d, %y[%i] : memref<?xf32>
  }
  return
}
