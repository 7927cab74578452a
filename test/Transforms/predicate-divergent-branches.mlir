// RUN: threadbind-opt %s -threadbind-predicate-divergent-branches -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-predicate-divergent-branches=remarks -split-input-file -verify-diagnostics -o /dev/null
// RUN: threadbind-opt %s -threadbind-predicate-divergent-branches=exact-signed-zeros -split-input-file | FileCheck %s --check-prefix=EXACT

// ReLU with work on the taken side: a divergent condition (the value loaded
// by each thread), both sides pure and small. Predicated, and the select
// between the compared values is a max: the constant 0 is what a NaN
// selects, so the non-propagating form keeps the result.
// CHECK-LABEL: func.func @relu
// With exact signed zeros, max(-0.0, 0.0) could differ from the select.
// EXACT-LABEL: func.func @relu
// EXACT: arith.select
// EXACT-NOT: arith.maxnumf
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: %[[V:.*]] = memref.load
// CHECK: %[[M:.*]] = arith.mulf %[[V]]
// CHECK-NOT: arith.cmpf
// CHECK: %[[R:.*]] = arith.maxnumf %[[M]], %{{.*}} : f32
// CHECK: memref.store %[[R]]
func.func @relu(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %m = arith.mulf %v, %two : f32
    %positive = arith.cmpf ogt, %m, %zero : f32
    // expected-remark @below {{predicated: the condition is divergent and both sides are small and safe to run unconditionally}}
    // expected-remark @below {{select became 'arith.maxnumf'}}
    %r = scf.if %positive -> f32 {
      scf.yield %m : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %r, %y[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// The same branch on a kernel argument: every thread goes the same way, so
// the branch stays and skips the other side's work.
// CHECK-LABEL: func.func @uniform
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: } else {
// CHECK: arith.addf
func.func @uniform(%x: memref<?xf32>, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %two = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    // expected-remark @below {{left as a branch: the condition is uniform, so no warp is split and the branch skips the other side's work}}
    %r = scf.if %flag -> f32 {
      %d = arith.mulf %v, %two : f32
      scf.yield %d : f32
    } else {
      %p = arith.addf %v, %two : f32
      scf.yield %p : f32
    }
    memref.store %r, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Eight operations on one side: too much to run for threads that do not
// need it.
// CHECK-LABEL: func.func @large
// CHECK: scf.if
func.func @large(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 1.5 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{left as a branch: the then side has 8 operations, more than max-ops-per-side = 7}}
    %r = scf.if %positive -> f32 {
      %0 = arith.mulf %v, %a : f32
      %1 = arith.addf %0, %a : f32
      %2 = arith.mulf %1, %a : f32
      %3 = arith.addf %2, %a : f32
      %4 = arith.mulf %3, %a : f32
      %5 = arith.addf %4, %a : f32
      %6 = arith.mulf %5, %a : f32
      %7 = arith.addf %6, %a : f32
      scf.yield %7 : f32
    } else {
      scf.yield %v : f32
    }
    memref.store %r, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A load at an address nothing else touches may be out of bounds for the
// threads that skip it (x[i + 1] for the last i).
// CHECK-LABEL: func.func @unproven_load
// CHECK: scf.if
// CHECK: memref.load
func.func @unproven_load(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %next = arith.addi %tx, %c1 : index
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{left as a branch: the then side cannot run unconditionally: it holds a 'memref.load' at an address not proven in bounds}}
    %r = scf.if %positive -> f32 {
      %w = memref.load %x[%next] : memref<?xf32>
      scf.yield %w : f32
    } else {
      scf.yield %v : f32
    }
    memref.store %r, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Loads whose address every thread reaches anyway (y[i] is stored after
// the branch; w[3] is inside a static shape) are safe to speculate.
// CHECK-LABEL: func.func @proven_loads
// CHECK-NOT: scf.if
// CHECK: arith.cmpf
// CHECK-NEXT: %[[A:.*]] = memref.load %{{.*}} : memref<?xf32>
// CHECK-NEXT: %[[B:.*]] = memref.load %{{.*}} : memref<4xf32>
// CHECK: arith.select %{{.*}}, %[[A]], %[[B]] : f32
func.func @proven_loads(%x: memref<?xf32>, %y: memref<?xf32>, %w: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{predicated}}
    %r = scf.if %positive -> f32 {
      %old = memref.load %y[%tx] : memref<?xf32>
      scf.yield %old : f32
    } else {
      %k = memref.load %w[%c3] : memref<4xf32>
      scf.yield %k : f32
    }
    memref.store %r, %y[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A store on one side only stays guarded: threads that skip it must not
// write.
// CHECK-LABEL: func.func @one_store
// CHECK: scf.if
// CHECK-NEXT: memref.store
func.func @one_store(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %negative = arith.cmpf olt, %v, %zero : f32
    // expected-remark @below {{left as a branch: only one side stores; a store under a divergent condition stays guarded}}
    scf.if %negative {
      memref.store %zero, %x[%tx] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Both sides store to the same address: one store of the selected value.
// CHECK-LABEL: func.func @both_store
// CHECK-NOT: scf.if
// CHECK: %[[D:.*]] = arith.mulf
// CHECK: %[[P:.*]] = arith.addf
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %[[D]], %[[P]] : f32
// CHECK-NEXT: memref.store %[[S]]
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
func.func @both_store(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{predicated}}
    scf.if %positive {
      %d = arith.mulf %v, %two : f32
      memref.store %d, %y[%tx] : memref<?xf32>
    } else {
      %p = arith.addf %v, %two : f32
      memref.store %p, %y[%tx] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Stores to different addresses both stay guarded.
// CHECK-LABEL: func.func @different_stores
// CHECK: scf.if
func.func @different_stores(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{left as a branch: the sides store to different addresses; a store under a divergent condition stays guarded}}
    scf.if %positive {
      memref.store %v, %y[%tx] : memref<?xf32>
    } else {
      memref.store %v, %x[%tx] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Integer division traps on zero: not run for threads that skip it.
// CHECK-LABEL: func.func @division
// CHECK: scf.if
// CHECK: arith.divsi
func.func @division(%x: memref<?xi32>, %d: i32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xi32>
    %nonzero = arith.cmpi ne, %v, %zero : i32
    // expected-remark @below {{left as a branch: the then side cannot run unconditionally: it holds 'arith.divsi', which is not safe to run unconditionally}}
    %r = scf.if %nonzero -> i32 {
      %q = arith.divsi %d, %v : i32
      scf.yield %q : i32
    } else {
      scf.yield %zero : i32
    }
    memref.store %r, %x[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}

// -----

// A side holding a loop: however few its operations, they run many times.
// CHECK-LABEL: func.func @loop_side
// CHECK: scf.if
// CHECK: scf.for
func.func @loop_side(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 0.999 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-remark @below {{left as a branch: the then side cannot run unconditionally: it holds a loop ('scf.for'), whose cost its size does not bound}}
    %r = scf.if %positive -> f32 {
      %p = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %v) -> f32 {
        %m = arith.mulf %acc, %a : f32
        scf.yield %m : f32
      }
      scf.yield %p : f32
    } else {
      scf.yield %v : f32
    }
    memref.store %r, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Clamp written as two nested branches: the inner one is predicated first,
// which leaves the outer one small enough. The bounds are arguments that
// could be NaN, so the selects stay selects.
// CHECK-LABEL: func.func @clamp
// CHECK-NOT: scf.if
// CHECK: arith.select
// CHECK: arith.select
// CHECK-NOT: arith.m{{ax|in}}
// CHECK: gpu.terminator
func.func @clamp(%x: memref<?xf32>, %lo: f32, %hi: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %below = arith.cmpf olt, %v, %lo : f32
    // expected-remark @below {{predicated}}
    %r = scf.if %below -> f32 {
      scf.yield %lo : f32
    } else {
      %above = arith.cmpf ogt, %v, %hi : f32
      // expected-remark @below {{predicated}}
      %t = scf.if %above -> f32 {
        scf.yield %hi : f32
      } else {
        scf.yield %v : f32
      }
      scf.yield %t : f32
    }
    memref.store %r, %x[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Min and max shapes: a comparison marked nnan allows the non-propagating
// float form; an unordered comparison selects x on NaN, so with a constant
// y the propagating form matches; integers are exact; x < 0 ? -x : x is abs.
// CHECK-LABEL: func.func @shapes
// CHECK: arith.minnumf
// CHECK: arith.maximumf
// CHECK: arith.maxsi
// CHECK: arith.minui
// CHECK: math.absf
// CHECK-NOT: arith.select
// CHECK: gpu.terminator
// With exact signed zeros, only forms where no zero tie can occur (a
// nonzero constant operand) or that are integer remain.
// EXACT-LABEL: func.func @shapes
// EXACT: arith.select
// EXACT: arith.maximumf
// EXACT: arith.maxsi
// EXACT: arith.minui
// EXACT: arith.select
// EXACT-NOT: math.absf
// EXACT: gpu.terminator
func.func @shapes(%x: memref<?xf32>, %k: memref<?xi32>, %b: f32, %n: i32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<?xf32>
    %i = memref.load %k[%tx] : memref<?xi32>
    %lt = arith.cmpf olt, %v, %b fastmath<nnan> : f32
    // expected-remark @below {{select became 'arith.minnumf'}}
    %m0 = arith.select %lt, %v, %b : f32
    %ugt = arith.cmpf ugt, %m0, %six : f32
    // expected-remark @below {{select became 'arith.maximumf'}}
    %m1 = arith.select %ugt, %m0, %six : f32
    %sgt = arith.cmpi sgt, %n, %i : i32
    // expected-remark @below {{select became 'arith.maxsi'}}
    %m2 = arith.select %sgt, %n, %i : i32
    %ugti = arith.cmpi ugt, %m2, %n : i32
    // expected-remark @below {{select became 'arith.minui'}}
    %m3 = arith.select %ugti, %n, %m2 : i32
    %neg = arith.negf %m1 : f32
    %isneg = arith.cmpf olt, %m1, %zero : f32
    // expected-remark @below {{select became 'math.absf'}}
    %m4 = arith.select %isneg, %neg, %m1 : f32
    memref.store %m4, %x[%tx] : memref<?xf32>
    memref.store %m3, %k[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}

// -----

// Outside GPU code nothing changes, and nothing is reported.
// CHECK-LABEL: func.func @host
// CHECK: scf.if
// CHECK: arith.select
func.func @host(%x: memref<?xf32>, %i: index) {
  %zero = arith.constant 0.0 : f32
  %v = memref.load %x[%i] : memref<?xf32>
  %positive = arith.cmpf ogt, %v, %zero : f32
  %r = scf.if %positive -> f32 {
    %d = arith.addf %v, %v : f32
    scf.yield %d : f32
  } else {
    scf.yield %zero : f32
  }
  %s = arith.select %positive, %v, %zero : f32
  memref.store %r, %x[%i] : memref<?xf32>
  memref.store %s, %x[%i] : memref<?xf32>
  return
}
