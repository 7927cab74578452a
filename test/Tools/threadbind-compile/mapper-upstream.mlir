// --mapper=upstream is a baseline: what upstream's own passes make of the
// loops. A loop with reductions, which upstream's conversion cannot take,
// is refused at the loop (it used to fail on an unresolved
// materialization), and nothing is written.
// RUN: %refused threadbind-compile %s --mapper=upstream -o %t.ptx 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %s --mapper=upstream-tiled -o %t.ptx 2>&1 | FileCheck %s
// The same file maps with ThreadBind's own mapper.
// RUN: threadbind-compile %s --emit mlir -o - 2>&1 | FileCheck %s --check-prefix=OURS

// CHECK: mapper-upstream.mlir:[[@LINE+9]]:8: error: --mapper=upstream cannot map a loop with reductions
// CHECK-NOT: error
// OURS-NOT: error
// OURS: gpu.launch
func.func @sum(%a: memref<1024xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %a[%i] : memref<1024xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[] : memref<f32>
  return
}
