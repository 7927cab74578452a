// A loop left to one thread (a combiner region on f64, which no mapping
// takes) whose bounds sit near the ends of the index type. Upstream's
// lowering of scf.parallel steps iv += step while iv < ub, which wraps
// negative past INT64_MAX and never ends; ThreadBind counts the loop's
// iterations instead, as its mapped loops do. The original cannot run on
// the CPU, so the runs are checked against the sums written out below.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu 2>/dev/null > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" 2>/dev/null | threadbind-opt -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s

// x[k] = k + 1, so the sum of |x[k]| over the first n is n (n + 1) / 2.
// Four iterations: -2^62 - 2, -2, 2^62 - 2, 2^63 - 2; the next would be
// past INT64_MAX.
// CHECK: static 10
// CHECK: passed 10
// Three rows of two iterations each: -2^63 + 5 + {0, 2^63 - 1}.
// CHECK: rows 21
// An empty range stays empty.
// CHECK: empty 0

// The loops count from 0 to their trip count, iv rebuilt from it (the
// reduction passes linearised the rows first).
// MAPPED-LABEL: func.func @static_far
// MAPPED: gpu.launch
// MAPPED: scf.parallel (%[[J:.*]]) = (%c0{{.*}}) to (%c4{{.*}}) step (%c1{{.*}})
// MAPPED: arith.muli %[[J]], %c4611686018427387904
// MAPPED-LABEL: func.func @passed_far
// MAPPED: arith.ceildivui
// MAPPED: scf.parallel (%[[J:.*]]) = (%c0{{.*}}) to
// MAPPED: arith.muli %[[J]], %arg4
// MAPPED-LABEL: func.func @rows_far
// MAPPED: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c6{{.*}}) step (%c1{{.*}})

func.func @static_far(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %lb = arith.constant -4611686018427387906 : index
  %ub = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%zero) -> f64 {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    %v = memref.load %x[%k] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %aa = math.absf %a : f64
      %bb = math.absf %b : f64
      %s = arith.addf %aa, %bb : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @passed_far(%x: memref<?xf64>, %out: memref<1xf64>, %lb: index,
                      %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%zero) -> f64 {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    %v = memref.load %x[%k] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %aa = math.absf %a : f64
      %bb = math.absf %b : f64
      %s = arith.addf %aa, %bb : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

// Rows r in [0, 3), two iterations j each; element 2 r + j.
func.func @rows_far(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %lb = arith.constant -9223372036854775803 : index
  %ub = arith.constant 9223372036854775807 : index
  %step = arith.constant 9223372036854775807 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%row, %i) = (%c0, %lb) to (%c3, %ub) step (%c1, %step)
      init (%zero) -> f64 {
    %d = arith.subi %i, %lb : index
    %j = arith.divui %d, %step : index
    %base = arith.muli %row, %c2 : index
    %k = arith.addi %base, %j : index
    %v = memref.load %x[%k] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %aa = math.absf %a : f64
      %bb = math.absf %b : f64
      %s = arith.addf %aa, %bb : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %x = memref.alloc(%c8) : memref<?xf64>
  scf.for %i = %c0 to %c8 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i64
    %f = arith.sitofp %ii : i64 to f64
    memref.store %f, %x[%i] : memref<?xf64>
  }
  %out = memref.alloc() : memref<1xf64>

  call @static_far(%x, %out) : (memref<?xf64>, memref<1xf64>) -> ()
  %a = memref.load %out[%c0] : memref<1xf64>
  vector.print str "static "
  vector.print %a : f64

  %lb = arith.constant -4611686018427387906 : index
  %ub = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  call @passed_far(%x, %out, %lb, %ub, %step)
      : (memref<?xf64>, memref<1xf64>, index, index, index) -> ()
  %b = memref.load %out[%c0] : memref<1xf64>
  vector.print str "passed "
  vector.print %b : f64

  call @rows_far(%x, %out) : (memref<?xf64>, memref<1xf64>) -> ()
  %c = memref.load %out[%c0] : memref<1xf64>
  vector.print str "rows "
  vector.print %c : f64

  %min = arith.constant -9223372036854775808 : index
  call @passed_far(%x, %out, %ub, %min, %step)
      : (memref<?xf64>, memref<1xf64>, index, index, index) -> ()
  %e = memref.load %out[%c0] : memref<1xf64>
  vector.print str "empty "
  vector.print %e : f64
  return
}
