// Unusual input: an empty file (Inputs/empty.mlir), which parses as an
// empty module. threadbind-opt has nothing to do and succeeds;
// threadbind-compile says there is nothing to map, exits non-zero and
// writes nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-opt %S/Inputs/empty.mlir -threadbind-map-to-gpu | FileCheck %s --check-prefix=OPT
// RUN: %refused threadbind-compile %S/Inputs/empty.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// OPT: module {
// OPT-NEXT: }
// CHECK: empty.mlir:0:0: error: nothing to map: no scf.parallel, scf.forall, affine.parallel or linalg op on memrefs outside a gpu.launch
