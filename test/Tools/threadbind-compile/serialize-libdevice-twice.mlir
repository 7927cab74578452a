// Two kernels that share nothing each link libdevice's sin/cos slow path,
// a helper function and two tables of internal linkage: compiled apart,
// the second kernel's copies are renamed (references follow), so the
// joined PTX defines each name once and ptxas assembles it.
// REQUIRES: libdevice, ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s -o %t/k.ptx --manifest %t/k.json
// RUN: FileCheck %s < %t/k.ptx
// RUN: ptxas -arch=sm_90 %t/k.ptx -o %t/k.cubin
// CHECK: .global {{.*}} __cudart_i2opi_d[144]
// CHECK: .visible .entry sine_kernel(
// CHECK: call.uni (retval0), __internal_trig_reduction_slowpathd,
// CHECK: .global {{.*}} __cudart_i2opi_d_1[144]
// CHECK: .visible .entry cosine_kernel(
// CHECK: call.uni (retval0), __internal_trig_reduction_slowpathd_1,
// CHECK: .func {{.*}} __internal_trig_reduction_slowpathd_1(
// CHECK: __cudart_i2opi_d_1;
// CHECK-NOT: .entry

func.func @sine(%m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %m[%i] : memref<?xf64>
    %y = math.sin %x : f64
    memref.store %y, %m[%i] : memref<?xf64>
  }
  return
}

func.func @cosine(%m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %m[%i] : memref<?xf64>
    %y = math.cos %x : f64
    memref.store %y, %m[%i] : memref<?xf64>
  }
  return
}
