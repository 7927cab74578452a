// RUN: threadbind-opt %s "-threadbind-unswitch-uniform-conditions=remarks max-loop-ops=4" -verify-diagnostics -o /dev/null

func.func @too_big(%a: memref<?xf32>, %n: index, %on: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      // expected-remark @below {{not unswitched: the loop has 5 operations, more than max-loop-ops = 4}}
      scf.if %on {
        memref.store %zero, %a[%i] : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}
