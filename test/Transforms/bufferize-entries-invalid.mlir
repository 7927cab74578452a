// A result that no argument can hold is an error at the function, and the
// module is not changed.
// RUN: threadbind-opt %s -split-input-file -verify-diagnostics -threadbind-bufferize-entries

// expected-error @below {{cannot return result 0 of type 'vector<4xf32>' through an argument; return memrefs, tensors or scalars}}
func.func @vector(%a: memref<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}
