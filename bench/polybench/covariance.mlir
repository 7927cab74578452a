// PolyBench covariance: column means, centring, and the covariance matrix
// (upper triangle, mirrored).
// Source: PolyBench/C 4.2, datamining/covariance (kernel_covariance); the
// GPU mapping to compare with is PolyBench/GPU's COVAR: one thread a column
// for the means, one a data element for the centring, and one per element
// of the triangle here (PolyBench/GPU's third kernel gives a thread a whole
// row of it). From test/Integration/Programs/covariance.mlir, with float_n
// as an argument, as 4.2 has it.
func.func @covariance(%float_n: f32, %data: memref<?x?xf32>,
                      %cov: memref<?x?xf32>, %mean: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %data, %c0 : memref<?x?xf32>
  %m = memref.dim %data, %c1 : memref<?x?xf32>
  // mean[j] = sum_i data[i][j] / float_n
  scf.parallel (%j) = (%c0) to (%m) step (%c1) {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %d = memref.load %data[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %d : f32
      scf.yield %t : f32
    }
    %mu = arith.divf %s, %float_n : f32
    memref.store %mu, %mean[%j] : memref<?xf32>
  }
  // data[i][j] -= mean[j]
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %d = memref.load %data[%i, %j] : memref<?x?xf32>
    %mu = memref.load %mean[%j] : memref<?xf32>
    %c = arith.subf %d, %mu : f32
    memref.store %c, %data[%i, %j] : memref<?x?xf32>
  }
  // j >= i: cov[i][j] = cov[j][i] = sum_k data[k][i] data[k][j] / (float_n - 1)
  %float_n1 = arith.subf %float_n, %one : f32
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    scf.parallel (%j) = (%i) to (%m) step (%c1) {
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %a = memref.load %data[%k, %i] : memref<?x?xf32>
        %b = memref.load %data[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      %v = arith.divf %s, %float_n1 : f32
      memref.store %v, %cov[%i, %j] : memref<?x?xf32>
      memref.store %v, %cov[%j, %i] : memref<?x?xf32>
    }
  }
  return
}
