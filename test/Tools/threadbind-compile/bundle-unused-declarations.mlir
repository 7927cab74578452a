// A file written for mlir-runner, as MLIR's own tests are: @main prints
// through a printMemref declared with llvm.emit_c_interface. The bundle
// drops @main, and with it the declaration, whose C wrapper would call
// _mlir_ciface_printMemrefF32 and fail the link (found by the fuzzer).
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/b.so
// RUN: threadbind-run %t/b.so --entry fill --size 5 --reference-only --print | FileCheck %s
// CHECK: sum 10

func.func @fill(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %two, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %a = memref.alloc() : memref<5xf32>
  %d = memref.cast %a : memref<5xf32> to memref<?xf32>
  call @fill(%d) : (memref<?xf32>) -> ()
  %u = memref.cast %a : memref<5xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<5xf32>
  return
}
