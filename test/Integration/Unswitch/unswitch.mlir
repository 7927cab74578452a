// Unswitched kernels, run on the CPU through the gpu.launch emulation, print
// what the originals print: a uniform flag in a grid-stride loop (both
// values), and two flags in a per-thread loop with a loop-carried sum whose
// trip count may be zero.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 -threadbind-unswitch-uniform-conditions > %t.unswitched.mlir
// RUN: FileCheck %s --check-prefix=UNSWITCHED < %t.unswitched.mlir
// RUN: threadbind-opt %t.unswitched.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out

// The flag is decided outside the grid-stride loop; each version is
// branch-free.
// UNSWITCHED-LABEL: func.func @flag
// UNSWITCHED: gpu.launch
// UNSWITCHED: scf.if
// UNSWITCHED-NEXT: scf.for
// UNSWITCHED-NOT: scf.if
// UNSWITCHED: } else {
// UNSWITCHED-NEXT: scf.for
// UNSWITCHED-NOT: scf.if
// UNSWITCHED: gpu.terminator
// UNSWITCHED-LABEL: func.func @sums
// UNSWITCHED: gpu.launch
// UNSWITCHED: scf.if
// UNSWITCHED: scf.for
// UNSWITCHED: scf.if

// y[i] = flag ? x[i] * 2 : x[i] + 1
func.func @flag(%x: memref<?xf32>, %y: memref<?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %on = arith.cmpi ne, %flag, %zero : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %r = scf.if %on -> f32 {
      %d = arith.mulf %v, %two : f32
      scf.yield %d : f32
    } else {
      %p = arith.addf %v, %one : f32
      scf.yield %p : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// y[i] = sum over k < m of (a ? x[i] * k : x[i] + k) (+ 100 when b)
func.func @sums(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %a: i1, %b: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %hundred = arith.constant 100.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %s = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %ki = arith.index_cast %k : index to i64
      %kf = arith.sitofp %ki : i64 to f32
      %t = scf.if %a -> f32 {
        %p = arith.mulf %v, %kf : f32
        scf.yield %p : f32
      } else {
        %q = arith.addf %v, %kf : f32
        scf.yield %q : f32
      }
      %u = scf.if %b -> f32 {
        %w = arith.addf %t, %hundred : f32
        scf.yield %w : f32
      } else {
        scf.yield %t : f32
      }
      %next = arith.addf %acc, %u : f32
      scf.yield %next : f32
    }
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// printMemrefF32 shows an uninitialised element for a 0-size memref, so an
// empty result is printed as a marker instead.
func.func @show(%u: memref<*xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %empty = arith.cmpi eq, %n, %c0 : index
  scf.if %empty {
    vector.print str "empty\n"
  } else {
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %t = arith.constant true
  %f = arith.constant false
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %x[%i] : memref<?xf32>
  }
  %u = memref.cast %y : memref<?xf32> to memref<*xf32>
  call @flag(%x, %y, %i1) : (memref<?xf32>, memref<?xf32>, i32) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @flag(%x, %y, %i0) : (memref<?xf32>, memref<?xf32>, i32) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @sums(%x, %y, %c5, %t, %f) : (memref<?xf32>, memref<?xf32>, index, i1, i1) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @sums(%x, %y, %c3, %f, %t) : (memref<?xf32>, memref<?xf32>, index, i1, i1) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @sums(%x, %y, %c0, %t, %t) : (memref<?xf32>, memref<?xf32>, index, i1, i1) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  return
}

// n = 5: flag on, flag off, a-sum over 5, b-sum over 3, zero-trip sum.
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  2,  4,  6,  8]
// CHECK: sizes = [5]
// CHECK-NEXT: [1,  2,  3,  4,  5]
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  10,  20,  30,  40]
// CHECK: sizes = [5]
// CHECK-NEXT: [303,  306,  309,  312,  315]
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  0,  0,  0,  0]
// CHECK-NEXT: empty
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c33 = arith.constant 33 : index
  %c1000 = arith.constant 1000 : index
  call @check(%c5) : (index) -> ()
  call @check(%c0) : (index) -> ()
  call @check(%c1) : (index) -> ()
  call @check(%c33) : (index) -> ()
  call @check(%c1000) : (index) -> ()
  return
}
