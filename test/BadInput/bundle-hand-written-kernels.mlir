// Hand-written GPU code in a bundle. Before issue 22 a gpu.launch failed
// the bundle's LLVM translation (its CPU reference could not lower it),
// and a gpu.module naming its #nvvm.target was refused ("has targets
// <<NULL ATTRIBUTE>>"). Now the launch runs as host loops in the CPU
// reference; the module merges with the outlined kernels, and a function
// that launches it, or a launch with a barrier under a condition, has no
// CPU reference: the manifest says why, and threadbind-run says so instead
// of calling it. A barrier in a loop every thread runs alike has one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s -o %t/hand.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t/hand.ptx -o %t/hand.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t/hand.ptx
// RUN: threadbind-compile %s --emit bundle -o %t/hand.so
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/hand.so.manifest.json
// RUN: threadbind-run %t/hand.so --entry launch --size 40 --reference-only --print | FileCheck %s --check-prefix=LAUNCH
// RUN: %python %S/../Tools/threadbind-run/Inputs/expect-exit.py 2 threadbind-run %t/hand.so --entry module --size 4 --reference-only 2>&1 | FileCheck %s --check-prefix=NOREF
// The target must be the run's chip.
// RUN: sed -e 's/sm_90/sm_80/' %s > %t/other-chip.mlir
// RUN: %refused threadbind-compile %t/other-chip.mlir -o %t/other.ptx 2>&1 | FileCheck %s --check-prefix=CHIP

// PTX: .target sm_90
// PTX-DAG: .entry launch_kernel(
// PTX-DAG: .entry hand_kernel(
// PTX-DAG: .entry barrier_kernel(
// PTX-DAG: .entry barrier_loop_kernel(
// PTX-DAG: .entry loop_kernel(
// MANIFEST: "entries": [
// MANIFEST: "name": "launch",
// MANIFEST-NEXT: "gpu_symbol": "threadbind_gpu_launch",
// MANIFEST-NEXT: "reference_symbol": "threadbind_ref_launch",
// MANIFEST: "name": "module",
// MANIFEST-NEXT: "gpu_symbol": "threadbind_gpu_module",
// MANIFEST-NEXT: "reference_symbol": null,
// MANIFEST-NEXT: "no_reference": "it launches a kernel of a hand-written gpu.module, which the host does not run",
// MANIFEST: "name": "barrier",
// MANIFEST: "reference_symbol": null,
// MANIFEST-NEXT: "no_reference": "its gpu.launch cannot run on the host: cannot emulate 'gpu.barrier' on the host
// MANIFEST: "name": "barrier_loop",
// MANIFEST: "reference_symbol": "threadbind_ref_barrier_loop",
// Two blocks of 32 threads, each storing its global id + 1 below 40.
// LAUNCH: reference arg0: sum 820, first [1, 2, 3, 4, 5, 6, 7, 8, ...]
// NOREF: error: module has no CPU reference
// CHIP: other-chip.mlir:[[@LINE+3]]:3: error: 'gpu.module' op has the target #nvvm.target<chip = "sm_80">, but this compilation is for sm_90

module attributes {gpu.container_module} {
  gpu.module @hand [#nvvm.target<chip = "sm_90">] {
    gpu.func @hand_kernel(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func @launch(%a: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %n = memref.dim %a, %c0 : memref<?xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %i1 = arith.addi %i, %c1 : index
        %ii = arith.index_cast %i1 : index to i32
        %v = arith.sitofp %ii : i32 to f32
        memref.store %v, %a[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }

  func.func @module(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @hand::@hand_kernel blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%a : memref<?xf32>)
    return
  }

  func.func @barrier(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1.0 : f32
      %c0_ = arith.constant 0 : index
      %c1_ = arith.constant 1 : index
      %c2_ = arith.constant 2 : index
      %c16_ = arith.constant 16 : index
      // A barrier under a condition: the host emulation runs phases split
      // at barriers in the launch body and in loops of it only.
      %low = arith.cmpi ult, %tx, %c16_ : index
      scf.if %low {
        memref.store %one, %a[%tx] : memref<?xf32>
        gpu.barrier
      }
      gpu.terminator
    }
    return
  }

  // A barrier in a loop of the same trip count for every thread: each
  // iteration runs in phases on the host.
  func.func @barrier_loop(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1.0 : f32
      %c0_ = arith.constant 0 : index
      %c1_ = arith.constant 1 : index
      %c2_ = arith.constant 2 : index
      scf.for %k = %c0_ to %c2_ step %c1_ {
        memref.store %one, %a[%tx] : memref<?xf32>
        gpu.barrier
      }
      gpu.terminator
    }
    return
  }

  // A loop beside them, which ThreadBind binds as usual.
  func.func @loop(%a: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?xf32>
    %two = arith.constant 2.0 : f32
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %two, %a[%i] : memref<?xf32>
    }
    return
  }
}
