// Nests whose loads and stores walk memory contiguously along different
// loop dimensions run through tiles of workgroup memory (32x32 for 4-byte
// elements and wider; see map-loops-staged-packed.mlir): read along
// one dimension, a barrier, written along the other. Checked in CPU
// emulation against the original at empty, one-element, ragged (31, 33,
// 1000x777) and strided sizes, for a transpose, a transposed add that
// also reads an array in the stores' order, an NCHW->NHWC layout change of
// i8, and a 3-D permutation of i16 over a loop with offsets and steps;
// under the default options (32x8 blocks, 4 rows a thread; 32x2 and 16 for
// the 3-D permutation), 32-thread blocks (32 rows a thread), and with the
// staging turned off. A mutation of the tile's indices (phase 2 reading
// the tile as phase 1 wrote it, untransposed) must change the result.
// The f32 transpose (a 2-D nest of one 4-byte staged load) has a second
// launch, of 64x64 tiles and two elements a thread an access, which the
// host runs where every row is aligned to 8 bytes (even strides: 2x2,
// 98x34, 64x130); its own launch (odd strides) has 128x32 tiles, 128
// positions along the stores' dimension, each thread storing 4 elements
// 32 apart in phase 2; vector-bytes=4 leaves only that one. The same
// mutation of the 64x64 launch must change the result too, and so must
// phase 1 of the 128x32 launch filling only 64 of its tile's rows.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=32" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: threadbind-opt %s -threadbind-map-to-gpu="stage-transposes=false" > %t.direct.mlir
// RUN: FileCheck %s --check-prefix=DIRECT < %t.direct.mlir
// RUN: threadbind-opt %t.direct.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.direct
// RUN: diff %t.ref %t.direct
// RUN: sed -e 's/\(memref.load %arg[0-9]*\[\)\(%arg[0-9]*\), \(%[0-9a-z_]*\)\] : memref<128x33xf32, #gpu.address_space<workgroup>>/\1\3, \2] : memref<128x33xf32, #gpu.address_space<workgroup>>/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant
// RUN: sed -e 's/\(memref.load %arg[0-9]*\[\)\(%[0-9a-z_]*\), \(%[0-9a-z_]*\)\] : memref<64x65xf32, #gpu.address_space<workgroup>>/\1\3, \2] : memref<64x65xf32, #gpu.address_space<workgroup>>/' %t.default.mlir > %t.mutant2.mlir
// RUN: not diff -q %t.default.mlir %t.mutant2.mlir
// RUN: threadbind-opt %t.mutant2.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant2
// RUN: not diff -q %t.ref %t.mutant2
// RUN: sed -e 's/to %c128 step %c64 {/to %c64 step %c64 {/' %t.default.mlir > %t.mutant3.mlir
// RUN: not diff -q %t.default.mlir %t.mutant3.mlir
// RUN: threadbind-opt %t.mutant3.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant3
// RUN: not diff -q %t.ref %t.mutant3
// RUN: threadbind-opt %s -threadbind-map-to-gpu="vector-bytes=4" > %t.narrow.mlir
// RUN: FileCheck %s --check-prefix=NARROW < %t.narrow.mlir
// RUN: threadbind-opt %t.narrow.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow

// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 0, so 128x32 tiles (positions along the stores' dimension by the loads') are read along one and written along the other; where the host finds every row aligned, 64x64 tiles of 2 elements a thread an access in blocks of 32x8 instead (vector-bytes=4 keeps one); block 32x8x1, one tile a block
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 0
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 1 contiguously and 1 load dimension 3
// REMARKS: remark: bound to gpu.launch through workgroup memory: the stores walk loop dimension 2 contiguously and 1 load dimension 0

