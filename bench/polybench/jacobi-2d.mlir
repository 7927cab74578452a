// PolyBench jacobi-2d: a 5-point stencil, A to B then B to A, each step.
// Source: PolyBench/C 4.2, stencils/jacobi-2d (kernel_jacobi_2d); the GPU
// mapping to compare with is PolyBench/GPU's JACOBI2D: one thread per
// interior point, the kernels launched every step from the host (its
// second kernel copies B back to A, as PolyBench 3.2 did; 4.2 sweeps back).
// From test/Integration/Programs/jacobi-2d.mlir: a host scf.for over the
// steps around two parallel nests.
func.func @jacobi_2d(%tsteps: index, %A: memref<?x?xf32>,
                     %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fifth = arith.constant 0.2 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %n1 = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %tsteps step %c1 {
    // B[i][j] = 0.2 (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
    scf.parallel (%i, %j) = (%c1, %c1) to (%n1, %n1) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %a0 = memref.load %A[%i, %j] : memref<?x?xf32>
      %a1 = memref.load %A[%i, %jm] : memref<?x?xf32>
      %a2 = memref.load %A[%i, %jp] : memref<?x?xf32>
      %a3 = memref.load %A[%ip, %j] : memref<?x?xf32>
      %a4 = memref.load %A[%im, %j] : memref<?x?xf32>
      %s1 = arith.addf %a0, %a1 : f32
      %s2 = arith.addf %s1, %a2 : f32
      %s3 = arith.addf %s2, %a3 : f32
      %s4 = arith.addf %s3, %a4 : f32
      %v = arith.mulf %fifth, %s4 : f32
      memref.store %v, %B[%i, %j] : memref<?x?xf32>
    }
    // A[i][j] = 0.2 (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
    scf.parallel (%i, %j) = (%c1, %c1) to (%n1, %n1) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %b0 = memref.load %B[%i, %j] : memref<?x?xf32>
      %b1 = memref.load %B[%i, %jm] : memref<?x?xf32>
      %b2 = memref.load %B[%i, %jp] : memref<?x?xf32>
      %b3 = memref.load %B[%ip, %j] : memref<?x?xf32>
      %b4 = memref.load %B[%im, %j] : memref<?x?xf32>
      %s1 = arith.addf %b0, %b1 : f32
      %s2 = arith.addf %s1, %b2 : f32
      %s3 = arith.addf %s2, %b3 : f32
      %s4 = arith.addf %s3, %b4 : f32
      %v = arith.mulf %fifth, %s4 : f32
      memref.store %v, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
