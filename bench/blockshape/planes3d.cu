//===- planes3d.cu - How blocks walk the planes of a 3-D stencil ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A question for the mapping of 3-D nests: a grid-stride grid too small to
// cover the outer dimension hands each block several planes. Today a block
// takes planes blockIdx.z, blockIdx.z + gridDim.z, ... (cyclic); a block
// could instead take a run of consecutive planes (blocked), so the planes a
// stencil reads around plane i are the ones it read around plane i - 1, in
// the same SM's L1.
//
// Three stencils over an n^3 f32 field (the interior of PolyBench/GPU's
// 3DCONV, a 7-point Laplacian, a 27-point box sum) and a copy, each as:
//   cover    one block a 64x4 (or 32x8) tile of a plane, gridDim.z planes
//   cyclic   64x4x1 blocks, an occupancy-sized grid, planes cyclic
//   blocked  the same grid, each block a run of consecutive planes
//   balanced cyclic on the grid whose last two dimensions are balanced
//            (createGridStrideGrid in MapLoopsToThreads.cpp): the greedy
//            grid gives 382^3 only 6x96x1 of 1056 resident blocks
// all in 32-bit indexing, checked against each other exactly, timed by
// events around 50 launches (median of 5 such).
//
//   nvcc -O3 -arch=sm_90 -o planes3d planes3d.cu && ./planes3d [n ...]
//   ./planes3d n XxYxZ ...   cover-64x4 and cyclic 64x4 on the grids given
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace {

enum Stencil { Conv, Lap7, Box27, Copy };
const char *stencilName[] = {"conv3d", "lap7", "box27", "copy"};

template <Stencil S>
__device__ __forceinline__ float point(const float *__restrict__ A, int n,
                                       int i, int j, int k) {
  auto a = [=](int di, int dj, int dk) {
    return A[((i + di) * n + (j + dj)) * n + (k + dk)];
  };
  if constexpr (S == Conv) {
    const float c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9,
                c13 = 4, c23 = 7, c33 = 10;
    return c11 * a(-1, -1, -1) + c13 * a(1, -1, -1) + c21 * a(-1, -1, -1) +
           c23 * a(1, -1, -1) + c31 * a(-1, -1, -1) + c33 * a(1, -1, -1) +
           c12 * a(0, -1, 0) + c22 * a(0, 0, 0) + c32 * a(0, 1, 0) +
           c11 * a(-1, -1, 1) + c13 * a(1, -1, 1) + c21 * a(-1, 0, 1) +
           c23 * a(1, 0, 1) + c31 * a(-1, 1, 1) + c33 * a(1, 1, 1);
  } else if constexpr (S == Lap7) {
    return a(-1, 0, 0) + a(1, 0, 0) + a(0, -1, 0) + a(0, 1, 0) + a(0, 0, -1) +
           a(0, 0, 1) - 6.0f * a(0, 0, 0);
  } else if constexpr (S == Box27) {
    float s = 0;
#pragma unroll
    for (int di = -1; di <= 1; ++di)
#pragma unroll
      for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
        for (int dk = -1; dk <= 1; ++dk)
          s += a(di, dj, dk);
    return s;
  } else {
    return a(0, 0, 0);
  }
}

/// One block a tile of plane 1 + blockIdx.z.
template <Stencil S>
__global__ void cover(const float *__restrict__ A, float *__restrict__ B,
                      int n) {
  int i = 1 + blockIdx.z;
  int j = 1 + blockIdx.y * blockDim.y + threadIdx.y;
  int k = 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1 && j < n - 1 && k < n - 1)
    B[(i * n + j) * n + k] = point<S>(A, n, i, j, k);
}

/// Grid-stride in all three dimensions; planes cyclic over gridDim.z.
template <Stencil S>
__global__ void cyclic(const float *__restrict__ A, float *__restrict__ B,
                       int n) {
  for (int i = 1 + blockIdx.z; i < n - 1; i += gridDim.z)
    for (int j = 1 + blockIdx.y * blockDim.y + threadIdx.y; j < n - 1;
         j += gridDim.y * blockDim.y)
      for (int k = 1 + blockIdx.x * blockDim.x + threadIdx.x; k < n - 1;
           k += gridDim.x * blockDim.x)
        B[(i * n + j) * n + k] = point<S>(A, n, i, j, k);
}

