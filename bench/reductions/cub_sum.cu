// CUB's DeviceReduce::Sum on f32, the reference the reduction mapping is
// measured against: 2^16 and 2^28 elements, inputs in [-1, 1), median of
// 30 event-timed calls after 5 warm-up calls. Each call runs CUB's own
// kernels (and the gap between them); the events bracket the call.
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 cub_sum.cu -o cub_sum
#include <cub/cub.cuh>

#include "common.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

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
    std::vector<float> times = timeSorted(
        [&] { cub::DeviceReduce::Sum(scratch, scratchBytes, x, out, n); });
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
