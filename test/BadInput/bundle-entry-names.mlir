// Entry names that clash with the C library (malloc), the runtime
// (mgpuStreamCreate), the bundle's own table (threadbind_bundle_entries) or
// another entry's reference (f next to f_reference), and names PTX cannot
// spell (a '.', '-', '"' or '\'). Before issue 22 they bound to the wrong
// function, failed to link at 0:0 or aborted the NVPTX printer. Each
// entry stores its own number (from a private helper, defined in both
// copies of the program a bundle holds), so a call that reached another
// function shows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s -o %t/names.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t/names.ptx -o %t/names.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t/names.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/names.ptx.manifest.json
// RUN: threadbind-compile %s --emit bundle -o %t/names.so
// RUN: threadbind-run %t/names.so --entry malloc --size 3 --reference-only --print | FileCheck %s --check-prefix=MALLOC
// RUN: threadbind-run %t/names.so --entry mgpuStreamCreate --size 3 --reference-only --print | FileCheck %s --check-prefix=STREAM
// RUN: threadbind-run %t/names.so --entry threadbind_bundle_entries --size 3 --reference-only --print | FileCheck %s --check-prefix=TABLE
// RUN: threadbind-run %t/names.so --entry f --size 3 --reference-only --print | FileCheck %s --check-prefix=F
// RUN: threadbind-run %t/names.so --entry f_reference --size 3 --reference-only --print | FileCheck %s --check-prefix=FREF
// RUN: threadbind-run %t/names.so --entry vector.add --size 3 --reference-only --print | FileCheck %s --check-prefix=DOT
// RUN: threadbind-run %t/names.so --entry 'a-b"c\d' --size 3 --reference-only --print | FileCheck %s --check-prefix=ODD

// PTX: .entry malloc_kernel(
// PTX: .entry mgpuStreamCreate_kernel(
// PTX: .entry threadbind_bundle_entries_kernel(
// PTX: .entry f_kernel(
// PTX: .entry f_reference_kernel(
// PTX: .entry vector_add_kernel(
// PTX: .entry a_b_c_d_kernel(
// The manifest keeps each kernel's function as the input names it.
// MANIFEST: "name": "vector_add_kernel",
// MANIFEST: "host_function": "vector.add",
// MANIFEST: "name": "a_b_c_d_kernel",
// MANIFEST: "host_function": "a-b\"c\\d",
// MALLOC: reference arg0: sum 3, first [1, 1, 1]
// STREAM: reference arg0: sum 6, first [2, 2, 2]
// TABLE: reference arg0: sum 9, first [3, 3, 3]
// F: reference arg0: sum 12, first [4, 4, 4]
// FREF: reference arg0: sum 15, first [5, 5, 5]
// DOT: reference arg0: sum 18, first [6, 6, 6]
// ODD: reference arg0: sum 21, first [7, 7, 7]

func.func @malloc(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 1.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @mgpuStreamCreate(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 2.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @threadbind_bundle_entries(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 3.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @f(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 4.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @f_reference(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 5.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @"vector.add"(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 6.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

func.func @"a-b\"c\\d"(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %x = arith.constant 7.0 : f32
  %v = call @value(%x) : (f32) -> f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

// The entry's number through a private helper: value(x) = x * 1 + 0.
func.func private @value(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %y = arith.mulf %x, %one : f32
  %z = arith.addf %y, %zero : f32
  return %z : f32
}
