//===- params.cu - What a launch's parameter count costs ------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// ThreadBind's kernels take every memref as its whole descriptor (two
// pointers, an offset, sizes and strides: 7 words for a 2-D memref), so
// jacobi-2d's sweep takes 21 64-bit parameters where the hand twin takes 3
// (an int and two pointers). At 16^2 points (500 steps, 1000 launches) the
// bundle spends about 4.6 us a launch and the twin 3.5-4.3
// (bench/results/2026-11-29-align-3d-h200.md). Does the parameter count
// account for it? The same trivial kernel (one thread stores one word)
// with 3, 8, 21 and 42 parameters, launched N times back to back through
// the driver (cuLaunchKernel, as the runtime launches) and through the
// runtime API:
//   - host: wall time of the N launch calls alone (the host's cost);
//   - total: events around the N launches, synchronised (what the GPU
//     sees, launch throughput included).
//
//   nvcc -O3 -arch=sm_90 -o params params.cu -lcuda && ./params [N]
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

namespace {

__global__ void p3(int n, float *a, float *b) {
  if (threadIdx.x == 0 && n < 0)
    a[0] = b[0];
}

__global__ void p8(float *a, int64_t x1, int64_t x2, int64_t x3, int64_t x4,
                   int64_t x5, int64_t x6, int64_t x7) {
  if (threadIdx.x == 0 && x1 + x2 + x3 + x4 + x5 + x6 + x7 < 0)
    a[0] = 0;
}

// 21 and 42 separate parameters, as MLIR's lowering passes them.
__global__ void p21(float *a, int64_t x1, int64_t x2, int64_t x3, int64_t x4,
                    int64_t x5, int64_t x6, int64_t x7, int64_t x8,
                    int64_t x9, int64_t x10, int64_t x11, int64_t x12,
                    int64_t x13, int64_t x14, int64_t x15, int64_t x16,
                    int64_t x17, int64_t x18, int64_t x19, int64_t x20) {
  if (threadIdx.x == 0 && x1 + x20 < 0)
    a[0] = 0;
}

__global__ void p42(float *a, int64_t x1, int64_t x2, int64_t x3, int64_t x4,
                    int64_t x5, int64_t x6, int64_t x7, int64_t x8,
                    int64_t x9, int64_t x10, int64_t x11, int64_t x12,
                    int64_t x13, int64_t x14, int64_t x15, int64_t x16,
                    int64_t x17, int64_t x18, int64_t x19, int64_t x20,
                    int64_t y1, int64_t y2, int64_t y3, int64_t y4,
                    int64_t y5, int64_t y6, int64_t y7, int64_t y8,
                    int64_t y9, int64_t y10, int64_t y11, int64_t y12,
                    int64_t y13, int64_t y14, int64_t y15, int64_t y16,
                    int64_t y17, int64_t y18, int64_t y19, int64_t y20,
                    int64_t y21) {
  if (threadIdx.x == 0 && x1 + y21 < 0)
    a[0] = 0;
}

struct Timing {
  double hostUs, totalUs;
};

/// N launches of `launch`, timed on the host and by events.
template <typename Launch>
Timing timeLaunches(int n, Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int i = 0; i < 100; ++i)
    launch();
  cudaDeviceSynchronize();
  cudaEventRecord(start);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    launch();
  auto t1 = std::chrono::steady_clock::now();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return {std::chrono::duration<double, std::micro>(t1 - t0).count() / n,
          ms * 1000.0 / n};
}

} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  float *a;
  cudaMalloc(&a, 16);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device %s, %d launches a measurement\n", prop.name, n);
  // The driver's handles for the same kernels.
  CUfunction f3, f8, f21, f42;
  cudaGetFuncBySymbol(&f3, (const void *)p3);
  cudaGetFuncBySymbol(&f8, (const void *)p8);
  cudaGetFuncBySymbol(&f21, (const void *)p21);
  cudaGetFuncBySymbol(&f42, (const void *)p42);
  int iv = 7;
  std::vector<int64_t> words(64, 1);
  void *ptrA = a;
  std::vector<void *> args(64);
  auto driver = [&](CUfunction f, int count, bool firstInt) {
    args[0] = firstInt ? (void *)&iv : (void *)&ptrA;
    for (int i = 1; i < count; ++i)
      args[i] = i <= 2 && firstInt ? (void *)&ptrA : (void *)&words[i];
    return [=]() {
      cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr,
                     const_cast<void **>(args.data()), nullptr);
    };
  };
  for (int round = 0; round < 3; ++round) {
    struct Case {
      const char *name;
      int count;
      CUfunction f;
      bool firstInt;
    } cases[] = {{"params=3", 3, f3, true},
                 {"params=8", 8, f8, false},
                 {"params=21", 21, f21, false},
                 {"params=42", 42, f42, false}};
    for (const Case &c : cases) {
      Timing t = timeLaunches(n, driver(c.f, c.count, c.firstInt));
      std::printf("TIME round=%d api=driver %s host_us=%.3f total_us=%.3f\n",
                  round, c.name, t.hostUs, t.totalUs);
    }
    Timing rt3 = timeLaunches(n, [&] { p3<<<1, 32>>>(iv, a, a); });
    std::printf("TIME round=%d api=runtime params=3 host_us=%.3f "
                "total_us=%.3f\n",
                round, rt3.hostUs, rt3.totalUs);
    Timing rt21 = timeLaunches(n, [&] {
      p21<<<1, 32>>>(a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                     17, 18, 19, 20);
    });
    std::printf("TIME round=%d api=runtime params=21 host_us=%.3f "
                "total_us=%.3f\n",
                round, rt21.hostUs, rt21.totalUs);
  }
  cudaFree(a);
  return 0;
}
