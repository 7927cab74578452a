// 2-D loops bound by threadbind-map-loops-to-threads, run on the CPU through
// the gpu.launch emulation, must print exactly what the original prints: for
// a row-major loop, a loop whose outer induction variable is the contiguous
// one, and a transpose; extents 0, 1, 31, 33, 256 and 1000003 (whose y grid
// passes the 65535-block limit); every grid policy, an odd block shape and a
// forced (uncoalesced) dimension order.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads > %t.host.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.host.mlir
// RUN: threadbind-opt %t.host.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.host
// RUN: diff %t.ref %t.host

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=max-blocks=1000000 > %t.wide.mlir
// RUN: threadbind-opt %t.wide.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=cover > %t.cover.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=33,3 max-blocks=7" > %t.odd.mlir
// RUN: threadbind-opt %t.odd.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.odd
// RUN: diff %t.ref %t.odd

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="dim-order=0,1 max-blocks=9" > %t.forced.mlir
// RUN: threadbind-opt %t.forced.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.forced
// RUN: diff %t.ref %t.forced

// MAPPED-LABEL: func.func @rows
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @outer_contiguous
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @transpose
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @check

// out[i][j] = in[i][j] * 2 + i + 3j
func.func @rows(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    %j3 = arith.muli %j, %c3 : index
    %k = arith.addi %i, %j3 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %kf : f32
    memref.store %z, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

// The same elements with the loops written the other way round: the outer
// induction variable walks the contiguous dimension. out[i][j] = in[i][j] - j
func.func @outer_contiguous(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %y = arith.subf %x, %jf : f32
    memref.store %y, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

// outT[j][i] = in[i][j] + 1
func.func @transpose(%in: memref<?x?xf32>, %outT: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %outT[%j, %i] : memref<?x?xf32>
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c5 = arith.constant 5 : index
  return %c5 : index
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

func.func @check(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %size = arith.muli %m, %n : index
  %inFlat = memref.alloc(%size) : memref<?xf32>
  %outFlat = memref.alloc(%size) : memref<?xf32>
  %in = memref.reinterpret_cast %inFlat to offset: [0], sizes: [%m, %n], strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
  %out = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%m, %n], strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
  %outT = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32>
  call @fill(%inFlat, %c1024, %minus1) : (memref<?xf32>, index, f32) -> ()
  vector.print str "size "
  vector.print %m : index punctuation <comma>
  vector.print %n : index

  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @rows(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @outer_contiguous(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @transpose(%in, %outT) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  memref.dealloc %inFlat : memref<?xf32>
  memref.dealloc %outFlat : memref<?xf32>
  return
}

// CHECK: size 0, 5
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK: size 1, 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum 1
// CHECK-NEXT: unwritten 0
// CHECK: size 1000003, 2
// CHECK-NEXT: checksum
// CHECK-NEXT: unwritten 0
func.func @main() {
  %ms = arith.constant dense<[0, 1, 31, 33, 8, 256, 1000003]> : vector<7xindex>
  %ns = arith.constant dense<[5, 1, 33, 31, 256, 8, 2]> : vector<7xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %m = vector.extract %ms[%k] : index from vector<7xindex>
    %n = vector.extract %ns[%k] : index from vector<7xindex>
    func.call @check(%m, %n) : (index, index) -> ()
  }
  return
}
