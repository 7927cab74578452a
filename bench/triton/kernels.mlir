// The ThreadBind side of compare_triton.py, written as a user writes it:
// f32, dynamic shapes, plain scf.parallel nests. Their Triton twins are in
// compare_triton.py, which times both in one process on the same tensors.

// out[j][i] = in[i][j].
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

// c = a + b.
func.func @add2d(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

// C = A * B, A of M x K, B of K x N: one output a parallel iteration, the
// dot product over k in a sequential loop.
func.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %k = memref.dim %A, %c1 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %sum = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %l] : memref<?x?xf32>
      %b = memref.load %B[%l, %j] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %C[%i, %j] : memref<?x?xf32>
  }
  return
}
