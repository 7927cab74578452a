// examples/launcher (built by CMake from kernels.mlir and the header
// --emit header writes) launches every kernel from C++ on a stream and
// checks it against the CPU. The GPU checks run it too (gpu-check.sh).
// REQUIRES: cuda-device, cuda-header
// RUN: %threadbind_launcher_example | FileCheck %s
// CHECK: ok saxpy n=1000003
// CHECK: ok transpose 1000x777
// CHECK: ok row_sums 5x100000
// CHECK: ok scale_view 37x250 step 3
// CHECK: ok sum n=67108864
// CHECK: ok an impossible grid is refused
// CHECK: all launches match the CPU
