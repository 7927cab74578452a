// --threads-per-block=auto compiles once with 256 threads a block, reads
// the kernels' registers from ptxas and says which size it chose and why;
// the kernels then have that size. Conflicting or impossible requests stop
// the compile before anything is written.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/empty-toolkit
// RUN: threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=auto -o %t/auto.ptx 2> %t/auto.err
// RUN: FileCheck %s --check-prefix=REMARK < %t/auto.err
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/auto.ptx.manifest.json
// RUN: threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=auto --emit bundle -o %t/auto.so 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=128 -o %t/fixed.ptx
// RUN: FileCheck %s --check-prefix=FIXED < %t/fixed.ptx.manifest.json
// RUN: not threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=auto --block-shape=32,8 -o %t/bad1.ptx 2>&1 | FileCheck %s --check-prefix=SHAPE
// Every chip the driver accepts has its SM limits (one chip table): an
// sm_120 SM holds 1536 threads, so one block of 1024 fills two thirds.
// RUN: threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=auto --chip=sm_120 -o %t/sm120.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=auto --cuda-path=%t/empty-toolkit -o %t/bad3.ptx 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not threadbind-compile %S/Inputs/kernels.mlir --threads-per-block=many -o %t/bad4.ptx 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not ls %t/bad1.ptx %t/bad3.ptx %t/bad4.ptx

// These kernels use few registers: every size fills the SM, and the tie
// goes to 256.
// REMARK: remark: --threads-per-block=auto: 256 threads a block: 100% occupancy for the least occupied kernel, '{{.*}}' ({{[0-9]+}} registers, {{[0-9]+}} B shared); by size: 128 100% 256 100% 512 100% 1024 100%

// MANIFEST: "name": "axpy_kernel",
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,

// FIXED: "name": "axpy_kernel",
// FIXED: "block": [
// FIXED-NEXT: 128,

// SHAPE: error: threads-per-block=auto and block-shape both choose the block; give one
// CHIP: remark: --threads-per-block=auto: 256 threads a block: {{.*}} by size: 128 100% 256 100% 512 100% 1024 67%
// NOPTXAS: error: --threads-per-block=auto reads registers from ptxas:
// NUMBER: threadbind-compile: for the --threads-per-block option: must be a positive number or 'auto', not 'many'
