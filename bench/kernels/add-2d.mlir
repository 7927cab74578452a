// C = A + B on a row-major matrix, written twice: with the loop over the
// contiguous dimension inside (the coalesced order) and outside (the order
// that, bound naively, puts the strided dimension on threadIdx.x).

func.func @add_2d_rows(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
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

func.func @add_2d_columns_outer(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}
