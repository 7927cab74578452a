// out[j][i] = in[i][j]: only one side can coalesce without shared memory.
func.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<?x?xf32>
    memref.store %v, %out[%j, %i] : memref<?x?xf32>
  }
  return
}
