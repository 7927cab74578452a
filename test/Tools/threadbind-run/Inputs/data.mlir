// Entries whose inputs matter: a dynamic 2-D one, a gather whose addresses
// come from the data, and a copy whose loop runs over the first argument.

func.func @scale2d(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// out[i] = src[idx[i]]
func.func @gather(%src: memref<?xf32>, %idx: memref<?xi32>,
                  %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %idx, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %k = memref.load %idx[%i] : memref<?xi32>
    %j = arith.index_cast %k : i32 to index
    %x = memref.load %src[%j] : memref<?xf32>
    memref.store %x, %out[%i] : memref<?xf32>
  }
  return
}

// out[i] = i mod k: k, an index scalar, is 0 unless --scalar gives it.
func.func @bucket(%out: memref<?xindex>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xindex>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %r = arith.remui %i, %k : index
    memref.store %r, %out[%i] : memref<?xindex>
  }
  return
}
