// Row reductions written four ways, for gpu-check.sh --reductions: the
// store-only scf.parallel form the row mapping always took, and the forms
// that reach it through threadbind-parallelize-loop-reductions (an
// iter_args loop, a linalg.generic with a reduction iterator, and
// linalg.matvec / linalg.batch_matvec, whose loops keep the accumulator
// in memory). The same sizes must give the same time.

#in_map = affine_map<(i, k) -> (i, k)>
#out_map = affine_map<(i, k) -> (i)>

func.func @rows_parallel(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

func.func @rows_iter_args(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.for %j = %c0 to %c step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// out[i] += sum over k of m[i, k]: the init is out's own value.
func.func @rows_linalg(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#in_map, #out_map],
                  iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}

func.func @matvec(%a: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.matvec ins(%a, %x : memref<?x?xf32>, memref<?xf32>)
                outs(%y : memref<?xf32>)
  return
}

func.func @batch_matvec(%a: memref<?x?x?xf32>, %x: memref<?x?xf32>,
                        %y: memref<?x?xf32>) {
  linalg.batch_matvec ins(%a, %x : memref<?x?x?xf32>, memref<?x?xf32>)
                      outs(%y : memref<?x?xf32>)
  return
}
