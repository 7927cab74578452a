// Predicated kernels, run on the CPU through the gpu.launch emulation,
// print what the originals print: ReLU with work, nested clamp, abs, two
// stores to one address, speculated loads, an integer max, and the branches
// that stay (a uniform flag, a large side, a lone store). The input holds a
// NaN, which the min/max forms must pass on as the branches did. Sizes 0,
// 1, 33 and 1000.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 -threadbind-predicate-divergent-branches > %t.pred.mlir
// RUN: FileCheck %s --check-prefix=PRED < %t.pred.mlir
// RUN: threadbind-opt %t.pred.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 -threadbind-predicate-divergent-branches=exact-signed-zeros -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.exact
// RUN: diff %t.ref %t.exact

// PRED-LABEL: func.func @relu
// PRED: gpu.launch
// PRED-NOT: scf.if
// PRED: arith.maxnumf
// PRED: gpu.terminator
// PRED-LABEL: func.func @clamp
// PRED: gpu.launch
// PRED-NOT: scf.if
// PRED: gpu.terminator
// PRED-LABEL: func.func @abs
// PRED: math.absf
// PRED-LABEL: func.func @both_store
// PRED: gpu.launch
// PRED-NOT: scf.if
// PRED: gpu.terminator
// PRED-LABEL: func.func @loads
// PRED: gpu.launch
// PRED-NOT: scf.if
// PRED: gpu.terminator
// PRED-LABEL: func.func @int_max
// PRED: arith.maxsi
// PRED-LABEL: func.func @kept
// PRED: gpu.launch
// PRED: scf.if %{{.*}} -> (f32)
// PRED: scf.if %{{.*}} -> (f32)
// PRED: scf.if
// PRED-NEXT: memref.store
// PRED: gpu.terminator

