// RUN: threadbind-opt %s -threadbind-merge-gpu-modules -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-merge-gpu-modules=module-name=prog -split-input-file | FileCheck %s --check-prefix=NAMED

// Two outlined kernels end up in one module; launches follow them.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @host
// CHECK: gpu.launch_func @threadbind_kernels::@first
// CHECK: gpu.launch_func @threadbind_kernels::@second
// CHECK: gpu.module @threadbind_kernels {
// CHECK-DAG: gpu.func @first
// CHECK-DAG: gpu.func @second
// CHECK-NOT: gpu.module
// NAMED: gpu.launch_func @prog::@first
// NAMED: gpu.module @prog
module attributes {gpu.container_module} {
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first_module::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @second_module::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @first_module {
    gpu.func @first(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @second_module {
    gpu.func @second(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Outlining gives both kernels of @f the name @f_kernel; the second takes
// its module's name, and its launch and the device function it calls in
// its own module follow. The clashing helper is renamed too.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @threadbind_kernels::@f_kernel blocks
// CHECK: gpu.launch_func @threadbind_kernels::@f_kernel_0 blocks
// CHECK: gpu.module @threadbind_kernels {
// CHECK: gpu.func @f_kernel(
// CHECK: func.call @helper()
// CHECK: func.func @helper()
// CHECK: gpu.func @f_kernel_0(
// CHECK: func.call @helper_0()
// CHECK: func.func @helper_0()
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel() kernel {
      func.call @helper() : () -> ()
      gpu.return
    }
    func.func @helper() {
      return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel() kernel {
      func.call @helper() : () -> ()
      gpu.return
    }
    func.func @helper() {
      return
    }
  }
}
