// y = a * x + y over buffers allocated to a multiple of 256 elements, so a
// cover launch may run its last block to the end without a bounds check.
func.func @saxpy(%a: f32, %x: memref<?xf32> {threadbind.padded_to = 256},
                 %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %x[%i] : memref<?xf32>
    %yi = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
