// Softmax over the rows of an f32 matrix, written as a user writes it: one
// outer parallel loop over rows whose body takes the row maximum and the
// sum of exponentials in iter_args loops and scales the row in a third
// loop. ThreadBind runs it a block a row (one block per outer iteration);
// compare_torch_softmax.py times it against torch.softmax on the same GPU.
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
