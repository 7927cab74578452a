// RUN: threadbind-opt %s -threadbind-bind-grid-queries -split-input-file | FileCheck %s

// A query that sizes one launch names that launch's kernel.
// CHECK: llvm.mlir.global private constant @__threadbind_kernel_name_f_kernel("f_kernel\00")
// CHECK-LABEL: func.func @f
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @__threadbind_kernel_name_f_kernel : !llvm.ptr
// CHECK: %[[CAP:.*]] = call @threadbind_kernel_resident_blocks(%{{.*}}, %[[NAME]]) : (index, !llvm.ptr) -> index
// CHECK-NOT: threadbind_max_resident_blocks(
// CHECK: gpu.launch_func @kernels::@f_kernel blocks in (%[[CAP]],
// CHECK: func.func private @threadbind_kernel_resident_blocks(index, !llvm.ptr) -> index
module attributes {gpu.container_module} {
  func.func private @threadbind_max_resident_blocks(index) -> index
  func.func @f(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %cap = call @threadbind_max_resident_blocks(%c256) : (index) -> index
    gpu.launch_func @kernels::@f_kernel blocks in (%cap, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @f_kernel(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A query whose answer sizes two launches cannot name one: it stays.
// CHECK-LABEL: func.func @shared
// CHECK: call @threadbind_max_resident_blocks(
// CHECK-NOT: threadbind_kernel_resident_blocks
module attributes {gpu.container_module} {
  func.func private @threadbind_max_resident_blocks(index) -> index
  func.func @shared(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %cap = call @threadbind_max_resident_blocks(%c256) : (index) -> index
    gpu.launch_func @kernels::@k1 blocks in (%cap, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<?xf32>)
    gpu.launch_func @kernels::@k2 blocks in (%cap, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k1(%a: memref<?xf32>) kernel {
      gpu.return
    }
    gpu.func @k2(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}
