// Extent over 2^31: a 1-D loop of 2^31 + 5 static iterations (a 2 GiB byte
// buffer). The grid-stride launch caps its grid below the 2^31 - 1 block
// limit and loops; index arithmetic stays 64-bit through to the PTX, so
// the trip count does not wrap. (2^31 iterations are too many to run in
// the CPU emulation; the IR and PTX are checked instead.)
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-DAG: %[[LIMIT:.*]] = arith.constant 2147483647 : index
// MAPPED-DAG: %[[N:.*]] = arith.constant 2147483653 : index
// MAPPED-DAG: %[[NEEDED:.*]] = arith.constant 8388609 : index
// MAPPED: %[[CAP:.*]] = call @threadbind_max_resident_blocks
// MAPPED: %[[G0:.*]] = arith.minui %[[CAP]], %[[NEEDED]]
// MAPPED: %[[G1:.*]] = arith.minui %[[G0]], %[[LIMIT]]
// MAPPED: gpu.launch
// MAPPED: scf.for %{{.*}} = %{{.*}} to %[[N]] step
// PTX: .entry fill_kernel
// PTX: setp.lt.u64 {{.*}}, 2147483653;

func.func @fill(%a: memref<2147483653xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2147483653 : index
  %v = arith.constant 7 : i8
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<2147483653xi8>
  }
  return
}
