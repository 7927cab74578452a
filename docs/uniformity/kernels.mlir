// Kernels for comparing ThreadBind's uniformity analysis with LLVM's
// UniformityAnalysis on the same code (see docs/uniformity/README.md).
// Bound by threadbind-map-loops-to-threads with 32x8 blocks, so the 2-D
// loop's row index i comes from threadIdx.y and its column j from
// threadIdx.x.

// Branches on the row (warp-uniform with 32-wide rows), on the column
// (divergent), on the column's warp (j / 32, warp-uniform), on a kernel
// argument (uniform) and on loaded data (divergent).
func.func @branches(%a: memref<?x?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %on = arith.cmpi ne, %flag, %z : i32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %rowFirst = arith.cmpi ult, %i, %c2 : index
    scf.if %rowFirst {
      memref.store %one, %a[%i, %j] : memref<?x?xf32>
    }
    %colFirst = arith.cmpi ult, %j, %c2 : index
    scf.if %colFirst {
      memref.store %zero, %a[%i, %j] : memref<?x?xf32>
    }
    %warp = arith.divui %j, %c32 : index
    %evenWarp = arith.cmpi eq, %warp, %c0 : index
    scf.if %evenWarp {
      memref.store %one, %a[%i, %c0] : memref<?x?xf32>
    }
    scf.if %on {
      memref.store %zero, %a[%c0, %j] : memref<?x?xf32>
    }
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    %neg = arith.cmpf olt, %v, %zero : f32
    scf.if %neg {
      memref.store %zero, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
