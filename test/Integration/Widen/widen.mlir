// Loops widened by threadbind-widen-accesses, run on the CPU through the
// gpu.launch emulation, print exactly what the originals print: f32, f16
// into f32, i8 and in-place f64 (4, 4, 16 and 2 elements a vector), a
// dynamic lower bound, a shifted load, a broadcast load with a select, and
// 2-D rows whose starts are aligned only every fourth row. Each 1-D loop
// runs on aligned buffers and on views one element in (the fallback), at
// sizes around the vector, unroll-chunk and grid multiples. Blocks are 32
// threads and the host grants 2 blocks, so a grid stride is 64 lanes.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=32 > %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-widen-accesses=nested-loops > %t.wide.mlir
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.mlir
// RUN: threadbind-opt %t.wide.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide
// RUN: threadbind-opt %t.mapped.mlir -threadbind-widen-accesses="unroll=3 nested-loops" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.unroll
// RUN: diff %t.ref %t.unroll
// RUN: threadbind-opt %t.mapped.mlir -threadbind-widen-accesses="vector-bytes=8 nested-loops" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.eight
// RUN: diff %t.ref %t.eight
// By default the rows, nested in the loop over rows, stay scalar.
// RUN: threadbind-opt %t.mapped.mlir -threadbind-widen-accesses -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default

// Without the check every widened loop must take the vector path, so this
// run proves that path right on its own; the misaligned views, the offset
// accesses and the ragged rows are left out of it, since they would then
// make misaligned vector accesses.
// RUN: sed -e 's/^ *func.call @\(misaligned\|ragged_rows\|offset_cases\).*$//' %s | threadbind-opt %lower_to_cpu | %run_cpu > %t.ref-aligned
// RUN: sed -e 's/^ *func.call @\(misaligned\|ragged_rows\|offset_cases\).*$//' %s | threadbind-opt -threadbind-map-to-gpu=threads-per-block=32 -threadbind-widen-accesses="assume-aligned unroll=2 nested-loops" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.assumed
// RUN: diff %t.ref-aligned %t.assumed

// Cover launches (one guarded iteration a thread) widen too: each thread
// takes one vector, the grid shrinks to a thread a vector, and the peel
// and the elements past the last vector go to the first threads. With the
// guard kept, and with split tails (the guard in the else branch of the
// full-block test); 1-D loops only, so the rows stay scalar.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=32 grid-policy=cover" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-remove-tail-checks=strategy=keep -threadbind-widen-accesses > %t.cover-wide.mlir
// RUN: FileCheck %s --check-prefix=COVER < %t.cover-wide.mlir
// RUN: threadbind-opt %t.cover-wide.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %t.cover.mlir -threadbind-remove-tail-checks=strategy=split -threadbind-widen-accesses="vector-bytes=8 remarks" -threadbind-test-emulate-gpu-launch %lower_to_cpu 2>%t.cover-split.remarks | %run_cpu > %t.cover-split
// RUN: diff %t.ref %t.cover-split
// RUN: FileCheck %s --check-prefix=COVER-REMARKS < %t.cover-split.remarks
// COVER-LABEL: func.func @add_f32
// COVER: %[[VECTORS:.*]] = arith.ceildivui %{{.*}}, %c4
// COVER: %[[BLOCKS:.*]] = arith.ceildivui %[[VECTORS]], %c32
// COVER: gpu.launch
// COVER: vector.load {{.*}} vector<4xf32>
// COVER: vector.store {{.*}} vector<4xf32>
// COVER: } {threadbind.grid_policy = "cover"}
// COVER-LABEL: func.func @xor_i8
// COVER: vector.load {{.*}} vector<16xi8>
// With 8-byte vectors, six of the seven 1-D loops; f64 fills a vector.
// COVER-REMARKS: remark: not widened: its widest element, 8 bytes, fills a 8-byte vector
// COVER-REMARKS-COUNT-6: remark: widened: {{[0-9]+}} elements a vector, 1 vector a thread
// COVER-REMARKS-NOT: remark: widened

