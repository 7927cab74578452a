// y = x > 0 ? x : 0, written as a branch on random signs (the divergent
// branch that predication turns into a select).
func.func @relu(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    %r = scf.if %positive -> f32 {
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
