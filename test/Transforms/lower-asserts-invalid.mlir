// RUN: threadbind-opt %s -threadbind-lower-asserts -split-input-file -verify-diagnostics

// A function of the program named puts would take the failed asserts'
// calls.
// expected-error @below {{'func.func' op is named 'puts', the C library function that a failed cf.assert calls ('!llvm.func<i32 (ptr)>')}}
func.func @puts(%x: i32) {
  return
}

func.func @check(%a: i1) {
  cf.assert %a, "fails"
  return
}

// -----

// expected-error @below {{'llvm.func' op is named 'abort', the C library function that a failed cf.assert calls ('!llvm.func<void ()>')}}
llvm.func @abort(i32)

func.func @check(%a: i1) {
  cf.assert %a, "fails"
  return
}
