// A 256-step recurrence per element whose step a uniform flag argument
// picks inside the inner loop: compute-bound, and without unswitching the
// hot loop evaluates both steps and selects (or branches) every iteration.
func.func @uniform_poly(%x: memref<?xf32>, %y: memref<?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %a = arith.constant 0.999 : f32
  %b = arith.constant 0.001 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %on = arith.cmpi ne, %flag, %zero : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %v) -> f32 {
      %next = scf.if %on -> f32 {
        // acc * a + b
        %m = arith.mulf %acc, %a : f32
        %s = arith.addf %m, %b : f32
        scf.yield %s : f32
      } else {
        // (acc + b) * a
        %s = arith.addf %acc, %b : f32
        %m = arith.mulf %s, %a : f32
        scf.yield %m : f32
      }
      scf.yield %next : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
