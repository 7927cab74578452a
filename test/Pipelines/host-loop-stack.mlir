// A host loop that launches kernels on every iteration (doitgen as
// affine-parallelize leaves it: the r and q loops stay on the host) gives
// back, at the end of each iteration, the stack its launches pack their
// arguments on; without it 16384 iterations overflowed the stack.
// RUN: threadbind-opt %s --threadbind-to-ptx | FileCheck %s

// CHECK-LABEL: func.func @kernel(
// CHECK:         ^bb[[#]](%{{.*}}: index):
// CHECK:         %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK:         gpu.launch_func @threadbind_kernels::@kernel_kernel
// CHECK:         gpu.launch_func @threadbind_kernels::@kernel_kernel_0
// CHECK:         llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    cf.br
func.func @kernel(%A: memref<?x?x?xf32>, %C4: memref<?x?xf32>, %sum: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %nr = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nq = memref.dim %A, %c1 : memref<?x?x?xf32>
  %np = memref.dim %A, %c2 : memref<?x?x?xf32>
  scf.for %r = %c0 to %nr step %c1 {
    scf.for %q = %c0 to %nq step %c1 {
      scf.parallel (%p) = (%c0) to (%np) step (%c1) {
        %s = scf.for %s = %c0 to %np step %c1 iter_args(%acc = %zero) -> f32 {
          %a = memref.load %A[%r, %q, %s] : memref<?x?x?xf32>
          %c = memref.load %C4[%s, %p] : memref<?x?xf32>
          %pr = arith.mulf %a, %c : f32
          %t = arith.addf %acc, %pr : f32
          scf.yield %t : f32
        }
        memref.store %s, %sum[%p] : memref<?xf32>
      }
      scf.parallel (%p) = (%c0) to (%np) step (%c1) {
        %v = memref.load %sum[%p] : memref<?xf32>
        memref.store %v, %A[%r, %q, %p] : memref<?x?x?xf32>
      }
    }
  }
  return
}
