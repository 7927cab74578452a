// RUN: threadbind-opt %s -threadbind-split-kernel-modules -split-input-file | FileCheck %s

// Three groups: @a with the helper it calls and the global that helper
// reads (found through the helper), @b alone, @c with the helper it shares
// with @d. Each group after the first moves to a module named after the
// original, skipping a name the host already uses, with its targets; the
// launches follow their kernels.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @threadbind_kernels_1
// CHECK: gpu.launch_func @threadbind_kernels::@a
// CHECK: gpu.launch_func @threadbind_kernels_2::@b
// CHECK: gpu.launch_func @threadbind_kernels_3::@c
// CHECK: gpu.launch_func @threadbind_kernels_3::@d
// CHECK: gpu.module @threadbind_kernels [#nvvm.target<chip = "sm_80">] {
// CHECK-NEXT: gpu.func @a
// CHECK: func.func @helper
// CHECK: memref.global "private" @table
// CHECK-NEXT: }
// CHECK: gpu.module @threadbind_kernels_2 [#nvvm.target<chip = "sm_80">] {
// CHECK-NEXT: gpu.func @b
// CHECK: gpu.module @threadbind_kernels_3 [#nvvm.target<chip = "sm_80">] {
// CHECK-NEXT: gpu.func @c
// CHECK: gpu.func @d
// CHECK: func.func @shared
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @threadbind_kernels_1() {
    return
  }
  func.func @host(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @threadbind_kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @threadbind_kernels::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @threadbind_kernels::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @threadbind_kernels::@d blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @threadbind_kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @a(%m: memref<4xf32>) kernel {
      %x = func.call @helper() : () -> f32
      %c0 = arith.constant 0 : index
      memref.store %x, %m[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @b(%m: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @c(%m: memref<4xf32>) kernel {
      func.call @shared() : () -> ()
      gpu.return
    }
    func.func @helper() -> f32 {
      %t = memref.get_global @table : memref<4xf32>
      %c0 = arith.constant 0 : index
      %x = memref.load %t[%c0] : memref<4xf32>
      return %x : f32
    }
    gpu.func @d(%m: memref<4xf32>) kernel {
      func.call @shared() : () -> ()
      gpu.return
    }
    func.func @shared() {
      return
    }
    memref.global "private" @table : memref<4xf32> = dense<1.0>
  }
}

// -----

// Kernels that share everything stay together: nothing changes.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.launch_func @kernels::@a
// CHECK: gpu.launch_func @kernels::@b
// CHECK: gpu.module @kernels {
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @kernels::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @a(%m: memref<4xf32>) kernel {
      func.call @shared() : () -> ()
      gpu.return
    }
    gpu.func @b(%m: memref<4xf32>) kernel {
      func.call @shared() : () -> ()
      gpu.return
    }
    func.func @shared() {
      return
    }
  }
}

// -----

// An op that is not a symbol may concern every kernel: the module stays
// whole.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @kernels {
// CHECK: llvm.module_flags
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.module_flags [#llvm.mlir.module_flag<error, "probe", 1 : i32>]
    gpu.func @a() kernel {
      gpu.return
    }
    gpu.func @b() kernel {
      gpu.return
    }
  }
}
