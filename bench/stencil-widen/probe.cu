// Probe: do 128-bit loads pay in stencils whose rows are read at j-1, j,
// j+1? Each thread of the "wide" kernels takes W consecutive points of a
// row: one aligned vector a row it reads, plus the one element on either
// side that the shifted reads need, instead of a scalar load per point and
// offset. Compared with the PolyBench/GPU-style twins of
// bench/polybench/hand.cu (one point a thread, 32x8 blocks) in one process.
//
//   nvcc -O3 -arch=sm_90 -o probe probe.cu && ./probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <int W> struct Vec;
template <> struct Vec<2> { using T = float2; };
template <> struct Vec<4> { using T = float4; };

template <int W> __device__ void loadVec(const float *p, float (&v)[W]) {
  typename Vec<W>::T t = *reinterpret_cast<const typename Vec<W>::T *>(p);
  const float *f = reinterpret_cast<const float *>(&t);
#pragma unroll
  for (int l = 0; l < W; ++l)
    v[l] = f[l];
}

// Stores the lanes of `r` (elements p .. p+W-1 of a row of n) that lie in
// the interior [1, n-1): one vector where all of them do.
template <int W>
__device__ void storeInterior(float *out, const float (&r)[W], int p, int n) {
  if (p >= 1 && p + W <= n - 1) {
    typename Vec<W>::T t;
    float *f = reinterpret_cast<float *>(&t);
#pragma unroll
    for (int l = 0; l < W; ++l)
      f[l] = r[l];
    *reinterpret_cast<typename Vec<W>::T *>(out) = t;
    return;
  }
#pragma unroll
  for (int l = 0; l < W; ++l)
    if (p + l >= 1 && p + l < n - 1)
      out[l] = r[l];
}

//===--- jacobi-2d --------------------------------------------------------===//

__global__ void jacobiTwin(int n, const float *__restrict__ in,
                           float *__restrict__ out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1)
    return;
  int c = i * n + j;
  out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c + n] + in[c - n]);
}

// Same without __restrict__ (as ThreadBind's kernels, which cannot assume it).
__global__ void jacobiTwinAlias(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1)
    return;
  int c = i * n + j;
  out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c + n] + in[c - n]);
}

// W points a thread from p = W * x; needs n % W == 0 for aligned rows.
template <int W>
__global__ void jacobiWide(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int p = W * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < 1 || i >= n - 1 || p >= n)
    return;
  int c = i * n + p;
  float mid[W], up[W], dn[W];
  loadVec<W>(in + c, mid);
  loadVec<W>(in + c + n, dn);
  loadVec<W>(in + c - n, up);
  float left = p >= 1 ? in[c - 1] : 0.0f;
  float right = p + W < n ? in[c + W] : 0.0f;
  float r[W];
#pragma unroll
  for (int l = 0; l < W; ++l) {
    float lv = l == 0 ? left : mid[l - 1];
    float rv = l == W - 1 ? right : mid[l + 1];
    r[l] = 0.2f * (mid[l] + lv + rv + dn[l] + up[l]);
  }
  storeInterior<W>(out + c, r, p, n);
}

//===--- conv3d -----------------------------------------------------------===//

#define C3_COEFFS                                                              \
  const float c11 = 2, c21 = 5, c31 = -8;                                      \
  const float c12 = -3, c22 = 6, c32 = -9;                                     \
  const float c13 = 4, c23 = 7, c33 = 10;

__global__ void conv3dTwin(int ni, int nj, int nk, const float *__restrict__ A,
                           float *__restrict__ B) {
  C3_COEFFS
  int i = blockIdx.z, j = blockIdx.y * blockDim.y + threadIdx.y,
      k = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1 || k < 1 || k >= nk - 1)
    return;
  auto a = [=](int di, int dj, int dk) {
    return A[((i + di) * nj + (j + dj)) * nk + (k + dk)];
  };
  B[(i * nj + j) * nk + k] =
      c11 * a(-1, -1, -1) + c13 * a(1, -1, -1) + c21 * a(-1, -1, -1) +
      c23 * a(1, -1, -1) + c31 * a(-1, -1, -1) + c33 * a(1, -1, -1) +
      c12 * a(0, -1, 0) + c22 * a(0, 0, 0) + c32 * a(0, 1, 0) +
      c11 * a(-1, -1, 1) + c13 * a(1, -1, 1) + c21 * a(-1, 0, 1) +
      c23 * a(1, 0, 1) + c31 * a(-1, 1, 1) + c33 * a(1, 1, 1);
}

template <int W>
__global__ void conv3dWide(int ni, int nj, int nk, const float *A, float *B) {
  C3_COEFFS
  int i = blockIdx.z, j = blockIdx.y * blockDim.y + threadIdx.y,
      p = W * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1 || p >= nk)
    return;
  // A row (i + di, j + dj) as its vector at p and its neighbours either side.
  struct Row {
    float v[W];
    float left, right;
  };
  auto row = [&](int di, int dj, bool needLeft, bool needRight) {
    Row r;
    const float *base = A + ((i + di) * nj + (j + dj)) * nk + p;
    loadVec<W>(base, r.v);
    r.left = needLeft && p >= 1 ? base[-1] : 0.0f;
    r.right = needRight && p + W < nk ? base[W] : 0.0f;
    return r;
  };
  auto at = [](const Row &r, int l, int dk) {
    int q = l + dk;
    return q < 0 ? r.left : q >= W ? r.right : r.v[q];
  };
  Row mm = row(-1, -1, true, true), pm = row(1, -1, true, true);
  Row zm = row(0, -1, false, false), zz = row(0, 0, false, false),
      zp = row(0, 1, false, false);
  Row mz = row(-1, 0, false, true), pz = row(1, 0, false, true),
      mp = row(-1, 1, false, true), pp = row(1, 1, false, true);
  float r[W];
