// Transposes and permutations, staged through workgroup memory: the kernels
// of test/Transforms/map-loops-staged-transpose.mlir, for the GPU checks and
// timings of bench/permutations/run.sh.
func.func @transpose(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %b, %c0 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  return
}
func.func @transpose_add(%a: memref<?x?xf64>, %b: memref<?x?xf64>,
                         %c: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %b, %c0 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf64>
    %y = memref.load %c[%i, %j] : memref<?x?xf64>
    %s = arith.addf %x, %y : f64
    memref.store %s, %b[%i, %j] : memref<?x?xf64>
  }
  return
}
func.func @nchw_to_nhwc(%in: memref<?x?x?x?xi8>, %out: memref<?x?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xi8>
  %c = memref.dim %in, %c1 : memref<?x?x?x?xi8>
  %h = memref.dim %in, %c2 : memref<?x?x?x?xi8>
  %w = memref.dim %in, %c3 : memref<?x?x?x?xi8>
  scf.parallel (%in0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%in0, %ic, %ih, %iw] : memref<?x?x?x?xi8>
    memref.store %v, %out[%in0, %ih, %iw, %ic] : memref<?x?x?x?xi8>
  }
  return
}
func.func @permute3(%in: memref<?x?x?xi16>, %out: memref<?x?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i16
  %ni = memref.dim %out, %c1 : memref<?x?x?xi16>
  %nj = memref.dim %out, %c2 : memref<?x?x?xi16>
  %nk = memref.dim %out, %c0 : memref<?x?x?xi16>
  scf.parallel (%i, %k, %j) = (%c1, %c2, %c0) to (%ni, %nk, %nj) step (%c2, %c3, %c1) {
    %v = memref.load %in[%j, %k, %i] : memref<?x?x?xi16>
    %w = arith.addi %v, %one : i16
    memref.store %w, %out[%k, %i, %j] : memref<?x?x?xi16>
  }
  return
}
// The reverse layout change, and both in f32.
func.func @nhwc_to_nchw(%in: memref<?x?x?x?xi8>, %out: memref<?x?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xi8>
  %h = memref.dim %in, %c1 : memref<?x?x?x?xi8>
  %w = memref.dim %in, %c2 : memref<?x?x?x?xi8>
  %c = memref.dim %in, %c3 : memref<?x?x?x?xi8>
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ih, %iw, %ic] : memref<?x?x?x?xi8>
    memref.store %v, %out[%i0, %ic, %ih, %iw] : memref<?x?x?x?xi8>
  }
  return
}
func.func @nchw_to_nhwc_f32(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xf32>
  %c = memref.dim %in, %c1 : memref<?x?x?x?xf32>
  %h = memref.dim %in, %c2 : memref<?x?x?x?xf32>
  %w = memref.dim %in, %c3 : memref<?x?x?x?xf32>
  scf.parallel (%in0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%in0, %ic, %ih, %iw] : memref<?x?x?x?xf32>
    memref.store %v, %out[%in0, %ih, %iw, %ic] : memref<?x?x?x?xf32>
  }
  return
}
func.func @nhwc_to_nchw_f32(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xf32>
  %h = memref.dim %in, %c1 : memref<?x?x?x?xf32>
  %w = memref.dim %in, %c2 : memref<?x?x?x?xf32>
  %c = memref.dim %in, %c3 : memref<?x?x?x?xf32>
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ih, %iw, %ic] : memref<?x?x?x?xf32>
    memref.store %v, %out[%i0, %ic, %ih, %iw] : memref<?x?x?x?xf32>
  }
  return
}
// Copies of the same bytes, the baselines: one loop over every element.
func.func @copy4(%in: memref<?x?x?x?xi8>, %out: memref<?x?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xi8>
  %c = memref.dim %in, %c1 : memref<?x?x?x?xi8>
  %h = memref.dim %in, %c2 : memref<?x?x?x?xi8>
  %w = memref.dim %in, %c3 : memref<?x?x?x?xi8>
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ic, %ih, %iw] : memref<?x?x?x?xi8>
    memref.store %v, %out[%i0, %ic, %ih, %iw] : memref<?x?x?x?xi8>
  }
  return
}
func.func @copy4_f32(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %in, %c0 : memref<?x?x?x?xf32>
  %c = memref.dim %in, %c1 : memref<?x?x?x?xf32>
  %h = memref.dim %in, %c2 : memref<?x?x?x?xf32>
  %w = memref.dim %in, %c3 : memref<?x?x?x?xf32>
  scf.parallel (%i0, %ic, %ih, %iw) = (%c0, %c0, %c0, %c0) to (%n, %c, %h, %w) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %in[%i0, %ic, %ih, %iw] : memref<?x?x?x?xf32>
    memref.store %v, %out[%i0, %ic, %ih, %iw] : memref<?x?x?x?xf32>
  }
  return
}
