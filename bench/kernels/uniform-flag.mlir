// A loop whose body branches on a kernel argument: every thread takes the
// same side (the uniform condition that unswitching hoists out).
func.func @uniform_flag(%x: memref<?xf32>, %y: memref<?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %on = arith.cmpi ne, %flag, %zero : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %r = scf.if %on -> f32 {
      %d = arith.mulf %v, %two : f32
      scf.yield %d : f32
    } else {
      %p = arith.addf %v, %one : f32
      scf.yield %p : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
