// Functions without bodies in a bundle: the host code calls an external
// function that nothing defines. The PTX compiles (the call is host code);
// the bundle, a self-contained shared library, cannot link, and the linker
// names the missing symbol. Non-zero exit, no bundle left behind.
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %refused threadbind-compile %s --emit bundle -o %t.so 2>&1 | FileCheck %s

// CHECK: undefined reference to `host_init'
// CHECK: error: linking the bundle with {{.*}} failed

func.func private @host_init(memref<?xf32>)

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
