// --emit header writes a C/C++ header: the PTX, a loader, and a launcher per
// host function whose kernels a caller can launch from the manifest alone.
// It compiles as C99 and C++17 without warnings, for odd function names
// too; functions it cannot stand in for get a comment and a warning.
// REQUIRES: cuda-header
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/../../../examples/launcher/kernels.mlir --emit header -o %t/kernels.h
// RUN: FileCheck %s < %t/kernels.h
// RUN: printf '#include "kernels.h"\nint main(void) { return 0; }\n' > %t/use.c
// RUN: cp %t/use.c %t/use.cpp
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/use.c -o %t/use.o
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/use.cpp -o %t/use.o
// The header has what the manifest beside it has.
// RUN: %python %S/Inputs/validate-manifest.py %S/../../../docs/manifest.schema.json %t/kernels.h.manifest.json

// CHECK: kernels.h: launchers for the kernels of {{.*}}kernels.mlir, for sm_90.
// CHECK: #include <cuda.h>
// CHECK: static const char kernels_ptx[] =
// CHECK: ".target sm_90\n"
// With ptxas there, the cubin too, loaded first; the PTX where the chip is
// another.
// CHECK: static const unsigned char kernels_cubin[] = {
// CHECK-NEXT: 0x7f, 0x45, 0x4c, 0x46,
// CHECK: enum { kernels_kernel_count = [[COUNT:[0-9]+]] };
// CHECK: static inline CUresult kernels_load(kernels_module *m) {
// CHECK: r = cuModuleLoadData(&m->module, kernels_cubin);
// CHECK: if (r != CUDA_ERROR_NO_BINARY_FOR_GPU
// CHECK: cuModuleLoadData(&m->module, kernels_ptx)
// CHECK: loaded:

// Read-only memrefs are const; dynamic sizes follow each pointer.
// CHECK-LABEL: /* saxpy(f32, memref<?xf32>, memref<?xf32>) */
// CHECK-NEXT: static inline CUresult kernels_saxpy(
// CHECK-NEXT: const kernels_module *m, CUstream stream,
// CHECK-NEXT: float arg0,
// CHECK-NEXT: const float *arg1, int64_t arg1_size0,
// CHECK-NEXT: float *arg2, int64_t arg2_size0) {
// CHECK: int64_t a1_dim[1] = {arg1_size0};
// CHECK: a1_stride[0] = 1;
// The scalar keeps its type; the grid is the manifest's tree, printed as C.
// CHECK: float p10 = (float)arg0;
// CHECK: grid[0] = threadbind_launcher_minu(threadbind_launcher_maxu(threadbind_launcher_ceildivu(threadbind_launcher_ceildivu(threadbind_launcher_max(a1_dim[0], INT64_C(0)), INT64_C(4), &fault), INT64_C(256), &fault), INT64_C(1)), INT64_C(2147483647));
// CHECK: if (fault || !threadbind_launcher_fits(grid, block, shared))
// CHECK-NEXT: return CUDA_ERROR_INVALID_VALUE;
// CHECK: r = cuLaunchKernel(m->kernels[0],
// CHECK: (unsigned)shared, stream, params, NULL);

// Row-major strides of an identity layout.
// CHECK-LABEL: static inline CUresult kernels_transpose(
// CHECK: a0_stride[1] = 1;
// CHECK-NEXT: a0_stride[0] = threadbind_launcher_mul(a0_stride[1], a0_dim[1]);

// CHECK-LABEL: static inline CUresult kernels_row_sums(

// Strides the layout leaves open are arguments; a launch condition picks
// the version for a unit innermost stride; the resident-block query is
// asked once a call.
// CHECK-LABEL: static inline CUresult kernels_scale_view(
// CHECK-NEXT: const kernels_module *m, CUstream stream,
// CHECK-NEXT: const float *arg0, int64_t arg0_size0, int64_t arg0_size1, int64_t arg0_stride0, int64_t arg0_stride1,
// CHECK-NEXT: float *arg1, int64_t arg1_size0, int64_t arg1_size1, int64_t arg1_stride0,
// CHECK-NEXT: float arg2) {
// CHECK: const int64_t resident_any_256 = threadbind_launcher_resident_blocks(NULL, INT64_C(256),
// CHECK: int64_t a0_stride[2] = {arg0_stride0, arg0_stride1};
// CHECK: int64_t a1_stride[2] = {arg1_stride0, INT64_C(1)};
// CHECK: run = threadbind_launcher_and(threadbind_launcher_eq(a0_stride[1], INT64_C(1)),
// CHECK: run = threadbind_launcher_and(((int64_t)(threadbind_launcher_eq(a0_stride[1], INT64_C(1)) == 0)),

// Names that are not C identifiers are made ones; a name that is one keeps
// it, and the other takes a number. A comment cannot be ended by a name.
// RUN: threadbind-compile %S/Inputs/odd-names.mlir --emit header -o %t/odd-names.h
// RUN: FileCheck %s --check-prefix=ODD < %t/odd-names.h
// RUN: sed -e 's/kernels.h/odd-names.h/' %t/use.c > %t/odd.c
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/odd.c -o %t/odd.o
// RUN: cp %t/odd.c %t/odd.cpp
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/odd.cpp -o %t/odd.o
// ODD: /* my-func.v2(memref<?xf32>) */
// ODD-NEXT: static inline CUresult odd_names_my_func_v2_2(
// ODD: /* my_func_v2(memref<?xi8>, i1, f16) */
// ODD-NEXT: static inline CUresult odd_names_my_func_v2(
// ODD-NEXT: const odd_names_module *m, CUstream stream,
// ODD-NEXT: int8_t *arg0, int64_t arg0_size0,
// ODD-NEXT: bool arg1,
// ODD-NEXT: uint16_t arg2) {
// ODD: /* a* /b"c(memref<4x?xf64>) */
// ODD-NEXT: static inline CUresult odd_names_a__b_c(
// ODD-NEXT: const odd_names_module *m, CUstream stream,
// ODD-NEXT: double *arg0, int64_t arg0_size1) {
// ODD: int64_t a0_dim[2] = {INT64_C(4), arg0_size1};
// ODD: static inline CUresult odd_names__1st(
// ODD-NEXT: const odd_names_module *m, CUstream stream,
// ODD-NEXT: float *arg0) {
// ODD: int64_t a0_dim[1] = {1};

