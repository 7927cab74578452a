// The PTX assembles with CUDA's ptxas for sm_80 and sm_90, and --emit cubin
// writes an ELF cubin and puts ptxas's resource report in the manifest.
// REQUIRES: ptxas
// RUN: threadbind-compile %S/Inputs/kernels.mlir --chip sm_90 -o %t.sm90.ptx
// RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.o
// RUN: threadbind-compile %S/Inputs/kernels.mlir --chip sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.o
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit cubin -o %t.cubin --manifest %t.json
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF
// The cubin a bundle carries, kept by --save-cubin, is the one --emit cubin
// makes; --save-cubin with --emit ptx assembles it too.
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit bundle -o %t.so --save-cubin %t.saved.cubin
// RUN: cmp %t.cubin %t.saved.cubin
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit ptx -o %t.ptx --save-cubin %t.saved2.cubin
// RUN: cmp %t.cubin %t.saved2.cubin
// RUN: FileCheck %s --check-prefix=RESOURCES < %t.json
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit cubin --chip sm_80 -o %t.sm80.cubin
// RUN: od -A n -t x1 -N 4 %t.sm80.cubin | FileCheck %s --check-prefix=ELF

// ELF: 7f 45 4c 46
// RESOURCES: "name": "axpy_kernel"
// RESOURCES: "resources": {
// RESOURCES-NEXT: "registers": {{[1-9][0-9]*}},
// RESOURCES-NEXT: "spill_store_bytes": 0,
