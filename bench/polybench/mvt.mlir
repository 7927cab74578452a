// PolyBench mvt: x1 += A y1 and x2 += A^T y2.
// Source: PolyBench/C 4.2, linear-algebra/kernels/mvt (kernel_mvt); the
// GPU mapping to compare with is PolyBench/GPU's MVT: one thread a row for
// x1, one thread a column for x2. From test/Integration/Programs/mvt.mlir,
// with each sum carried in iter_args from the old x rather than in memory.
func.func @mvt(%x1: memref<?xf32>, %x2: memref<?xf32>, %y1: memref<?xf32>,
               %y2: memref<?xf32>, %A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  // x1[i] += sum_j A[i][j] y1[j]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %o = memref.load %x1[%i] : memref<?xf32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %o) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %y1[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %x1[%i] : memref<?xf32>
  }
  // x2[i] += sum_j A[j][i] y2[j]
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %o = memref.load %x2[%i] : memref<?xf32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %o) -> f32 {
      %a = memref.load %A[%j, %i] : memref<?x?xf32>
      %b = memref.load %y2[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %x2[%i] : memref<?xf32>
  }
  return
}
