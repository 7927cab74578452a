// Functions without bodies next to a loop: an external declaration that the
// host code calls before the loop, and one nobody calls. The loop binds and
// compiles to PTX; the declarations stay as they were, and the call stays
// on the host.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED: func.func private @host_init(memref<?xf32>)
// MAPPED: func.func private @unused(index) -> index
// MAPPED-LABEL: func.func @fill
// MAPPED: call @host_init
// MAPPED: gpu.launch
// MAPPED-NOT: call @host_init
// MAPPED: gpu.terminator
// PTX: .entry fill_kernel
// PTX-NOT: host_init

func.func private @host_init(memref<?xf32>)
func.func private @unused(index) -> index

func.func @fill(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  call @host_init(%a) : (memref<?xf32>) -> ()
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
