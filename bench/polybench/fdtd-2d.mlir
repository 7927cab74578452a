// PolyBench fdtd-2d: 2-D finite-difference time domain; each step sets the
// source row of ey, then updates ey, ex and hz.
// Source: PolyBench/C 4.2, stencils/fdtd-2d (kernel_fdtd_2d); the GPU
// mapping to compare with is PolyBench/GPU's FDTD-2D: one thread per
// element, the kernels launched every step from the host. From
// test/Integration/Programs/fdtd-2d.mlir: a host scf.for over the TMAX
// steps (the size of _fict_) around four parallel nests.
func.func @fdtd_2d(%ex: memref<?x?xf32>, %ey: memref<?x?xf32>,
                   %hz: memref<?x?xf32>, %fict: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  %nx = memref.dim %ex, %c0 : memref<?x?xf32>
  %ny = memref.dim %ex, %c1 : memref<?x?xf32>
  %tmax = memref.dim %fict, %c0 : memref<?xf32>
  %nx1 = arith.subi %nx, %c1 : index
  %ny1 = arith.subi %ny, %c1 : index
  scf.for %t = %c0 to %tmax step %c1 {
    // ey[0][j] = _fict_[t]
    scf.parallel (%j) = (%c0) to (%ny) step (%c1) {
      %f = memref.load %fict[%t] : memref<?xf32>
      memref.store %f, %ey[%c0, %j] : memref<?x?xf32>
    }
    // ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j]), i >= 1
    scf.parallel (%i, %j) = (%c1, %c0) to (%nx, %ny) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %e = memref.load %ey[%i, %j] : memref<?x?xf32>
      %h0 = memref.load %hz[%i, %j] : memref<?x?xf32>
      %h1 = memref.load %hz[%im, %j] : memref<?x?xf32>
      %d = arith.subf %h0, %h1 : f32
      %s = arith.mulf %half, %d : f32
      %v = arith.subf %e, %s : f32
      memref.store %v, %ey[%i, %j] : memref<?x?xf32>
    }
    // ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1]), j >= 1
    scf.parallel (%i, %j) = (%c0, %c1) to (%nx, %ny) step (%c1, %c1) {
      %jm = arith.subi %j, %c1 : index
      %e = memref.load %ex[%i, %j] : memref<?x?xf32>
      %h0 = memref.load %hz[%i, %j] : memref<?x?xf32>
      %h1 = memref.load %hz[%i, %jm] : memref<?x?xf32>
      %d = arith.subf %h0, %h1 : f32
      %s = arith.mulf %half, %d : f32
      %v = arith.subf %e, %s : f32
      memref.store %v, %ex[%i, %j] : memref<?x?xf32>
    }
    // hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
    scf.parallel (%i, %j) = (%c0, %c0) to (%nx1, %ny1) step (%c1, %c1) {
      %ip = arith.addi %i, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %h = memref.load %hz[%i, %j] : memref<?x?xf32>
      %x1 = memref.load %ex[%i, %jp] : memref<?x?xf32>
      %x0 = memref.load %ex[%i, %j] : memref<?x?xf32>
      %y1 = memref.load %ey[%ip, %j] : memref<?x?xf32>
      %y0 = memref.load %ey[%i, %j] : memref<?x?xf32>
      %dx = arith.subf %x1, %x0 : f32
      %a = arith.addf %dx, %y1 : f32
      %b = arith.subf %a, %y0 : f32
      %s = arith.mulf %c07, %b : f32
      %v = arith.subf %h, %s : f32
      memref.store %v, %hz[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
