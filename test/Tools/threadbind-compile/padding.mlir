// Padded arguments through the driver: with --tail=pad the kernel has no
// compare and no branch at all; the manifest and the bundle's table say
// how to allocate each argument and when to launch; the runner's listing
// shows the padding. A malformed attribute stops the compile.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/padded.mlir --grid-policy=cover --tail=pad -o %t/pad.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/pad.ptx
// RUN: FileCheck %s --check-prefix=KERNEL < %t/pad.ptx.manifest.json
// RUN: threadbind-compile %S/Inputs/padded.mlir --grid-policy=cover --tail=pad --emit bundle -o %t/pad.so
// RUN: FileCheck %s --check-prefix=ENTRY < %t/pad.so.manifest.json
// RUN: threadbind-run %t/pad.so --list | FileCheck %s --check-prefix=LIST
// Padding is the default; --tail=keep keeps the compare.
// RUN: threadbind-compile %S/Inputs/padded.mlir --grid-policy=cover -o %t/default.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/default.ptx
// RUN: threadbind-compile %S/Inputs/padded.mlir --grid-policy=cover --tail=keep -o %t/keep.ptx
// RUN: FileCheck %s --check-prefix=KEEP < %t/keep.ptx
// RUN: not threadbind-compile %s --tail=pad -o %t/bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ls %t/bad.ptx

// PTX-LABEL: .visible .entry scale_kernel(
// PTX-NOT: setp
// PTX-NOT: bra
// PTX: ret;

// KERNEL: "name": "scale_kernel",
// KERNEL: "grid_policy": "cover",
// KERNEL-NEXT: "launch_if": {"op":"gt","args":[{"dim":[0,0]},0]},

// ENTRY: "entries": [
// ENTRY: "type": "memref<?xf32>",
// ENTRY: "access": "read",
// ENTRY-NEXT: "padded_to": 256
// ENTRY: "access": "write",
// ENTRY-NEXT: "padded_to": 256

// LIST: scale(memref<?xf32> padded_to 256, memref<?xf32> padded_to 256)

// KEEP-LABEL: .visible .entry scale_kernel(
// KEEP: setp

// BAD: padding.mlir:[[# @LINE + 1]]:1: error: 'func.func' op argument 0: 'threadbind.padded_to' must be a positive integer, not -4 : i64
func.func @bad(%x: memref<?xf32> {threadbind.padded_to = -4}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
  }
  return
}
