// CUB's DeviceReduce::Sum on f32, the reference the reduction mapping is
// measured against: 2^16 and 2^28 elements, inputs in [-1, 1), median of
// 30 event-timed calls after 5 warm-up calls. Each call runs CUB's own
// kernels (and the gap between them); the events bracket the call.
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 cub_sum.cu -o cub_sum
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void fill(float *x, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u;
    x[i] = float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

int main() {
  for (int64_t n : {int64_t(1) << 16, int64_t(1) << 28}) {
    float *x = nullptr, *out = nullptr;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    fill<<<1024, 256>>>(x, n);
    void *scratch = nullptr;
    size_t scratchBytes = 0;
    cub::DeviceReduce::Sum(scratch, scratchBytes, x, out, n);
    cudaMalloc(&scratch, scratchBytes);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int w = 0; w < 5; ++w)
      cub::DeviceReduce::Sum(scratch, scratchBytes, x, out, n);
    std::vector<float> times;
    for (int r = 0; r < 30; ++r) {
      cudaEventRecord(start);
      cub::DeviceReduce::Sum(scratch, scratchBytes, x, out, n);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    float median = times[times.size() / 2];
    std::printf("RESULT system=cub entry=sum_f32 n=%lld median_ms=%.6f "
                "min_ms=%.6f gbps=%.2f error=%s\n",
                (long long)n, median, times.front(),
                n * sizeof(float) / (median * 1e6),
                cudaGetErrorString(cudaGetLastError()));
    cudaFree(scratch);
    cudaFree(out);
    cudaFree(x);
  }
  return 0;
}
