// Staged permutations of 1- and 2-byte elements move 4 bytes a thread an
// access (128x128 tiles of i8, 64x64 of i16; a thread transposes 4x4 or
// 2x2 blocks in registers between them), and an axis of the tile walks
// two loop dimensions as one where the next memref dimension out follows
// the contiguous one (NCHW's h and w). Whether a thread's elements are
// inside the loop, contiguous and aligned is checked at run time, with one
// element at a time as the fallback. Checked in CPU emulation against the
// original: NCHW->NHWC and back at ragged sizes (rows of 7 crossed by a
// thread's 4 elements, contiguous), at whole vectors, empty, and through
// views whose rows are padded and whose first element is off alignment
// (every vector falls back); an i16 transpose at 0, 1, 31x33 and 1000x777;
// an i8 -> f32 transposed dequantisation with two stores of different
// widths. The views' parents are summed whole, so a write outside a view
// shows. Four mutants must change the result: one swaps two elements of
// each stored vector (which includes the vectors phase 1 transposes into
// the tile), one reads a loaded vector's second element for its first, one
// reads phase 2's vectors from the tile without the swizzle phase 1 stored
// them with, one reads the 16-byte launch's phase 2 vectors all from the
// start of their tile row.
//
// The launch of 16-byte accesses (elements of one width, rows whose
// starts are multiples of 16 bytes, or whose chunks run on from row to
// row) runs NCHW<->NHWC at whole and several tiles with rows of 12 that
// chunks cross, i16 transposes, and an i8 transpose through views whose
// rows end ragged, whose pointers are off 16 bytes (every chunk one
// element at a time), and at whole tiles.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=128" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: threadbind-opt %s -threadbind-map-to-gpu="vector-bytes=0" > %t.scalar.mlir
// RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar.mlir
// RUN: threadbind-opt %t.scalar.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.scalar
// RUN: diff %t.ref %t.scalar
// RUN: sed -e 's/vector.from_elements \(%[0-9a-z_]*\), \(%[0-9a-z_]*\),/vector.from_elements \2, \1,/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant
// RUN: sed -e 's/vector.extract \(%[0-9a-z_]*\)\[0\]/vector.extract \1[1]/' %t.default.mlir > %t.mutant2.mlir
// RUN: not diff -q %t.default.mlir %t.mutant2.mlir
// RUN: threadbind-opt %t.mutant2.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant2
// RUN: not diff -q %t.ref %t.mutant2
// RUN: sed -e 's/arith.xori %arg5, %[0-9a-z_]* : index/arith.ori %arg5, %arg5 : index/' %t.default.mlir > %t.mutant3.mlir
// RUN: not diff -q %t.default.mlir %t.mutant3.mlir
// RUN: threadbind-opt %t.mutant3.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant3
// RUN: not diff -q %t.ref %t.mutant3
// RUN: sed -e 's/\(vector.load %arg[0-9]*\[%[0-9a-z_]*\), %[0-9a-z_]*\]\( {alignment = 16 : i64} : memref<128x128xi8, #gpu.address_space<workgroup>>, vector<16xi8>\)/\1, %c0]\2/' %t.default.mlir > %t.mutant4.mlir
// RUN: not diff -q %t.default.mlir %t.mutant4.mlir
// RUN: threadbind-opt %t.mutant4.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant4
// RUN: not diff -q %t.ref %t.mutant4

// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 3, so 128x128 tiles are read along one and written along the other; dimensions 2 and 3 walked as one; 4 elements a thread an access where contiguous and aligned (vector-bytes=0 moves one); where the host finds every row aligned to 16 bytes, 16 elements a thread an access in blocks of 32x8 instead (vector-bytes=8 keeps 4 bytes); block 32x4x1
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 3 contiguously and 1 load dimension 1, so 128x128 tiles are read along one and written along the other; dimensions 2 and 3 walked as one; 4 elements a thread an access{{.*}}; where the host finds every row aligned to 16 bytes, 16 elements
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 0, so 64x64 tiles are read along one and written along the other; 2 elements a thread an access{{.*}}; where the host finds every row aligned to 16 bytes, 8 elements
// The stores of two widths keep 4 bytes a thread an access.
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 0, so 128x128 tiles are read along one and written along the other; 4 elements a thread an access where contiguous and aligned (vector-bytes=0 moves one); block 32x4x1
// REMARKS: remark: bound to gpu.launch through workgroup memory: {{.*}} 128x128 tiles {{.*}}; where the host finds every row aligned to 16 bytes, 16 elements

