// PolyBench/GPU 3DCONV: a stencil with fixed coefficients within the 3x3x3
// neighbourhood of every interior point of A, written to B.
// Source: PolyBench/GPU 1.0, 3DCONV (PolyBench/C 4.2 has no 3-D
// convolution), its fifteen terms in its order: they touch eleven of the
// 27 neighbours, three of them (i-1, j-1, k-1), (i+1, j-1, k-1) weighted
// three times over, as that suite defines it. Written by hand as a user
// writes it: one 3-D scf.parallel over the interior, k innermost.
func.func @conv3d(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c11 = arith.constant 2.0 : f32
  %c21 = arith.constant 5.0 : f32
  %c31 = arith.constant -8.0 : f32
  %c12 = arith.constant -3.0 : f32
  %c22 = arith.constant 6.0 : f32
  %c32 = arith.constant -9.0 : f32
  %c13 = arith.constant 4.0 : f32
  %c23 = arith.constant 7.0 : f32
  %c33 = arith.constant 10.0 : f32
  %ni = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nj = memref.dim %A, %c1 : memref<?x?x?xf32>
  %nk = memref.dim %A, %c2 : memref<?x?x?xf32>
  %ni1 = arith.subi %ni, %c1 : index
  %nj1 = arith.subi %nj, %c1 : index
  %nk1 = arith.subi %nk, %c1 : index
  scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%ni1, %nj1, %nk1)
      step (%c1, %c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %km = arith.subi %k, %c1 : index
    %kp = arith.addi %k, %c1 : index
    %a1 = memref.load %A[%im, %jm, %km] : memref<?x?x?xf32>
    %a2 = memref.load %A[%ip, %jm, %km] : memref<?x?x?xf32>
    %a3 = memref.load %A[%i, %jm, %k] : memref<?x?x?xf32>
    %a4 = memref.load %A[%i, %j, %k] : memref<?x?x?xf32>
    %a5 = memref.load %A[%i, %jp, %k] : memref<?x?x?xf32>
    %a6 = memref.load %A[%im, %jm, %kp] : memref<?x?x?xf32>
    %a7 = memref.load %A[%ip, %jm, %kp] : memref<?x?x?xf32>
    %a8 = memref.load %A[%im, %j, %kp] : memref<?x?x?xf32>
    %a9 = memref.load %A[%ip, %j, %kp] : memref<?x?x?xf32>
    %a10 = memref.load %A[%im, %jp, %kp] : memref<?x?x?xf32>
    %a11 = memref.load %A[%ip, %jp, %kp] : memref<?x?x?xf32>
    %p1 = arith.mulf %c11, %a1 : f32
    %p2 = arith.mulf %c13, %a2 : f32
    %p3 = arith.mulf %c21, %a1 : f32
    %p4 = arith.mulf %c23, %a2 : f32
    %p5 = arith.mulf %c31, %a1 : f32
    %p6 = arith.mulf %c33, %a2 : f32
    %p7 = arith.mulf %c12, %a3 : f32
    %p8 = arith.mulf %c22, %a4 : f32
    %p9 = arith.mulf %c32, %a5 : f32
    %p10 = arith.mulf %c11, %a6 : f32
    %p11 = arith.mulf %c13, %a7 : f32
    %p12 = arith.mulf %c21, %a8 : f32
    %p13 = arith.mulf %c23, %a9 : f32
    %p14 = arith.mulf %c31, %a10 : f32
    %p15 = arith.mulf %c33, %a11 : f32
    %s2 = arith.addf %p1, %p2 : f32
    %s3 = arith.addf %s2, %p3 : f32
    %s4 = arith.addf %s3, %p4 : f32
    %s5 = arith.addf %s4, %p5 : f32
    %s6 = arith.addf %s5, %p6 : f32
    %s7 = arith.addf %s6, %p7 : f32
    %s8 = arith.addf %s7, %p8 : f32
    %s9 = arith.addf %s8, %p9 : f32
    %s10 = arith.addf %s9, %p10 : f32
    %s11 = arith.addf %s10, %p11 : f32
    %s12 = arith.addf %s11, %p12 : f32
    %s13 = arith.addf %s12, %p13 : f32
    %s14 = arith.addf %s13, %p14 : f32
    %s15 = arith.addf %s14, %p15 : f32
    memref.store %s15, %B[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}
