// Unusual input: an empty file (Inputs/empty.mlir), which parses as an
// empty module. threadbind-opt has nothing to do and succeeds;
// threadbind-compile says there is nothing to map, exits non-zero and
// writes nothing.
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/empty.mlir %t/in.mlir
// RUN: threadbind-opt %t/in.mlir -threadbind-map-to-gpu | FileCheck %s --check-prefix=OPT
// RUN: not threadbind-compile %t/in.mlir -o %t/out.ptx 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx %t/out.manifest.json
// RUN: cmp %S/Inputs/empty.mlir %t/in.mlir

// OPT: module {
// OPT-NEXT: }
// CHECK: in.mlir:0:0: error: nothing to map: no scf.parallel, scf.forall, affine.parallel or linalg op on memrefs outside a gpu.launch
