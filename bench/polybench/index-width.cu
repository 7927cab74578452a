// gemm's k loop with 32-bit and with 64-bit indices, to see how ptxas
// schedules each (session 7's finding on gemm at 512). Not a benchmark:
// compile and read the SASS,
//   nvcc -arch=sm_90 -O3 -cubin index-width.cu -o index-width.cubin
//   cuobjdump -sass index-width.cubin | grep -E 'Function|LDG|FFMA'
// With int indices (CUDA 13, 2026-11-26) ptxas unrolls the loop by 16 and
// issues a dozen loads before the first FFMA; with long indices it
// unrolls by 4 and interleaves two loads with each FFMA, as it does for
// ThreadBind's 64-bit index loops.
template <typename I>
__global__ void gemmIndexWidth(I ni, I nj, I nk, float alpha, float beta,
                               float *__restrict__ C,
                               const float *__restrict__ A,
                               const float *__restrict__ B) {
  I i = (I)blockIdx.y * blockDim.y + threadIdx.y;
  I j = (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ni || j >= nj)
    return;
  float acc = C[i * nj + j] * beta;
  for (I k = 0; k < nk; ++k)
    acc += alpha * A[i * nk + k] * B[k * nj + j];
  C[i * nj + j] = acc;
}

template __global__ void gemmIndexWidth<int>(int, int, int, float, float,
                                             float *, const float *,
                                             const float *);
template __global__ void gemmIndexWidth<long>(long, long, long, float, float,
                                              float *, const float *,
                                              const float *);
