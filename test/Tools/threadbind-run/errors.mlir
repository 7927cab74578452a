// Argument errors: a message and exit status 2; a missing or foreign bundle:
// status 1; bundle building errors at the offending op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: error: --entry is required

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: no entry 'nope' in {{.*}}entries.so (entries: iota, affine_grid, add_f16)

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --reference-only 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: error: argument 0 needs a size for dynamic dimension 0: give --size with at least 1 sizes, or --shape 0=...

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --shape 0=4x9 --reference-only 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: --shape 0 contradicts the static size 8 of dimension 1

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4x4 2>&1 | FileCheck %s --check-prefix=BADSIZE
// BADSIZE: error: --size needs non-negative sizes

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4 --frobnicate 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: unknown option '--frobnicate'

// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/missing.so --entry iota 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot load {{.*}}missing.so

// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %threadbind_runtime --entry iota 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: is not a ThreadBind bundle (no threadbind_bundle_entries)

// RUN: not threadbind-compile %S/Inputs/host-access.mlir --emit bundle -o %t/host.so 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not ls %t/host.so
// HOST: host-access.mlir:4:12: error: 'memref.load' op accesses memref data on the host, outside any parallel loop

// RUN: not threadbind-compile %S/Inputs/returns.mlir --emit bundle -o %t/returns.so 2>&1 | FileCheck %s --check-prefix=RETURNS
// RETURNS: returns.mlir:1:1: error: 'func.func' op cannot be a bundle entry: it returns values