/// Grid-stride in x and y; block z takes ceil((n-2)/gridDim.z) consecutive
/// planes.
template <Stencil S>
__global__ void blocked(const float *__restrict__ A, float *__restrict__ B,
                        int n) {
  int planes = n - 2;
  int run = (planes + gridDim.z - 1) / gridDim.z;
  int first = 1 + blockIdx.z * run;
  int last = min(n - 1, first + run);
  for (int i = first; i < last; ++i)
    for (int j = 1 + blockIdx.y * blockDim.y + threadIdx.y; j < n - 1;
         j += gridDim.y * blockDim.y)
      for (int k = 1 + blockIdx.x * blockDim.x + threadIdx.x; k < n - 1;
           k += gridDim.x * blockDim.x)
        B[(i * n + j) * n + k] = point<S>(A, n, i, j, k);
}

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

/// Grids given as XxYxZ arguments: then each stencil runs cover-64x4 and
/// cyclic 64x4 blocks on each of these grids instead of the variants below.
std::vector<dim3> givenGrids;

/// ThreadBind's greedy grid-stride grid for block bx*by: x, then y, then z
/// capped by the resident blocks (what streams and box filters launch).
dim3 residentGrid(int n, int bx, int by, int resident) {
  int interior = n - 2;
  int gx = std::max(1, std::min(ceilDiv(interior, bx), resident));
  int left = std::max(1, resident / gx);
  int gy = std::max(1, std::min(ceilDiv(interior, by), left));
  left = std::max(1, left / gy);
  int gz = std::max(1, std::min(interior, left));
  return dim3(gx, gy, gz);
}

/// The balanced grid-stride grid ThreadBind launches for 3-D stencils in
/// one-plane blocks: y and z share what x leaves, z promised min(its need,
/// 16) blocks; kept where it gives a block fewer tiles than residentGrid's.
dim3 balancedGrid(int n, int bx, int by, int resident) {
  dim3 greedy = residentGrid(n, bx, by, resident);
  int interior = n - 2;
  int needY = ceilDiv(interior, by), needZ = interior;
  int pairCap = std::max(1, resident / int(greedy.x));
  int promised = std::min(needZ, 16);
  int yShare = std::max(1, pairCap / promised);
  int steps = ceilDiv(needY, yShare);
  int gy = std::max(1, std::min(ceilDiv(needY, steps), pairCap));
  int gz = std::max(1, std::min(needZ, std::max(1, pairCap / gy)));
  auto tiles = [&](int y, int z) {
    return ceilDiv(needY, y) * ceilDiv(needZ, z);
  };
  if (tiles(gy, gz) < tiles(greedy.y, greedy.z))
    return dim3(greedy.x, gy, gz);
  return greedy;
}

template <typename Launch>
float timeIt(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
  cudaDeviceSynchronize();
  std::vector<float> rounds;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(start);
    for (int it = 0; it < 50; ++it)
      launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    rounds.push_back(ms / 50);
  }
  std::sort(rounds.begin(), rounds.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return rounds[2];
}