// CHECK-LABEL: func.func @transpose(
// CHECK:         memref.extract_strided_metadata %arg0
// CHECK:         arith.remsi %{{.*}}, %c2 : index
// CHECK:         scf.if
// CHECK-NEXT:      arith.maxsi
// CHECK:           gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[WIDE:.*]] : memref<64x65xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-8:     vector.load %arg0{{.*}} vector<2xf32>
// CHECK:             gpu.barrier
// CHECK:             vector.store %{{.*}}, %arg1{{.*}} vector<2xf32>
// CHECK:         } else {
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[TILE:.*]] : memref<128x33xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for {{.*}} = %c0 to %c128 step %c64
// CHECK:           %[[V:.*]] = scf.if
// CHECK-NEXT:        memref.load %arg0
// CHECK:           memref.store %[[V]], %[[TILE]]
// CHECK:           gpu.barrier
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c8
// CHECK-COUNT-4:     memref.store %{{.*}}, %arg1
// CHECK:         } {threadbind.grid_policy = "cover"}
// The transposed add stages only the transposed read; %c is read directly.
// CHECK-LABEL: func.func @transpose_add(
// CHECK:         workgroup(%[[T:.*]] : memref<32x33xf64, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[T]]
// CHECK-NEXT:    memref.load %arg2
// CHECK-LABEL: func.func @nchw_to_nhwc(
// CHECK:         workgroup(%{{.*}} : memref<128x128xi8, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @permute3(
// CHECK:         workgroup(%{{.*}} : memref<32x33xi16, #gpu.address_space<workgroup>>)
// DIRECT-NOT:    workgroup(
// NARROW-LABEL:  func.func @transpose(
// NARROW-NOT:    64x65xf32
// NARROW:        memref<128x33xf32
// NARROW-NOT:    64x65xf32
// NARROW-LABEL:  func.func @transpose_add(

// OUT-COUNT-10: transpose
// OUT-COUNT-3: transpose_add
// OUT-COUNT-3: nchw_to_nhwc
// OUT: permute3

func.func @transpose(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %b, %c0 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @transpose_add(%a: memref<?x?xf64>, %b: memref<?x?xf64>,
                         %c: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %b, %c0 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf64>
    %y = memref.load %c[%i, %j] : memref<?x?xf64>
    %s = arith.addf %x, %y : f64
    memref.store %s, %b[%i, %j] : memref<?x?xf64>
  }
  return
}

// out[n][h][w][c] = in[n][c][h][w]
func.func @nchw_to_nhwc(%in: memref<?x?x?x?xi8>, %out: memref<?x?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xi8>
  %c = memref.dim %in, %c1 : memref<?x?x?x?xi8>
  %h = memref.dim %in, %c2 : memref<?x?x?x?xi8>
  %w = memref.dim %in, %c3 : memref<?x?x?x?xi8>
  scf.parallel (%in0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%in0, %ic, %ih, %iw] : memref<?x?x?x?xi8>
    memref.store %v, %out[%in0, %ih, %iw, %ic] : memref<?x?x?x?xi8>
  }
  return
}

// out[k][i][j] = in[j][k][i] + 1 over i = 1, 3, ..., j = 0..n, k = 2, 5, ...:
// offsets and steps in the loop, the innermost written index j.
func.func @permute3(%in: memref<?x?x?xi16>, %out: memref<?x?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i16
  %ni = memref.dim %out, %c1 : memref<?x?x?xi16>
  %nj = memref.dim %out, %c2 : memref<?x?x?xi16>
  %nk = memref.dim %out, %c0 : memref<?x?x?xi16>
  scf.parallel (%i, %k, %j) = (%c1, %c2, %c0) to (%ni, %nk, %nj) step (%c2, %c3, %c1) {
    %v = memref.load %in[%j, %k, %i] : memref<?x?x?xi16>
    %w = arith.addi %v, %one : i16
    memref.store %w, %out[%k, %i, %j] : memref<?x?x?xi16>
  }
  return
}

// A checksum of a 2-D array that any misplaced element changes:
// sum of a[i][j] * (1 + i + 1000 * j) in f64.
func.func @checksum2(%a: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  %thousand = arith.constant 1000.0 : f64
  %onef = arith.constant 1.0 : f64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> f64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %ii = arith.index_cast %i : index to i64
      %ji = arith.index_cast %j : index to i64
      %if = arith.sitofp %ii : i64 to f64
      %jf = arith.sitofp %ji : i64 to f64
      %wj = arith.mulf %jf, %thousand : f64
      %w0 = arith.addf %if, %wj : f64
      %w = arith.addf %w0, %onef : f64
      %p = arith.mulf %v, %w : f64
      %r = arith.addf %acc2, %p : f64
      scf.yield %r : f64
    }
    scf.yield %t : f64
  }
  return %s : f64
}