// The host picks the launch of 16-byte accesses where the rows allow: a
// thread loads a 4x16 block, stores it transposed as 16 words of 4 rows'
// bytes, and after the barrier moves 16 bytes of a tile row.
// CHECK-LABEL: func.func @nchw_to_nhwc(
// CHECK:         scf.if
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[WIDE:.*]] : memref<128x128xi8, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4:   vector.load %arg0{{.*}} vector<16xi8>
// CHECK-NOT:       vector.load
// CHECK-COUNT-16:  vector.store %{{.*}}, %[[WIDE]]{{.*}} vector<4xi8>
// CHECK:           gpu.barrier
// CHECK:           vector.load %[[WIDE]]{{.*}} vector<16xi8>
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<16xi8>
// CHECK:         } else {
// CHECK:         workgroup(%[[TILE:.*]] : memref<128x128xi8, #gpu.address_space<workgroup>>)
// A thread loads 8 of its rows before it stores any into the tile, and
// stores them as two transposed 4x4 blocks, each a vector an L point.
// CHECK-COUNT-8:   vector.load %arg0{{.*}} vector<4xi8>
// CHECK-NOT:       vector.load
// CHECK-COUNT-8:   vector.store %{{.*}}, %[[TILE]]{{.*}} vector<4xi8>
// CHECK-NOT:       memref.store %{{.*}}, %[[TILE]]
// CHECK:           gpu.barrier
// CHECK:           vector.load %[[TILE]]{{.*}} vector<4xi8>
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<4xi8>
// CHECK-LABEL: func.func @nhwc_to_nchw(
// CHECK:         workgroup(%{{.*}} : memref<128x128xi8, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @transpose_i16(
// CHECK:         workgroup(%[[W16:.*]] : memref<64x64xi16, #gpu.address_space<workgroup>>)
// CHECK:           vector.load %arg0{{.*}} vector<8xi16>
// CHECK:           vector.store %{{.*}}, %[[W16]]{{.*}} vector<2xi16>
// CHECK:           vector.load %[[W16]]{{.*}} vector<8xi16>
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<8xi16>
// CHECK:         workgroup(%[[T16:.*]] : memref<64x64xi16, #gpu.address_space<workgroup>>)
// CHECK:           vector.load %arg0{{.*}} vector<2xi16>
// CHECK:           vector.store %{{.*}}, %[[T16]]{{.*}} vector<2xi16>
// CHECK:           vector.load %[[T16]]{{.*}} vector<2xi16>
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<2xi16>
// CHECK-LABEL: func.func @dequantize_t(
// CHECK-NOT:     vector<16xi8>
// CHECK:         workgroup(%{{.*}} : memref<128x128xi8, #gpu.address_space<workgroup>>)
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<4xf32>
// CHECK:           vector.store %{{.*}}, %arg2{{.*}} vector<4xi8>
// CHECK-LABEL: func.func @transpose_i8(
// CHECK:         scf.if
// CHECK:           vector.load %arg0{{.*}} vector<16xi8>
// SCALAR:        memref<32x33xi8, #gpu.address_space<workgroup>>
// SCALAR-NOT:    vector.load

// OUT-COUNT-4: nchw_to_nhwc
// OUT-COUNT-3: nhwc_to_nchw
// OUT-COUNT-4: transpose_i16
// OUT-COUNT-2: dequantize_t
// OUT-COUNT-2: nchw_to_nhwc
// OUT-COUNT-2: nhwc_to_nchw
// OUT-COUNT-2: transpose_i16
// OUT-COUNT-4: transpose_i8

!v4 = memref<?x?x?x?xi8, strided<[?, ?, ?, 1], offset: ?>>

// out[n][h][w][c] = in[n][c][h][w]
func.func @nchw_to_nhwc(%in: !v4, %out: !v4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : !v4
  %c = memref.dim %in, %c1 : !v4
  %h = memref.dim %in, %c2 : !v4
  %w = memref.dim %in, %c3 : !v4
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ic, %ih, %iw] : !v4
    memref.store %v, %out[%i0, %ih, %iw, %ic] : !v4
  }
  return
}

// out[n][c][h][w] = in[n][h][w][c]
func.func @nhwc_to_nchw(%in: !v4, %out: !v4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : !v4
  %h = memref.dim %in, %c1 : !v4
  %w = memref.dim %in, %c2 : !v4
  %c = memref.dim %in, %c3 : !v4
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ih, %iw, %ic] : !v4
    memref.store %v, %out[%i0, %ic, %ih, %iw] : !v4
  }
  return
}

