// Valid but unusual: PTX inline assembly (llvm.inline_asm) in the loop body.
// It is device code by nature, so it maps and lands in the kernel verbatim.
// It cannot run on the CPU, so only the mapping and the PTX are checked.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @bit_reverse
// MAPPED: gpu.launch
// MAPPED: llvm.inline_asm "brev.b32 $0, $1;"
// PTX: .entry bit_reverse_kernel
// PTX: brev.b32

func.func @bit_reverse(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = llvm.inline_asm "brev.b32 $0, $1;", "=r,r" %x : (i32) -> i32
    memref.store %y, %a[%i] : memref<?xi32>
  }
  return
}
