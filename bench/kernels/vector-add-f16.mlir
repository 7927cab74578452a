// c = a + b over a 1-D f16 vector: half the bytes an element of vector-add,
// so one element a thread an iteration is 2 bytes a load.
func.func @vector_add_f16(%a: memref<?xf16>, %b: memref<?xf16>, %c: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf16>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf16>
    %y = memref.load %b[%i] : memref<?xf16>
    %s = arith.addf %x, %y : f16
    memref.store %s, %c[%i] : memref<?xf16>
  }
  return
}
