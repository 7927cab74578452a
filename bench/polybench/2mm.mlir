// PolyBench 2mm: D = alpha A B C + beta D, as two matrix products.
// Source: PolyBench/C 4.2, linear-algebra/kernels/2mm (kernel_2mm); the
// GPU mapping to compare with is PolyBench/GPU's 2MM (mm2_kernel1 and 2,
// one thread per output element). From test/Integration/Programs/2mm.mlir,
// with alpha and beta as arguments. Named mm2: a symbol cannot start with
// a digit in C.
func.func @mm2(%alpha: f32, %beta: f32, %tmp: memref<?x?xf32>,
               %A: memref<?x?xf32>, %B: memref<?x?xf32>,
               %C: memref<?x?xf32>, %D: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  %nl = memref.dim %C, %c1 : memref<?x?xf32>
  // tmp[i][j] = sum_k alpha A[i][k] B[k][j]
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %aa = arith.mulf %alpha, %a : f32
      %p = arith.mulf %aa, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %tmp[%i, %j] : memref<?x?xf32>
  }
  // D[i][l] = beta D[i][l] + sum_j tmp[i][j] C[j][l]
  scf.parallel (%i, %l) = (%c0, %c0) to (%ni, %nl) step (%c1, %c1) {
    %d = memref.load %D[%i, %l] : memref<?x?xf32>
    %bd = arith.mulf %d, %beta : f32
    %s = scf.for %j = %c0 to %nj step %c1 iter_args(%acc = %bd) -> f32 {
      %a = memref.load %tmp[%i, %j] : memref<?x?xf32>
      %b = memref.load %C[%j, %l] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %D[%i, %l] : memref<?x?xf32>
  }
  return
}
