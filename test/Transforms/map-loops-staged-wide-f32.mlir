// Staged layout changes of f32 in 4-D nests get a second launch, run where
// the host finds every row aligned to 16 bytes: 32x32 tiles, four elements
// a thread an access on both sides. Checked in CPU emulation against the
// original: NCHW->NHWC and back with H*W rows that a thread's chunk
// crosses (W = 3), with ragged tiles (C = H*W = 36), with pointers 4 bytes
// off 16 (every chunk one element at a time), and at odd sizes (the launch
// of one element a thread). A mutant that reads every phase 2 vector from
// the start of its tile row must change the result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: sed -e 's/\(vector.load %arg[0-9]*\[%[0-9a-z_]*\), %[0-9a-z_]*\]\( {alignment = 16 : i64} : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>\)/\1, %c0]\2/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARKS: remark: bound to gpu.launch through workgroup memory: {{.*}} 32x32 tiles {{.*}}; where the host finds every row aligned to 16 bytes, 4 elements a thread an access in blocks of 32x8 instead
// REMARKS: remark: bound to gpu.launch through workgroup memory: {{.*}} 32x32 tiles {{.*}}; where the host finds every row aligned to 16 bytes, 4 elements a thread an access in blocks of 32x8 instead

// CHECK-LABEL: func.func @nchw_to_nhwc(
// CHECK:         scf.if
// CHECK:         gpu.launch {{.*}} workgroup(%[[WIDE:.*]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           vector.load %arg0{{.*}} vector<4xf32>
// CHECK:           gpu.barrier
// CHECK:           vector.load %[[WIDE]]{{.*}} vector<4xf32>
// CHECK:           vector.store %{{.*}}, %arg1{{.*}} vector<4xf32>
// CHECK:         } else {
// CHECK:         workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>)

// OUT-COUNT-5: nchw_to_nhwc
// OUT-COUNT-5: nhwc_to_nchw

!t4 = memref<?x?x?x?xf32>

// out[n][h][w][c] = in[n][c][h][w] * 2
func.func @nchw_to_nhwc(%in: !t4, %out: !t4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %in, %c0 : !t4
  %c = memref.dim %in, %c1 : !t4
  %h = memref.dim %in, %c2 : !t4
  %w = memref.dim %in, %c3 : !t4
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ic, %ih, %iw] : !t4
    %d = arith.mulf %v, %two : f32
    memref.store %d, %out[%i0, %ih, %iw, %ic] : !t4
  }
  return
}

// out[n][c][h][w] = in[n][h][w][c] * 2
func.func @nhwc_to_nchw(%in: !t4, %out: !t4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %in, %c0 : !t4
  %h = memref.dim %in, %c1 : !t4
  %w = memref.dim %in, %c2 : !t4
  %c = memref.dim %in, %c3 : !t4
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ih, %iw, %ic] : !t4
    %d = arith.mulf %v, %two : f32
    memref.store %d, %out[%i0, %ic, %ih, %iw] : !t4
  }
  return
}

// An a x b x c x d f32 array in a byte buffer, its aligned pointer `shift`
// bytes past the allocation's; element x (linear) = x mod 1009 + x / 1009.
func.func @make(%a: index, %b: index, %c: index, %d: index, %shift: index,
                %fill: i1) -> (memref<?xi8>, !t4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1009 = arith.constant 1009 : index
  %ab = arith.muli %a, %b : index
  %abc = arith.muli %ab, %c : index
  %all = arith.muli %abc, %d : index
  %bytes0 = arith.muli %all, %c4 : index
  %bytes = arith.addi %bytes0, %shift : index
  %buf = memref.alloc(%bytes) : memref<?xi8>
  %v = memref.view %buf[%shift][%a, %b, %c, %d] : memref<?xi8> to !t4
  %flat = memref.view %buf[%shift][%all] : memref<?xi8> to memref<?xf32>
  scf.for %x = %c0 to %all step %c1 {
    %lo = arith.remui %x, %c1009 : index
    %hi = arith.divui %x, %c1009 : index
    %s = arith.addi %lo, %hi : index
    %si = arith.index_cast %s : index to i64
    %f = arith.sitofp %si : i64 to f32
    %z = arith.constant 0.0 : f32
    %e = arith.select %fill, %f, %z : f32
    memref.store %e, %flat[%x] : memref<?xf32>
  }
  return %buf, %v : memref<?xi8>, !t4
}

// Sum of the output's (integer) elements weighted by (1 + linear index),
// in i64, so that any element out of place shows.
func.func @run(%nchw: i1, %n: index, %c: index, %h: index, %w: index,
               %shift: index) {
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a1 = arith.select %nchw, %c, %h : index
  %a2 = arith.select %nchw, %h, %w : index
  %a3 = arith.select %nchw, %w, %c : index
  %b1 = arith.select %nchw, %h, %c : index
  %b2 = arith.select %nchw, %w, %h : index
  %b3 = arith.select %nchw, %c, %w : index
  %inBuf, %in = call @make(%n, %a1, %a2, %a3, %shift, %true) : (index, index, index, index, index, i1) -> (memref<?xi8>, !t4)
  %outBuf, %out = call @make(%n, %b1, %b2, %b3, %shift, %false) : (index, index, index, index, index, i1) -> (memref<?xi8>, !t4)
  scf.if %nchw {
    func.call @nchw_to_nhwc(%in, %out) : (!t4, !t4) -> ()
    vector.print str "nchw_to_nhwc "
  } else {
    func.call @nhwc_to_nchw(%in, %out) : (!t4, !t4) -> ()
    vector.print str "nhwc_to_nchw "
  }
  %nb = arith.muli %n, %b1 : index
  %nbc = arith.muli %nb, %b2 : index
  %all = arith.muli %nbc, %b3 : index
  %flat = memref.view %outBuf[%shift][%all] : memref<?xi8> to memref<?xf32>
  %zero = arith.constant 0 : i64
  %s = scf.for %x = %c0 to %all step %c1 iter_args(%r = %zero) -> i64 {
    %e = memref.load %flat[%x] : memref<?xf32>
    %ei = arith.fptosi %e : f32 to i64
    %x1 = arith.addi %x, %c1 : index
    %xi = arith.index_cast %x1 : index to i64
    %p = arith.muli %ei, %xi : i64
    %acc = arith.addi %r, %p : i64
    scf.yield %acc : i64
  }
  vector.print %s : i64
  memref.dealloc %inBuf : memref<?xi8>
  memref.dealloc %outBuf : memref<?xi8>
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  %c36 = arith.constant 36 : index
  %c40 = arith.constant 40 : index
  // (nchw, n, c, h, w, pointer shift)
  call @run(%true, %c2, %c32, %c4, %c3, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%true, %c1, %c36, %c6, %c6, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%true, %c2, %c32, %c4, %c3, %c4) : (i1, index, index, index, index, index) -> ()
  call @run(%true, %c3, %c33, %c5, %c7, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%true, %c1, %c40, %c2, %c6, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%false, %c2, %c32, %c4, %c3, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%false, %c1, %c36, %c6, %c6, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%false, %c2, %c32, %c4, %c3, %c4) : (i1, index, index, index, index, index) -> ()
  call @run(%false, %c3, %c33, %c5, %c7, %c0) : (i1, index, index, index, index, index) -> ()
  call @run(%false, %c1, %c40, %c2, %c6, %c0) : (i1, index, index, index, index, index) -> ()
  return
}
