// 3-D, 4-D and 5-D loops bound by threadbind-map-loops-to-threads, run on
// the CPU through the gpu.launch emulation, must print exactly what the
// original prints. 4-D and 5-D loops are linearised onto z. The 3-D loop has
// a non-zero lower bound and a step of 2 on its middle dimension. Extents
// include 0, 1, 31, 33, block multiples and 1000003.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=remarks 2> %t.remarks > %t.host.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=MAPPED < %t.host.mlir
// RUN: threadbind-opt %t.host.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.host
// RUN: diff %t.ref %t.host

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=max-blocks=1000000 > %t.wide.mlir
// RUN: threadbind-opt %t.wide.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=cover > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=8,4,2 dim-order=0 max-blocks=3" > %t.forced.mlir
// RUN: threadbind-opt %t.forced.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.forced
// RUN: diff %t.ref %t.forced

// REMARK: remark: bound to gpu.launch: loop dimension 2 on threadIdx.x because it walks the unit-stride dimension of 2 of 2 accesses, 8 bytes per iteration; block 64x4x1, grid-stride grid
// REMARK: remark: bound to gpu.launch: loop dimension 3 on threadIdx.x {{.*}}; block 64x4x1, grid-stride grid; dimensions 0, 1 linearised onto z
// REMARK: remark: bound to gpu.launch: loop dimension 4 on threadIdx.x {{.*}}; block 64x4x1, grid-stride grid; dimensions 0, 1, 2 linearised onto z

// MAPPED-LABEL: func.func @k3
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @k4
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @k5
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @check3

// out = in * 2 + i0 + 3 i1 + 7 i2, over i1 = 1, 3, 5, ...
func.func @k3(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %two = arith.constant 2.0 : f32
  %n0 = memref.dim %in, %c0 : memref<?x?x?xf32>
  %n1 = memref.dim %in, %c1 : memref<?x?x?xf32>
  %n2 = memref.dim %in, %c2 : memref<?x?x?xf32>
  scf.parallel (%i0, %i1, %i2) = (%c0, %c1, %c0) to (%n0, %n1, %n2) step (%c1, %c2, %c1) {
    %x = memref.load %in[%i0, %i1, %i2] : memref<?x?x?xf32>
    %w0 = arith.muli %i0, %c1 : index
    %w1 = arith.muli %i1, %c3 : index
    %s1 = arith.addi %w0, %w1 : index
    %w2 = arith.muli %i2, %c7 : index
    %s2 = arith.addi %s1, %w2 : index
    %si = arith.index_cast %s2 : index to i64
    %sf = arith.sitofp %si : i64 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %sf : f32
    memref.store %z, %out[%i0, %i1, %i2] : memref<?x?x?xf32>
  }
  return
}

// out = in * 2 + i0 + 3 i1 + 7 i2 + 11 i3
func.func @k4(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %two = arith.constant 2.0 : f32
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?xf32>
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?xf32>
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?xf32>
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?xf32>
  scf.parallel (%i0, %i1, %i2, %i3) = (%c0, %c0, %c0, %c0) to (%n0, %n1, %n2, %n3) step (%c1, %c1, %c1, %c1) {
    %x = memref.load %in[%i0, %i1, %i2, %i3] : memref<?x?x?x?xf32>
    %w0 = arith.muli %i0, %c1 : index
    %w1 = arith.muli %i1, %c3 : index
    %s1 = arith.addi %w0, %w1 : index
    %w2 = arith.muli %i2, %c7 : index
    %s2 = arith.addi %s1, %w2 : index
    %w3 = arith.muli %i3, %c11 : index
    %s3 = arith.addi %s2, %w3 : index
    %si = arith.index_cast %s3 : index to i64
    %sf = arith.sitofp %si : i64 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %sf : f32
    memref.store %z, %out[%i0, %i1, %i2, %i3] : memref<?x?x?x?xf32>
  }
  return
}

