// PolyBench syrk: C = alpha A A^T + beta C on the lower triangle.
// Source: PolyBench/C 4.2, linear-algebra/blas/syrk (kernel_syrk); the GPU
// mapping to compare with is PolyBench/GPU's SYRK (one thread per element
// of C; 4.2 keeps to j <= i, where PolyBench/GPU's older kernel did the
// whole square). From test/Integration/Programs/syrk.mlir, with alpha and
// beta as arguments.
func.func @syrk(%alpha: f32, %beta: f32, %C: memref<?x?xf32>,
                %A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  // j <= i: C[i][j] = beta C[i][j] + sum_k alpha A[i][k] A[j][k]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ie = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ie) step (%c1) {
      %c = memref.load %C[%i, %j] : memref<?x?xf32>
      %bc = arith.mulf %c, %beta : f32
      %s = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %bc) -> f32 {
        %a = memref.load %A[%i, %k] : memref<?x?xf32>
        %b = memref.load %A[%j, %k] : memref<?x?xf32>
        %aa = arith.mulf %alpha, %a : f32
        %p = arith.mulf %aa, %b : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
