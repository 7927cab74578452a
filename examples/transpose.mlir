// out = transpose(in) + 1: one access walks rows, the other columns, so only
// one of them can coalesce; the mapping says which it chose and why.
// Run on a GPU (scripts/demo.sh reads these lines):
// threadbind-run: --entry transpose --shape 0=1000x777 --shape 1=777x1000

func.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %out[%j, %i] : memref<?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 5 : index
  %n = arith.constant 7 : index
  %in = memref.alloc(%m, %n) : memref<?x?xf32>
  %out = memref.alloc(%n, %m) : memref<?x?xf32>
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %r = arith.muli %i, %c10 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %in[%i, %j] : memref<?x?xf32>
    }
  }
  call @transpose(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}