// a[i][j] = i * 131 + j * 7 (mod 1009), as f64.
func.func @fill2(%a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c1009 = arith.constant 1009 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c1009 : index
      %ri = arith.index_cast %r : index to i64
      %rf = arith.sitofp %ri : i64 to f64
      memref.store %rf, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @run_transpose(%m: index, %n: index) {
  %a64 = memref.alloc(%n, %m) : memref<?x?xf64>
  %b64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%n, %m) : memref<?x?xf32>
  %b = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill2(%a64) : (memref<?x?xf64>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %a64[%i, %j] : memref<?x?xf64>
      %f = arith.truncf %v : f64 to f32
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
    }
  }
  call @transpose(%a, %b) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %b[%i, %j] : memref<?x?xf32>
      %d = arith.extf %v : f32 to f64
      memref.store %d, %b64[%i, %j] : memref<?x?xf64>
    }
  }
  %s = call @checksum2(%b64) : (memref<?x?xf64>) -> f64
  %si = arith.fptosi %s : f64 to i64
  vector.print str "transpose "
  vector.print %si : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  return
}

func.func @run_transpose_add(%m: index, %n: index) {
  %a = memref.alloc(%n, %m) : memref<?x?xf64>
  %b = memref.alloc(%m, %n) : memref<?x?xf64>
  %c = memref.alloc(%m, %n) : memref<?x?xf64>
  call @fill2(%a) : (memref<?x?xf64>) -> ()
  call @fill2(%c) : (memref<?x?xf64>) -> ()
  call @transpose_add(%a, %b, %c) : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  %s = call @checksum2(%b) : (memref<?x?xf64>) -> f64
  %si = arith.fptosi %s : f64 to i64
  vector.print str "transpose_add "
  vector.print %si : i64
  memref.dealloc %a : memref<?x?xf64>
  memref.dealloc %b : memref<?x?xf64>
  memref.dealloc %c : memref<?x?xf64>
  return
}

func.func @run_nchw(%n: index, %c: index, %h: index, %w: index) {
  %in = memref.alloc(%n, %c, %h, %w) : memref<?x?x?x?xi8>
  %out = memref.alloc(%n, %h, %w, %c) : memref<?x?x?x?xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %a = %c0 to %n step %c1 {
    scf.for %b = %c0 to %c step %c1 {
      scf.for %d = %c0 to %h step %c1 {
        scf.for %e = %c0 to %w step %c1 {
          %x = arith.muli %a, %c : index
          %y = arith.addi %x, %b : index
          %y2 = arith.muli %y, %h : index
          %y3 = arith.addi %y2, %d : index
          %y4 = arith.muli %y3, %w : index
          %y5 = arith.addi %y4, %e : index
          %v = arith.index_cast %y5 : index to i8
          memref.store %v, %in[%a, %b, %d, %e] : memref<?x?x?x?xi8>
        }
      }
    }
  }
  call @nchw_to_nhwc(%in, %out) : (memref<?x?x?x?xi8>, memref<?x?x?x?xi8>) -> ()
  // Checksum: sum of out[a][d][e][b] * (1 + a + 3 d + 17 e + 101 b), in i64.
  %zero = arith.constant 0 : i64
  %s = scf.for %a = %c0 to %n step %c1 iter_args(%s0 = %zero) -> i64 {
    %s1 = scf.for %d = %c0 to %h step %c1 iter_args(%t0 = %s0) -> i64 {
      %s2 = scf.for %e = %c0 to %w step %c1 iter_args(%u0 = %t0) -> i64 {
        %s3 = scf.for %b = %c0 to %c step %c1 iter_args(%v0 = %u0) -> i64 {
          %v = memref.load %out[%a, %d, %e, %b] : memref<?x?x?x?xi8>
          %vi = arith.extsi %v : i8 to i64
          %c3i = arith.constant 3 : index
          %c17 = arith.constant 17 : index
          %c101 = arith.constant 101 : index
          %p1 = arith.muli %d, %c3i : index
          %p2 = arith.muli %e, %c17 : index
          %p3 = arith.muli %b, %c101 : index
          %q1 = arith.addi %a, %p1 : index
          %q2 = arith.addi %q1, %p2 : index
          %q3 = arith.addi %q2, %p3 : index
          %q4 = arith.addi %q3, %c1 : index
          %qi = arith.index_cast %q4 : index to i64
          %r = arith.muli %vi, %qi : i64
          %acc = arith.addi %v0, %r : i64
          scf.yield %acc : i64
        }
        scf.yield %s3 : i64
      }
      scf.yield %s2 : i64
    }
    scf.yield %s1 : i64
  }
  vector.print str "nchw_to_nhwc "
  vector.print %s : i64
  memref.dealloc %in : memref<?x?x?x?xi8>
  memref.dealloc %out : memref<?x?x?x?xi8>
  return
}