// WIDE-LABEL: func.func @add_f32
// WIDE: scf.if
// WIDE: vector.load {{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// WIDE: vector.store {{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// WIDE: } else {
// WIDE-LABEL: func.func @widen_f16
// WIDE: vector.load {{.*}} {alignment = 8 : i64} : memref<?xf16, strided<[1], offset: ?>>, vector<4xf16>
// WIDE: vector.store {{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// WIDE-LABEL: func.func @xor_i8
// WIDE: vector.load {{.*}} vector<16xi8>
// WIDE-LABEL: func.func @axpy_f64
// WIDE: vector.load {{.*}} vector<2xf64>
// WIDE: vector.load {{.*}} vector<2xf64>
// WIDE: vector.store {{.*}} vector<2xf64>
// WIDE-LABEL: func.func @rows
// WIDE: vector.load {{.*}} : memref<?x?xf32>, vector<4xf32>
// WIDE-LABEL: func.func @rows_nested
// WIDE: vector.load {{.*}} : memref<?x?xf32>, vector<4xf32>

!v32 = memref<?xf32, strided<[1], offset: ?>>
!v16 = memref<?xf16, strided<[1], offset: ?>>
!v8 = memref<?xi8, strided<[1], offset: ?>>
!v64 = memref<?xf64, strided<[1], offset: ?>>

// c[i] = a[i] + 2 b[i] + i
func.func @add_f32(%a: !v32, %b: !v32, %c: !v32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : !v32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : !v32
    %y = memref.load %b[%i] : !v32
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %y2 = arith.mulf %y, %two : f32
    %s = arith.addf %x, %y2 : f32
    %t = arith.addf %s, %fi : f32
    memref.store %t, %c[%i] : !v32
  }
  return
}

// y[i] = 3 x[i], f16 in, f32 out
func.func @widen_f16(%x: !v16, %y: !v32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %n = memref.dim %x, %c0 : !v16
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %h = memref.load %x[%i] : !v16
    %f = arith.extf %h : f16 to f32
    %r = arith.mulf %f, %three : f32
    memref.store %r, %y[%i] : !v32
  }
  return
}

// y[i] = x[i] ^ 0x5a
func.func @xor_i8(%x: !v8, %y: !v8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 90 : i8
  %n = memref.dim %x, %c0 : !v8
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : !v8
    %r = arith.xori %v, %k : i8
    memref.store %r, %y[%i] : !v8
  }
  return
}

// y[i] = 0.5 x[i] + y[i], in place
func.func @axpy_f64(%x: !v64, %y: !v64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %n = memref.dim %x, %c0 : !v64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : !v64
    %w = memref.load %y[%i] : !v64
    %p = arith.mulf %v, %half : f64
    %r = arith.addf %p, %w : f64
    memref.store %r, %y[%i] : !v64
  }
  return
}

// c[i] = a[i] + 1 for lb <= i < n: the range starts at a dynamic bound.
func.func @from_lb(%a: !v32, %c: !v32, %lb: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %a, %c0 : !v32
  scf.parallel (%i) = (%lb) to (%n) step (%c1) {
    %x = memref.load %a[%i] : !v32
    %y = arith.addf %x, %one : f32
    memref.store %y, %c[%i] : !v32
  }
  return
}

// c[i] = a[i + 1] for i < n - 1: the load is one element past the store.
func.func @shifted(%a: !v32, %c: !v32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : !v32
  %m = arith.subi %n, %c1 : index
  %m0 = arith.maxsi %m, %c0 : index
  scf.parallel (%i) = (%c0) to (%m0) step (%c1) {
    %j = arith.addi %i, %c1 : index
    %x = memref.load %a[%j] : !v32
    memref.store %x, %c[%i] : !v32
  }
  return
}

// c[i] = a[i] > t ? a[i] : -a[i], t = s[0]
func.func @clamp_sign(%a: !v32, %s: memref<1xf32>, %c: !v32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : !v32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : !v32
    %t = memref.load %s[%c0] : memref<1xf32>
    %gt = arith.cmpf ogt, %x, %t : f32
    %neg = arith.negf %x : f32
    %r = arith.select %gt, %x, %neg : f32
    memref.store %r, %c[%i] : !v32
  }
  return
}

