// A 27-point box filter: B is the mean of A over the 3x3x3 neighbourhood of
// every interior point. The dense 3-D stencil, written as a user writes it:
// one scf.parallel over the interior, the neighbourhood summed in scf.for
// loops (k innermost, contiguous).
func.func @box27(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %w = arith.constant 0.037037037 : f32
  %ni = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nj = memref.dim %A, %c1 : memref<?x?x?xf32>
  %nk = memref.dim %A, %c2 : memref<?x?x?xf32>
  %ni1 = arith.subi %ni, %c1 : index
  %nj1 = arith.subi %nj, %c1 : index
  %nk1 = arith.subi %nk, %c1 : index
  scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%ni1, %nj1, %nk1)
      step (%c1, %c1, %c1) {
    %s = scf.for %di = %c0 to %c3 step %c1 iter_args(%a = %zero) -> f32 {
      %ii = arith.addi %i, %di : index
      %ia = arith.subi %ii, %c1 : index
      %t = scf.for %dj = %c0 to %c3 step %c1 iter_args(%b = %a) -> f32 {
        %jj = arith.addi %j, %dj : index
        %ja = arith.subi %jj, %c1 : index
        %u = scf.for %dk = %c0 to %c3 step %c1 iter_args(%c = %b) -> f32 {
          %kk = arith.addi %k, %dk : index
          %ka = arith.subi %kk, %c1 : index
          %v = memref.load %A[%ia, %ja, %ka] : memref<?x?x?xf32>
          %d = arith.addf %c, %v : f32
          scf.yield %d : f32
        }
        scf.yield %u : f32
      }
      scf.yield %t : f32
    }
    %m = arith.mulf %s, %w : f32
    memref.store %m, %B[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}
