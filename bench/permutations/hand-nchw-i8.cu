// Hand-written i8 NCHW->NHWC kernels, to find what a staged layout change
// can reach beside a copy of the same bytes on a GPU: a 128x128 tile of
// 4-byte accesses in 32x4 blocks with 4x4 byte transposes in registers
// (the shape of ThreadBind's packed launch), and of 16-byte accesses in
// blocks of 256 and 128 threads (the shape of its wide launch). Each
// result is checked against the CPU; times are medians of 50 runs.
//   nvcc -O3 -arch=sm_90 -std=c++17 hand-nchw-i8.cu -o hand-nchw-i8
// Results: bench/results/2026-11-27-i8-wide-h200.md.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__);exit(1);}}while(0)

__global__ void copyk(const uint4* __restrict__ a, uint4* __restrict__ b, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t s) {
  uint32_t r; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); return r;
}
// 4x4 byte transpose: in rows r0..r3 (bytes l0..l3), out words w_k = (r0[k], r1[k], r2[k], r3[k])
__device__ __forceinline__ void t4(uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3, uint32_t* w) {
  uint32_t a = prmt(r0, r1, 0x5140), b = prmt(r2, r3, 0x5140); // r0b0 r1b0 r0b1 r1b1
  uint32_t c = prmt(r0, r1, 0x7362), d = prmt(r2, r3, 0x7362);
  w[0] = prmt(a, b, 0x5410); w[1] = prmt(a, b, 0x7632);
  w[2] = prmt(c, d, 0x5410); w[3] = prmt(c, d, 0x7632);
}
// B: tile 128 (c) x 128 (p); 256 threads; 16-byte global accesses both ways.
template <int TPB>
__global__ void __launch_bounds__(TPB) nchw16(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int C, int P) {
  __shared__ uint32_t tile[128][32];
  int p0 = blockIdx.x * 128, c0 = blockIdx.y * 128; size_t n = blockIdx.z;
  const uint8_t* src = in + n * C * (size_t)P; uint8_t* dst = out + n * C * (size_t)P;
  int t = threadIdx.x;
  for (int base = 0; base < 256; base += TPB) {
    int tt = base + t; int q = tt % 8, r = tt / 8; // p chunk 16q, rows c 4r..4r+3
    uint4 v[4];
    for (int j = 0; j < 4; ++j) {
      int c = c0 + 4 * r + j, p = p0 + 16 * q;
      v[j] = (c < C && p < P) ? *(const uint4*)(src + (size_t)c * P + p) : make_uint4(0,0,0,0);
    }
    uint32_t* v0 = (uint32_t*)&v[0]; uint32_t* v1 = (uint32_t*)&v[1]; uint32_t* v2 = (uint32_t*)&v[2]; uint32_t* v3 = (uint32_t*)&v[3];
    for (int i = 0; i < 4; ++i) {
      uint32_t w[4]; t4(v0[i], v1[i], v2[i], v3[i], w);
      for (int k = 0; k < 4; ++k) {
        int l = 16 * q + 4 * i + k;
        tile[l][r ^ (q << 2)] = w[k];
      }
    }
  }
  __syncthreads();
  for (int base = 0; base < 1024; base += TPB) {
    int tt = base + t; int g = tt % 8, l = tt / 8; // row l (p), c chunk 16g
    int p = p0 + l, c = c0 + 16 * g;
    uint4 val = *(uint4*)&tile[l][(4 * g) ^ (((l / 16) & 7) << 2)];
    if (p < P && c < C) *(uint4*)(dst + (size_t)p * C + c) = val;
  }
}
// A: 4-byte accesses, 32x4 threads, 4x4 register transposes (like the compiler's).
__global__ void __launch_bounds__(128) nchw4(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int C, int P) {
  __shared__ uint32_t tile[128][32];
  int p0 = blockIdx.x * 128, c0 = blockIdx.y * 128; size_t n = blockIdx.z;
  const uint8_t* src = in + n * C * (size_t)P; uint8_t* dst = out + n * C * (size_t)P;
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int g = 0; g < 128; g += 32) {
    uint32_t v[8];
    for (int i = 0; i < 8; ++i) {
      int c = c0 + g + 4 * ty + (i / 4) * 16 + i % 4, p = p0 + 4 * tx;
      v[i] = (c < C && p < P) ? *(const uint32_t*)(src + (size_t)c * P + p) : 0;
    }
    for (int h = 0; h < 2; ++h) {
      uint32_t w[4]; t4(v[4*h], v[4*h+1], v[4*h+2], v[4*h+3], w);
      int cw = (g + 4 * ty + 16 * h) / 4;
      for (int k = 0; k < 4; ++k) tile[4 * tx + k][cw ^ tx] = w[k];
    }
  }
  __syncthreads();
  for (int l = ty; l < 128; l += 4) {
    int p = p0 + l, c = c0 + 4 * tx;
    uint32_t val = tile[l][tx ^ (l / 4)];
    if (p < P && c < C) *(uint32_t*)(dst + (size_t)p * C + c) = val;
  }
}
int main() {
  int shapes[][3] = {{32, 256, 3136}, {64, 128, 12544}, {8, 64, 3136}};
  for (auto& s : shapes) {
    int N = s[0], C = s[1], P = s[2]; size_t bytes = (size_t)N * C * P;
    std::vector<uint8_t> h(bytes), r(bytes);
    for (size_t i = 0; i < bytes; ++i) h[i] = (uint8_t)(i * 2654435761u >> 13);
    uint8_t *a, *b; CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto timeit = [&](const char* name, auto launch, bool check) {
      CK(cudaMemset(b, 0, bytes)); launch(); CK(cudaDeviceSynchronize());
      if (check) {
        CK(cudaMemcpy(r.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (int n = 0; n < N; ++n) for (int c = 0; c < C; ++c) for (int p = 0; p < P; ++p)
          bad += r[((size_t)n * P + p) * C + c] != h[((size_t)n * C + c) * P + p];
        if (bad) printf("  %s: %zu wrong\n", name, bad);
      }
      std::vector<float> ts;
      for (int i = 0; i < 50; ++i) { cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms); }
      std::sort(ts.begin(), ts.end());
      printf("HAND %dx%dx%d %s %.4f\n", N, C, P, name, ts[25]);
    };
    timeit("copy", [&]{ size_t n16 = bytes / 16; copyk<<<(n16 + 255) / 256, 256>>>((uint4*)a, (uint4*)b, n16); }, false);
    dim3 grid((P + 127) / 128, (C + 127) / 128, N);
    timeit("v4-32x4", [&]{ nchw4<<<grid, dim3(32, 4)>>>(a, b, C, P); }, true);
    timeit("v16-256", [&]{ nchw16<256><<<grid, 256>>>(a, b, C, P); }, true);
    timeit("v16-128", [&]{ nchw16<128><<<grid, 128>>>(a, b, C, P); }, true);
    CK(cudaFree(a)); CK(cudaFree(b));
  }
}
