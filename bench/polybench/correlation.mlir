// PolyBench correlation: column means and standard deviations,
// normalisation, and the correlation matrix (upper triangle, mirrored).
// Source: PolyBench/C 4.2, datamining/correlation (kernel_correlation); the
// GPU mapping to compare with is PolyBench/GPU's CORR: one thread a column
// for the means and for the deviations, one a data element for the
// normalisation, and one per element of the triangle here (PolyBench/GPU's
// fourth kernel gives a thread a whole row of it). From
// test/Integration/Programs/correlation.mlir, with float_n as an argument
// and the means and deviations in two nests, as 4.2 has them.
func.func @correlation(%float_n: f32, %data: memref<?x?xf32>,
                       %corr: memref<?x?xf32>, %mean: memref<?xf32>,
                       %stddev: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 0.1 : f32
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
  // stddev[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / float_n), 1 where
  // that is at most eps
  scf.parallel (%j) = (%c0) to (%m) step (%c1) {
    %mu = memref.load %mean[%j] : memref<?xf32>
    %v = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %d = memref.load %data[%i, %j] : memref<?x?xf32>
      %c = arith.subf %d, %mu : f32
      %q = arith.mulf %c, %c : f32
      %t = arith.addf %acc, %q : f32
      scf.yield %t : f32
    }
    %var = arith.divf %v, %float_n : f32
    %sd = math.sqrt %var : f32
    %small = arith.cmpf ole, %sd, %eps : f32
    %sdg = arith.select %small, %one, %sd : f32
    memref.store %sdg, %stddev[%j] : memref<?xf32>
  }
  // data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) stddev[j])
  %sqrt_n = math.sqrt %float_n : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %d = memref.load %data[%i, %j] : memref<?x?xf32>
    %mu = memref.load %mean[%j] : memref<?xf32>
    %sd = memref.load %stddev[%j] : memref<?xf32>
    %c = arith.subf %d, %mu : f32
    %den = arith.mulf %sqrt_n, %sd : f32
    %r = arith.divf %c, %den : f32
    memref.store %r, %data[%i, %j] : memref<?x?xf32>
  }
  // corr[i][i] = 1; j > i: corr[i][j] = corr[j][i]
  //                            = sum_k data[k][i] data[k][j]
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    memref.store %one, %corr[%i, %i] : memref<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%i1) to (%m) step (%c1) {
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %a = memref.load %data[%k, %i] : memref<?x?xf32>
        %b = memref.load %data[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %corr[%i, %j] : memref<?x?xf32>
      memref.store %s, %corr[%j, %i] : memref<?x?xf32>
    }
  }
  return
}
