// REQUIRES: libdevice
// RUN: threadbind-opt %s -threadbind-serialize-kernels=toolkit=%cuda_root | %python %S/../extract-gpu-binary.py | FileCheck %s
// RUN: threadbind-opt %s -threadbind-serialize-kernels | %python %S/../extract-gpu-binary.py | FileCheck %s --check-prefix=NONE
// RUN: threadbind-opt %s -threadbind-serialize-kernels="toolkit=%cuda_root format=llvm" -mlir-print-op-generic | FileCheck %s --check-prefix=BITCODE

// With the toolkit, libdevice resolves __nv_expf in the module that calls
// it; the PTX then declares nothing external.
// CHECK-NOT: .extern
// CHECK: .visible .entry exp_kernel(
// CHECK: ex2.approx
// CHECK: .visible .entry plain_kernel(

// Without one, the call stays for the driver to report.
// NONE: .extern .func {{.*}}__nv_expf

// Bitcode: the two modules linked into one LLVM module.
// BITCODE: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target<chip = "sm_80">, offload = "BC
module attributes {gpu.container_module} {
  gpu.module @exp [#nvvm.target<chip = "sm_80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @exp_kernel(%p: !llvm.ptr) attributes {nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f32
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @plain [#nvvm.target<chip = "sm_80">] {
    llvm.func @plain_kernel(%p: !llvm.ptr) attributes {nvvm.kernel} {
      %one = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %one, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}
