// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses -canonicalize -cse -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses=unroll=2 -canonicalize -cse -split-input-file | FileCheck %s --check-prefix=UNROLL
// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses=assume-aligned -canonicalize -cse -split-input-file | FileCheck %s --check-prefix=ASSUME
// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses=remarks -split-input-file -verify-diagnostics -o /dev/null
// A static max-blocks still caps the grid.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="collapse-nests=false max-blocks=3" -threadbind-widen-accesses -canonicalize -cse -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CAPPED
// CAPPED-LABEL: func.func @scale
// CAPPED: %[[CAP:.*]] = arith.minui %{{.*}}, %c3 : index
// CAPPED: %[[OLD:.*]] = arith.maxui
// CAPPED: %[[NEED:.*]] = arith.maxui %{{.*}}, %c1 : index
// CAPPED-NEXT: %[[GRID:.*]] = arith.minui %[[OLD]], %[[NEED]] : index
// CAPPED-NEXT: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]],

// A grid-stride copy with a scale: where both pointers lie the same number
// of elements past a 16-byte boundary, the lanes first take the elements
// up to it, one each; then vectors of 4 from there up to the last whole
// one by the grid stride, then the scalar rest from its end + lane; the
// original loop otherwise. The grid is what n / 4 vectors need, a thread
// a vector: the resident-blocks cap the mapping put on it goes.
// CHECK-LABEL: func.func @scale
// CHECK: %[[VNEED:.*]] = arith.ceildivui %{{.*}}, %c4 : index
// CHECK-NEXT: %[[BNEED:.*]] = arith.ceildivui %[[VNEED]], %c256 : index
// CHECK-NEXT: %[[BNEED1:.*]] = arith.maxui %[[BNEED]], %c1 : index
// CHECK-NEXT: %[[GRID:.*]] = arith.minui %[[BNEED1]], %c2147483647 : index
// CHECK-NEXT: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]],
// CHECK: %[[LANE:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[P0:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[M0:.*]] = arith.remui %[[P0]], %c16
// CHECK-NEXT: %[[E0:.*]] = arith.divui %[[M0]], %c4
// CHECK: %[[P1:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[M1:.*]] = arith.remui %[[P1]], %c16
// CHECK-NEXT: %[[E1:.*]] = arith.divui %[[M1]], %c4
// CHECK-NEXT: arith.cmpi eq, %[[E1]], %[[E0]]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[TO:.*]] = arith.subi %c4, %[[E0]]
// CHECK-NEXT: %[[PEEL:.*]] = arith.remui %[[TO]], %c4
// CHECK-NEXT: %[[VSTART:.*]] = arith.minsi %[[PEEL]], %{{.*}}
// CHECK-NEXT: scf.for %{{.*}} = %[[LANE]] to %[[VSTART]] step %[[STRIDE]] {
// CHECK-NEXT: memref.load
// CHECK: %[[VECS:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK-NEXT: %[[VLEN:.*]] = arith.muli %[[VECS]], %c4 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[VSTART]], %[[VLEN]] : index
// CHECK-NEXT: scf.for %[[J:.*]] = %[[LANE]] to %[[VECS]] step %[[STRIDE]] {
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[J]], %c4 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.addi %[[VSTART]], %[[OFF]] : index
// CHECK-NEXT: %[[V:.*]] = vector.load %arg0[%[[BASE]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.mulf
// CHECK: %[[W:.*]] = vector.from_elements
// CHECK-NEXT: vector.store %[[W]], %arg1[%[[BASE]]] {alignment = 16 : i64}
// CHECK: %[[REST:.*]] = arith.addi %[[END]], %[[LANE]] : index
// CHECK-NEXT: scf.for %{{.*}} = %[[REST]] to %{{.*}} step %[[STRIDE]] {
// CHECK: memref.load
// CHECK: } else {
// CHECK-NEXT: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %[[STRIDE]] {
// CHECK-NOT: vector.load
// CHECK: gpu.terminator

