// PolyBench gemver: A += u1 v1^T + u2 v2^T; x += beta A^T y; x += z;
// w += alpha A x.
// Source: PolyBench/C 4.2, linear-algebra/blas/gemver (kernel_gemver),
// its four loop nests in its order and its operand order, less n. Written
// by hand as a user writes it: the update as one 2-D scf.parallel, each
// vector a thread an element with its sum in an scf.for's iter_args,
// started from the old value.
func.func @gemver(%alpha: f32, %beta: f32, %A: memref<?x?xf32>,
                  %u1: memref<?xf32>, %v1: memref<?xf32>, %u2: memref<?xf32>,
                  %v2: memref<?xf32>, %w: memref<?xf32>, %x: memref<?xf32>,
                  %y: memref<?xf32>, %z: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  // A[i][j] += u1[i] v1[j] + u2[i] v2[j]
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %p = memref.load %u1[%i] : memref<?xf32>
    %q = memref.load %v1[%j] : memref<?xf32>
    %r = memref.load %u2[%i] : memref<?xf32>
    %s = memref.load %v2[%j] : memref<?xf32>
    %pq = arith.mulf %p, %q : f32
    %rs = arith.mulf %r, %s : f32
    %t = arith.addf %a, %pq : f32
    %u = arith.addf %t, %rs : f32
    memref.store %u, %A[%i, %j] : memref<?x?xf32>
  }
  // x[i] += beta A[j][i] y[j]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %o = memref.load %x[%i] : memref<?xf32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %o) -> f32 {
      %a = memref.load %A[%j, %i] : memref<?x?xf32>
      %b = memref.load %y[%j] : memref<?xf32>
      %ba = arith.mulf %beta, %a : f32
      %p = arith.mulf %ba, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %x[%i] : memref<?xf32>
  }
  // x[i] += z[i]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %z[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %x[%i] : memref<?xf32>
  }
  // w[i] += alpha A[i][j] x[j]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %o = memref.load %w[%i] : memref<?xf32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %o) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %x[%j] : memref<?xf32>
      %aa = arith.mulf %alpha, %a : f32
      %p = arith.mulf %aa, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %w[%i] : memref<?xf32>
  }
  return
}
