// The manifest lists every kernel with the parameters of its PTX entry, in
// order and of the same type, and says where each comes from.
// RUN: threadbind-compile %S/Inputs/kernels.mlir -o %t.ptx --manifest %t.json
// RUN: %python %S/Inputs/check-manifest.py %t.json %t.ptx | FileCheck %s --check-prefix=CHECKER
// RUN: FileCheck %s < %t.json
// The default manifest path sits next to the output, named after it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: threadbind-compile %S/Inputs/kernels.mlir -o %t.dir/prog.ptx
// RUN: %python %S/Inputs/check-manifest.py %t.dir/prog.ptx.manifest.json %t.dir/prog.ptx

// CHECKER: ok axpy_kernel: 11 params, block [256, 1, 1]
// The 2-D nest over all of one memref: one loop over its elements
// (threadbind-collapse-contiguous-nests), with no test left to make.
// CHECKER: ok two_loops_kernel: {{[0-9]+}} params, block [256, 1, 1]
// CHECKER: ok two_loops_kernel_0: {{[0-9]+}} params, block [256, 1, 1]

// CHECK: "chip": "sm_90",
// CHECK: "ptx_version": "7.8",
// CHECK: "name": "axpy_kernel",
// CHECK: "module": "threadbind_kernels",
// CHECK: "host_function": "axpy",
// CHECK: "grid": [
// A widened loop alone in its launch gets a thread a vector: no
// resident-blocks query (reductions still make one, see reductions.mlir).
// CHECK-NEXT: "min(max(ceildiv(ceildiv(max(dim(arg1, 0), 0), 4), 256), 1), 2147483647)",
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK: "grid_policy": "grid-stride",
// CHECK: "params": [
// CHECK: "field": "aligned_ptr",
// CHECK-NEXT: "mlir_type": "memref<?xf32>",
// CHECK-NEXT: "source": "arg1"
// CHECK: "ptx_type": "f32",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "f32",
// CHECK-NEXT: "source": "arg0"
// CHECK: "name": "two_loops_kernel",
// CHECK: "ptx_type": "u32",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "i32",
// CHECK-NEXT: "source": "arg1"
// CHECK: "name": "two_loops_kernel_0",
// CHECK: "mlir_type": "index",
// CHECK-NEXT: "source": "arg4"
// CHECK: "ptx_type": "f64",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "f64",
// CHECK-NEXT: "source": "arg2"
// Sizes the kernel reads from its memref descriptors are not passed again.
// CHECK-NOT: "source": "dim(
