// Hand-written CUDA twins of the reductions ThreadBind maps, the reference
// its dot product, maximum and row sums are reported against (the f32 sum
// is measured against CUB, cub_sum.cu). Written as a careful CUDA
// programmer would: grid-stride loops over float4 loads on an
// occupancy-sized grid, a warp-shuffle tree, the warps' results through
// shared memory, and a second one-block pass over the blocks' results (the
// same deterministic scheme as ThreadBind's default). Row sums take one
// block a row. Each result is the median of 30 event-timed calls (both
// launches inside the events) after 5 warm-up calls.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 hand_reductions.cu -o hand_reductions
#include "common.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kThreads = 256;

struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
  static constexpr float identity = 0.0f;
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
  static constexpr float identity = -__builtin_huge_valf();
};

template <typename Op> __device__ float warpReduce(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = Op()(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The block's result, valid in thread 0.
template <typename Op> __device__ float blockReduce(float v) {
  __shared__ float warps[kThreads / 32];
  v = warpReduce<Op>(v);
  if (threadIdx.x % 32 == 0)
    warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : Op::identity;
  return warpReduce<Op>(v);
}

// Pass 1 of a full reduction of x (or of x*y when y is given): n a
// multiple of 4, as at the sizes measured.
template <typename Op>
__global__ void partials(const float4 *x, const float4 *y, int64_t n4,
                         float *blocks) {
  float acc = Op::identity;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4;
       i += int64_t(gridDim.x) * blockDim.x) {
    float4 a = x[i];
    if (y) {
      float4 b = y[i];
      a.x *= b.x, a.y *= b.y, a.z *= b.z, a.w *= b.w;
    }
    acc = Op()(acc, Op()(Op()(a.x, a.y), Op()(a.z, a.w)));
  }
  float block = blockReduce<Op>(acc);
  if (threadIdx.x == 0)
    blocks[blockIdx.x] = block;
}

template <typename Op>
__global__ void finish(const float *blocks, int count, float *out) {
  float acc = Op::identity;
  for (int i = threadIdx.x; i < count; i += blockDim.x)
    acc = Op()(acc, blocks[i]);
  float total = blockReduce<Op>(acc);
  if (threadIdx.x == 0)
    *out = total;
}

__global__ void rowSums(const float4 *m, int64_t cols4, float *out) {
  const float4 *row = m + blockIdx.x * cols4;
  float acc = 0.0f;
  for (int64_t j = threadIdx.x; j < cols4; j += blockDim.x) {
    float4 a = row[j];
    acc += (a.x + a.y) + (a.z + a.w);
  }
  float total = blockReduce<Sum>(acc);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}

template <typename Launch>
void timeIt(const char *entry, const char *size, double bytes,
            Launch launch) {
  std::vector<float> times = timeSorted(launch);
  float median = times[times.size() / 2];
  std::printf("RESULT system=hand entry=%s size=%s median_ms=%.6f "
              "min_ms=%.6f gbps=%.2f error=%s\n",
              entry, size, median, times.front(), bytes / (median * 1e6),
              cudaGetErrorString(cudaGetLastError()));
}

int main() {
  int device = 0, sms = 0, perSM = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, partials<Sum>,
                                                kThreads, 0);
  int grid = sms * perSM;
  const int64_t n = int64_t(1) << 28;
  float *x, *y, *blocks, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&blocks, grid * sizeof(float));
  cudaMalloc(&out, 8192 * sizeof(float));
  fill<<<1024, 256>>>(x, n, 0);
  fill<<<1024, 256>>>(y, n, 0x5bd1e995u);
  auto x4 = reinterpret_cast<const float4 *>(x);
  auto y4 = reinterpret_cast<const float4 *>(y);
  timeIt("sum_f32", "268435456", n * 4.0, [&] {
    partials<Sum><<<grid, kThreads>>>(x4, nullptr, n / 4, blocks);
    finish<Sum><<<1, kThreads>>>(blocks, grid, out);
  });
  timeIt("dot_f32", "268435456", n * 8.0, [&] {
    partials<Sum><<<grid, kThreads>>>(x4, y4, n / 4, blocks);
    finish<Sum><<<1, kThreads>>>(blocks, grid, out);
  });
  timeIt("maxnum_f32", "268435456", n * 4.0, [&] {
    partials<Max><<<grid, kThreads>>>(x4, nullptr, n / 4, blocks);
    finish<Max><<<1, kThreads>>>(blocks, grid, out);
  });
  timeIt("row_sums_f32", "8192,8192", 8192.0 * 8192 * 4, [&] {
    rowSums<<<8192, kThreads>>>(x4, 8192 / 4, out);
  });
  cudaFree(out);
  cudaFree(blocks);
  cudaFree(y);
  cudaFree(x);
  return 0;
}
