// A bundle exports each function twice (GPU and CPU reference) with an entry
// table, and nothing else: every other symbol is internal. Its manifest
// lists the entries; @main stays out. The GPU entries wait for their
// launches once, at the end, through the runtime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so
// RUN: threadbind-run %t/entries.so --list | FileCheck %s --check-prefix=LIST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/entries.so.manifest.json
// RUN: llvm-nm -D --defined-only %t/entries.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-nm -D --undefined-only %t/entries.so | FileCheck %s --check-prefix=IMPORTS

// LIST: iota(memref<?xi32>)
// LIST-NEXT: affine_grid(memref<4x8xf64>, f64, i64)
// LIST-NEXT: add_f16(memref<?xf16>, memref<?xf16>)
// LIST-NOT: main

// MANIFEST: "entries": [
// MANIFEST: "name": "iota",
// MANIFEST-NEXT: "gpu_symbol": "threadbind_gpu_iota",
// MANIFEST-NEXT: "reference_symbol": "threadbind_ref_iota",
// MANIFEST: "access": "write"
// MANIFEST: "name": "add_f16",
// MANIFEST: "access": "read"
// MANIFEST: "access": "read-write"

// IMPORTS: U threadbind_bundle_call_done

// SYMBOLS: threadbind_bundle_entries
// SYMBOLS-NEXT: threadbind_gpu_add_f16
// SYMBOLS-NEXT: threadbind_gpu_affine_grid
// SYMBOLS-NEXT: threadbind_gpu_iota
// SYMBOLS-NEXT: threadbind_ref_add_f16
// SYMBOLS-NEXT: threadbind_ref_affine_grid
// SYMBOLS-NEXT: threadbind_ref_iota
// SYMBOLS-NOT: {{.}}
