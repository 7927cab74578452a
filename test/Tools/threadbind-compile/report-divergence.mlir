// --report-divergence lists every divergent branch of the bound kernels
// with what it depends on; uniform branches (on a kernel argument) are not
// listed.
// RUN: threadbind-compile %S/Inputs/divergence.mlir --unswitch=false --report-divergence -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// With unswitching (the default) the uniform flag leaves the loop, which
// then exists twice, each copy with its divergent exit and branch: each
// source branch is said once, and the count says both.
// RUN: threadbind-compile %S/Inputs/divergence.mlir --report-divergence -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSWITCHED
// UNSWITCHED-COUNT-1: remark: divergent 'scf.for'
// UNSWITCHED-NOT: remark: divergent 'scf.for'
// UNSWITCHED: threadbind-compile: 2 divergent branch(es) (4 in the bound kernels, which hold some in several copies)

// CHECK: divergence.mlir:9:3: remark: divergent 'scf.for': threads of a warp can leave it after different iterations
// CHECK: divergence.mlir:9:3: note: it depends on the thread ids of this 'gpu.launch'
// CHECK: divergence.mlir:12:5: remark: divergent 'scf.if': threads of a warp can take different sides
// CHECK: divergence.mlir:9:3: note: it depends on the thread ids of this 'gpu.launch'
// CHECK-NOT: divergence.mlir:15
// CHECK: threadbind-compile: 2 divergent branch(es)