// Cover launches of a 2-D loop: the launcher of the launch of a thread an
// iteration tests the blocks the rows need against 65535, that of the
// copy looping over rows the opposite.
// RUN: threadbind-compile %S/../../../examples/launcher/kernels.mlir --grid-policy=cover --emit header -o %t/cover.h
// RUN: FileCheck %s --check-prefix=COVER < %t/cover.h
// RUN: sed -e 's/kernels.h/cover.h/' %t/use.c > %t/cover.c
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/cover.c -o %t/cover.o
// RUN: %python %S/Inputs/validate-manifest.py %S/../../../docs/manifest.schema.json %t/cover.h.manifest.json
// COVER: run = {{.*}}threadbind_launcher_leu(threadbind_launcher_ceildivu({{.*}}, INT64_C(8), &fault), INT64_C(65535))
// COVER: run = {{.*}}((int64_t)(threadbind_launcher_leu(threadbind_launcher_ceildivu({{.*}}, INT64_C(8), &fault), INT64_C(65535)) == 0))

// Full reductions allocate device scratch on the stream, free it on every
// path, and pass it to both kernels.
// RUN: threadbind-compile %S/../../Integration/Reductions/reductions.mlir --emit header -o %t/reductions.h 2>&1 | FileCheck %s --check-prefix=NOWARN --allow-empty
// RUN: FileCheck %s --check-prefix=REDUCTIONS < %t/reductions.h
// RUN: sed -e 's/kernels.h/reductions.h/' %t/use.c > %t/reductions.c
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/reductions.c -o %t/reductions.o
// RUN: cp %t/reductions.c %t/reductions.cpp
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/reductions.cpp -o %t/reductions.o
// NOWARN-NOT: warning
// REDUCTIONS-LABEL: static inline CUresult reductions_sum_f32(
// REDUCTIONS: CUdeviceptr s0 = 0;
// REDUCTIONS: /* device scratch 0: f32 */
// REDUCTIONS: r = cuMemAllocAsync(&s0, (size_t)count * 4, stream);
// REDUCTIONS: uint64_t p6 = (uint64_t)s0;
// REDUCTIONS: r = cuLaunchKernel(m->kernels[0],
// REDUCTIONS: uint64_t p0 = (uint64_t)s0;
// REDUCTIONS: r = CUDA_SUCCESS;
// REDUCTIONS-NEXT: done:
// REDUCTIONS-NEXT: if (s0) {
// REDUCTIONS-NEXT: CUresult freed = cuMemFreeAsync(s0, stream);
// REDUCTIONS-LABEL: static inline CUresult reductions_row_sums_f32(

// Launches in a host loop run as many times as only the host function
// knows: no launcher, a comment and a warning saying so.
// RUN: threadbind-compile %S/../../../bench/polybench/fdtd-2d.mlir --emit header -o %t/fdtd.h 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=LOOP < %t/fdtd.h
// RUN: sed -e 's/kernels.h/fdtd.h/' %t/use.c > %t/fdtd.c
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/fdtd.c -o %t/fdtd.o
// WARN: warning: no launcher for 'fdtd_2d' in the header: kernel 'fdtd_2d_kernel' is launched inside 'scf.for' at {{.*}}fdtd-2d.mlir:19:3; call it through a bundle
// LOOP: static inline CUresult fdtd_load(
// LOOP: /* fdtd_2d: no launcher, because kernel 'fdtd_2d_kernel' is launched inside 'scf.for' at {{.*}}fdtd-2d.mlir:19:3; call it through a bundle. */
// LOOP: #endif /* FDTD_THREADBIND_H */

// Standard output gets the prefix "threadbind".
// RUN: threadbind-compile %S/../../../examples/launcher/kernels.mlir --emit header -o - | FileCheck %s --check-prefix=STDOUT
// Without ptxas, the PTX alone.
// RUN: mkdir -p %t/no-ptxas/bin
// RUN: threadbind-compile %S/../../../examples/launcher/kernels.mlir --cuda-path %t/no-ptxas --emit header -o %t/ptx-only.h 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=PTXONLY < %t/ptx-only.h
// QUIET-NOT: ptxas
// PTXONLY-NOT: _cubin
// PTXONLY: if ((r = cuModuleLoadData(&m->module, ptx_only_ptx)) != CUDA_SUCCESS) {
// STDOUT: static inline CUresult threadbind_load(threadbind_module *m) {

// A program whose loops all folded away still gives a header that compiles
// under -Wextra (no loop compares an index with a count of 0).
// RUN: threadbind-compile %S/no-kernels.mlir --emit header -o %t/none.h 2>/dev/null
// RUN: FileCheck %s --check-prefix=NONE < %t/none.h
// RUN: sed -e 's/kernels.h/none.h/' %t/use.c > %t/none.c
// RUN: cc -std=c99 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/none.c -o %t/none.o
// RUN: cp %t/none.c %t/none.cpp
// RUN: c++ -std=c++17 -Wall -Wextra -Werror -I%t -I%cuda_include -c %t/none.cpp -o %t/none.o
// NONE: enum { none_kernel_count = 0 };
// NONE: static const char *const none_kernel_names[1] = {NULL};
