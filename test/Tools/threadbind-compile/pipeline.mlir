// --print-pipeline shows the exact passes run; --timing reports MLIR's pass
// timing; options reach the mapping pass.
// RUN: threadbind-compile %S/Inputs/kernels.mlir --print-pipeline --threads-per-block=128 --grid-policy=cover -o /dev/null 2>&1 | FileCheck %s
// RUN: threadbind-compile %S/Inputs/kernels.mlir --print-pipeline --unswitch=false --predicate=false --tail=keep --narrow-indices=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: threadbind-compile %S/../../Integration/Predicate/predicate.mlir --emit mlir --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=BRANCH
// RUN: threadbind-compile %S/Inputs/kernels.mlir --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit mlir --remarks --block-shape=64,4 -o - 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK: builtin.module(threadbind-strip-internal-marks,threadbind-bufferize-entries,threadbind-expand-shapes-to-views,func.func(convert-linalg-to-parallel-loops,
// CHECK-SAME: threadbind-map-loops-to-threads{{.*}}grid-policy=cover{{.*}}threads-per-block=128
// CHECK-SAME: threadbind-remove-tail-checks{{.*}}strategy=pad
// CHECK-SAME: threadbind-unswitch-uniform-conditions
// CHECK-SAME: threadbind-predicate-divergent-branches
// CHECK-SAME: threadbind-narrow-indices
// CHECK: gpu-kernel-outlining
// CHECK-SAME: threadbind-merge-gpu-modules
// CHECK-SAME: threadbind-attach-nvvm-target{chip=sm_90 features=+ptx78 opt-level=3}
// CHECK: builtin.module(threadbind-split-kernel-modules,
// CHECK-SAME: convert-gpu-to-nvvm{{.*}}index-bitwidth=64
// CHECK-SAME: threadbind-serialize-kernels{{.*}}format=isa

// The divergence-aware passes and the 32-bit index copies can be turned
// off one by one.
// PLAIN: threadbind-remove-tail-checks{{.*}}strategy=keep
// PLAIN-NOT: threadbind-unswitch-uniform-conditions
// PLAIN-NOT: threadbind-predicate-divergent-branches
// PLAIN-NOT: threadbind-narrow-indices
// PLAIN: gpu-kernel-outlining

// --remarks also reports the kernel optimisation stage's decisions.
// BRANCH-DAG: remark: predicated: the condition is divergent
// BRANCH-DAG: remark: select became 'arith.maxnumf'
// BRANCH-DAG: remark: left as a branch: the condition is uniform
// BRANCH-DAG: remark: left as a branch: the then side has 8 operations

// TIMING: Total Execution Time
// TIMING: Normalise and map
// TIMING: Lower and serialise

// A 1-D loop under --block-shape=64,4 gets the 256 threads along x.
// REMARK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x {{.*}}; block 256x1x1, grid-stride grid; block-shape 64x4 fitted to the 1 bound dimension