func.func @run_permute3(%nk: index, %ni: index, %nj: index) {
  // in is [nj][nk][ni], out [nk][ni][nj]; out starts at 0.
  %in = memref.alloc(%nj, %nk, %ni) : memref<?x?x?xi16>
  %out = memref.alloc(%nk, %ni, %nj) : memref<?x?x?xi16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i16
  scf.for %a = %c0 to %nj step %c1 {
    scf.for %b = %c0 to %nk step %c1 {
      scf.for %d = %c0 to %ni step %c1 {
        %x = arith.muli %a, %nk : index
        %y = arith.addi %x, %b : index
        %y2 = arith.muli %y, %ni : index
        %y3 = arith.addi %y2, %d : index
        %v = arith.index_cast %y3 : index to i16
        memref.store %v, %in[%a, %b, %d] : memref<?x?x?xi16>
        memref.store %z, %out[%b, %d, %a] : memref<?x?x?xi16>
      }
    }
  }
  call @permute3(%in, %out) : (memref<?x?x?xi16>, memref<?x?x?xi16>) -> ()
  %zero = arith.constant 0 : i64
  %s = scf.for %a = %c0 to %nk step %c1 iter_args(%s0 = %zero) -> i64 {
    %s1 = scf.for %b = %c0 to %ni step %c1 iter_args(%t0 = %s0) -> i64 {
      %s2 = scf.for %d = %c0 to %nj step %c1 iter_args(%u0 = %t0) -> i64 {
        %v = memref.load %out[%a, %b, %d] : memref<?x?x?xi16>
        %vi = arith.extsi %v : i16 to i64
        %c5 = arith.constant 5 : index
        %c77 = arith.constant 77 : index
        %p1 = arith.muli %b, %c5 : index
        %p2 = arith.muli %d, %c77 : index
        %q1 = arith.addi %a, %p1 : index
        %q2 = arith.addi %q1, %p2 : index
        %q3 = arith.addi %q2, %c1 : index
        %qi = arith.index_cast %q3 : index to i64
        %r = arith.muli %vi, %qi : i64
        %acc = arith.addi %u0, %r : i64
        scf.yield %acc : i64
      }
      scf.yield %s2 : i64
    }
    scf.yield %s1 : i64
  }
  vector.print str "permute3 "
  vector.print %s : i64
  memref.dealloc %in : memref<?x?x?xi16>
  memref.dealloc %out : memref<?x?x?xi16>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c40 = arith.constant 40 : index
  %c45 = arith.constant 45 : index
  %c70 = arith.constant 70 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run_transpose(%c0, %c5) : (index, index) -> ()
  call @run_transpose(%c1, %c1) : (index, index) -> ()
  call @run_transpose(%c31, %c33) : (index, index) -> ()
  call @run_transpose(%c33, %c31) : (index, index) -> ()
  call @run_transpose(%c1000, %c777) : (index, index) -> ()
  // 128 + 1 rows of S: one whole 128x32 tile and one of a single row.
  %c129 = arith.constant 129 : index
  %c257 = arith.constant 257 : index
  call @run_transpose(%c257, %c129) : (index, index) -> ()
  call @run_transpose(%c129, %c257) : (index, index) -> ()
  %c34 = arith.constant 34 : index
  %c64 = arith.constant 64 : index
  %c98 = arith.constant 98 : index
  %c130 = arith.constant 130 : index
  call @run_transpose(%c2, %c2) : (index, index) -> ()
  call @run_transpose(%c98, %c34) : (index, index) -> ()
  call @run_transpose(%c64, %c130) : (index, index) -> ()
  call @run_transpose_add(%c1, %c1) : (index, index) -> ()
  call @run_transpose_add(%c33, %c70) : (index, index) -> ()
  call @run_transpose_add(%c777, %c45) : (index, index) -> ()
  call @run_nchw(%c2, %c3, %c5, %c7) : (index, index, index, index) -> ()
  call @run_nchw(%c0, %c3, %c5, %c7) : (index, index, index, index) -> ()
  call @run_nchw(%c2, %c33, %c4, %c40) : (index, index, index, index) -> ()
  call @run_permute3(%c7, %c70, %c40) : (index, index, index) -> ()
  return
}