// Unrolled twice: whole chunks of two strides, two vectors an iteration one
// stride apart, then single vectors, then scalars.
// UNROLL-LABEL: func.func @scale
// UNROLL: %[[CHUNK:.*]] = arith.muli %{{.*}}, %c2 : index
// UNROLL: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[CHUNK]] {
// UNROLL-COUNT-2: vector.load
// UNROLL-NOT: scf.for
// UNROLL: vector.store
// UNROLL: scf.for
// UNROLL: vector.load
// UNROLL: scf.for
// UNROLL: memref.load

// ASSUME-LABEL: func.func @scale
// ASSUME-NOT: scf.if
// ASSUME-NOT: extract_aligned_pointer
// ASSUME: vector.load
// ASSUME-NOT: scf.if
// ASSUME: gpu.terminator
func.func @scale(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-remark @below {{widened: 4 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the first elements up to a vector boundary peeled at run time}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  return
}

// -----

// The widest element sets the width: 2 f64 a vector, the i32 index vector
// 8 bytes, aligned to 8.
// CHECK-LABEL: func.func @gather_index
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xi32>, vector<2xi32>
// CHECK: memref.load %{{.*}} : memref<?xf64>
// CHECK: memref.load %{{.*}} : memref<?xf64>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf64>, vector<2xf64>
func.func @gather_index(%idx: memref<?xi32>, %src: memref<?xf64>, %dst: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %idx, %c0 : memref<?xi32>
  // expected-remark @below {{widened: 2 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the first elements up to a vector boundary peeled at run time}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %k = memref.load %idx[%i] : memref<?xi32>
    %kk = arith.index_cast %k : i32 to index
    %v = memref.load %src[%kk] : memref<?xf64>
    memref.store %v, %dst[%i] : memref<?xf64>
  }
  return
}

// -----

// A store anywhere but the loop's position keeps the loop scalar.
// CHECK-LABEL: func.func @scatter
// CHECK-NOT: vector.
func.func @scatter(%idx: memref<?xindex>, %src: memref<?xf32>, %dst: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %src, %c0 : memref<?xf32>
  // expected-remark @below {{not widened: a store is not at the loop's position in the last, unit-stride dimension of a memref}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %k = memref.load %idx[%i] : memref<?xindex>
    %v = memref.load %src[%i] : memref<?xf32>
    memref.store %v, %dst[%k] : memref<?xf32>
  }
  return
}

// -----