func.func @transpose_i16(%a: memref<?x?xi16>, %b: memref<?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %b, %c0 : memref<?x?xi16>
  %n = memref.dim %b, %c1 : memref<?x?xi16>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xi16>
    memref.store %x, %b[%i, %j] : memref<?x?xi16>
  }
  return
}

// f[i][j] = a[j][i] / 2 as f32, q[i][j] = a[j][i] + 1 as i8.
func.func @dequantize_t(%a: memref<?x?xi8>, %f: memref<?x?xf32>,
                        %q: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1 : i8
  %m = memref.dim %f, %c0 : memref<?x?xf32>
  %n = memref.dim %f, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xi8>
    %xf = arith.sitofp %x : i8 to f32
    %y = arith.mulf %xf, %half : f32
    memref.store %y, %f[%i, %j] : memref<?x?xf32>
    %z = arith.addi %x, %one : i8
    memref.store %z, %q[%i, %j] : memref<?x?xi8>
  }
  return
}

!s2 = memref<?x?xi8, strided<[?, 1], offset: ?>>

// b[i][j] = a[j][i] + 3
func.func @transpose_i8(%a: !s2, %b: !s2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i8
  %m = memref.dim %b, %c0 : !s2
  %n = memref.dim %b, %c1 : !s2
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : !s2
    %y = arith.addi %x, %three : i8
    memref.store %y, %b[%i, %j] : !s2
  }
  return
}

// ---- Host helpers, left on the host by the map (no scf.parallel). ----

// v[a][b][c][d] = x * 7 + (x / 251) * 5 + 3 as i8, for the linear index
// x = ((a * B + b) * C + c) * D + d: elements 256 apart differ too.
func.func @fill4(%v: !v4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c251 = arith.constant 251 : index
  %s0 = memref.dim %v, %c0 : !v4
  %s1 = memref.dim %v, %c1 : !v4
  %s2 = memref.dim %v, %c2 : !v4
  %s3 = memref.dim %v, %c3 : !v4
  scf.for %a = %c0 to %s0 step %c1 {
    scf.for %b = %c0 to %s1 step %c1 {
      scf.for %c = %c0 to %s2 step %c1 {
        scf.for %d = %c0 to %s3 step %c1 {
          %x = arith.muli %a, %s1 : index
          %x1 = arith.addi %x, %b : index
          %x2 = arith.muli %x1, %s2 : index
          %x3 = arith.addi %x2, %c : index
          %x4 = arith.muli %x3, %s3 : index
          %x5 = arith.addi %x4, %d : index
          %x6 = arith.muli %x5, %c7 : index
          %x7 = arith.addi %x6, %c3 : index
          %hi = arith.divui %x5, %c251 : index
          %hi5 = arith.muli %hi, %c5 : index
          %x8 = arith.addi %x7, %hi5 : index
          %e = arith.index_cast %x8 : index to i8
          memref.store %e, %v[%a, %b, %c, %d] : !v4
        }
      }
    }
  }
  return
}

// Sum of v[a][b][c][d] * (1 + a + 3 b + 17 c + 101 d), in i64.
func.func @sum4(%v: !v4) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c17 = arith.constant 17 : index
  %c101 = arith.constant 101 : index
  %zero = arith.constant 0 : i64
  %s0 = memref.dim %v, %c0 : !v4
  %s1 = memref.dim %v, %c1 : !v4
  %s2 = memref.dim %v, %c2 : !v4
  %s3 = memref.dim %v, %c3 : !v4
  %r = scf.for %a = %c0 to %s0 step %c1 iter_args(%r0 = %zero) -> i64 {
    %ra = scf.for %b = %c0 to %s1 step %c1 iter_args(%r1 = %r0) -> i64 {
      %rb = scf.for %c = %c0 to %s2 step %c1 iter_args(%r2 = %r1) -> i64 {
        %rc = scf.for %d = %c0 to %s3 step %c1 iter_args(%r3 = %r2) -> i64 {
          %e = memref.load %v[%a, %b, %c, %d] : !v4
          %ei = arith.extsi %e : i8 to i64
          %p1 = arith.muli %b, %c3 : index
          %p2 = arith.muli %c, %c17 : index
          %p3 = arith.muli %d, %c101 : index
          %q1 = arith.addi %a, %p1 : index
          %q2 = arith.addi %q1, %p2 : index
          %q3 = arith.addi %q2, %p3 : index
          %q4 = arith.addi %q3, %c1 : index
          %qi = arith.index_cast %q4 : index to i64
          %t = arith.muli %ei, %qi : i64
          %acc = arith.addi %r3, %t : i64
          scf.yield %acc : i64
        }
        scf.yield %rc : i64
      }
      scf.yield %rb : i64
    }
    scf.yield %ra : i64
  }
  return %r : i64
}

