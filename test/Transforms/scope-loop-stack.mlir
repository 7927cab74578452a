// Host loops that take stack on each iteration (a memref.alloca, a kernel
// launch packing its arguments, an unranked memref) give it back at the end
// of the iteration; loops that take none, loops inside kernels, and loops
// that hand a memref of theirs to the next iteration are left alone.
// RUN: threadbind-opt %s -threadbind-scope-loop-stack -split-input-file | FileCheck %s
// Without the pass, the 64 iterations of @main's loop take 16 MiB of an
// 8 MiB stack; with it, the loop runs.
// REQUIRES: mlir-runner
// RUN: sed -n '/^module @run/,$p' %s | threadbind-opt -threadbind-scope-loop-stack %lower_to_cpu \
// RUN:   | %run_cpu | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @alloca_in_loop
// CHECK:         scf.for
// CHECK-NEXT:      %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:      memref.alloca
// CHECK:           llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:    }
func.func @alloca_in_loop(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloca() : memref<4xf32>
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// The launch sits in an scf.if inside the inner loop: the inner loop saves
// and restores, so the outer one, whose own body takes nothing, does not.
// CHECK-LABEL: func.func @launch_in_loop
// CHECK:         scf.for
// CHECK-NOT:       llvm.intr.stacksave
// CHECK:           scf.for
// CHECK-NEXT:        %[[SP:.*]] = llvm.intr.stacksave
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          gpu.launch_func
// CHECK:             llvm.intr.stackrestore %[[SP]]
// CHECK-NEXT:      }
// CHECK-NOT:       llvm.intr.stackrestore
// CHECK:         return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @launch_in_loop(%n: index, %a: memref<?xf32>, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        scf.if %flag {
          gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
              threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
        }
      }
    }
    return
  }
}

// -----

// No stack taken: nothing added. Inside a kernel: nothing added.
// CHECK-LABEL: func.func @nothing_taken
// CHECK-NOT:     llvm.intr.stacksave
// CHECK:         return
func.func @nothing_taken(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %out[%i] : memref<?xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.alloca() : memref<4xf32>
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %out[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// The inner loop's iteration hands its alloca to the next: neither it nor
// anything under it can give the stack back, so the outer loop does.
// CHECK-LABEL: func.func @memref_carried
// CHECK:         scf.for
// CHECK-NEXT:      %[[SP:.*]] = llvm.intr.stacksave
// CHECK-NEXT:      scf.for
// CHECK-NOT:         llvm.intr.stacksave
// CHECK:             scf.yield
// CHECK:           llvm.intr.stackrestore %[[SP]]
func.func @memref_carried(%n: index, %init: memref<4xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %last = scf.for %j = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<4xf32>) {
      %a = memref.alloca() : memref<4xf32>
      %v = memref.load %prev[%c0] : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      scf.yield %a : memref<4xf32>
    }
    %v = memref.load %last[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// EXEC: 64
module @run {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %a = memref.alloca() : memref<65536xf32>
      memref.store %one, %a[%i] : memref<65536xf32>
      %v = memref.load %a[%i] : memref<65536xf32>
      %t = arith.addf %s, %v : f32
      scf.yield %t : f32
    }
    vector.print %sum : f32
    return
  }
}