// y = (2x > 0) ? 2x : 0
func.func @relu(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %m = arith.mulf %v, %two : f32
    %positive = arith.cmpf ogt, %m, %zero : f32
    %r = scf.if %positive -> f32 {
      scf.yield %m : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// y = x < lo ? lo : (x > hi ? hi : x)
func.func @clamp(%x: memref<?xf32>, %y: memref<?xf32>, %lo: f32, %hi: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %below = arith.cmpf olt, %v, %lo : f32
    %r = scf.if %below -> f32 {
      scf.yield %lo : f32
    } else {
      %above = arith.cmpf ogt, %v, %hi : f32
      %t = scf.if %above -> f32 {
        scf.yield %hi : f32
      } else {
        scf.yield %v : f32
      }
      scf.yield %t : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// y = x < 0 ? -x : x
func.func @abs(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %negative = arith.cmpf olt, %v, %zero : f32
    %r = scf.if %negative -> f32 {
      %m = arith.negf %v : f32
      scf.yield %m : f32
    } else {
      scf.yield %v : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// if x > 0 { y = x * 2 } else { y = x + 1 }, a store on each side
func.func @both_store(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    scf.if %positive {
      %d = arith.mulf %v, %two : f32
      memref.store %d, %y[%i] : memref<?xf32>
    } else {
      %p = arith.addf %v, %one : f32
      memref.store %p, %y[%i] : memref<?xf32>
    }
  }
  return
}

// y = x > 0 ? y + x : w[1] - x, loads of y[i] and w[1] speculated
func.func @loads(%x: memref<?xf32>, %y: memref<?xf32>, %w: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    %r = scf.if %positive -> f32 {
      %old = memref.load %y[%i] : memref<?xf32>
      %s = arith.addf %old, %v : f32
      scf.yield %s : f32
    } else {
      %k = memref.load %w[%c1] : memref<2xf32>
      %d = arith.subf %k, %v : f32
      scf.yield %d : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// k = k > m ? k : m, on integers
func.func @int_max(%k: memref<?xi32>, %m: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %k, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %k[%i] : memref<?xi32>
    %greater = arith.cmpi sgt, %v, %m : i32
    %r = scf.if %greater -> i32 {
      scf.yield %v : i32
    } else {
      scf.yield %m : i32
    }
    memref.store %r, %k[%i] : memref<?xi32>
  }
  return
}

// Branches that stay: on a uniform flag, with a side of 8 operations, and a
// store on one side only.
func.func @kept(%x: memref<?xf32>, %y: memref<?xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 0.5 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %u = scf.if %flag -> f32 {
      %d = arith.mulf %v, %a : f32
      scf.yield %d : f32
    } else {
      %p = arith.addf %v, %a : f32
      scf.yield %p : f32
    }
    %positive = arith.cmpf ogt, %u, %zero : f32
    %r = scf.if %positive -> f32 {
      %0 = arith.mulf %u, %a : f32
      %1 = arith.addf %0, %a : f32
      %2 = arith.mulf %1, %a : f32
      %3 = arith.addf %2, %a : f32
      %4 = arith.mulf %3, %a : f32
      %5 = arith.addf %4, %a : f32
      %6 = arith.mulf %5, %a : f32
      %7 = arith.addf %6, %a : f32
      scf.yield %7 : f32
    } else {
      scf.yield %u : f32
    }
    memref.store %r, %y[%i] : memref<?xf32>
    %negative = arith.cmpf olt, %v, %zero : f32
    scf.if %negative {
      memref.store %zero, %y[%i] : memref<?xf32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

// printMemref* shows an uninitialised element for a 0-size memref, so an
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

func.func @showi(%u: memref<*xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %empty = arith.cmpi eq, %n, %c0 : index
  scf.if %empty {
    vector.print str "empty\n"
  } else {
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  }
  return
}

// x[i] = (i * 7 mod 11) - 5 + 0.25, except x[3] = NaN (a positive quiet
// NaN, so abs prints it the same either way); y[i] = i; k[i] = i * 5 mod 9 - 4.
func.func @fill(%x: memref<?xf32>, %y: memref<?xf32>, %k: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c7 = arith.constant 7 : i64
  %c9 = arith.constant 9 : i64
  %c11 = arith.constant 11 : i64
  %quarter = arith.constant 0.25 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %m = arith.muli %ii, %c7 : i64
    %r = arith.remsi %m, %c11 : i64
    %s = arith.subi %r, %c5 : i64
    %f = arith.sitofp %s : i64 to f32
    %v = arith.addf %f, %quarter : f32
    %is3 = arith.cmpi eq, %i, %c3 : index
    %xv = arith.select %is3, %nan, %v : f32
    memref.store %xv, %x[%i] : memref<?xf32>
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %y[%i] : memref<?xf32>
    %km = arith.muli %ii, %c5 : i64
    %kr = arith.remsi %km, %c9 : i64
    %ks = arith.subi %kr, %c4 : i64
    %kv = arith.trunci %ks : i64 to i32
    memref.store %kv, %k[%i] : memref<?xi32>
  }
  return
}

func.func @check(%n: index) {
  %lo = arith.constant -2.0 : f32
  %hi = arith.constant 3.0 : f32
  %w0 = arith.constant 10.0 : f32
  %w1 = arith.constant 20.0 : f32
  %m = arith.constant 1 : i32
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  %k = memref.alloc(%n) : memref<?xi32>
  %w = memref.alloc() : memref<2xf32>
  memref.store %w0, %w[%c0] : memref<2xf32>
  memref.store %w1, %w[%c1] : memref<2xf32>
  %u = memref.cast %y : memref<?xf32> to memref<*xf32>
  %ku = memref.cast %k : memref<?xi32> to memref<*xi32>
  call @fill(%x, %y, %k) : (memref<?xf32>, memref<?xf32>, memref<?xi32>) -> ()
  call @relu(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @clamp(%x, %y, %lo, %hi) : (memref<?xf32>, memref<?xf32>, f32, f32) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @abs(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @both_store(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @fill(%x, %y, %k) : (memref<?xf32>, memref<?xf32>, memref<?xi32>) -> ()
  call @loads(%x, %y, %w) : (memref<?xf32>, memref<?xf32>, memref<2xf32>) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @int_max(%k, %m) : (memref<?xi32>, i32) -> ()
  call @showi(%ku, %n) : (memref<*xi32>, index) -> ()
  call @kept(%x, %y, %true) : (memref<?xf32>, memref<?xf32>, i1) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  call @kept(%x, %y, %false) : (memref<?xf32>, memref<?xf32>, i1) -> ()
  call @show(%u, %n) : (memref<*xf32>, index) -> ()
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  memref.dealloc %k : memref<?xi32>
  memref.dealloc %w : memref<2xf32>
  return
}

// n = 5, x = [-4.75, 2.25, -1.75, nan, 1.25]: relu of 2x, clamp to
// [-2, 3], abs, the two stores, the speculated loads (y = i before), the
// integer max with 1 (k = [-4, 1, -3, 2, -2]), then the kept branches. A NaN
// compares false, so relu gives 0 and clamp passes it on.
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  4.5,  0,  0,  2.5]
// CHECK: sizes = [5]
// CHECK-NEXT: [-2,  2.25,  -1.75,  nan,  1.25]
// CHECK: sizes = [5]
// CHECK-NEXT: [4.75,  2.25,  1.75,  nan,  1.25]
// CHECK: sizes = [5]
// CHECK-NEXT: [-3.75,  4.5,  -0.75,  nan,  2.5]
// CHECK: sizes = [5]
// CHECK-NEXT: [24.75,  3.25,  21.75,  nan,  5.25]
// CHECK: sizes = [5]
// CHECK-NEXT: [1,  1,  1,  2,  1]
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  1.00781,  0,  nan,  0.976562]
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  1.10938,  0,  nan,  1.04688]
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
