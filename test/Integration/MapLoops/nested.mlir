// Nested parallel loops that canonicalization cannot merge: run one outer
// iteration per block (threads over the nested loop) or, with side effects
// between the loops, the nested loop sequentially per thread. On the CPU
// through the gpu.launch emulation they must print what the originals print,
// for n = 0, 1, 31, 33 and 300, under several grid sizes and policies.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=remarks 2> %t.remarks > %t.host.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: threadbind-opt %t.host.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.host
// RUN: diff %t.ref %t.host

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="max-blocks=7 threads-per-block=32" > %t.small.mlir
// RUN: threadbind-opt %t.small.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=cover > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover

// REMARK: remark: bound to gpu.launch: one iteration per block, nested loop dimension 0 on threadIdx.x
// REMARK: remark: bound to gpu.launch: one iteration per block, nested loop dimension 0 on threadIdx.x
// REMARK: remark: bound to gpu.launch: one iteration per block, nested loop dimension 1 on threadIdx.x {{.*}}; block 32x8x1
// REMARK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x

// Lower triangle: out[i][j] = in[i][j] + i - j for j <= i.
func.func @triangular(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %row = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%row) step (%c1) {
      %x = memref.load %in[%i, %j] : memref<?x?xf32>
      %d = arith.subi %i, %j : index
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %y = arith.addf %x, %df : f32
      memref.store %y, %out[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// A 2-D outer loop (linearised over blocks) whose nested loop is bounded by
// i + j: out[r][k] = in[r][k] * 3 for rows r = 2i + j (i < n / 2, j < 2) and
// columns k < min(i + j, n).
func.func @outer_2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %three = arith.constant 3.0 : f32
  %n = memref.dim %in, %c0 : memref<?x?xf32>
  %half = arith.divui %n, %c2 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%half, %c2) step (%c1, %c1) {
    %r = arith.muli %i, %c2 : index
    %row = arith.addi %r, %j : index
    %s = arith.addi %i, %j : index
    %ub = arith.minui %s, %n : index
    scf.parallel (%k) = (%c0) to (%ub) step (%c1) {
      %x = memref.load %in[%row, %k] : memref<?x?xf32>
      %y = arith.mulf %x, %three : f32
      memref.store %y, %out[%row, %k] : memref<?x?xf32>
    }
  }
  return
}

// A 2-D nested loop (columns on x, every other row on y, starting at row i):
// out[r][b] = in[r][b] + r for r = i, i + 2, ... < n and every column b.
func.func @inner_2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %n = memref.dim %in, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%r, %b) = (%i, %c0) to (%n, %n) step (%c2, %c1) {
      %x = memref.load %in[%r, %b] : memref<?x?xf32>
      %ri = arith.index_cast %r : index to i64
      %rf = arith.sitofp %ri : i64 to f32
      %y = arith.addf %x, %rf : f32
      memref.store %y, %out[%r, %b] : memref<?x?xf32>
    }
  }
  return
}

// A store between the loops: mark[i] = i, then the row's lower triangle.
func.func @side_effect_between(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f32
    memref.store %if, %out[%i, %i] : memref<?x?xf32>
    scf.parallel (%j) = (%c0) to (%i) step (%c1) {
      %x = memref.load %in[%i, %j] : memref<?x?xf32>
      memref.store %x, %out[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c3 = arith.constant 3 : index
  return %c3 : index
}

// Prints sum(out[k] * (k % 13 + 1)) over the flat buffer and how many
// elements are still -1.
func.func @summarise(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %zero = arith.constant 0.0 : f64
  %minus1 = arith.constant -1.0 : f32
  %n = memref.dim %out, %c0 : memref<?xf32>
  %sum, %unwritten = scf.for %i = %c0 to %n step %c1
      iter_args(%s = %zero, %u = %c0) -> (f64, index) {
    %v = memref.load %out[%i] : memref<?xf32>
    %w = arith.remui %i, %c13 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i64
    %wf = arith.sitofp %wi : i64 to f64
    %vd = arith.extf %v : f32 to f64
    %t = arith.mulf %vd, %wf : f64
    %s1 = arith.addf %s, %t : f64
    %is = arith.cmpf oeq, %v, %minus1 : f32
    %inc = arith.select %is, %c1, %c0 : index
    %u1 = arith.addi %u, %inc : index
    scf.yield %s1, %u1 : f64, index
  }
  %exact = arith.fptosi %sum : f64 to i64
  vector.print str "checksum "
  vector.print %exact : i64
  vector.print str "unwritten "
  vector.print %unwritten : index
  return
}

func.func @fill(%buf: memref<?xf32>, %mod: index, %value: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  %useIndex = arith.cmpi ne, %mod, %zero : index
  scf.for %i = %c0 to %n step %c1 {
    %v = scf.if %useIndex -> f32 {
      %r = arith.remui %i, %mod : index
      %ri = arith.index_cast %r : index to i64
      %rf = arith.sitofp %ri : i64 to f32
      scf.yield %rf : f32
    } else {
      scf.yield %value : f32
    }
    memref.store %v, %buf[%i] : memref<?xf32>
  }
  return
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %size = arith.muli %n, %n : index
  %inFlat = memref.alloc(%size) : memref<?xf32>
  %outFlat = memref.alloc(%size) : memref<?xf32>
  %in = memref.reinterpret_cast %inFlat to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
  %out = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
  call @fill(%inFlat, %c1024, %minus1) : (memref<?xf32>, index, f32) -> ()
  vector.print str "size "
  vector.print %n : index
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @triangular(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @outer_2d(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @inner_2d(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @side_effect_between(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  memref.dealloc %inFlat : memref<?xf32>
  memref.dealloc %outFlat : memref<?xf32>
  return
}

// n = 1: triangle writes out[0][0] = in[0][0] = 0; outer_2d writes nothing;
// inner_2d writes the whole 1x1; side_effect_between writes out[0][0] = 0.
// CHECK: size 0
// CHECK: size 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum -1
// CHECK-NEXT: unwritten 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK: size 300
func.func @main() {
  %sizes = arith.constant dense<[0, 1, 31, 33, 300]> : vector<5xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.for %k = %c0 to %c5 step %c1 {
    %n = vector.extract %sizes[%k] : index from vector<5xindex>
    func.call @check(%n) : (index) -> ()
  }
  return
}
