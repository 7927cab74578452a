// PolyBench bicg: q = A p and s = A^T r, the BiCG sub-kernel.
// Source: PolyBench/C 4.2, linear-algebra/kernels/bicg (kernel_bicg); the
// GPU mapping to compare with is PolyBench/GPU's BICG: one thread a row
// for q, one thread a column for s. From test/Integration/Programs/bicg.mlir,
// with q written as a loop like s rather than as linalg.matvec.
func.func @bicg(%A: memref<?x?xf32>, %s: memref<?xf32>, %q: memref<?xf32>,
                %p: memref<?xf32>, %r: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  // q[i] = sum_j A[i][j] p[j]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %p[%j] : memref<?xf32>
      %u = arith.mulf %a, %b : f32
      %v = arith.addf %acc, %u : f32
      scf.yield %v : f32
    }
    memref.store %t, %q[%i] : memref<?xf32>
  }
  // s[j] = sum_i r[i] A[i][j]
  scf.parallel (%j) = (%c0) to (%m) step (%c1) {
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %r[%i] : memref<?xf32>
      %b = memref.load %A[%i, %j] : memref<?x?xf32>
      %u = arith.mulf %a, %b : f32
      %v = arith.addf %acc, %u : f32
      scf.yield %v : f32
    }
    memref.store %t, %s[%j] : memref<?xf32>
  }
  return
}