// m[i, j] = 3 m[i, j] + j
func.func @rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %p = arith.mulf %v, %three : f32
    %q = arith.addf %p, %jf : f32
    memref.store %q, %m[%i, %j] : memref<?x?xf32>
  }
  return
}

// The same as nested loops, which the mapping gives a block a row: the
// widened loop is the block's lanes over the row.
func.func @rows_nested(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c) step (%c1) {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %p = arith.mulf %v, %three : f32
      %q = arith.addf %p, %jf : f32
      memref.store %q, %m[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c2 = arith.constant 2 : index
  return %c2 : index
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// printMemref prints an element of an empty memref, which is garbage; an
// empty one prints nothing here.
func.func @print32(%v: !v32) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %v, %c0 : !v32
  %some = arith.cmpi sgt, %n, %c0 : index
  scf.if %some {
    %u = memref.cast %v : !v32 to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}

// Buffers of n + 1 elements, filled with a pattern that depends on `seed`;
// `shift` picks the view from element 0 (aligned) or element 1 (not).
func.func @make32(%n: index, %seed: index, %shift: index) -> !v32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %n1 = arith.addi %n, %c1 : index
  %buf = memref.alloc(%n1) : memref<?xf32>
  scf.for %i = %c0 to %n1 step %c1 {
    %k = arith.muli %i, %seed : index
    %r = arith.remui %k, %c37 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    memref.store %rf, %buf[%i] : memref<?xf32>
  }
  %view = memref.subview %buf[%shift] [%n] [1] : memref<?xf32> to !v32
  return %view : !v32
}

func.func @one_size(%n: index, %shift: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %n1 = arith.addi %n, %c1 : index
  vector.print str "size "
  vector.print %n : index
  vector.print str "shift "
  vector.print %shift : index

  %a = call @make32(%n, %c3, %shift) : (index, index, index) -> !v32
  %b = call @make32(%n, %c5, %shift) : (index, index, index) -> !v32
  %c = call @make32(%n, %c7, %shift) : (index, index, index) -> !v32
  call @add_f32(%a, %b, %c) : (!v32, !v32, !v32) -> ()
  call @print32(%c) : (!v32) -> ()
  func.call @offset_cases(%a, %n, %shift) : (!v32, index, index) -> ()
  %s = memref.alloc() : memref<1xf32>
  %ten = arith.constant 10.0 : f32
  memref.store %ten, %s[%c0] : memref<1xf32>
  %c4v = call @make32(%n, %c7, %shift) : (index, index, index) -> !v32
  call @clamp_sign(%a, %s, %c4v) : (!v32, memref<1xf32>, !v32) -> ()
  call @print32(%c4v) : (!v32) -> ()

  // f16 in, f32 out.
  %hbuf = memref.alloc(%n1) : memref<?xf16>
  scf.for %i = %c0 to %n1 step %c1 {
    %r = arith.remui %i, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f16
    memref.store %rf, %hbuf[%i] : memref<?xf16>
  }
  %h = memref.subview %hbuf[%shift] [%n] [1] : memref<?xf16> to !v16
  %c5v = call @make32(%n, %c7, %shift) : (index, index, index) -> !v32
  call @widen_f16(%h, %c5v) : (!v16, !v32) -> ()
  call @print32(%c5v) : (!v32) -> ()

  // i8.
  %xbuf = memref.alloc(%n1) : memref<?xi8>
  %ybuf = memref.alloc(%n1) : memref<?xi8>
  scf.for %i = %c0 to %n1 step %c1 {
    %ri = arith.index_cast %i : index to i8
    memref.store %ri, %xbuf[%i] : memref<?xi8>
    memref.store %ri, %ybuf[%i] : memref<?xi8>
  }
  %x8 = memref.subview %xbuf[%shift] [%n] [1] : memref<?xi8> to !v8
  %y8 = memref.subview %ybuf[%shift] [%n] [1] : memref<?xi8> to !v8
  call @xor_i8(%x8, %y8) : (!v8, !v8) -> ()
  // f64, in place.
  %dx = memref.alloc(%n1) : memref<?xf64>
  %dy = memref.alloc(%n1) : memref<?xf64>
  scf.for %i = %c0 to %n1 step %c1 {
    %ri = arith.index_cast %i : index to i32
    %rf = arith.sitofp %ri : i32 to f64
    memref.store %rf, %dx[%i] : memref<?xf64>
    memref.store %rf, %dy[%i] : memref<?xf64>
  }
  %x64 = memref.subview %dx[%shift] [%n] [1] : memref<?xf64> to !v64
  %y64 = memref.subview %dy[%shift] [%n] [1] : memref<?xf64> to !v64
  call @axpy_f64(%x64, %y64) : (!v64, !v64) -> ()
  // Printed widened to i32: printMemrefI8 prints characters.
  %y32 = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %y8[%i] : !v8
    %w = arith.extsi %v : i8 to i32
    memref.store %w, %y32[%i] : memref<?xi32>
  }
  %some = arith.cmpi sgt, %n, %c0 : index
  scf.if %some {
    %y32u = memref.cast %y32 : memref<?xi32> to memref<*xi32>
    func.call @printMemrefI32(%y32u) : (memref<*xi32>) -> ()
    %y64u = memref.cast %y64 : !v64 to memref<*xf64>
    func.call @printMemrefF64(%y64u) : (memref<*xf64>) -> ()
  }

  return
}

