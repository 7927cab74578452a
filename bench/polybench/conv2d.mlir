// PolyBench/GPU 2DCONV: a 3x3 stencil with fixed coefficients over the
// interior of A, written to B.
// Source: PolyBench/GPU 1.0, 2DCONV (PolyBench/C 4.2 has no 2-D
// convolution): B[i][j] = sum over di, dj in {-1, 0, 1} of
// c[dj][di] A[i+di][j+dj], the nine terms summed column by column, j-1
// first. Written by hand as a user writes it: one scf.parallel over the
// interior.
func.func @conv2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 0.2 : f32
  %c21 = arith.constant 0.5 : f32
  %c31 = arith.constant -0.8 : f32
  %c12 = arith.constant -0.3 : f32
  %c22 = arith.constant 0.6 : f32
  %c32 = arith.constant -0.9 : f32
  %c13 = arith.constant 0.4 : f32
  %c23 = arith.constant 0.7 : f32
  %c33 = arith.constant 0.1 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nj = memref.dim %A, %c1 : memref<?x?xf32>
  %ni1 = arith.subi %ni, %c1 : index
  %nj1 = arith.subi %nj, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c1) to (%ni1, %nj1) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %a11 = memref.load %A[%im, %jm] : memref<?x?xf32>
    %a12 = memref.load %A[%i, %jm] : memref<?x?xf32>
    %a13 = memref.load %A[%ip, %jm] : memref<?x?xf32>
    %a21 = memref.load %A[%im, %j] : memref<?x?xf32>
    %a22 = memref.load %A[%i, %j] : memref<?x?xf32>
    %a23 = memref.load %A[%ip, %j] : memref<?x?xf32>
    %a31 = memref.load %A[%im, %jp] : memref<?x?xf32>
    %a32 = memref.load %A[%i, %jp] : memref<?x?xf32>
    %a33 = memref.load %A[%ip, %jp] : memref<?x?xf32>
    %p11 = arith.mulf %c11, %a11 : f32
    %p12 = arith.mulf %c12, %a12 : f32
    %p13 = arith.mulf %c13, %a13 : f32
    %p21 = arith.mulf %c21, %a21 : f32
    %p22 = arith.mulf %c22, %a22 : f32
    %p23 = arith.mulf %c23, %a23 : f32
    %p31 = arith.mulf %c31, %a31 : f32
    %p32 = arith.mulf %c32, %a32 : f32
    %p33 = arith.mulf %c33, %a33 : f32
    %s1 = arith.addf %p11, %p12 : f32
    %s2 = arith.addf %s1, %p13 : f32
    %s3 = arith.addf %s2, %p21 : f32
    %s4 = arith.addf %s3, %p22 : f32
    %s5 = arith.addf %s4, %p23 : f32
    %s6 = arith.addf %s5, %p31 : f32
    %s7 = arith.addf %s6, %p32 : f32
    %s8 = arith.addf %s7, %p33 : f32
    memref.store %s8, %B[%i, %j] : memref<?x?xf32>
  }
  return
}
