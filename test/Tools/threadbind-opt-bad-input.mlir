// Bad input to threadbind-opt: a diagnostic and a non-zero exit, no crash.
// RUN: not threadbind-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not threadbind-opt %s --threadbind-no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not threadbind-opt %s -pass-pipeline='builtin.module(threadbind-no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not threadbind-opt %S/Inputs/syntax-error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not threadbind-opt %S/Inputs/type-error.mlir 2>&1 | FileCheck %s --check-prefix=TYPE

// MISSING: cannot open input file
// UNKNOWN: Unknown command line argument '--threadbind-no-such-pass'
// PIPELINE: 'threadbind-no-such-pass' does not refer to a registered pass
// SYNTAX: syntax-error.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// TYPE: type-error.mlir:2:{{[0-9]+}}: error:

func.func @ok() {
  return
}
