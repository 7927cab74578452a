// Host functions whose names are not C identifiers, or clash once made
// one, with i1, i8, f16 and 0-d memref arguments (header.mlir).
func.func @"my-func.v2"(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %x[%i] : memref<?xf32>
  }
  return
}
func.func @"my_func_v2"(%x: memref<?xi8>, %b: i1, %h: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xi8>
  %v = arith.extui %b : i1 to i8
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %x[%i] : memref<?xi8>
  }
  return
}
func.func @"a*/b\22c"(%x: memref<4x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %x, %c1 : memref<4x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
    memref.store %one, %x[%i, %j] : memref<4x?xf64>
  }
  return
}
func.func @"1st"(%x: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %one, %x[] : memref<f32>
  }
  return
}