func.func @zero4(%v: !v4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0 : i8
  %s0 = memref.dim %v, %c0 : !v4
  %s1 = memref.dim %v, %c1 : !v4
  %s2 = memref.dim %v, %c2 : !v4
  %s3 = memref.dim %v, %c3 : !v4
  scf.for %a = %c0 to %s0 step %c1 {
    scf.for %b = %c0 to %s1 step %c1 {
      scf.for %c = %c0 to %s2 step %c1 {
        scf.for %d = %c0 to %s3 step %c1 {
          memref.store %z, %v[%a, %b, %c, %d] : !v4
        }
      }
    }
  }
  return
}

// NCHW (n, c, h, w) -> NHWC with both arrays whole, or (padded) as views
// at [0, 1, 1, 1] of arrays one larger in c, two in h and w: their rows
// are not contiguous and their first element is off 4 bytes.
func.func @run_layout(%nchw: i1, %padded: i1, %n: index, %c: index,
                      %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = arith.select %padded, %c2, %c0 : index
  %q = arith.select %padded, %c1, %c0 : index
  %cp = arith.addi %c, %q : index
  %hp = arith.addi %h, %p : index
  %wp = arith.addi %w, %p : index
  // Layouts as (dims of in), (dims of out).
  %a1 = arith.select %nchw, %cp, %hp : index
  %a2 = arith.select %nchw, %hp, %wp : index
  %a3 = arith.select %nchw, %wp, %cp : index
  %b1 = arith.select %nchw, %hp, %cp : index
  %b2 = arith.select %nchw, %wp, %hp : index
  %b3 = arith.select %nchw, %cp, %wp : index
  %inBuf = memref.alloc(%n, %a1, %a2, %a3) : memref<?x?x?x?xi8>
  %outBuf = memref.alloc(%n, %b1, %b2, %b3) : memref<?x?x?x?xi8>
  %inAll = memref.cast %inBuf : memref<?x?x?x?xi8> to !v4
  %outAll = memref.cast %outBuf : memref<?x?x?x?xi8> to !v4
  call @fill4(%inAll) : (!v4) -> ()
  call @zero4(%outAll) : (!v4) -> ()
  %e1 = arith.select %nchw, %c, %h : index
  %e2 = arith.select %nchw, %h, %w : index
  %e3 = arith.select %nchw, %w, %c : index
  %f1 = arith.select %nchw, %h, %c : index
  %f2 = arith.select %nchw, %w, %h : index
  %f3 = arith.select %nchw, %c, %w : index
  %in = memref.subview %inAll[0, %q, %q, %q] [%n, %e1, %e2, %e3] [1, 1, 1, 1] : !v4 to !v4
  %out = memref.subview %outAll[0, %q, %q, %q] [%n, %f1, %f2, %f3] [1, 1, 1, 1] : !v4 to !v4
  scf.if %nchw {
    func.call @nchw_to_nhwc(%in, %out) : (!v4, !v4) -> ()
    vector.print str "nchw_to_nhwc "
  } else {
    func.call @nhwc_to_nchw(%in, %out) : (!v4, !v4) -> ()
    vector.print str "nhwc_to_nchw "
  }
  %s = call @sum4(%out) : (!v4) -> i64
  %t = call @sum4(%outAll) : (!v4) -> i64
  vector.print %s : i64
  vector.print %t : i64
  memref.dealloc %inBuf : memref<?x?x?x?xi8>
  memref.dealloc %outBuf : memref<?x?x?x?xi8>
  return
}

