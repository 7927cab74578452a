// Valid but unusual: gpu.printf in the loop body, the one gpu dialect op a
// loop may hold (it means the same in any launch). It maps and becomes a
// vprintf call in the PTX; the CPU emulation cannot run it.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @trace
// MAPPED: gpu.launch
// MAPPED: gpu.printf "a[%lu] = %f\0A"
// PTX: .extern .func {{.*}}vprintf
// PTX: .entry trace_kernel

func.func @trace(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %xd = arith.extf %x : f32 to f64
    gpu.printf "a[%lu] = %f\n", %i, %xd : index, f64
  }
  return
}
