// A kernel's .maxntid bound (its block size) caps its registers, and ptxas
// spills to keep under the cap. threadbind-compile reads the spills from
// ptxas and tries the kernel without the bound; it drops the bound only
// where that spills less and a block still fits on an SM. Here 72 live
// accumulators need 96 registers: at 1024 threads a block (64 registers
// each) the kernel spills, and without the bound it would not fit, so the
// bound is kept and the manifest and the remark say why; at 256 threads it
// spills nothing. (Unit tests cover the bound being dropped.)
// REQUIRES: ptxas
// RUN: %python %S/Inputs/many-live.py 72 > %t.mlir
// RUN: threadbind-compile %t.mlir --threads-per-block=1024 --emit cubin -o %t.cubin --manifest %t.1024.json --save-ptx %t.1024.ptx --remarks 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=KEPT < %t.1024.json
// RUN: FileCheck %s --check-prefix=PTX < %t.1024.ptx
// RUN: threadbind-compile %t.mlir --emit cubin -o %t.cubin --manifest %t.256.json
// RUN: FileCheck %s --check-prefix=CLEAN < %t.256.json

// REMARK: remark: kernel 'many_live_kernel' launch bound: with .maxntid 1024, 64 registers and {{[1-9][0-9]*}} B of spills a thread; without it, {{[0-9]+}} registers and 0 B, too many for a block of 1024 threads on one SM: the bound is kept

// KEPT: "spill_store_bytes": {{[1-9]}}
// KEPT: "launch_bound": {
// KEPT-NEXT: "dropped": false,
// KEPT-NEXT: "why": "with .maxntid 1024,

// PTX: .maxntid 1024, 1, 1

// CLEAN: "spill_store_bytes": 0,
// CLEAN: "launch_bound": {
// CLEAN-NEXT: "dropped": false,
// CLEAN-NEXT: "why": "kept: ptxas spills nothing under it"
