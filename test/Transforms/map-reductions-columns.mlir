// A reduction per output whose loads walk memory along the outputs (column
// sums, the transposed half of atax and bicg) coalesces across threads
// that each take an output: it is split over a block's rows of threads
// while the outputs are few, and keeps a thread an output otherwise (the
// loop mapping's remark). One along its own elements (row sums, matvec)
// gets a block or a warp a row; a 2-D nest (gemm) keeps a thread an
// output. map-reductions-column-split.mlir runs the split.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks -verify-diagnostics -o /dev/null

func.func @column_sums(%a: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  // expected-remark @below {{column reduction mapped}}
  // expected-remark @below {{bound to gpu.launch: loop dimension 0 on threadIdx.x}}
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.addf', so it runs as a parallel reduction; its floats round in the reduction's order, not the loop's}}
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%j] : memref<?xf32>
  }
  return
}

// s[j] = sum_i r[i] * A[i][j]: a block a column would read A a row apart;
// r is a broadcast to threads that each take a column.
func.func @bicg_s(%a: memref<?x?xf32>, %r: memref<?xf32>, %s: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  // expected-remark @below {{column reduction mapped}}
  // expected-remark @below {{bound to gpu.launch: loop dimension 0 on threadIdx.x}}
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.addf', so it runs as a parallel reduction; its floats round in the reduction's order, not the loop's}}
    %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %x = memref.load %r[%i] : memref<?xf32>
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %v : f32
      %u = arith.addf %acc, %p : f32
      scf.yield %u : f32
    }
    memref.store %t, %s[%j] : memref<?xf32>
  }
  return
}

func.func @row_sums(%a: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  // expected-remark @below {{row reduction mapped}}
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.addf', so it runs as a parallel reduction; its floats round in the reduction's order, not the loop's}}
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// gemm's sum over k for each (i, j): threads along j read B coalesced and
// A as a broadcast, where a block an output would read B a row apart; it
// keeps its threads on outputs, j on threadIdx.x, each thread a register
// tile of them (or, with few tiles, one).
func.func @gemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  // expected-remark @below {{bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along loop dimension 0 and along dimension 1}}
  // expected-remark @below {{bound to gpu.launch: loop dimension 1 on threadIdx.x}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.addf', so it runs as a parallel reduction; its floats round in the reduction's order, not the loop's}}
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
      %x = memref.load %a[%i, %l] : memref<?x?xf32>
      %y = memref.load %b[%l, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}
