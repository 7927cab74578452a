// A 27-point box filter written out: B is the mean of A over the 3x3x3
// neighbourhood of every interior point, its 27 loads in one straight line
// (box27.mlir sums the same loads in scf.for loops). For block-shape runs.
func.func @box27s(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %w = arith.constant 0.037037037 : f32
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
    %a0 = memref.load %A[%im, %jm, %km] : memref<?x?x?xf32>
    %a1 = memref.load %A[%im, %jm, %k] : memref<?x?x?xf32>
    %s1 = arith.addf %a0, %a1 : f32
    %a2 = memref.load %A[%im, %jm, %kp] : memref<?x?x?xf32>
    %s2 = arith.addf %s1, %a2 : f32
    %a3 = memref.load %A[%im, %j, %km] : memref<?x?x?xf32>
    %s3 = arith.addf %s2, %a3 : f32
    %a4 = memref.load %A[%im, %j, %k] : memref<?x?x?xf32>
    %s4 = arith.addf %s3, %a4 : f32
    %a5 = memref.load %A[%im, %j, %kp] : memref<?x?x?xf32>
    %s5 = arith.addf %s4, %a5 : f32
    %a6 = memref.load %A[%im, %jp, %km] : memref<?x?x?xf32>
    %s6 = arith.addf %s5, %a6 : f32
    %a7 = memref.load %A[%im, %jp, %k] : memref<?x?x?xf32>
    %s7 = arith.addf %s6, %a7 : f32
    %a8 = memref.load %A[%im, %jp, %kp] : memref<?x?x?xf32>
    %s8 = arith.addf %s7, %a8 : f32
    %a9 = memref.load %A[%i, %jm, %km] : memref<?x?x?xf32>
    %s9 = arith.addf %s8, %a9 : f32
    %a10 = memref.load %A[%i, %jm, %k] : memref<?x?x?xf32>
    %s10 = arith.addf %s9, %a10 : f32
    %a11 = memref.load %A[%i, %jm, %kp] : memref<?x?x?xf32>
    %s11 = arith.addf %s10, %a11 : f32
    %a12 = memref.load %A[%i, %j, %km] : memref<?x?x?xf32>
    %s12 = arith.addf %s11, %a12 : f32
    %a13 = memref.load %A[%i, %j, %k] : memref<?x?x?xf32>
    %s13 = arith.addf %s12, %a13 : f32
    %a14 = memref.load %A[%i, %j, %kp] : memref<?x?x?xf32>
    %s14 = arith.addf %s13, %a14 : f32
    %a15 = memref.load %A[%i, %jp, %km] : memref<?x?x?xf32>
    %s15 = arith.addf %s14, %a15 : f32
    %a16 = memref.load %A[%i, %jp, %k] : memref<?x?x?xf32>
    %s16 = arith.addf %s15, %a16 : f32
    %a17 = memref.load %A[%i, %jp, %kp] : memref<?x?x?xf32>
    %s17 = arith.addf %s16, %a17 : f32
    %a18 = memref.load %A[%ip, %jm, %km] : memref<?x?x?xf32>
    %s18 = arith.addf %s17, %a18 : f32
    %a19 = memref.load %A[%ip, %jm, %k] : memref<?x?x?xf32>
    %s19 = arith.addf %s18, %a19 : f32
    %a20 = memref.load %A[%ip, %jm, %kp] : memref<?x?x?xf32>
    %s20 = arith.addf %s19, %a20 : f32
    %a21 = memref.load %A[%ip, %j, %km] : memref<?x?x?xf32>
    %s21 = arith.addf %s20, %a21 : f32
    %a22 = memref.load %A[%ip, %j, %k] : memref<?x?x?xf32>
    %s22 = arith.addf %s21, %a22 : f32
    %a23 = memref.load %A[%ip, %j, %kp] : memref<?x?x?xf32>
    %s23 = arith.addf %s22, %a23 : f32
    %a24 = memref.load %A[%ip, %jp, %km] : memref<?x?x?xf32>
    %s24 = arith.addf %s23, %a24 : f32
    %a25 = memref.load %A[%ip, %jp, %k] : memref<?x?x?xf32>
    %s25 = arith.addf %s24, %a25 : f32
    %a26 = memref.load %A[%ip, %jp, %kp] : memref<?x?x?xf32>
    %s26 = arith.addf %s25, %a26 : f32
    %r = arith.mulf %s26, %w : f32
    memref.store %r, %B[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}
