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

// -----

// Outlining copies a host global into the module of each kernel that uses
// it. The copies are one variable of the program: they merge into one
// global, which both kernels address, so what the first writes the second
// reads. A global of the same name whose definition differs from the
// host's (here, a module's own) is a different variable and is renamed.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: memref.global "private" @acc : memref<4xf32> = dense<0.000000e+00>
// CHECK: gpu.module @threadbind_kernels {
// CHECK: gpu.func @writer
// CHECK: memref.get_global @acc :
// CHECK: memref.global "private" @acc : memref<4xf32> = dense<0.000000e+00>
// CHECK-NOT: memref.global
// CHECK: gpu.func @reader
// CHECK-NOT: memref.global
// CHECK: memref.get_global @acc :
// CHECK-NOT: memref.global
// CHECK: memref.get_global @[[OWN:own_module]] :
// CHECK-NOT: memref.global "private" @acc
// CHECK: memref.global "private" @[[OWN]] : memref<4xf32> = dense<1.000000e+00>
// CHECK-NOT: memref.global
// CHECK: }
module attributes {gpu.container_module} {
  memref.global "private" @acc : memref<4xf32> = dense<0.0>
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @writer_module::@writer blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @reader_module::@reader blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @own_module::@reader2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @writer_module {
    gpu.func @writer(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @acc : memref<4xf32>
      %x = memref.load %a[%c0] : memref<4xf32>
      memref.store %x, %g[%c0] : memref<4xf32>
      gpu.return
    }
    memref.global "private" @acc : memref<4xf32> = dense<0.0>
  }
  gpu.module @reader_module {
    gpu.func @reader(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @acc : memref<4xf32>
      %x = memref.load %g[%c0] : memref<4xf32>
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
    memref.global "private" @acc : memref<4xf32> = dense<0.0>
  }
  gpu.module @own_module {
    gpu.func @reader2(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @acc : memref<4xf32>
      %x = memref.load %g[%c0] : memref<4xf32>
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
    memref.global "private" @acc : memref<4xf32> = dense<1.0>
  }
}
