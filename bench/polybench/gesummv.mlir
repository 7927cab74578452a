// PolyBench gesummv: tmp = A x, y = alpha tmp + beta B x.
// Source: PolyBench/C 4.2, linear-algebra/blas/gesummv (kernel_gesummv);
// the GPU mapping to compare with is PolyBench/GPU's GESUMMV: one thread a
// row. From test/Integration/Programs/gesummv.mlir, with alpha and beta as
// arguments and tmp stored, as 4.2 does.
func.func @gesummv(%alpha: f32, %beta: f32, %A: memref<?x?xf32>,
                   %B: memref<?x?xf32>, %tmp: memref<?xf32>,
                   %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t:2 = scf.for %j = %c0 to %n step %c1
        iter_args(%ta = %zero, %tb = %zero) -> (f32, f32) {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %B[%i, %j] : memref<?x?xf32>
      %v = memref.load %x[%j] : memref<?xf32>
      %pa = arith.mulf %a, %v : f32
      %pb = arith.mulf %b, %v : f32
      %na = arith.addf %pa, %ta : f32
      %nb = arith.addf %pb, %tb : f32
      scf.yield %na, %nb : f32, f32
    }
    memref.store %t#0, %tmp[%i] : memref<?xf32>
    %sa = arith.mulf %alpha, %t#0 : f32
    %sb = arith.mulf %beta, %t#1 : f32
    %s = arith.addf %sa, %sb : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