// out = in * 2 + i0 + 3 i1 + 7 i2 + 11 i3 + 13 i4
func.func @k5(%in: memref<?x?x?x?x?xf32>, %out: memref<?x?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %two = arith.constant 2.0 : f32
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?x?xf32>
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?x?xf32>
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?x?xf32>
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?x?xf32>
  %n4 = memref.dim %in, %c4 : memref<?x?x?x?x?xf32>
  scf.parallel (%i0, %i1, %i2, %i3, %i4) = (%c0, %c0, %c0, %c0, %c0) to (%n0, %n1, %n2, %n3, %n4) step (%c1, %c1, %c1, %c1, %c1) {
    %x = memref.load %in[%i0, %i1, %i2, %i3, %i4] : memref<?x?x?x?x?xf32>
    %w0 = arith.muli %i0, %c1 : index
    %w1 = arith.muli %i1, %c3 : index
    %s1 = arith.addi %w0, %w1 : index
    %w2 = arith.muli %i2, %c7 : index
    %s2 = arith.addi %s1, %w2 : index
    %w3 = arith.muli %i3, %c11 : index
    %s3 = arith.addi %s2, %w3 : index
    %w4 = arith.muli %i4, %c13 : index
    %s4 = arith.addi %s3, %w4 : index
    %si = arith.index_cast %s4 : index to i64
    %sf = arith.sitofp %si : i64 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %sf : f32
    memref.store %z, %out[%i0, %i1, %i2, %i3, %i4] : memref<?x?x?x?x?xf32>
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

func.func @check3(%e0: index, %e1: index, %e2: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %p1 = arith.muli %e0, %e1 : index
  %p2 = arith.muli %p1, %e2 : index
  %inFlat = memref.alloc(%p2) : memref<?xf32>
  %outFlat = memref.alloc(%p2) : memref<?xf32>
  %st1 = arith.muli %e2, %c1 : index
  %st0 = arith.muli %st1, %e1 : index
  %in = memref.reinterpret_cast %inFlat to offset: [0], sizes: [%e0, %e1, %e2], strides: [%st0, %st1, 1] : memref<?xf32> to memref<?x?x?xf32>
  %out = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%e0, %e1, %e2], strides: [%st0, %st1, 1] : memref<?xf32> to memref<?x?x?xf32>
  call @fill(%inFlat, %c1024, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  vector.print str "size "
  vector.print %e0 : index punctuation <comma>
  vector.print %e1 : index punctuation <comma>
  vector.print %e2 : index
  call @k3(%in, %out) : (memref<?x?x?xf32>, memref<?x?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  memref.dealloc %inFlat : memref<?xf32>
  memref.dealloc %outFlat : memref<?xf32>
  return
}

func.func @check4(%e0: index, %e1: index, %e2: index, %e3: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %p1 = arith.muli %e0, %e1 : index
  %p2 = arith.muli %p1, %e2 : index
  %p3 = arith.muli %p2, %e3 : index
  %inFlat = memref.alloc(%p3) : memref<?xf32>
  %outFlat = memref.alloc(%p3) : memref<?xf32>
  %st2 = arith.muli %e3, %c1 : index
  %st1 = arith.muli %st2, %e2 : index
  %st0 = arith.muli %st1, %e1 : index
  %in = memref.reinterpret_cast %inFlat to offset: [0], sizes: [%e0, %e1, %e2, %e3], strides: [%st0, %st1, %st2, 1] : memref<?xf32> to memref<?x?x?x?xf32>
  %out = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%e0, %e1, %e2, %e3], strides: [%st0, %st1, %st2, 1] : memref<?xf32> to memref<?x?x?x?xf32>
  call @fill(%inFlat, %c1024, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  vector.print str "size "
  vector.print %e0 : index punctuation <comma>
  vector.print %e1 : index punctuation <comma>
  vector.print %e2 : index punctuation <comma>
  vector.print %e3 : index
  call @k4(%in, %out) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  memref.dealloc %inFlat : memref<?xf32>
  memref.dealloc %outFlat : memref<?xf32>
  return
}

func.func @check5(%e0: index, %e1: index, %e2: index, %e3: index, %e4: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %p1 = arith.muli %e0, %e1 : index
  %p2 = arith.muli %p1, %e2 : index
  %p3 = arith.muli %p2, %e3 : index
  %p4 = arith.muli %p3, %e4 : index
  %inFlat = memref.alloc(%p4) : memref<?xf32>
  %outFlat = memref.alloc(%p4) : memref<?xf32>
  %st3 = arith.muli %e4, %c1 : index
  %st2 = arith.muli %st3, %e3 : index
  %st1 = arith.muli %st2, %e2 : index
  %st0 = arith.muli %st1, %e1 : index
  %in = memref.reinterpret_cast %inFlat to offset: [0], sizes: [%e0, %e1, %e2, %e3, %e4], strides: [%st0, %st1, %st2, %st3, 1] : memref<?xf32> to memref<?x?x?x?x?xf32>
  %out = memref.reinterpret_cast %outFlat to offset: [0], sizes: [%e0, %e1, %e2, %e3, %e4], strides: [%st0, %st1, %st2, %st3, 1] : memref<?xf32> to memref<?x?x?x?x?xf32>
  call @fill(%inFlat, %c1024, %minus1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%outFlat, %c0, %minus1) : (memref<?xf32>, index, f32) -> ()
  vector.print str "size "
  vector.print %e0 : index punctuation <comma>
  vector.print %e1 : index punctuation <comma>
  vector.print %e2 : index punctuation <comma>
  vector.print %e3 : index punctuation <comma>
  vector.print %e4 : index
  call @k5(%in, %out) : (memref<?x?x?x?x?xf32>, memref<?x?x?x?x?xf32>) -> ()
  call @summarise(%outFlat) : (memref<?xf32>) -> ()
  memref.dealloc %inFlat : memref<?xf32>
  memref.dealloc %outFlat : memref<?xf32>
  return
}

// Elements the 3-D loop skips (odd i1 only) stay -1.
// CHECK: size 0, 2, 2
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: size 1, 1, 1
// CHECK-NEXT: checksum -1
// CHECK-NEXT: unwritten 1
// CHECK: size 1, 1, 1, 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK: size 1, 1, 1, 1, 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c256 = arith.constant 256 : index
  %cbig = arith.constant 1000003 : index
  call @check3(%c0, %c2, %c2) : (index, index, index) -> ()
  call @check3(%c1, %c1, %c1) : (index, index, index) -> ()
  call @check3(%c3, %c31, %c33) : (index, index, index) -> ()
  call @check3(%c2, %c8, %c256) : (index, index, index) -> ()
  call @check3(%c5, %c33, %c7) : (index, index, index) -> ()
  call @check3(%c2, %c3, %cbig) : (index, index, index) -> ()
  call @check4(%c1, %c1, %c1, %c1) : (index, index, index, index) -> ()
  call @check4(%c0, %c2, %c2, %c2) : (index, index, index, index) -> ()
  call @check4(%c2, %c3, %c31, %c33) : (index, index, index, index) -> ()
  call @check4(%c3, %c5, %c7, %c9) : (index, index, index, index) -> ()
  call @check4(%cbig, %c1, %c1, %c2) : (index, index, index, index) -> ()
  call @check5(%c1, %c1, %c1, %c1, %c1) : (index, index, index, index, index) -> ()
  call @check5(%c2, %c3, %c4, %c5, %c33) : (index, index, index, index, index) -> ()
  call @check5(%c2, %c0, %c4, %c5, %c33) : (index, index, index, index, index) -> ()
  return
}
