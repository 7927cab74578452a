// A bundle exports each function twice (GPU and CPU reference) with an entry
// table; its manifest lists the entries; @main stays out.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so
// RUN: threadbind-run %t/entries.so --list | FileCheck %s --check-prefix=LIST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/entries.manifest.json
// RUN: llvm-nm -D --defined-only %t/entries.so | FileCheck %s --check-prefix=SYMBOLS

// LIST: iota(memref<?xi32>)
// LIST-NEXT: affine_grid(memref<4x8xf64>, f64, i64)
// LIST-NEXT: add_f16(memref<?xf16>, memref<?xf16>)
// LIST-NOT: main

// MANIFEST: "entries": [
// MANIFEST: "name": "iota",
// MANIFEST-NEXT: "gpu_symbol": "threadbind_entry_iota",
// MANIFEST-NEXT: "reference_symbol": "threadbind_entry_iota_reference",
// MANIFEST: "access": "write"
// MANIFEST: "name": "add_f16",
// MANIFEST: "access": "read"
// MANIFEST: "access": "read-write"

// SYMBOLS-DAG: threadbind_bundle_entries
// SYMBOLS-DAG: threadbind_entry_iota
// SYMBOLS-DAG: threadbind_entry_iota_reference
// SYMBOLS-DAG: threadbind_entry_add_f16_reference
// SYMBOLS-NOT: {{ main$}}
