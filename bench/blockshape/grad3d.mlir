// Forward differences of a 3-D field, summed: a one-sided stencil (each
// point reads itself and its +1 neighbour along every axis), as a
// divergence-style operator is written; one scf.parallel, k innermost.
func.func @grad3d(%A: memref<?x?x?xf32>, %G: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ni = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nj = memref.dim %A, %c1 : memref<?x?x?xf32>
  %nk = memref.dim %A, %c2 : memref<?x?x?xf32>
  %ni1 = arith.subi %ni, %c1 : index
  %nj1 = arith.subi %nj, %c1 : index
  %nk1 = arith.subi %nk, %c1 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%ni1, %nj1, %nk1)
      step (%c1, %c1, %c1) {
    %ip = arith.addi %i, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %kp = arith.addi %k, %c1 : index
    %a = memref.load %A[%i, %j, %k] : memref<?x?x?xf32>
    %x = memref.load %A[%i, %j, %kp] : memref<?x?x?xf32>
    %y = memref.load %A[%i, %jp, %k] : memref<?x?x?xf32>
    %z = memref.load %A[%ip, %j, %k] : memref<?x?x?xf32>
    %dx = arith.subf %x, %a : f32
    %dy = arith.subf %y, %a : f32
    %dz = arith.subf %z, %a : f32
    %s = arith.addf %dx, %dy : f32
    %t = arith.addf %s, %dz : f32
    memref.store %t, %G[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}