// Neighbours in one row (a 1-D stencil): x[i] and x[i + 1] are never both
// on a vector boundary, so the lanes of both come from the aligned vector
// at i and the one element after it, loaded on its own. The vectors start
// on the boundary at or below the first element (the grid holds as many
// more elements as y's first starts past one, were y aligned: none here),
// where x and y agree on it, and there are none for an empty range (a
// vector without an iteration in the range would read rows no iteration
// reads). The vectors at the ends store only their lanes in the range, and
// load whole where their vectors lie inside x (the element after one only
// where it lies inside x). Two elements apart with 2-element f64 vectors,
// each is a vector of its own.
// CHECK-LABEL: func.func @neighbours
// CHECK: %[[V:.*]] = arith.ceildivui %{{.*}}, %c4 : index
// CHECK-NEXT: arith.ceildivui %[[V]], %c256 : index
// CHECK: gpu.launch
// CHECK: %[[YPTR:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[XPTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT: %[[AGREE:.*]] = arith.andi %{{.*}}, %[[SAME]] : i1
// CHECK-NEXT: scf.if %[[AGREE]] {
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi sgt, %dim, %c0 : index
// CHECK-NEXT: %[[SPANV:.*]] = arith.select %[[NONEMPTY]], %{{.*}}, %c0 : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.ceildivui %[[SPANV]], %c4 : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[COUNT]] step
// CHECK: %[[AFTER:.*]] = arith.addi %[[FIRST:.*]], %c4 : index
// CHECK-NEXT: %[[UPTO:.*]] = arith.cmpi sle, %[[AFTER]], %dim : index
// CHECK-NEXT: %[[FROM:.*]] = arith.cmpi sge, %[[FIRST]], %c0 : index
// CHECK-NEXT: %[[FULL:.*]] = arith.andi %[[FROM]], %[[UPTO]] : i1
// CHECK: %[[XDIM:.*]] = memref.dim %arg0, %c0
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[FIRST]], %c3 : index
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi slt, %[[LAST]], %[[XDIM]] : index
// CHECK-NEXT: %[[EDGE:.*]] = arith.andi %[[FROM]], %[[INSIDE]] : i1
// CHECK-NEXT: %[[OK:.*]] = arith.ori %[[FULL]], %[[EDGE]] : i1
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: %[[ROW:.*]] = vector.load %arg0[%[[FIRST]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NEXT: %[[X0:.*]] = vector.extract %[[ROW]][0]
// CHECK-NEXT: %[[X1:.*]] = vector.extract %[[ROW]][1]
// CHECK-NEXT: %[[X2:.*]] = vector.extract %[[ROW]][2]
// CHECK-NEXT: %[[X3:.*]] = vector.extract %[[ROW]][3]
// CHECK: %[[X4:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: memref.load %arg0[%[[AFTER]]] : memref<?xf32>
// CHECK: %[[S0:.*]] = arith.addf %[[X0]], %[[X1]] : f32
// CHECK: %[[S3:.*]] = arith.addf %[[X3]], %[[X4]] : f32
// CHECK: scf.if %[[FULL]] {
// CHECK-NEXT: vector.from_elements %[[S0]], %{{.*}}, %{{.*}}, %[[S3]]
// CHECK-NEXT: vector.store
// CHECK-NEXT: } else {
// CHECK-COUNT-4: memref.store
// CHECK: } else {
// CHECK-COUNT-4: memref.store
// CHECK-LABEL: func.func @neighbours_two_apart
// CHECK: vector.load
func.func @neighbours(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  // expected-remark @below {{widened: 4 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the shifted reads of 1 row taken from its vectors and 1 element loaded singly, the first elements up to a vector boundary peeled at run time}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %next = arith.addi %i, %c1 : index
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %x[%next] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
func.func @neighbours_two_apart(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %y, %c0 : memref<?xf64>
  // expected-remark @below {{widened: 2 elements a vector}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %next = arith.addi %i, %c2 : index
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %x[%next] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}

// -----

// A read after a store could see the store; moving every read first would
// change that.
// CHECK-LABEL: func.func @read_after_write
// CHECK-NOT: vector.
func.func @read_after_write(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-remark @below {{not widened: 'memref.load' reads memory after a store}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Any other write: an atomic.
// CHECK-LABEL: func.func @atomics
// CHECK-NOT: vector.
func.func @atomics(%a: memref<?xf32>, %total: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-remark @below {{not widened: 'memref.atomic_rmw' writes memory or has unknown effects}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %old = memref.atomic_rmw addf %x, %total[%c0] : (f32, memref<1xf32>) -> f32
  }
  return
}

// -----

// Each element is a loop's work (Horner's rule over coefficients whose
// count the host knows only at run time): vectors would divide the threads
// by 4 and save little. Four coefficients, a constant count, are straight-
// line work once unrolled: that loop widens.
// CHECK-LABEL: func.func @horner
// CHECK-NOT: vector.
// CHECK-LABEL: func.func @horner4
// CHECK: vector.load
func.func @horner(%x: memref<?xf32>, %coef: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %k = memref.dim %coef, %c0 : memref<?xf32>
  // expected-remark @below {{not widened: each iteration runs a 'scf.for' of its own, so vectors would take few bytes off its work while dividing the threads by the vector's width}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %p = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
      %c = memref.load %coef[%j] : memref<?xf32>
      %m = arith.mulf %acc, %v : f32
      %a = arith.addf %m, %c : f32
      scf.yield %a : f32
    }
    memref.store %p, %y[%i] : memref<?xf32>
  }
  return
}

func.func @horner4(%x: memref<?xf32>, %coef: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{widened}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %p = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
      %c = memref.load %coef[%j] : memref<?xf32>
      %m = arith.mulf %acc, %v : f32
      %a = arith.addf %m, %c : f32
      scf.yield %a : f32
    }
    memref.store %p, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// Column-major: x walks dimension 0, the unit-stride one, which is not the
// last; a vector there would need the layout's permutation. (Nested in the
// loop over y, it would be left alone by default anyway.)
// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses="remarks nested-loops" -split-input-file 2>&1 -o /dev/null | FileCheck %s --check-prefix=NESTED
// NESTED: remark: not widened: a store is not at the loop's position in the last, unit-stride dimension of a memref
// CHECK-LABEL: func.func @columns
// CHECK-NOT: vector.
func.func @columns(%m: memref<?x?xf32, strided<[1, ?]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32, strided<[1, ?]>>
  %c = memref.dim %m, %c1 : memref<?x?xf32, strided<[1, ?]>>
  // expected-remark @below {{not widened: its threads along x also run other loops or rows, and the grid is sized for one element a thread, so most of them would have no vector to take (nested-loops widens it anyway)}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32, strided<[1, ?]>>
    memref.store %v, %m[%i, %j] : memref<?x?xf32, strided<[1, ?]>>
  }
  return
}

// -----

// 8-byte elements: two a vector, in and out.
// CHECK-LABEL: func.func @int_to_double
// CHECK: vector.load {{.*}} vector<2xi64>
// CHECK: vector.store {{.*}} vector<2xf64>
func.func @int_to_double(%a: memref<?xi64>, %b: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi64>
  // expected-remark @below {{widened: 2 elements a vector}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi64>
    %y = arith.sitofp %x : i64 to f64
    memref.store %y, %b[%i] : memref<?xf64>
  }
  return
}

// -----

// Rows of a 2-D grid-stride launch: by default the column loop stays
// scalar; with nested-loops it is widened, x shrinks to the vectors a row
// needs, and y takes the blocks x gave up.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=collapse-nests=false -threadbind-widen-accesses=nested-loops -canonicalize -cse -split-input-file | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @rows2d
// ROWS: %[[VECS:.*]] = arith.ceildivui %{{.*}}, %c4 : index
// ROWS-NEXT: %[[XB:.*]] = arith.ceildivui %[[VECS]], %c32 : index
// ROWS-NEXT: %[[XB1:.*]] = arith.maxui %[[XB]], %c1 : index
// ROWS-NEXT: %[[X:.*]] = arith.minui %[[OLDX:.*]], %[[XB1]] : index
// ROWS-NEXT: %[[TOTAL:.*]] = arith.muli %[[OLDX]], %[[OLDY:.*]] : index
// ROWS-NEXT: arith.divui %[[TOTAL]], %[[X]] : index
// ROWS: %[[Y:.*]] = arith.maxui %{{.*}}, %[[OLDY]] : index
// ROWS-NEXT: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[X]], %{{.*}} = %[[Y]], %{{.*}} = %c1)
// ROWS: vector.load {{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK-LABEL: func.func @rows2d
// CHECK-NOT: vector.load
func.func @rows2d(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  // expected-remark @below {{not widened: its threads along x also run other loops or rows}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// A grid-stride loop that only some threads reach: widened, a thread would
// take elements that belong to threads on the other side of the branch.
// RUN: threadbind-opt %s -threadbind-widen-accesses="remarks nested-loops" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: remark: not widened: it runs under 'scf.if', whose control may differ between threads along x, and widening hands a thread its neighbours' elements
// CHECK-LABEL: func.func @some_threads
// CHECK-NOT: vector.load
func.func @some_threads(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %first = arith.muli %bx, %sx : index
    %lane = arith.addi %first, %tx : index
    %stride = arith.muli %gx, %sx : index
    %low = arith.cmpi ult, %tx, %c5 : index
    scf.if %low {
      // expected-remark @below {{not widened: its threads along x also run other loops or rows}}
      scf.for %i = %lane to %n step %stride {
        %v = memref.load %a[%i] : memref<?xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %a[%i] : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}
