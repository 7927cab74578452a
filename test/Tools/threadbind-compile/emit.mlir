// Every emit kind of threadbind-compile on a module with two host functions
// and three kernels.
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit ptx -o %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=PTX90 < %t.sm90.ptx
// Without --chip, the default chip that scripts ask the tool for.
// RUN: threadbind-compile --print-default-chip | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: {{^}}sm_90{{$}}
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit ptx --chip sm_80 -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX80 < %t.sm80.ptx

// One run leaves every form beside the main output: the same PTX and MLIR
// as runs that emit them alone (the cubin: ptxas.mlir).
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit ptx -o %t.ptx --save-ptx %t.saved.ptx --save-mlir %t.saved.mlir
// RUN: cmp %t.sm90.ptx %t.saved.ptx
// RUN: threadbind-compile %S/Inputs/kernels.mlir --emit mlir -o %t.mlir
// RUN: cmp %t.mlir %t.saved.mlir

// MLIR-LABEL: func.func @axpy
// MLIR: gpu.launch
// MLIR-LABEL: func.func @two_loops
// MLIR: gpu.launch
// MLIR: gpu.launch
// MLIR-NOT: gpu.module

// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM-DAG: define ptx_kernel void @axpy_kernel(
// LLVM-DAG: define ptx_kernel void @two_loops_kernel(
// LLVM-DAG: define ptx_kernel void @two_loops_kernel_0(

// PTX90: .version 7.8
// PTX90: .target sm_90
// PTX90-DAG: .entry axpy_kernel(
// PTX90-DAG: .entry two_loops_kernel(
// PTX90-DAG: .entry two_loops_kernel_0(
// PTX80: .version 7.0
// PTX80: .target sm_80

// a * x + y fuses into one FMA unless --fp-contract=false.
// RUN: threadbind-compile %S/Inputs/kernels.mlir -o - | FileCheck %s --check-prefix=FMA
// RUN: threadbind-compile %S/Inputs/kernels.mlir --fp-contract=false -o - | FileCheck %s --check-prefix=NOFMA
// FMA-LABEL: .entry axpy_kernel(
// FMA: fma.rn.f32
// NOFMA-LABEL: .entry axpy_kernel(
// NOFMA-NOT: fma.rn.f32
// NOFMA: mul.rn.f32
// NOFMA: add.rn.f32
// NOFMA-LABEL: .entry two_loops_kernel(
