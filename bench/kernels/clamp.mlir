// y = clamp(x, lo, hi), written as two branches on random values.
func.func @clamp(%x: memref<?xf32>, %y: memref<?xf32>, %lo: f32, %hi: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %below = arith.cmpf olt, %v, %lo : f32
    %r = scf.if %below -> f32 {
      scf.yield %lo : f32
    } else {
      %above = arith.cmpf ogt, %v, %hi : f32
      %t = scf.if %above -> f32 {
        scf.yield %hi : f32
      } else {
        scf.yield %v : f32
      }
      scf.yield %t : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
