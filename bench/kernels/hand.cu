// Hand-written CUDA twins of the benchmark kernels: what a careful CUDA
// programmer writes for each, compiled with nvcc -O3 for sm_90. Parameters
// follow the harness's convention: every memref's data pointer in the MLIR
// function's argument order, then its scalars, then the sizes of its first
// memref.
//
// 1-D kernels are grid-stride loops over float4, with a scalar tail.

#include <cstdint>
#include <cuda_fp16.h>

namespace {
__device__ inline int64_t globalThread() {
  return int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline int64_t gridThreads() {
  return int64_t(gridDim.x) * blockDim.x;
}
} // namespace

extern "C" __global__ void vector_add_hand(const float *a, const float *b,
                                           float *c, int64_t n) {
  int64_t n4 = n / 4;
  const float4 *a4 = reinterpret_cast<const float4 *>(a);
  const float4 *b4 = reinterpret_cast<const float4 *>(b);
  float4 *c4 = reinterpret_cast<float4 *>(c);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 x = a4[i], y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    c[i] = a[i] + b[i];
}

// Eight halves a thread an iteration through one 16-byte load of each
// input, added as four half2 pairs.
extern "C" __global__ void vector_add_f16_hand(const __half *a,
                                               const __half *b, __half *c,
                                               int64_t n) {
  int64_t n8 = n / 8;
  const uint4 *a8 = reinterpret_cast<const uint4 *>(a);
  const uint4 *b8 = reinterpret_cast<const uint4 *>(b);
  uint4 *c8 = reinterpret_cast<uint4 *>(c);
  for (int64_t i = globalThread(); i < n8; i += gridThreads()) {
    uint4 x = a8[i], y = b8[i], z;
    const __half2 *xh = reinterpret_cast<const __half2 *>(&x);
    const __half2 *yh = reinterpret_cast<const __half2 *>(&y);
    __half2 *zh = reinterpret_cast<__half2 *>(&z);
    for (int k = 0; k < 4; ++k)
      zh[k] = __hadd2(xh[k], yh[k]);
    c8[i] = z;
  }
  for (int64_t i = 8 * n8 + globalThread(); i < n; i += gridThreads())
    c[i] = __hadd(a[i], b[i]);
}

extern "C" __global__ void saxpy_hand(const float *x, float *y, float a,
                                      int64_t n) {
  int64_t n4 = n / 4;
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  float4 *y4 = reinterpret_cast<float4 *>(y);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 u = x4[i], v = y4[i];
    y4[i] = make_float4(a * u.x + v.x, a * u.y + v.y, a * u.z + v.z,
                        a * u.w + v.w);
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void triad_hand(float *a, const float *b,
                                      const float *c, float s, int64_t n) {
  int64_t n4 = n / 4;
  float4 *a4 = reinterpret_cast<float4 *>(a);
  const float4 *b4 = reinterpret_cast<const float4 *>(b);
  const float4 *c4 = reinterpret_cast<const float4 *>(c);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 u = b4[i], v = c4[i];
    a4[i] = make_float4(u.x + s * v.x, u.y + s * v.y, u.z + s * v.z,
                        u.w + s * v.w);
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    a[i] = b[i] + s * c[i];
}

// Branch-free, as the hand version of a branchy ReLU would be written.
extern "C" __global__ void relu_hand(const float *x, float *y, int64_t n) {
  int64_t n4 = n / 4;
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  float4 *y4 = reinterpret_cast<float4 *>(y);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 v = x4[i];
    y4[i] = make_float4(fmaxf(v.x, 0.f), fmaxf(v.y, 0.f), fmaxf(v.z, 0.f),
                        fmaxf(v.w, 0.f));
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    y[i] = fmaxf(x[i], 0.f);
}

extern "C" __global__ void clamp_hand(const float *x, float *y, float lo,
                                      float hi, int64_t n) {
  int64_t n4 = n / 4;
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  float4 *y4 = reinterpret_cast<float4 *>(y);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 v = x4[i];
    y4[i] = make_float4(fminf(fmaxf(v.x, lo), hi), fminf(fmaxf(v.y, lo), hi),
                        fminf(fmaxf(v.z, lo), hi), fminf(fmaxf(v.w, lo), hi));
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    y[i] = fminf(fmaxf(x[i], lo), hi);
}

// The same without float4: one element per thread per iteration, as
// ThreadBind binds it today, so the comparison isolates the branch.
extern "C" __global__ void relu_scalar_hand(const float *x, float *y,
                                            int64_t n) {
  for (int64_t i = globalThread(); i < n; i += gridThreads())
    y[i] = fmaxf(x[i], 0.f);
}

extern "C" __global__ void clamp_scalar_hand(const float *x, float *y,
                                             float lo, float hi, int64_t n) {
  for (int64_t i = globalThread(); i < n; i += gridThreads())
    y[i] = fminf(fmaxf(x[i], lo), hi);
}

// saxpy one element per thread per iteration. Launched with an
// occupancy-sized grid it is the scalar grid-stride loop; launched with one
// thread per element (the harness's `cover`) its loop runs once, which makes
// it the classic `if (i < n)` kernel that hand CUDA writes for odd sizes.
extern "C" __global__ void saxpy_scalar_hand(const float *x, float *y,
                                             float a, int64_t n) {
  for (int64_t i = globalThread(); i < n; i += gridThreads())
    y[i] = a * x[i] + y[i];
}

// Row-major and contiguous: the same float4 grid-stride loop as a vector.
extern "C" __global__ void add_2d_hand(const float *a, const float *b,
                                       float *c, int64_t rows, int64_t cols) {
  int64_t n = rows * cols, n4 = n / 4;
  const float4 *a4 = reinterpret_cast<const float4 *>(a);
  const float4 *b4 = reinterpret_cast<const float4 *>(b);
  float4 *c4 = reinterpret_cast<float4 *>(c);
  for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
    float4 x = a4[i], y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
    c[i] = a[i] + b[i];
}

// Shared-memory tiled transpose: 32x32 tiles, 32x8 threads, one padding
// column against bank conflicts. Launched with one block per tile.
extern "C" __global__ void transpose_hand(const float *in, float *out,
                                          int64_t rows, int64_t cols) {
  __shared__ float tile[32][33];
  int64_t x = int64_t(blockIdx.x) * 32 + threadIdx.x;
  int64_t y = int64_t(blockIdx.y) * 32 + threadIdx.y;
  for (int k = 0; k < 32; k += 8)
    if (x < cols && y + k < rows)
      tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * cols + x];
  __syncthreads();
  x = int64_t(blockIdx.y) * 32 + threadIdx.x;
  y = int64_t(blockIdx.x) * 32 + threadIdx.y;
  for (int k = 0; k < 32; k += 8)
    if (x < rows && y + k < cols)
      out[(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

// One interior point per thread, 32x8 blocks covering the interior.
extern "C" __global__ void stencil_hand(const float *in, float *out,
                                        int64_t rows, int64_t cols) {
  int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x + 1;
  int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y + 1;
  if (i >= rows - 1 || j >= cols - 1)
    return;
  int64_t k = i * cols + j;
  out[k] = 0.2f * (in[k] + in[k - cols] + in[k + cols] + in[k - 1] +
                   in[k + 1]);
}

// Hand-specialised on the flag: the branch is decided once, outside the
// loop.
extern "C" __global__ void uniform_flag_hand(const float *x, float *y,
                                             int32_t flag, int64_t n) {
  int64_t n4 = n / 4;
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  float4 *y4 = reinterpret_cast<float4 *>(y);
  if (flag) {
    for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
      float4 v = x4[i];
      y4[i] = make_float4(v.x * 2.f, v.y * 2.f, v.z * 2.f, v.w * 2.f);
    }
    for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
      y[i] = x[i] * 2.f;
  } else {
    for (int64_t i = globalThread(); i < n4; i += gridThreads()) {
      float4 v = x4[i];
      y4[i] = make_float4(v.x + 1.f, v.y + 1.f, v.z + 1.f, v.w + 1.f);
    }
    for (int64_t i = 4 * n4 + globalThread(); i < n; i += gridThreads())
      y[i] = x[i] + 1.f;
  }
}

// Specialised by hand: the flag is tested once, each loop has one step.
extern "C" __global__ void uniform_poly_hand(const float *x, float *y,
                                             int32_t flag, int64_t n) {
  if (flag) {
    for (int64_t i = globalThread(); i < n; i += gridThreads()) {
      float v = x[i];
      for (int k = 0; k < 256; ++k)
        v = v * 0.999f + 0.001f;
      y[i] = v;
    }
  } else {
    for (int64_t i = globalThread(); i < n; i += gridThreads()) {
      float v = x[i];
      for (int k = 0; k < 256; ++k)
        v = (v + 0.001f) * 0.999f;
      y[i] = v;
    }
  }
}

// The heavy bodies stay a branch; nothing better exists for them.
extern "C" __global__ void branchy_hand(const float *x, float *y, int64_t n) {
  for (int64_t i = globalThread(); i < n; i += gridThreads()) {
    float v = x[i];
    if (v > 0.f) {
      for (int k = 0; k < 16; ++k)
        v = v * 0.999f + 0.001f;
    } else {
      for (int k = 0; k < 16; ++k)
        v = (v - 0.002f) * 1.001f;
    }
    y[i] = v;
  }
}
