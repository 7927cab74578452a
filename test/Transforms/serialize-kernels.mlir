// RUN: threadbind-opt %s -threadbind-serialize-kernels | FileCheck %s
// RUN: threadbind-opt %s -threadbind-serialize-kernels | %python %S/../extract-gpu-binary.py | FileCheck %s --check-prefix=PTX
// RUN: threadbind-opt %s -threadbind-serialize-kernels=binary-name=prog | FileCheck %s --check-prefix=NAMED
// Threads or none, the PTX is the same.
// RUN: threadbind-opt %s -threadbind-serialize-kernels --mlir-disable-threading | %python %S/../extract-gpu-binary.py > %t.serial.ptx
// RUN: threadbind-opt %s -threadbind-serialize-kernels | %python %S/../extract-gpu-binary.py > %t.threads.ptx
// RUN: cmp %t.serial.ptx %t.threads.ptx

// Two modules become one binary of the first one's name; both launches
// point at it.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @first::@k0
// CHECK: gpu.launch_func @first::@k1
// CHECK: gpu.binary @first {{ *}}[#gpu.object<#nvvm.target<{{.*}}chip = "sm_80">, properties = {O = 2 : i32}, assembly = "
// CHECK-NOT: gpu.module
// CHECK-NOT: gpu.binary
// NAMED: gpu.launch_func @prog::@k0
// NAMED: gpu.launch_func @prog::@k1
// NAMED: gpu.binary @prog

// One header, then each module's code in order. Both link in a local
// helper of the same name: the second one's is renamed, and its call
// follows. Each module is compiled as if alone: its call sites are
// numbered from 0 whichever thread compiled it and whatever it compiled
// before.
// PTX: .target sm_80
// PTX-NOT: .target
// PTX: .func helper(
// PTX: .visible .entry k0(
// PTX: call.uni helper,
// PTX: .func helper_1(
// PTX: .visible .entry k1(
// PTX: // callseq 0, 0
// PTX: call.uni helper_1,
module attributes {gpu.container_module} {
  func.func @host(%p: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    gpu.launch_func @second::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    return
  }
  gpu.module @first [#nvvm.target<O = 2, chip = "sm_80">] {
    llvm.func internal @helper(%p: !llvm.ptr) attributes {passthrough = ["noinline"]} {
      %one = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %one, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @k0(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @helper(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
  }
  gpu.module @second [#nvvm.target<O = 2, chip = "sm_80">] {
    llvm.func internal @helper(%p: !llvm.ptr) attributes {passthrough = ["noinline"]} {
      %two = llvm.mlir.constant(2.0 : f32) : f32
      llvm.store %two, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @k1(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @helper(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
  }
}
