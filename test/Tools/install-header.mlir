// The installed compiler writes launcher headers too: with only the prefix
// and cuda.h, a C program launching a program's kernels compiles, the
// launchers there, the reduction's scratch handled.
// UNSUPPORTED: sanitizers
// REQUIRES: cuda-header
// RUN: rm -rf %t && mkdir -p %t
// RUN: cmake --install %threadbind_obj_root --prefix %t/prefix > %t/install.log
// RUN: env -i PATH=/usr/bin:/bin %t/prefix/bin/threadbind-compile %S/../../examples/launcher/kernels.mlir --emit header -o %t/kernels.h
// RUN: cc -std=c99 -Wall -Werror -I%t -I%cuda_include -c %S/Inputs/use-kernels-header.c -o %t/use.o
// RUN: FileCheck %s < %t/kernels.h
// CHECK: static inline CUresult kernels_load(kernels_module *m) {
// CHECK: static inline CUresult kernels_saxpy(
// CHECK: static inline CUresult kernels_sum(
// CHECK: cuMemAllocAsync(&s0,
