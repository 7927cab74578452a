// PolyBench gemm: C = alpha A B + beta C.
// Source: PolyBench/C 4.2, linear-algebra/blas/gemm (kernel_gemm); the
// GPU mapping to compare with is PolyBench/GPU's GEMM (one thread per
// element of C). From test/Integration/Programs/gemm.mlir, with alpha and
// beta as arguments and the sum started at beta C[i][j], as 4.2 orders it.
func.func @gemm(%alpha: f32, %beta: f32, %C: memref<?x?xf32>,
                %A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = memref.dim %C, %c0 : memref<?x?xf32>
  %nj = memref.dim %C, %c1 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  // C[i][j] = beta C[i][j] + sum_k alpha A[i][k] B[k][j]
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %c = memref.load %C[%i, %j] : memref<?x?xf32>
    %bc = arith.mulf %c, %beta : f32
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %bc) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %aa = arith.mulf %alpha, %a : f32
      %p = arith.mulf %aa, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %C[%i, %j] : memref<?x?xf32>
  }
  return
}
