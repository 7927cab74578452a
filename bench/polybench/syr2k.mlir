// PolyBench syr2k: C = alpha (A B^T + B A^T) + beta C on the lower triangle.
// Source: PolyBench/C 4.2, linear-algebra/blas/syr2k (kernel_syr2k); the
// GPU mapping to compare with is PolyBench/GPU's SYR2K (one thread per
// element of C; 4.2 keeps to j <= i). From
// test/Integration/Programs/syr2k.mlir, with alpha and beta as arguments.
func.func @syr2k(%alpha: f32, %beta: f32, %C: memref<?x?xf32>,
                 %A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  // j <= i: C[i][j] = beta C[i][j]
  //                   + sum_k (A[j][k] alpha B[i][k] + B[j][k] alpha A[i][k])
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ie = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ie) step (%c1) {
      %c = memref.load %C[%i, %j] : memref<?x?xf32>
      %bc = arith.mulf %c, %beta : f32
      %s = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %bc) -> f32 {
        %ajk = memref.load %A[%j, %k] : memref<?x?xf32>
        %bik = memref.load %B[%i, %k] : memref<?x?xf32>
        %bjk = memref.load %B[%j, %k] : memref<?x?xf32>
        %aik = memref.load %A[%i, %k] : memref<?x?xf32>
        %ajka = arith.mulf %ajk, %alpha : f32
        %p1 = arith.mulf %ajka, %bik : f32
        %bjka = arith.mulf %bjk, %alpha : f32
        %p2 = arith.mulf %bjka, %aik : f32
        %q = arith.addf %p1, %p2 : f32
        %t = arith.addf %acc, %q : f32
        scf.yield %t : f32
      }
      memref.store %s, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
