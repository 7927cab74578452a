// STREAM triad: a = b + s * c
func.func @triad(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %bi = memref.load %b[%i] : memref<?xf32>
    %ci = memref.load %c[%i] : memref<?xf32>
    %p = arith.mulf %s, %ci : f32
    %v = arith.addf %bi, %p : f32
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}