// Sum of b[i][j] * (1 + i + 1000 j) over an integer array, in i64.
func.func @run_transpose_i16(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %c1000 = arith.constant 1000 : index
  %a = memref.alloc(%n, %m) : memref<?x?xi16>
  %b = memref.alloc(%m, %n) : memref<?x?xi16>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = arith.muli %i, %m : index
      %y = arith.addi %x, %j : index
      %z = arith.muli %y, %c31 : index
      %e = arith.index_cast %z : index to i16
      memref.store %e, %a[%i, %j] : memref<?x?xi16>
    }
  }
  call @transpose_i16(%a, %b) : (memref<?x?xi16>, memref<?x?xi16>) -> ()
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%r = %zero) -> i64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%r2 = %r) -> i64 {
      %e = memref.load %b[%i, %j] : memref<?x?xi16>
      %ei = arith.extsi %e : i16 to i64
      %w0 = arith.muli %j, %c1000 : index
      %w1 = arith.addi %w0, %i : index
      %w2 = arith.addi %w1, %c1 : index
      %wi = arith.index_cast %w2 : index to i64
      %p = arith.muli %ei, %wi : i64
      %acc = arith.addi %r2, %p : i64
      scf.yield %acc : i64
    }
    scf.yield %t : i64
  }
  vector.print str "transpose_i16 "
  vector.print %s : i64
  memref.dealloc %a : memref<?x?xi16>
  memref.dealloc %b : memref<?x?xi16>
  return
}

// transpose_i8 from an n x m view of rows `pa` bytes apart into an m x n
// view of rows `pb` apart, both in byte buffers whose aligned pointers are
// `shift` bytes past an allocation's; b's buffer is summed whole.
func.func @run_transpose_i8(%m: index, %n: index, %pa: index, %pb: index,
                            %shift: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c251 = arith.constant 251 : index
  %c1000 = arith.constant 1000 : index
  %la = arith.muli %n, %pa : index
  %lb = arith.muli %m, %pb : index
  %sa = arith.addi %la, %shift : index
  %sb = arith.addi %lb, %shift : index
  %bufA = memref.alloc(%sa) : memref<?xi8>
  %bufB = memref.alloc(%sb) : memref<?xi8>
  %va = memref.view %bufA[%shift][%n, %pa] : memref<?xi8> to memref<?x?xi8>
  %vb = memref.view %bufB[%shift][%m, %pb] : memref<?xi8> to memref<?x?xi8>
  %z = arith.constant 0 : i8
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %pa step %c1 {
      %x = arith.muli %i, %pa : index
      %y = arith.addi %x, %j : index
      %w = arith.muli %y, %c13 : index
      %hi = arith.divui %y, %c251 : index
      %w2 = arith.addi %w, %hi : index
      %e = arith.index_cast %w2 : index to i8
      memref.store %e, %va[%i, %j] : memref<?x?xi8>
    }
  }
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %pb step %c1 {
      memref.store %z, %vb[%i, %j] : memref<?x?xi8>
    }
  }
  %sva = memref.subview %va[0, 0] [%n, %m] [1, 1] : memref<?x?xi8> to memref<?x?xi8, strided<[?, 1]>>
  %svb = memref.subview %vb[0, 0] [%m, %n] [1, 1] : memref<?x?xi8> to memref<?x?xi8, strided<[?, 1]>>
  %a = memref.cast %sva : memref<?x?xi8, strided<[?, 1]>> to !s2
  %b = memref.cast %svb : memref<?x?xi8, strided<[?, 1]>> to !s2
  call @transpose_i8(%a, %b) : (!s2, !s2) -> ()
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%r = %zero) -> i64 {
    %t = scf.for %j = %c0 to %pb step %c1 iter_args(%r2 = %r) -> i64 {
      %e = memref.load %vb[%i, %j] : memref<?x?xi8>
      %ei = arith.extsi %e : i8 to i64
      %w0 = arith.muli %j, %c1000 : index
      %w1 = arith.addi %w0, %i : index
      %w2 = arith.addi %w1, %c1 : index
      %wi = arith.index_cast %w2 : index to i64
      %p = arith.muli %ei, %wi : i64
      %acc = arith.addi %r2, %p : i64
      scf.yield %acc : i64
    }
    scf.yield %t : i64
  }
  vector.print str "transpose_i8 "
  vector.print %s : i64
  memref.dealloc %bufA : memref<?xi8>
  memref.dealloc %bufB : memref<?xi8>
  return
}

