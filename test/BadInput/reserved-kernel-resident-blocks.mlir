// A function of the input named like the runtime's grid query, with
// another type. Before issue 22 the outlining stage called it with the
// query's arguments and failed with an internal error at the user's loop;
// now the error names the function, and nothing is written.
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s
// With --max-blocks no launch asks the runtime, and the function is the
// user's own business.
// RUN: threadbind-compile %s --max-blocks=8 -o %t.ptx

// CHECK: .mlir:[[@LINE+1]]:1: error: 'threadbind_kernel_resident_blocks' must be a function of type '(index, !llvm.ptr) -> index': grid-stride launches call it to size their grid; rename this one
func.func @threadbind_kernel_resident_blocks(%x: f32) -> f32 {
  return %x : f32
}

// Every other element: not widened, so its grid-stride launch asks the
// runtime for the resident blocks (a widened loop takes a vector a thread
// and asks nothing).
func.func @fill(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %a, %c0 : memref<?xf32>
  %n = arith.divui %m, %c2 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %j = arith.muli %i, %c2 : index
    memref.store %f, %a[%j] : memref<?xf32>
  }
  return
}