#pragma unroll
  for (int l = 0; l < W; ++l)
    r[l] = c11 * at(mm, l, -1) + c13 * at(pm, l, -1) + c21 * at(mm, l, -1) +
           c23 * at(pm, l, -1) + c31 * at(mm, l, -1) + c33 * at(pm, l, -1) +
           c12 * at(zm, l, 0) + c22 * at(zz, l, 0) + c32 * at(zp, l, 0) +
           c11 * at(mm, l, 1) + c13 * at(pm, l, 1) + c21 * at(mz, l, 1) +
           c23 * at(pz, l, 1) + c31 * at(mp, l, 1) + c33 * at(pp, l, 1);
  storeInterior<W>(B + (i * nj + j) * nk + p, r, p, nk);
}

//===--- harness ----------------------------------------------------------===//

template <typename F> double medianMs(F body, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> t;
  body(); // warm
  CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    body();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

float *upload(const std::vector<float> &h) {
  float *d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  return d;
}

std::vector<float> download(const float *d, size_t n) {
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
  return h;
}

double maxRel(const std::vector<float> &a, const std::vector<float> &b) {
  double diff = 0, mag = 1e-30;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, (double)std::fabs(a[i] - b[i]));
    mag = std::max(mag, (double)std::fabs(a[i]));
  }
  return diff / mag;
}

std::vector<float> randoms(size_t n) {
  std::vector<float> h(n);
  for (auto &x : h)
    x = (float)std::rand() / RAND_MAX * 2 - 1;
  return h;
}

void jacobi(int n, int steps) {
  std::vector<float> h = randoms((size_t)n * n);
  float *A = upload(h), *B = upload(h);
  dim3 tile(32, 8);
  dim3 g1((n + 31) / 32, (n + 7) / 8);
  auto gw = [&](int w) {
    return dim3(((n + w - 1) / w + 31) / 32, (n + 7) / 8);
  };
  std::vector<std::vector<float>> outs;
  auto run = [&](const char *name, auto launchOne) {
    CHECK(cudaMemcpy(A, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    for (int t = 0; t < steps; ++t) {
      launchOne(A, B);
      launchOne(B, A);
    }
    CHECK(cudaDeviceSynchronize());
    outs.push_back(download(A, h.size()));
    double ms = medianMs(
        [&] {
          for (int t = 0; t < steps; ++t) {
            launchOne(A, B);
            launchOne(B, A);
          }
        },
        30);
    std::printf("jacobi-2d n=%d steps=%d %-14s %.4f ms  max rel vs twin %.1e\n",
                n, steps, name, ms, maxRel(outs.front(), outs.back()));
  };
  for (int round = 0; round < 3; ++round) {
    outs.clear();
    run("twin", [&](float *x, float *y) { jacobiTwin<<<g1, tile>>>(n, x, y); });
    run("twin-alias",
        [&](float *x, float *y) { jacobiTwinAlias<<<g1, tile>>>(n, x, y); });
    if (n % 2 == 0)
      run("wide2",
          [&](float *x, float *y) { jacobiWide<2><<<gw(2), tile>>>(n, x, y); });
    if (n % 4 == 0)
      run("wide4",
          [&](float *x, float *y) { jacobiWide<4><<<gw(4), tile>>>(n, x, y); });
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
}

void conv3d(int n) {
  std::vector<float> h = randoms((size_t)n * n * n);
  float *A = upload(h), *B = upload(std::vector<float>(h.size(), 0.0f));
  dim3 tile(32, 8);
  std::vector<std::vector<float>> outs;
  auto run = [&](const char *name, auto launchOne) {
    CHECK(cudaMemset(B, 0, h.size() * 4));
    launchOne();
    CHECK(cudaDeviceSynchronize());
    outs.push_back(download(B, h.size()));
    double ms = medianMs(launchOne, 50);
    std::printf("conv3d n=%d %-14s %.4f ms  max rel vs twin %.1e\n", n, name,
                ms, maxRel(outs.front(), outs.back()));
  };
  for (int round = 0; round < 3; ++round) {
    outs.clear();
    run("twin", [&] {
      conv3dTwin<<<dim3((n + 31) / 32, (n + 7) / 8, n), tile>>>(n, n, n, A, B);
    });
    run("wide2", [&] {
      conv3dWide<2>
          <<<dim3((n / 2 + 31) / 32, (n + 7) / 8, n), tile>>>(n, n, n, A, B);
    });
    run("wide4", [&] {
      conv3dWide<4>
          <<<dim3((n / 4 + 31) / 32, (n + 7) / 8, n), tile>>>(n, n, n, A, B);
    });
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  jacobi(1000, 20);
  jacobi(4096, 20);
  jacobi(36, 5);
  conv3d(256);
  conv3d(320);
  return 0;
}
