// PolyBench 3mm: G = (A B) (C D), three matrix products.
// Source: PolyBench/C 4.2, linear-algebra/kernels/3mm (kernel_3mm); the
// GPU mapping to compare with is PolyBench/GPU's 3MM (mm3_kernel1 to 3,
// one thread per output element). From test/Integration/Programs/3mm.mlir,
// with F = C D written like the other two products rather than as
// linalg.matmul. Named mm3: a symbol cannot start with a digit in C.
func.func @mm3(%E: memref<?x?xf32>, %A: memref<?x?xf32>,
               %B: memref<?x?xf32>, %F: memref<?x?xf32>,
               %C: memref<?x?xf32>, %D: memref<?x?xf32>,
               %G: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  %nm = memref.dim %C, %c1 : memref<?x?xf32>
  %nl = memref.dim %D, %c1 : memref<?x?xf32>
  // E = A B
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %E[%i, %j] : memref<?x?xf32>
  }
  // F = C D
  scf.parallel (%j, %l) = (%c0, %c0) to (%nj, %nl) step (%c1, %c1) {
    %s = scf.for %m = %c0 to %nm step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %C[%j, %m] : memref<?x?xf32>
      %b = memref.load %D[%m, %l] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %F[%j, %l] : memref<?x?xf32>
  }
  // G = E F
  scf.parallel (%i, %l) = (%c0, %c0) to (%ni, %nl) step (%c1, %c1) {
    %s = scf.for %j = %c0 to %nj step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %E[%i, %j] : memref<?x?xf32>
      %b = memref.load %F[%j, %l] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %G[%i, %l] : memref<?x?xf32>
  }
  return
}