func.func @run_dequantize_t(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c1000 = arith.constant 1000 : index
  %a = memref.alloc(%n, %m) : memref<?x?xi8>
  %f = memref.alloc(%m, %n) : memref<?x?xf32>
  %q = memref.alloc(%m, %n) : memref<?x?xi8>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = arith.muli %i, %m : index
      %y = arith.addi %x, %j : index
      %z = arith.muli %y, %c13 : index
      %e = arith.index_cast %z : index to i8
      memref.store %e, %a[%i, %j] : memref<?x?xi8>
    }
  }
  call @dequantize_t(%a, %f, %q) : (memref<?x?xi8>, memref<?x?xf32>, memref<?x?xi8>) -> ()
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%r = %zero) -> i64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%r2 = %r) -> i64 {
      %ef = memref.load %f[%i, %j] : memref<?x?xf32>
      %eq = memref.load %q[%i, %j] : memref<?x?xi8>
      %two = arith.constant 2.0 : f32
      %e2 = arith.mulf %ef, %two : f32
      %ei = arith.fptosi %e2 : f32 to i64
      %qi = arith.extsi %eq : i8 to i64
      %hundred = arith.constant 100 : i64
      %qh = arith.muli %qi, %hundred : i64
      %v = arith.addi %ei, %qh : i64
      %w0 = arith.muli %j, %c1000 : index
      %w1 = arith.addi %w0, %i : index
      %w2 = arith.addi %w1, %c1 : index
      %wi = arith.index_cast %w2 : index to i64
      %p = arith.muli %v, %wi : i64
      %acc = arith.addi %r2, %p : i64
      scf.yield %acc : i64
    }
    scf.yield %t : i64
  }
  vector.print str "dequantize_t "
  vector.print %s : i64
  memref.dealloc %a : memref<?x?xi8>
  memref.dealloc %f : memref<?x?xf32>
  memref.dealloc %q : memref<?x?xi8>
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c64 = arith.constant 64 : index
  %c70 = arith.constant 70 : index
  %c130 = arith.constant 130 : index
  %c257 = arith.constant 257 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c100 = arith.constant 100 : index
  %c112 = arith.constant 112 : index
  %c136 = arith.constant 136 : index
  %c144 = arith.constant 144 : index
  %c160 = arith.constant 160 : index
  // (nchw, padded, n, c, h, w)
  call @run_layout(%true, %false, %c2, %c3, %c5, %c7) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%true, %false, %c1, %c130, %c3, %c64) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%true, %false, %c0, %c3, %c5, %c7) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%true, %true, %c2, %c130, %c3, %c7) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%false, %false, %c2, %c3, %c5, %c7) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%false, %false, %c1, %c64, %c3, %c130) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%false, %true, %c2, %c130, %c3, %c7) : (i1, i1, index, index, index, index) -> ()
  call @run_transpose_i16(%c0, %c5) : (index, index) -> ()
  call @run_transpose_i16(%c1, %c1) : (index, index) -> ()
  call @run_transpose_i16(%c31, %c33) : (index, index) -> ()
  call @run_transpose_i16(%c1000, %c777) : (index, index) -> ()
  call @run_dequantize_t(%c33, %c70) : (index, index) -> ()
  call @run_dequantize_t(%c130, %c257) : (index, index) -> ()
  // Sizes whose rows allow 16-byte accesses (C and H*W multiples of 16):
  // rows of 12 crossed by a chunk (H*W contiguous), several tiles.
  call @run_layout(%true, %false, %c2, %c32, %c4, %c12) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%true, %false, %c1, %c144, %c10, %c16) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%false, %false, %c2, %c32, %c4, %c12) : (i1, i1, index, index, index, index) -> ()
  call @run_layout(%false, %false, %c1, %c144, %c10, %c16) : (i1, i1, index, index, index, index) -> ()
  call @run_transpose_i16(%c64, %c24) : (index, index) -> ()
  call @run_transpose_i16(%c40, %c136) : (index, index) -> ()
  // (m, n, row pitch of a, of b, pointer shift): rows aligned to 16 bytes
  // with ragged ends (the last chunk of a row one element at a time);
  // the same with pointers 4 bytes off 16 (every chunk so); whole tiles;
  // odd pitches (the launch of 4-byte accesses).
  call @run_transpose_i8(%c100, %c48, %c112, %c64, %c0) : (index, index, index, index, index) -> ()
  call @run_transpose_i8(%c100, %c48, %c112, %c64, %c4) : (index, index, index, index, index) -> ()
  call @run_transpose_i8(%c160, %c144, %c160, %c144, %c0) : (index, index, index, index, index) -> ()
  call @run_transpose_i8(%c33, %c31, %c33, %c31, %c0) : (index, index, index, index, index) -> ()
  return
}
