// Entries over strided views: a slice, a transpose, a column of a matrix.
func.func @iota_view(%b: memref<?x?xi32, strided<[?, ?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %m = memref.dim %b, %c0 : memref<?x?xi32, strided<[?, ?], offset: ?>>
  %n = memref.dim %b, %c1 : memref<?x?xi32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %r = arith.muli %i, %c100 : index
    %v = arith.addi %r, %j : index
    %w = arith.index_cast %v : index to i32
    memref.store %w, %b[%i, %j] : memref<?x?xi32, strided<[?, ?], offset: ?>>
  }
  return
}

func.func @scale_rows(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %b: memref<4x?xf32, strided<[?, 2], offset: 3>>,
                      %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %b, %c1 : memref<4x?xf32, strided<[?, 2], offset: 3>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %b[%i, %j] : memref<4x?xf32, strided<[?, 2], offset: 3>>
  }
  return
}

func.func @plain(%a: memref<?xf32>) {
  return
}
