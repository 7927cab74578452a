// Debian's own mlir-opt loads the ThreadBind plugin and runs its passes;
// the test passes come from a plugin of their own, which users never need.
// (Not in a sanitized build: mlir-opt has no sanitizer runtime to load it.)
// UNSUPPORTED: sanitizers
// RUN: mlir-opt --load-pass-plugin=%threadbind_plugin --load-pass-plugin=%threadbind_test_plugin %s -pass-pipeline='builtin.module(threadbind-test-emulate-gpu-launch)' | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%threadbind_plugin --help | FileCheck %s --check-prefix=HELP
// RUN: not mlir-opt --load-pass-plugin=%threadbind_plugin %s -pass-pipeline='builtin.module(threadbind-test-emulate-gpu-launch)' 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: not mlir-opt %s -pass-pipeline='builtin.module(threadbind-test-emulate-gpu-launch)' 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// The README's form for the mapping: named in --pass-pipeline it runs; as
// a flag mlir-opt refuses it, having parsed its flags before the plugin
// was loaded (the upstream limitation the README states).
// RUN: mlir-opt --load-pass-plugin=%threadbind_plugin %S/../../examples/vector-add.mlir --pass-pipeline='builtin.module(threadbind-map-to-gpu{remarks=true})' 2>&1 | FileCheck %s --check-prefix=MAP
// RUN: not mlir-opt --load-pass-plugin=%threadbind_plugin %S/../../examples/vector-add.mlir -threadbind-map-to-gpu 2>&1 | FileCheck %s --check-prefix=FLAG
// MAP: remark:
// MAP: gpu.launch
// FLAG: Unknown command line argument '-threadbind-map-to-gpu'

// HELP: --threadbind-map-loops-to-threads
// HELP-NOT: threadbind-test-
// NOPLUGIN: 'threadbind-test-emulate-gpu-launch' does not refer to a registered pass

// CHECK-LABEL: func.func @store_tid
// CHECK-NOT: gpu.launch
// CHECK-COUNT-6: scf.for
// CHECK: memref.store
func.func @store_tid(%out: memref<8xindex>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    memref.store %tx, %out[%tx] : memref<8xindex>
    gpu.terminator
  }
  return
}
