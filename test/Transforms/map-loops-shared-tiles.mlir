// Register-tiled nests whose tiles fill the device run their k loop
// through workgroup memory: every 8 steps of k the block reads its tile's
// rows of each row-only load and columns of each column-only load once,
// waits at a barrier, runs the 8 steps from the tiles, and waits again; the
// steps left over read memory. Checked in CPU emulation against the
// original, the barriers emulated, at empty, one-element, ragged and
// 1000x777 sizes with k below, at and past multiples of 8: PolyBench's gemm
// (f32, k innermost in A, along the columns in B); a product with B read
// transposed (B's tile k innermost and padded);
// an i32 product with A read transposed (A's tile k outermost); an f64 loop
// over every other k of a strided view (8x4 outputs a thread). Under the
// default options with every size shared, with the device holding 64, 1000
// and 5000 blocks (sizes then take the large or the smaller shared tiles,
// 8x8, 4x4 or 2x2 a thread, the 4x2 tiles or a thread an output), with 64, 128
// and 512 threads a block, and with shared-tiles off. Two mutations (the
// first barrier of the large tiles' kernel, then of the small ones', which
// read each stage ahead, removed, so threads read tiles others have not
// written) must change the result. The checksums hash the outputs' bits in integer
// arithmetic, so that any rounding difference shows.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.shared
// RUN: diff %t.ref %t.shared
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=64" %lower_to_cpu | %run_cpu > %t.mixed
// RUN: diff %t.ref %t.mixed
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1000" %lower_to_cpu | %run_cpu > %t.small-tiles
// RUN: diff %t.ref %t.small-tiles
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=5000" %lower_to_cpu | %run_cpu > %t.smallest-tiles
// RUN: diff %t.ref %t.smallest-tiles
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.64
// RUN: diff %t.ref %t.64
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=128" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.128
// RUN: diff %t.ref %t.128
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=512" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.512
// RUN: diff %t.ref %t.512
// RUN: threadbind-opt %s -threadbind-map-to-gpu="shared-tiles=false" > %t.off.mlir
// RUN: FileCheck %s --check-prefix=OFF < %t.off.mlir
// RUN: threadbind-opt %t.off.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.off
// RUN: diff %t.ref %t.off
// RUN: %python %S/Inputs/mutate-shared-tile.py 1 < %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant
// RUN: %python %S/Inputs/mutate-shared-tile.py 3 < %t.default.mlir > %t.mutant-small.mlir
// RUN: threadbind-opt %t.mutant-small.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1000" %lower_to_cpu | %run_cpu > %t.mutant-small
// RUN: not diff -q %t.ref %t.mutant-small

// REMARKS-COUNT-3: remark: bound to gpu.launch with register tiles: {{.*}} where a block for every 8 the device holds has a shared tile, the k loop runs through workgroup memory, 8 steps at a time, each thread computing 8x8 outputs, or 4x4 or 2x2 where only tiles of those give a block for every 8 (shared-tiles=false keeps it in registers)
// REMARKS: each thread computing 8x4 outputs, or 4x2 or 2x1 where only tiles of those give a block for every 8

