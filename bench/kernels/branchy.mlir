// A data-dependent branch taken by half the elements (random signs), each
// side a heavy recurrence of a different shape (multiply-add on one side,
// add-then-multiply on the other, so no compiler can merge the two into
// one chain with selected coefficients): too big to predicate.
func.func @branchy(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 0.999 : f32
  %b = arith.constant 0.001 : f32
  %c = arith.constant 1.001 : f32
  %d = arith.constant -0.002 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    %r = scf.if %positive -> f32 {
      %p = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %v) -> f32 {
        %m = arith.mulf %acc, %a : f32
        %s = arith.addf %m, %b : f32
        scf.yield %s : f32
      }
      scf.yield %p : f32
    } else {
      %q = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %v) -> f32 {
        %s = arith.addf %acc, %d : f32
        %m = arith.mulf %s, %c : f32
        scf.yield %m : f32
      }
      scf.yield %q : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
