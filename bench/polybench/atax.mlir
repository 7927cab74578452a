// PolyBench atax: y = A^T (A x), through tmp = A x.
// Source: PolyBench/C 4.2, linear-algebra/kernels/atax (kernel_atax); the
// GPU mapping to compare with is PolyBench/GPU's ATAX: one thread a row
// for tmp, then one thread a column for y. From
// test/Integration/Programs/atax.mlir.
func.func @atax(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>,
                %tmp: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  // tmp[i] = sum_j A[i][j] x[j]
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %x[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %tmp[%i] : memref<?xf32>
  }
  // y[j] = sum_i A[i][j] tmp[i]
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %tmp[%i] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %y[%j] : memref<?xf32>
  }
  return
}
