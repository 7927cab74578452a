/* Uses the header examples/launcher/kernels.mlir gives (install-header.mlir):
   loads the module and calls two launchers, so that their signatures are
   checked by the compiler. Never run. */
#include "kernels.h"

int launch_all(CUstream stream, float *x, float *y, int64_t n,
               int32_t *values, int32_t *total) {
  kernels_module m;
  if (kernels_load(&m) != CUDA_SUCCESS)
    return 1;
  if (kernels_saxpy(&m, stream, 2.0f, x, n, y, n) != CUDA_SUCCESS ||
      kernels_sum(&m, stream, values, n, total) != CUDA_SUCCESS)
    return 2;
  return kernels_unload(&m) != CUDA_SUCCESS;
}
