// The kernels bench/python/overhead.py and training_step.py call from
// PyTorch: a vector add (tiny, to time what a call costs), a bias + GELU
// (tanh form) over the rows of a matrix, and a row softmax.

func.func @add(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %y[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

func.func @bias_gelu(%x: memref<?x?xf32>, %bias: memref<?xf32>,
                     %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.7978845608 : f32
  %c = arith.constant 0.044715 : f32
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %a = memref.load %x[%i, %j] : memref<?x?xf32>
    %b = memref.load %bias[%j] : memref<?xf32>
    %v = arith.addf %a, %b : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %cv3 = arith.mulf %c, %v3 : f32
    %inner = arith.addf %v, %cv3 : f32
    %arg = arith.mulf %k, %inner : f32
    %t = math.tanh %arg : f32
    %onet = arith.addf %one, %t : f32
    %hv = arith.mulf %half, %v : f32
    %g = arith.mulf %hv, %onet : f32
    memref.store %g, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @softmax(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %max = scf.for %j = %c0 to %n step %c1 iter_args(%a = %lowest) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %r = arith.maximumf %a, %v : f32
      scf.yield %r : f32
    }
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %r = arith.addf %a, %e : f32
      scf.yield %r : f32
    }
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %q = arith.divf %e, %sum : f32
      memref.store %q, %y[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Sums of the rows of a matrix with few rows and long ones: a block a row,
// so two streams' launches of it can share the GPU.
func.func @row_sums(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %sum = scf.parallel (%j) = (%c0) to (%cols) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%lhs: f32, %rhs: f32):
        %r = arith.addf %lhs, %rhs : f32
        scf.reduce.return %r : f32
      }
    }
    memref.store %sum, %out[%i] : memref<?xf32>
  }
  return
}
