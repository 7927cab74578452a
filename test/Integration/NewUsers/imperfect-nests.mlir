// Imperfect nests: parallel{for{parallel}}, parallel{parallel; parallel}, for{parallel; parallel}
// From the new-user rounds of 2026-11-29: a program in a form the other
// tests did not cover, written as someone new to ThreadBind writes it.
// Checked in CPU emulation against the original, as threadbind-compile
// binds it under the defaults, a cover grid of 64-thread blocks with split
// tails, and a 3-D block shape of at most 3 blocks with kept tails and
// unrolled widening; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// REF: {{[0-9]}}

func.func private @printMemrefF32(memref<*xf32>)

func.func @fill(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %m7 = arith.remui %s, %c7 : index
      %ii = arith.index_cast %m7 : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// parallel over rows; sequential k loop; inner parallel over cols
func.func @k_par_for_par(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    scf.for %k = %c0 to %K step %c1 {
      scf.parallel (%j) = (%c0) to (%c) step (%c1) {
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %b = memref.load %B[%i, %j] : memref<?x?xf32>
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %p = arith.mulf %a, %kf : f32
        %s = arith.addf %b, %p : f32
        memref.store %s, %B[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// parallel over rows with two sibling inner parallels; the second reads
// (row-locally, another column) what the first wrote.
func.func @k_siblings(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  %cm1 = arith.subi %c, %c1 : index
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c) step (%c1) {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %d = arith.mulf %a, %two : f32
      memref.store %d, %B[%i, %j] : memref<?x?xf32>
    }
    scf.parallel (%j) = (%c0) to (%c) step (%c1) {
      %jr = arith.subi %cm1, %j : index
      %b = memref.load %B[%i, %jr] : memref<?x?xf32>
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %s = arith.subf %b, %a : f32
      memref.store %s, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// time loop around two dependent sweeps (Jacobi with copy-back)
func.func @k_time(%A: memref<?x?xf32>, %T: memref<?x?xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  %lr = arith.subi %r, %c1 : index
  %lc = arith.subi %c, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %n = arith.maxsi %im, %c0 : index
      %s = arith.minsi %ip, %lr : index
      %w = arith.maxsi %jm, %c0 : index
      %e = arith.minsi %jp, %lc : index
      %vn = memref.load %A[%n, %j] : memref<?x?xf32>
      %vs = memref.load %A[%s, %j] : memref<?x?xf32>
      %vw = memref.load %A[%i, %w] : memref<?x?xf32>
      %ve = memref.load %A[%i, %e] : memref<?x?xf32>
      %vc = memref.load %A[%i, %j] : memref<?x?xf32>
      %x1 = arith.addf %vn, %vs : f32
      %x2 = arith.addf %vw, %ve : f32
      %x3 = arith.addf %x1, %x2 : f32
      %x4 = arith.mulf %vc, %three : f32
      %x5 = arith.subf %x3, %x4 : f32
      memref.store %x5, %T[%i, %j] : memref<?x?xf32>
    }
    scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
      %v = memref.load %T[%i, %j] : memref<?x?xf32>
      memref.store %v, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = arith.constant 37 : index
  %c = arith.constant 29 : index
  %A = memref.alloc(%r, %c) : memref<?x?xf32>
  %B = memref.alloc(%r, %c) : memref<?x?xf32>
  %C = memref.alloc(%r, %c) : memref<?x?xf32>
  call @fill(%A) : (memref<?x?xf32>) -> ()
  call @fill(%B) : (memref<?x?xf32>) -> ()
  call @fill(%C) : (memref<?x?xf32>) -> ()
  call @k_par_for_par(%A, %B, %c3) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %cb = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cb) : (memref<*xf32>) -> ()
  call @k_siblings(%A, %B, %C) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @printMemrefF32(%cb) : (memref<*xf32>) -> ()
  %cc = memref.cast %C : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cc) : (memref<*xf32>) -> ()
  // 1x1 and 1xN cases of the time loop
  %A1 = memref.alloc(%c1, %c1) : memref<?x?xf32>
  %T1 = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @fill(%A1) : (memref<?x?xf32>) -> ()
  call @k_time(%A1, %T1, %c3) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %ca1 = memref.cast %A1 : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%ca1) : (memref<*xf32>) -> ()
  call @k_time(%A, %C, %c3) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %ca = memref.cast %A : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%ca) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<?x?xf32>
  memref.dealloc %B : memref<?x?xf32>
  memref.dealloc %C : memref<?x?xf32>
  memref.dealloc %A1 : memref<?x?xf32>
  memref.dealloc %T1 : memref<?x?xf32>
  return
}
