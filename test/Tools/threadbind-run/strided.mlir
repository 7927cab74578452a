// Strided memref arguments: the bundle describes their layout, and
// threadbind-run lays each view out in a larger storage, with the strides
// and offset --strides and --offset give or the type fixes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/strided.mlir --emit bundle -o %t/strided.so
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/strided.so.manifest.json
// RUN: threadbind-run %t/strided.so --list | FileCheck %s --check-prefix=LIST
// RUN: threadbind-run %t/strided.so --entry iota_view --shape 0=3x7 --strides 0=16x2 --offset 0=5 --reference-only --print | FileCheck %s --check-prefix=IOTA
// A transposed view (the inner dimension has the larger stride).
// RUN: threadbind-run %t/strided.so --entry iota_view --shape 0=3x7 --strides 0=1x3 --reference-only --print | FileCheck %s --check-prefix=TRANSPOSED
// Defaults: row-major where the type leaves strides open, its fixed stride
// and offset where it gives them.
// RUN: threadbind-run %t/strided.so --entry scale_rows --size 4,5 --scalar 2=2 --reference-only --print | FileCheck %s --check-prefix=DEFAULTS
// An --input file holds the view, whatever storage it is laid out in.
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.arange(20, dtype=np.float32).reshape(4, 5))"
// RUN: threadbind-run %t/strided.so --entry scale_rows --input 0=%t/a.npy --shape 1=4x5 --strides 0=9x1 --offset 0=2 --scalar 2=0.5 --reference-only --print | FileCheck %s --check-prefix=INPUT
// RUN: not threadbind-run %t/strided.so --entry plain --size 4 --strides 0=2 --reference-only 2>&1 | FileCheck %s --check-prefix=IDENTITY
// RUN: not threadbind-run %t/strided.so --entry scale_rows --size 4,5 --strides 1=10x1 --reference-only 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not threadbind-run %t/strided.so --entry scale_rows --size 4,5 --offset 1=0 --reference-only 2>&1 | FileCheck %s --check-prefix=FIXED-OFFSET
// RUN: not threadbind-run %t/strided.so --entry iota_view --shape 0=3x7 --strides 0=4x1 --reference-only 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not threadbind-run %t/strided.so --entry iota_view --shape 0=3x7 --strides 0=4 --reference-only 2>&1 | FileCheck %s --check-prefix=RANK

// MANIFEST: "name": "iota_view"
// MANIFEST: "type": "memref<?x?xi32, strided<[?, ?], offset: ?>>"
// MANIFEST: "strides": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: null
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "offset": null
// MANIFEST: "name": "scale_rows"
// MANIFEST: "type": "memref<4x?xf32, strided<[?, 2], offset: 3>>"
// MANIFEST: "strides": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 2
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "offset": 3
// MANIFEST: "name": "plain"
// MANIFEST-NOT: "strides"

// LIST: iota_view(memref<?x?xi32, strided<[?, ?], offset: ?>>)
// LIST: scale_rows(memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<4x?xf32, strided<[?, 2], offset: 3>>, f32)
// LIST: plain(memref<?xf32>)

// 0..6 + 100..106 + 200..206 = 3 * 21 + 7 * 300 = 2163
// IOTA: arg0 memref<3x7 x i32> written, strides 16x2 offset 5 in 50 elements
// IOTA: reference arg0: sum 2163, first [0, 1, 2, 3, 4, 5, 6, 100, ...]
// TRANSPOSED: arg0 memref<3x7 x i32> written, strides 1x3 offset 0 in 21 elements
// TRANSPOSED: reference arg0: sum 2163, first [0, 1, 2, 3, 4, 5, 6, 100, ...]

// DEFAULTS: arg0 memref<4x5 x f32> read, strides 5x1 offset 0 in 20 elements
// DEFAULTS: arg1 memref<4x5 x f32> written, strides 10x2 offset 3 in 42 elements

// INPUT: arg0 memref<4x5 x f32> read, from --input, strides 9x1 offset 2 in 34 elements
// INPUT: reference arg0: sum 190, first [0, 1, 2, 3, 4, 5, 6, 7, ...]
// INPUT: reference arg1: sum 95, first [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, ...]

// IDENTITY: error: --strides 0: argument 0 has the identity layout (row-major, offset 0); only memrefs with a strided layout take a view
// FIXED: error: argument 1's type fixes stride 2 in dimension 1, not 1
// FIXED-OFFSET: error: argument 1's type fixes offset 3, not 0
// OVERLAP: error: argument 0 is written, but strides 4x1 put two elements of its 3x7 view in one place
// RANK: error: --strides 0 has 1 strides; the argument has rank 2
