// threadbind-narrow-indices bounds a loop's start through a select (the
// range of both choices) and counts a loop in i32 by its upper bound and
// step alone: a counter is incremented only while below the upper bound,
// so a start that may lie past it (and near 2^31) adds nothing. Both loops
// below are counted in i32 and run in CPU emulation as the launch as it
// was does, at 0x0, 1x1, 5x40 and 3x1000; a mutant whose narrowed inner
// loop drops its step's scaling must change the sums.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-narrow-indices=remarks 2>%t.remarks > %t.mlir
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: sed -e 's/scf.for \(%[a-z0-9_]*\) = \(%[a-z0-9_]*\) to \(%[a-z0-9_]*\) step %[a-z0-9_]*  : i32/scf.for \1 = \2 to \3 step %c1_i32  : i32/' %t.mlir > %t.mutant.mlir
// RUN: not diff -q %t.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARKS: remark: 32-bit index copy: 2 loop(s) counted
// REMARKS: remark: 32-bit index copy: 2 loop(s) counted

// CHECK-LABEL: func.func @shifted_start(
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} : i32 {
// CHECK:             scf.for %{{.*}} : i32 {
// CHECK-LABEL: func.func @start_past_end(
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} : i32 {
// CHECK:             scf.for %{{.*}} : i32 {

// OUT-COUNT-4: sums

// Thread x of 4 blocks of 32 adds one to m[r][x - 1] of each row, a
// jump of 128 later where x - 1 is negative (every column once).
func.func @shifted_start(%m: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %rows = memref.dim %m, %c0 : memref<?x?xi32>
  %cols = memref.dim %m, %c1 : memref<?x?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %first = arith.addi %base, %tx : index
    %jump = arith.muli %gx, %sx : index
    %early = arith.cmpi ult, %first, %c1 : index
    %back = arith.subi %jump, %c1 : index
    %late = arith.addi %first, %back : index
    %shifted = arith.subi %first, %c1 : index
    %start = arith.select %early, %late, %shifted : index
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %j = %start to %cols step %jump {
        %v = memref.load %m[%r, %j] : memref<?x?xi32>
        %w = arith.addi %v, %one : i32
        memref.store %w, %m[%r, %j] : memref<?x?xi32>
      }
    }
    gpu.terminator
  }
  return
}

// From column cols + rows / 2 + x by max(cols, 1): always at or past the
// end, so no thread adds anything; the start may reach 3 * 2^29 + 127,
// which a step of up to 2^30 would carry past 2^31 had the loop run.
func.func @start_past_end(%m: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %rows = memref.dim %m, %c0 : memref<?x?xi32>
  %cols = memref.dim %m, %c1 : memref<?x?xi32>
  %half = arith.divui %rows, %c2 : index
  %from = arith.addi %cols, %half : index
  %step = arith.maxsi %cols, %c1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %first = arith.addi %base, %tx : index
    %start = arith.addi %from, %first : index
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %j = %start to %cols step %step {
        %v = memref.load %m[%r, %j] : memref<?x?xi32>
        %w = arith.addi %v, %one : i32
        memref.store %w, %m[%r, %j] : memref<?x?xi32>
      }
    }
    gpu.terminator
  }
  return
}

// sum of m[r][c] * (c mod 5 + r + 1), after m = 0, shifted_start twice
// and start_past_end once.
func.func @run(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i32
  %zero64 = arith.constant 0 : i64
  %m = memref.alloc(%rows, %cols) : memref<?x?xi32>
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %c = %c0 to %cols step %c1 {
      memref.store %zero, %m[%r, %c] : memref<?x?xi32>
    }
  }
  call @shifted_start(%m) : (memref<?x?xi32>) -> ()
  call @shifted_start(%m) : (memref<?x?xi32>) -> ()
  call @start_past_end(%m) : (memref<?x?xi32>) -> ()
  %s = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %zero64) -> i64 {
    %t = scf.for %c = %c0 to %cols step %c1 iter_args(%u = %acc) -> i64 {
      %v = memref.load %m[%r, %c] : memref<?x?xi32>
      %w = arith.extsi %v : i32 to i64
      %k0 = arith.remui %c, %c5 : index
      %k1 = arith.addi %k0, %r : index
      %k = arith.addi %k1, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %p = arith.muli %w, %ki : i64
      %q = arith.addi %u, %p : i64
      scf.yield %q : i64
    }
    scf.yield %t : i64
  }
  vector.print str "sums "
  vector.print %s : i64
  memref.dealloc %m : memref<?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c40 = arith.constant 40 : index
  %c1000 = arith.constant 1000 : index
  call @run(%c0, %c0) : (index, index) -> ()
  call @run(%c1, %c1) : (index, index) -> ()
  call @run(%c5, %c40) : (index, index) -> ()
  call @run(%c3, %c1000) : (index, index) -> ()
  return
}