// Accesses that start 3 elements and 1 element in: never aligned.
func.func @offset_cases(%a: !v32, %n: index, %shift: index) {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c2 = call @make32(%n, %c7, %shift) : (index, index, index) -> !v32
  call @from_lb(%a, %c2, %c3) : (!v32, !v32, index) -> ()
  call @print32(%c2) : (!v32) -> ()
  %c3v = call @make32(%n, %c7, %shift) : (index, index, index) -> !v32
  call @shifted(%a, %c3v) : (!v32, !v32) -> ()
  call @print32(%c3v) : (!v32) -> ()
  return
}

func.func @aligned(%n: index) {
  %c0 = arith.constant 0 : index
  call @one_size(%n, %c0) : (index, index) -> ()
  return
}

func.func @misaligned(%n: index) {
  %c1 = arith.constant 1 : index
  call @one_size(%n, %c1) : (index, index) -> ()
  return
}

func.func @rows_of(%r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%r, %c) : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %k = arith.muli %i, %c : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %lf = arith.sitofp %li : i32 to f32
      memref.store %lf, %m[%i, %j] : memref<?x?xf32>
    }
  }
  call @rows(%m) : (memref<?x?xf32>) -> ()
  %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @rows_nested(%m) : (memref<?x?xf32>) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %sizes = arith.constant dense<[0, 1, 3, 4, 5, 255, 256, 257, 771, 1029]> : vector<10xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %k = %c0 to %c10 step %c1 {
    %n = vector.extract %sizes[%k] : index from vector<10xindex>
    func.call @aligned(%n) : (index) -> ()
    func.call @misaligned(%n) : (index) -> ()
  }
  func.call @ragged_rows() : () -> ()
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  call @rows_of(%c5, %c8) : (index, index) -> ()
  return
}

// Rows whose lengths are not a multiple of 4: only some start aligned.
func.func @ragged_rows() {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  call @rows_of(%c3, %c7) : (index, index) -> ()
  call @rows_of(%c3, %c33) : (index, index) -> ()
  return
}

// Size 5, aligned: the f32 sum, then the i8 xor, spot-checked by hand.
// CHECK: size 5
// CHECK-NEXT: shift 0
// CHECK: [0,  14,  28,  42,  56]
// CHECK: [90,  91,  88,  89,  94]
// Rows of 7: m[i, j] = 3 (7 i + j) + j.
// CHECK: [0,   4,   8,   12,   16,   20,   24],
// CHECK-NEXT: [21,   25,   29,   33,   37,   41,   45],
