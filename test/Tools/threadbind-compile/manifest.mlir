// The manifest lists every kernel with the parameters of its PTX entry, in
// order and of the same type, and says where each comes from.
// RUN: threadbind-compile %S/Inputs/kernels.mlir -o %t.ptx --manifest %t.json
// RUN: %python %S/Inputs/check-manifest.py %t.json %t.ptx | FileCheck %s --check-prefix=CHECKER
// RUN: FileCheck %s < %t.json
// The manifest follows docs/manifest.schema.json, here and for a bundle
// (with its entries), reductions (device scratch only the host function
// provides) and strided views.
// RUN: %python %S/Inputs/validate-manifest.py %S/../../../docs/manifest.schema.json %t.json | FileCheck %s --check-prefix=SCHEMA
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit bundle -o %t.so
// RUN: threadbind-compile %S/../../Integration/Reductions/reductions.mlir -o %t.reductions.ptx
// RUN: threadbind-compile %S/../../../python/tests/kernels.mlir --emit bundle -o %t.views.so
// RUN: %python %S/Inputs/validate-manifest.py %S/../../../docs/manifest.schema.json %t.so.manifest.json %t.reductions.ptx.manifest.json %t.views.so.manifest.json | FileCheck %s --check-prefix=SCHEMA-ALL
// SCHEMA: valid: 2 functions, 3 kernels, 0 entries
// SCHEMA-ALL: valid: 2 functions, 3 kernels, 2 entries
// SCHEMA-ALL-NEXT: valid: 33 functions, 72 kernels, 0 entries
// SCHEMA-ALL-NEXT: valid: 8 functions, 14 kernels, 8 entries
// The default manifest path sits next to the output, named after it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: threadbind-compile %S/Inputs/kernels.mlir -o %t.dir/prog.ptx
// RUN: %python %S/Inputs/check-manifest.py %t.dir/prog.ptx.manifest.json %t.dir/prog.ptx

// CHECKER: ok axpy_kernel: 11 params, block [256, 1, 1]
// The 2-D nest over all of one memref: one loop over its elements
// (threadbind-collapse-contiguous-nests), with no test left to make.
// CHECKER: ok two_loops_kernel: {{[0-9]+}} params, block [256, 1, 1]
// CHECKER: ok two_loops_kernel_0: {{[0-9]+}} params, block [256, 1, 1]

// CHECK: "threadbind_manifest_version": 2,
// CHECK: "chip": "sm_90",
// CHECK: "ptx_version": "7.8",
// The host functions, their arguments (access read off the function as
// written), and whether a caller can launch their kernels from the
// manifest alone.
// CHECK: "functions": [
// CHECK: "name": "axpy",
// CHECK: "kind": "scalar",
// CHECK-NEXT: "type": "f32",
// CHECK-NEXT: "element_type": "f32"
// CHECK: "kind": "memref",
// CHECK-NEXT: "type": "memref<?xf32>",
// CHECK-NEXT: "element_type": "f32",
// CHECK-NEXT: "shape": [
// CHECK-NEXT: null
// CHECK-NEXT: ],
// CHECK-NEXT: "access": "read"
// CHECK: "access": "read-write"
// CHECK: "launchable": true
// CHECK: "name": "two_loops",
// CHECK: "access": "read-write"
// CHECK: "access": "write"
// CHECK: "launchable": true
// CHECK: "name": "axpy_kernel",
// CHECK: "module": "threadbind_kernels",
// CHECK: "host_function": "axpy",
// CHECK: "grid": [
// A widened loop alone in its launch gets a thread a vector: no
// resident-blocks query (reductions still make one, see reductions.mlir).
// CHECK-NEXT: {"op":"minu","args":[{"op":"maxu","args":[{"op":"ceildivu","args":[{"op":"ceildivu","args":[{"op":"max","args":[{"dim":[1,0]},0]},4]},256]},1]},2147483647]},
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK: "grid_policy": "grid-stride",
// CHECK: "params": [
// CHECK: "field": "aligned_ptr",
// CHECK-NEXT: "mlir_type": "memref<?xf32>",
// CHECK-NEXT: "source": {"arg":1}
// CHECK: "ptx_type": "f32",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "f32",
// CHECK-NEXT: "source": {"arg":0}
// CHECK: "name": "two_loops_kernel",
// CHECK: "ptx_type": "u32",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "i32",
// CHECK-NEXT: "source": {"arg":1}
// CHECK: "name": "two_loops_kernel_0",
// CHECK: "mlir_type": "index",
// CHECK-NEXT: "source": {"arg":4}
// CHECK: "ptx_type": "f64",
// CHECK-NEXT: "operand": {{[0-9]+}},
// CHECK-NEXT: "mlir_type": "f64",
// CHECK-NEXT: "source": {"arg":2}
// Sizes the kernel reads from its memref descriptors are not passed again.
// CHECK-NOT: "source": {"dim"
