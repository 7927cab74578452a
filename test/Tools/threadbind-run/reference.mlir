// The CPU reference of a bundle runs without a GPU and computes what the
// function says.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so
// RUN: threadbind-run %t/entries.so --entry iota --size 100 --reference-only --print | FileCheck %s --check-prefix=IOTA
// RUN: threadbind-run %t/entries.so --entry affine_grid --scalar 1=0.5 --scalar 2=-2 --reference-only --print | FileCheck %s --check-prefix=GRID
// RUN: threadbind-run %t/entries.so --entry add_f16 --size 4 --seed 7 --reference-only --print | FileCheck %s --check-prefix=F16
// The generator is seeded: the same seed gives the same inputs.
// RUN: threadbind-run %t/entries.so --entry add_f16 --size 64 --seed 7 --reference-only --print > %t/a.txt
// RUN: threadbind-run %t/entries.so --entry add_f16 --size 64 --seed 7 --reference-only --print > %t/b.txt
// RUN: diff %t/a.txt %t/b.txt

// IOTA: arg0 memref<100 x i32> written
// IOTA: reference arg0: sum 14850, first [0, 3, 6, 9, 12, 15, 18, 21, ...]

// sum over 4x8 of 0.5 * (i + j) - 2 = 0.5 * 160 - 64 = 16
// GRID: arg1 f64 = 0.5
// GRID: arg2 i64 = -2
// GRID: reference arg0: sum 16, first [-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, ...]

// F16: arg0 memref<4 x f16> read
// F16: arg1 memref<4 x f16> read and written
// F16: reference arg0: sum [[X:.*]], first
// F16: reference arg1: sum
