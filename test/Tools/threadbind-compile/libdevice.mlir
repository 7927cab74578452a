// Some ops lower to calls into CUDA's libdevice (arith.maxnumf, from ReLU's
// predication, becomes __nv_fmaxf). threadbind-compile links libdevice from
// the toolkit it finds, whatever the environment says (lit clears it), and
// refuses to emit PTX that still calls into it when there is none.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/empty
// RUN: threadbind-compile %s --emit ptx -o %t/relu.ptx
// RUN: FileCheck %s < %t/relu.ptx
// RUN: ptxas -arch=sm_90 %t/relu.ptx -o %t/relu.o
// RUN: not threadbind-compile %s --emit ptx --cuda-path %t/empty -o %t/none.ptx 2>&1 | FileCheck %s --check-prefix=NONE

// CHECK-NOT: .extern .func
// CHECK: max.f32
// NONE: error: the kernels call libdevice's '__nv_fmaxf', but no CUDA toolkit with nvvm/libdevice/libdevice.10.bc was found; pass --cuda-path

func.func @relu(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    %r = arith.select %positive, %v, %zero : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}