// gemm: A's tile 64 rows x 8 steps (k innermost, as in memory), B's 8 steps
// x 256 columns.
// CHECK-LABEL: func.func @gemm(
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[A:.*]] : memref<64x8xf32, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<8x256xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (f32, f32
// CHECK-COUNT-2:       memref.store {{.*}}, %[[A]]
// CHECK-COUNT-8:       memref.store {{.*}}, %[[B]]
// CHECK:               gpu.barrier
// CHECK:               scf.for {{.*}} -> (f32, f32
// CHECK-COUNT-8:         memref.load %[[A]]
// CHECK-COUNT-8:         memref.load %[[B]]
// CHECK:               gpu.barrier
// CHECK:             scf.for {{.*}} -> (f32, f32
// The small shared tiles: 4x4 outputs a thread, 32 rows and 128 columns.
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x128xf32, #gpu.address_space<workgroup>>)
// CHECK:               scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// The smallest: 2x2 a thread, 16 rows and 64 columns, A's 128 elements
// loaded by half the threads.
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<16x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// The 4x2 register tiles.
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) {
// CHECK-LABEL: func.func @abt(
// CHECK:         workgroup(%{{.*}} : memref<64x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256x9xf32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @atb(
// CHECK:         workgroup(%{{.*}} : memref<8x64xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x256xi32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @every_other(
// CHECK:         workgroup(%{{.*}} : memref<64x8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x128xf64, #gpu.address_space<workgroup>>)
// CHECK:             scf.for {{.*}} -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
// OFF-NOT:       workgroup
// OFF-NOT:       gpu.barrier

// OUT-COUNT-9: gemm
// OUT-COUNT-4: abt
// OUT-COUNT-4: atb
// OUT-COUNT-4: every_other

// PolyBench gemm: c[i][j] = beta c[i][j] + sum_k alpha a[i][k] b[k][j].
func.func @gemm(%alpha: f32, %beta: f32, %c: memref<?x?xf32>,
                %a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = memref.dim %c, %c0 : memref<?x?xf32>
  %nj = memref.dim %c, %c1 : memref<?x?xf32>
  %nk = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %old = memref.load %c[%i, %j] : memref<?x?xf32>
    %bc = arith.mulf %old, %beta : f32
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %bc) -> f32 {
      %x = memref.load %a[%i, %k] : memref<?x?xf32>
      %y = memref.load %b[%k, %j] : memref<?x?xf32>
      %ax = arith.mulf %alpha, %x : f32
      %p = arith.mulf %ax, %y : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

// c[i][j] = (((c[i][j] * 0.5 + a[i][0] b[j][0]) * 0.5 + a[i][1] b[j][1])
// ...), b read transposed; no reduction (which would map a row a warp).
func.func @abt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c0 : memref<?x?xf32>
  %half = arith.constant 0.5 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %old = memref.load %c[%i, %j] : memref<?x?xf32>
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %old) -> f32 {
      %x = memref.load %a[%i, %l] : memref<?x?xf32>
      %y = memref.load %b[%j, %l] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      %h = arith.mulf %acc, %half : f32
      %t = arith.addf %h, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

// c[i][j] = 3 c[i][j] + sum_k a[k][i] b[k][j].
func.func @atb(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i32
  %k = memref.dim %a, %c0 : memref<?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?xi32>
  %n = memref.dim %b, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %old = memref.load %c[%i, %j] : memref<?x?xi32>
    %init = arith.muli %old, %three : i32
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> i32 {
      %u = memref.load %a[%l, %i] : memref<?x?xi32>
      %v = memref.load %b[%l, %j] : memref<?x?xi32>
      %p = arith.muli %u, %v : i32
      %t = arith.addi %acc, %p : i32
      scf.yield %t : i32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xi32>
  }
  return
}

// c[i][j] = (((0 * x + a[i][1] b[1][j]) * x + a[i][3] b[3][j]) * x + ...),
// b a view of every other column.
func.func @every_other(%a: memref<?x?xf64>, %b: memref<?x?xf64, strided<[?, 2], offset: ?>>,
                       %c: memref<?x?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %k = memref.dim %a, %c1 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64, strided<[?, 2], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %s = scf.for %l = %c1 to %k step %c2 iter_args(%acc = %zero) -> f64 {
      %u = memref.load %a[%i, %l] : memref<?x?xf64>
      %v = memref.load %b[%l, %j] : memref<?x?xf64, strided<[?, 2], offset: ?>>
      %p = arith.mulf %u, %v : f64
      %h = arith.mulf %acc, %x : f64
      %t = arith.addf %h, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf64>
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 1009 - 500, as f64.
func.func @fill(%a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c1009 = arith.constant 1009 : index
  %c500 = arith.constant 500 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c1009 : index
      %s = arith.subi %r, %c500 : index
      %ri = arith.index_cast %s : index to i64
      %rf = arith.sitofp %ri : i64 to f64
      memref.store %rf, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// A hash of the bits of a, in row-major order.
func.func @checksum(%a: memref<?x?xf64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  %zero = arith.constant 0 : i64
  %prime = arith.constant 1000003 : i64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> i64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %bits = arith.bitcast %v : f64 to i64
      %scaled = arith.muli %acc2, %prime : i64
      %r = arith.addi %scaled, %bits : i64
      scf.yield %r : i64
    }
    scf.yield %t : i64
  }
  return %s : i64
}

func.func @to_f32(%a: memref<?x?xf64>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %f = arith.truncf %v : f64 to f32
      memref.store %f, %b[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @from_f32(%b: memref<?x?xf32>, %a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %b[%i, %j] : memref<?x?xf32>
      %f = arith.extf %v : f32 to f64
      memref.store %f, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @to_i32(%a: memref<?x?xf64>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %f = arith.fptosi %v : f64 to i32
      memref.store %f, %b[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

func.func @from_i32(%b: memref<?x?xi32>, %a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %b[%i, %j] : memref<?x?xi32>
      %f = arith.sitofp %v : i32 to f64
      memref.store %f, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @run_gemm(%m: index, %k: index, %n: index) {
  %a64 = memref.alloc(%m, %k) : memref<?x?xf64>
  %b64 = memref.alloc(%k, %n) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%k, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_f32(%a64, %a) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%b64, %b) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%c64, %c) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  call @gemm(%alpha, %beta, %c, %a, %b) : (f32, f32, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%c, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %bits = call @checksum(%c64) : (memref<?x?xf64>) -> i64
  vector.print str "gemm "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_abt(%m: index, %k: index, %n: index) {
  %a64 = memref.alloc(%m, %k) : memref<?x?xf64>
  %b64 = memref.alloc(%n, %k) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%n, %k) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @to_f32(%a64, %a) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%b64, %b) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_f32(%c64, %c) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @abt(%a, %b, %c) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%c, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %bits = call @checksum(%c64) : (memref<?x?xf64>) -> i64
  vector.print str "abt "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @run_atb(%m: index, %k: index, %n: index) {
  %a64 = memref.alloc(%k, %m) : memref<?x?xf64>
  %b64 = memref.alloc(%k, %n) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%k, %m) : memref<?x?xi32>
  %b = memref.alloc(%k, %n) : memref<?x?xi32>
  %c = memref.alloc(%m, %n) : memref<?x?xi32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_i32(%a64, %a) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%b64, %b) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%c64, %c) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @atb(%a, %b, %c) : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @from_i32(%c, %c64) : (memref<?x?xi32>, memref<?x?xf64>) -> ()
  %bits = call @checksum(%c64) : (memref<?x?xf64>) -> i64
  vector.print str "atb "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  memref.dealloc %c : memref<?x?xi32>
  return
}

// b is a k x (2n) array, of which the view takes every other column.
func.func @run_every_other(%m: index, %k: index, %n: index) {
  %c2 = arith.constant 2 : index
  %n2 = arith.muli %n, %c2 : index
  %a = memref.alloc(%m, %k) : memref<?x?xf64>
  %full = memref.alloc(%k, %n2) : memref<?x?xf64>
  %c = memref.alloc(%m, %n) : memref<?x?xf64>
  call @fill(%a) : (memref<?x?xf64>) -> ()
  call @fill(%full) : (memref<?x?xf64>) -> ()
  %view = memref.subview %full[0, 1] [%k, %n] [1, 2] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 2], offset: 1>>
  %b = memref.cast %view : memref<?x?xf64, strided<[?, 2], offset: 1>> to memref<?x?xf64, strided<[?, 2], offset: ?>>
  %x = arith.constant 0.5 : f64
  call @every_other(%a, %b, %c, %x) : (memref<?x?xf64>, memref<?x?xf64, strided<[?, 2], offset: ?>>, memref<?x?xf64>, f64) -> ()
  %bits = call @checksum(%c) : (memref<?x?xf64>) -> i64
  vector.print str "every_other "
  vector.print %bits : i64
  memref.dealloc %a : memref<?x?xf64>
  memref.dealloc %full : memref<?x?xf64>
  memref.dealloc %c : memref<?x?xf64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c19 = arith.constant 19 : index
  %c29 = arith.constant 29 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c37 = arith.constant 37 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c256 = arith.constant 256 : index
  %c129 = arith.constant 129 : index
  %c257 = arith.constant 257 : index
  %c277 = arith.constant 277 : index
  %c300 = arith.constant 300 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run_gemm(%c0, %c9, %c33) : (index, index, index) -> ()
  call @run_gemm(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run_gemm(%c1, %c8, %c1) : (index, index, index) -> ()
  call @run_gemm(%c31, %c16, %c33) : (index, index, index) -> ()
  call @run_gemm(%c33, %c29, %c31) : (index, index, index) -> ()
  call @run_gemm(%c64, %c8, %c256) : (index, index, index) -> ()
  call @run_gemm(%c65, %c17, %c257) : (index, index, index) -> ()
  call @run_gemm(%c300, %c37, %c277) : (index, index, index) -> ()
  call @run_gemm(%c1000, %c19, %c777) : (index, index, index) -> ()
  call @run_abt(%c1, %c9, %c1) : (index, index, index) -> ()
  call @run_abt(%c33, %c29, %c31) : (index, index, index) -> ()
  call @run_abt(%c65, %c16, %c257) : (index, index, index) -> ()
  call @run_abt(%c300, %c37, %c277) : (index, index, index) -> ()
  call @run_atb(%c31, %c0, %c33) : (index, index, index) -> ()
  call @run_atb(%c33, %c17, %c31) : (index, index, index) -> ()
  call @run_atb(%c65, %c8, %c257) : (index, index, index) -> ()
  call @run_atb(%c300, %c37, %c277) : (index, index, index) -> ()
  call @run_every_other(%c1, %c16, %c1) : (index, index, index) -> ()
  call @run_every_other(%c33, %c37, %c31) : (index, index, index) -> ()
  call @run_every_other(%c65, %c17, %c129) : (index, index, index) -> ()
  call @run_every_other(%c300, %c37, %c277) : (index, index, index) -> ()
  return
}