template <Stencil S>
int run(int n, const float *dA, float *dB, int resident) {
  size_t count = size_t(n) * n * n;
  std::vector<float> ref(count), got(count);
  struct Variant {
    const char *name;
    void (*kernel)(const float *, float *, int);
    dim3 block, grid;
  };
  dim3 b64(64, 4), b32(32, 8);
  std::vector<Variant> variants = {
      {"cover-32x8", cover<S>, b32,
       dim3(ceilDiv(n - 2, 32), ceilDiv(n - 2, 8), n - 2)},
      {"cover-64x4", cover<S>, b64,
       dim3(ceilDiv(n - 2, 64), ceilDiv(n - 2, 4), n - 2)},
      {"cyclic-64x4", cyclic<S>, b64, residentGrid(n, 64, 4, resident)},
      {"blocked-64x4", blocked<S>, b64, residentGrid(n, 64, 4, resident)},
      {"cyclic-32x8", cyclic<S>, b32, residentGrid(n, 32, 8, resident)},
      {"balanced-64x4", cyclic<S>, b64, balancedGrid(n, 64, 4, resident)},
      {"balanced-32x8", cyclic<S>, b32, balancedGrid(n, 32, 8, resident)},
      {"blocked-32x8", blocked<S>, b32, residentGrid(n, 32, 8, resident)},
  };
  if (!givenGrids.empty()) {
    // cover-64x4, then cyclic on each grid given.
    variants = {variants[1]};
    for (dim3 g : givenGrids)
      variants.push_back({"cyclic-64x4-given", cyclic<S>, b64, g});
  } else {
    // Blocked runs over twice and four times the resident grid's planes.
    for (int m : {2, 4}) {
      Variant v = {m == 2 ? "blocked-64x4-z2" : "blocked-64x4-z4", blocked<S>,
                   b64, residentGrid(n, 64, 4, resident)};
      v.grid.z = std::min(n - 2, int(v.grid.z) * m);
      variants.push_back(v);
    }
  }
  int failures = 0;
  for (size_t v = 0; v < variants.size(); ++v) {
    const Variant &x = variants[v];
    cudaMemset(dB, 0, count * sizeof(float));
    x.kernel<<<x.grid, x.block>>>(dA, dB, n);
    if (cudaError_t e = cudaDeviceSynchronize()) {
      std::printf("ERROR %s: %s\n", x.name, cudaGetErrorString(e));
      return 1;
    }
    cudaMemcpy(v ? got.data() : ref.data(), dB, count * sizeof(float),
               cudaMemcpyDeviceToHost);
    bool same = !v || std::equal(ref.begin(), ref.end(), got.begin());
    failures += !same;
    float ms = timeIt([&] { x.kernel<<<x.grid, x.block>>>(dA, dB, n); });
    std::printf("TIME n=%d stencil=%s variant=%s grid=%ux%ux%u ms=%.4f %s\n",
                n, stencilName[S], x.name, x.grid.x, x.grid.y, x.grid.z, ms,
                same ? "same" : "DIFFERENT");
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> sizes;
  for (int a = 1; a < argc; ++a)
    if (unsigned x, y, z; std::sscanf(argv[a], "%ux%ux%u", &x, &y, &z) == 3)
      givenGrids.push_back(dim3(x, y, z));
    else
      sizes.push_back(std::atoi(argv[a]));
  if (sizes.empty())
    sizes = {256, 192, 130};
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // 256-thread blocks: 2048 threads a multiprocessor hold 8.
  int resident = prop.multiProcessorCount * 8;
  std::printf("device %s, %d multiprocessors, %d resident blocks\n",
              prop.name, prop.multiProcessorCount, resident);
  int failures = 0;
  for (int n : sizes) {
    size_t count = size_t(n) * n * n;
    std::vector<float> host(count);
    unsigned seed = 12345;
    for (float &x : host) {
      seed = seed * 1103515245u + 12345u;
      x = float((seed >> 9) & 1023) / 64.0f;
    }
    float *dA, *dB;
    cudaMalloc(&dA, count * sizeof(float));
    cudaMalloc(&dB, count * sizeof(float));
    cudaMemcpy(dA, host.data(), count * sizeof(float), cudaMemcpyHostToDevice);
    failures += run<Conv>(n, dA, dB, resident);
    failures += run<Lap7>(n, dA, dB, resident);
    failures += run<Box27>(n, dA, dB, resident);
    failures += run<Copy>(n, dA, dB, resident);
    cudaFree(dA);
    cudaFree(dB);
  }
  std::printf("%s\n", failures ? "FAILED" : "all variants agree");
  return failures != 0;
}
