// The pad strategy, the default: threads past the extent run on padding
// where every access they make provably lands there; elsewhere the check
// stays and a remark says what ruled padding out.
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" -threadbind-remove-tail-checks -split-input-file | FileCheck %s
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" -threadbind-remove-tail-checks=remarks -split-input-file -verify-diagnostics -o /dev/null
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" -threadbind-remove-tail-checks=strategy=split -split-input-file | FileCheck %s --check-prefix=SPLIT

// Arguments padded to multiples of the block: no compare in the kernel,
// which indexes views spanning the padded sizes; the host skips the launch
// for an empty extent, where the one-block grid would be all padding.
// CHECK-LABEL: func.func @padded_args
// CHECK-SAME: %[[X:.*]]: memref<?xf32> {threadbind.padded_to = 256 : i64}, %[[Y:.*]]: memref<?xf32> {threadbind.padded_to = 512 : i64}
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[N]], %{{.*}}
// CHECK: scf.if %[[ANY]] {
// CHECK-NEXT: gpu.launch
// CHECK-NOT: arith.cmpi
// CHECK-NOT: scf.if
// CHECK-DAG: %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK-DAG: %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK: %[[V:.*]] = memref.load %[[XV]]
// CHECK: memref.store %{{.*}}, %[[YV]]
// CHECK-NEXT: gpu.terminator
// Under the split strategy the same loop is split, padding or not.
// SPLIT-LABEL: func.func @padded_args
// SPLIT: } else {
func.func @padded_args(%x: memref<?xf32> {threadbind.padded_to = 256},
                       %y: memref<?xf32> {threadbind.padded_to = 512}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check removed: threads past the extent run on padding of argument 0, argument 1}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %d = arith.mulf %v, %two : f32
    memref.store %d, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// An allocation of the function is enlarged to a multiple of the block;
// everything else sees a view of its original size. Kernels use it, so it
// is on the device (threadbind-sequential-kernels), and so is the copy.
// CHECK-LABEL: func.func @owned
// CHECK-SAME: (%[[N:.*]]: index, %[[OUT:.*]]: memref<?xf32>)
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[N]], %[[C256:.*]] : index
// CHECK: %[[SIZE:.*]] = arith.muli %[[BLOCKS]], %[[C256]] : index
// CHECK: %[[BIG:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SIZE]]) : memref<?xf32>
// CHECK: %[[A:.*]] = memref.reinterpret_cast %[[BIG]] to offset: [0], sizes: [%[[N]]], strides: [1]
// CHECK: gpu.launch
// CHECK-NOT: arith.cmpi
// CHECK: gpu.terminator
// CHECK: gpu.memcpy async [%{{.*}}] %[[OUT]], %[[A]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[A]]
func.func @owned(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  // expected-note @below {{enlarged to a multiple of 256 elements}}
  %a = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{bounds check removed: threads past the extent run on padding of an allocation it enlarges}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %two, %a[%i] : memref<?xf32>
  }
  memref.copy %a, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// A static allocation grows in its type; a static, non-zero extent needs
// no host check.
// CHECK-LABEL: func.func @owned_static
// CHECK: %[[BIG:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<512xf32>
// CHECK: memref.reinterpret_cast %[[BIG]] to offset: [0], sizes: [300], strides: [1] : memref<512xf32> to memref<300xf32>
// CHECK-NOT: scf.if
// CHECK: gpu.launch
// CHECK-NOT: arith.cmpi
// CHECK: gpu.terminator
func.func @owned_static(%out: memref<300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %two = arith.constant 2.0 : f32
  // expected-note @below {{enlarged to a multiple of 256 elements}}
  %a = memref.alloc() : memref<300xf32>
  // expected-remark @below {{bounds check removed: threads past the extent run on padding of an allocation it enlarges}}
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    memref.store %two, %a[%i] : memref<300xf32>
  }
  memref.copy %a, %out : memref<300xf32> to memref<300xf32>
  memref.dealloc %a : memref<300xf32>
  return
}

// -----

// The loop's attribute asks for padding under another strategy.
// SPLIT-LABEL: func.func @asked
// SPLIT: scf.if
// SPLIT-NEXT: gpu.launch
// SPLIT-NOT: arith.cmpi
// SPLIT: gpu.terminator
func.func @asked(%x: memref<?xf32> {threadbind.padded_to = 1024}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check removed: threads past the extent run on padding of argument 0}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
  } {threadbind.tail = "pad"}
  return
}

// -----

// A gather: a thread past the end would read its index from padding and
// could land anywhere. The check stays.
// CHECK-LABEL: func.func @gather
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK-NOT: } else {
// CHECK: gpu.terminator
func.func @gather(%x: memref<?xf32> {threadbind.padded_to = 256},
                  %idx: memref<?xindex> {threadbind.padded_to = 256},
                  %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: a load's address depends on the thread's position but is not its own element of a padded 1-D memref}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %j = memref.load %idx[%i] : memref<?xindex>
    // expected-note @below {{this operation rules padding out}}
    %v = memref.load %x[%j] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// The output is not padded.
func.func @unpadded(%x: memref<?xf32> {threadbind.padded_to = 256},
                    %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: a store goes somewhere other than the thread's own element of a padded 1-D memref}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    // expected-note @below {{this operation rules padding out}}
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// Every thread would store to element 0, past the end or not.
func.func @shared_element(%x: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: a store goes somewhere other than the thread's own element of a padded 1-D memref}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-note @below {{this operation rules padding out}}
    memref.store %one, %x[%c0] : memref<?xf32>
  }
  return
}

// -----

// %y is stored only where %x is positive, so nothing says its size reaches
// the extent.
func.func @conditional(%x: memref<?xf32> {threadbind.padded_to = 256},
                       %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: %arg1 is accessed only conditionally, so its size is not known to reach the extent}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %pos = arith.cmpf ogt, %v, %zero : f32
    scf.if %pos {
      memref.store %v, %y[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// Padding to 128 does not reach the end of a 256-thread block.
func.func @too_little(%x: memref<?xf32> {threadbind.padded_to = 128}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: %arg0 is padded to a multiple of 128, which the block's x extent 256 does not divide}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}

// -----

// An integer division by a padding value could trap.
func.func @divide(%x: memref<?xi32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  // expected-remark @below {{bounds check kept: no padding: an operation that may trap (such as integer division) would see padding values}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xi32>
    // expected-note @below {{this operation rules padding out}}
    %q = arith.divsi %c100, %v : i32
    memref.store %q, %x[%i] : memref<?xi32>
  }
  return
}

// -----

// Starting at 1, threads past the end would reach one element further than
// the padding guarantees: the thread's iteration k is element k + 1.
func.func @offset(%x: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: no padding: a load's address depends on the thread's position but is not its own element of a padded 1-D memref}}
  scf.parallel (%i) = (%c1) to (%n) step (%c1) {
    // expected-note @below {{this operation rules padding out}}
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}

// -----

// 2-D memrefs are never padded; the check inside the loop over rows stays.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NOT: } else {
// CHECK: gpu.terminator
func.func @rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  // expected-remark @below {{bounds check kept: no padding: a load's address depends on the thread's position but is not its own element of a padded 1-D memref}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    // expected-note @below {{this operation rules padding out}}
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%i, %j] : memref<?x?xf32>
  }
  return
}
