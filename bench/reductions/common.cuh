// What the CUB and hand-written reduction benchmarks share: their inputs,
// and how a call is timed.
#ifndef THREADBIND_BENCH_REDUCTIONS_COMMON_CUH
#define THREADBIND_BENCH_REDUCTIONS_COMMON_CUH

#include <algorithm>
#include <cstdint>
#include <vector>

// x[i] in [-1, 1), from a hash of i ^ salt: the same data for the same
// salt in every benchmark.
__global__ void fill(float *x, int64_t n, uint32_t salt = 0) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = (uint32_t(i) ^ salt) * 2654435761u;
    x[i] = float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

// The times in ms, sorted, of 30 calls of `launch` after 5 warm-up calls,
// each between two events on the default stream.
template <typename Launch> std::vector<float> timeSorted(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int w = 0; w < 5; ++w)
    launch();
  std::vector<float> times;
  for (int r = 0; r < 30; ++r) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times;
}

#endif // THREADBIND_BENCH_REDUCTIONS_COMMON_CUH
