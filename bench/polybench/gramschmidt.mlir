// PolyBench gramschmidt: QR decomposition by modified Gram-Schmidt, A = Q R.
// Source: PolyBench/C 4.2, linear-algebra/solvers/gramschmidt
// (kernel_gramschmidt); the GPU mapping to compare with is PolyBench/GPU's
// GRAMSCHM: three kernels a column k launched from the host (the norm of
// column k, Q's column k a thread a row, then a thread a later column j
// for R[k][j] and the update of A's column j). From
// test/Integration/Programs/gramschmidt.mlir: a host scf.for over k, the
// norm as a host scf.for with iter_args.
func.func @gramschmidt(%A: memref<?x?xf32>, %R: memref<?x?xf32>,
                       %Q: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  scf.for %k = %c0 to %n step %c1 {
    // R[k][k] = sqrt(sum_i A[i][k]^2)
    %nrm = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %q = arith.mulf %a, %a : f32
      %t = arith.addf %acc, %q : f32
      scf.yield %t : f32
    }
    %rkk = math.sqrt %nrm : f32
    memref.store %rkk, %R[%k, %k] : memref<?x?xf32>
    // Q[i][k] = A[i][k] / R[k][k]
    scf.parallel (%i) = (%c0) to (%m) step (%c1) {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %r = memref.load %R[%k, %k] : memref<?x?xf32>
      %q = arith.divf %a, %r : f32
      memref.store %q, %Q[%i, %k] : memref<?x?xf32>
    }
    // j > k: R[k][j] = sum_i Q[i][k] A[i][j]; A[i][j] -= Q[i][k] R[k][j]
    %k1 = arith.addi %k, %c1 : index
    scf.parallel (%j) = (%k1) to (%n) step (%c1) {
      %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
        %q = memref.load %Q[%i, %k] : memref<?x?xf32>
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %q, %a : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %R[%k, %j] : memref<?x?xf32>
      scf.for %i = %c0 to %m step %c1 {
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %q = memref.load %Q[%i, %k] : memref<?x?xf32>
        %p = arith.mulf %q, %s : f32
        %d = arith.subf %a, %p : f32
        memref.store %d, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
