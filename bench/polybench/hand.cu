//===- hand.cu - PolyBench/GPU-style CUDA twins of bench/polybench --------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Hand-written CUDA for every benchmark of polybench.txt, mapped the way
// PolyBench/GPU maps PolyBench: one thread per output element, 32x8 blocks
// for 2-D kernels (x along the row, so a warp reads a row's neighbouring
// elements) and 256-thread blocks for 1-D ones, every reduction sequential
// in its thread (in a register), and one kernel launch per loop nest of
// PolyBench/C 4.2, the time loops and gramschmidt's column loop on the
// host. Floating-point operations keep 4.2's order; nvcc may fuse
// multiply-adds, as ThreadBind's kernels do. gemm_cublas is the cuBLAS
// SGEMM doing gemm_hand's work.
//
// Indices are int: every array of the suite has fewer than 2^31 elements.
//
//===----------------------------------------------------------------------===//

#include "hand.h"

#include <cublas_v2.h>

#include <cstring>

namespace {

constexpr int kTileX = 32, kTileY = 8, kThreads = 256;

/// 32x8 blocks over a rows x cols iteration space, x along the columns.
dim3 tileGrid(int rows, int cols) {
  return dim3((cols + kTileX - 1) / kTileX, (rows + kTileY - 1) / kTileY);
}
/// 256-thread blocks over n iterations.
dim3 lineGrid(int n) { return dim3((n + kThreads - 1) / kThreads); }
const dim3 kTile(kTileX, kTileY), kLine(kThreads);

/// Launches `kernel` unless the grid is empty (CUDA refuses empty grids).
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block,
            cudaStream_t stream, Args... args) {
  if (grid.x && grid.y && grid.z)
    kernel<<<grid, block, 0, stream>>>(args...);
}

__device__ int row() { return blockIdx.y * blockDim.y + threadIdx.y; }
__device__ int col() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ int line() { return blockIdx.x * blockDim.x + threadIdx.x; }

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

// C[i][j] = beta C[i][j] + sum_k alpha A[i][k] B[k][j]
__global__ void gemmKernel(int ni, int nj, int nk, float alpha, float beta,
                           float *__restrict__ C, const float *__restrict__ A,
                           const float *__restrict__ B) {
  int i = row(), j = col();
  if (i >= ni || j >= nj)
    return;
  float acc = C[i * nj + j] * beta;
  for (int k = 0; k < nk; ++k)
    acc += alpha * A[i * nk + k] * B[k * nj + j];
  C[i * nj + j] = acc;
}

// tmp[i][j] = sum_k alpha A[i][k] B[k][j]
__global__ void mm2First(int ni, int nj, int nk, float alpha,
                         float *__restrict__ tmp, const float *__restrict__ A,
                         const float *__restrict__ B) {
  int i = row(), j = col();
  if (i >= ni || j >= nj)
    return;
  float acc = 0.0f;
  for (int k = 0; k < nk; ++k)
    acc += alpha * A[i * nk + k] * B[k * nj + j];
  tmp[i * nj + j] = acc;
}

// D[i][l] = beta D[i][l] + sum_j tmp[i][j] C[j][l]
__global__ void mm2Second(int ni, int nj, int nl, float beta,
                          const float *__restrict__ tmp,
                          const float *__restrict__ C, float *__restrict__ D) {
  int i = row(), l = col();
  if (i >= ni || l >= nl)
    return;
  float acc = D[i * nl + l] * beta;
  for (int j = 0; j < nj; ++j)
    acc += tmp[i * nj + j] * C[j * nl + l];
  D[i * nl + l] = acc;
}

// X = Y Z, X rows x cols, Y rows x inner.
__global__ void matmulKernel(int rows, int cols, int inner,
                             float *__restrict__ X, const float *__restrict__ Y,
                             const float *__restrict__ Z) {
  int i = row(), j = col();
  if (i >= rows || j >= cols)
    return;
  float acc = 0.0f;
  for (int k = 0; k < inner; ++k)
    acc += Y[i * inner + k] * Z[k * cols + j];
  X[i * cols + j] = acc;
}

//===----------------------------------------------------------------------===//
// Matrix-vector products
//===----------------------------------------------------------------------===//

// out[i] = init[i] + sum_j A[i][j] v[j]: a row a thread. `init` may be null
// (0) or `out` itself (mvt's x1 += A y1).
__global__ void rowDot(int rows, int cols, const float *__restrict__ A,
                       const float *__restrict__ v, const float *init,
                       float *out) {
  int i = line();
  if (i >= rows)
    return;
  float acc = init ? init[i] : 0.0f;
  for (int j = 0; j < cols; ++j)
    acc += A[i * cols + j] * v[j];
  out[i] = acc;
}

// out[j] = init[j] + sum_i A[i][j] v[i]: a column a thread, a warp reading
// neighbouring elements of each row.
__global__ void columnDot(int rows, int cols, const float *__restrict__ A,
                          const float *__restrict__ v, const float *init,
                          float *out) {
  int j = line();
  if (j >= cols)
    return;
  float acc = init ? init[j] : 0.0f;
  for (int i = 0; i < rows; ++i)
    acc += A[i * cols + j] * v[i];
  out[j] = acc;
}

// bicg's s[j] = sum_i r[i] A[i][j], 4.2's operand order.
__global__ void bicgColumns(int n, int m, const float *__restrict__ A,
                            const float *__restrict__ r,
                            float *__restrict__ s) {
  int j = line();
  if (j >= m)
    return;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += r[i] * A[i * m + j];
  s[j] = acc;
}

// tmp[i] = A x, y[i] = alpha tmp[i] + beta (B x)[i]: both sums in one pass.
__global__ void
gesummvKernel(int n, float alpha, float beta, const float *__restrict__ A,
              const float *__restrict__ B, float *__restrict__ tmp,
              const float *__restrict__ x, float *__restrict__ y) {
  int i = line();
  if (i >= n)
    return;
  float ta = 0.0f, tb = 0.0f;
  for (int j = 0; j < n; ++j) {
    ta = A[i * n + j] * x[j] + ta;
    tb = B[i * n + j] * x[j] + tb;
  }
  tmp[i] = ta;
  y[i] = alpha * ta + beta * tb;
}

// gemver's A[i][j] += u1[i] v1[j] + u2[i] v2[j]: an element a thread.
__global__ void gemverUpdate(int n, float *__restrict__ A,
                             const float *__restrict__ u1,
                             const float *__restrict__ v1,
                             const float *__restrict__ u2,
                             const float *__restrict__ v2) {
  int i = row(), j = col();
  if (i >= n || j >= n)
    return;
  A[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

// gemver's x[i] += beta A[j][i] y[j], then + z[i]: a column a thread.
__global__ void gemverX(int n, float beta, const float *__restrict__ A,
                        const float *__restrict__ y,
                        const float *__restrict__ z, float *__restrict__ x) {
  int i = line();
  if (i >= n)
    return;
  float acc = x[i];
  for (int j = 0; j < n; ++j)
    acc += beta * A[j * n + i] * y[j];
  x[i] = acc + z[i];
}

// gemver's w[i] += alpha A[i][j] x[j]: a row a thread.
__global__ void gemverW(int n, float alpha, const float *__restrict__ A,
                        const float *__restrict__ x, float *__restrict__ w) {
  int i = line();
  if (i >= n)
    return;
  float acc = w[i];
  for (int j = 0; j < n; ++j)
    acc += alpha * A[i * n + j] * x[j];
  w[i] = acc;
}

//===----------------------------------------------------------------------===//
// Symmetric rank-k updates, lower triangle
//===----------------------------------------------------------------------===//

__global__ void syrkKernel(int n, int m, float alpha, float beta,
                           float *__restrict__ C, const float *__restrict__ A) {
  int i = row(), j = col();
  if (i >= n || j > i)
    return;
  float acc = C[i * n + j] * beta;
  for (int k = 0; k < m; ++k)
    acc += alpha * A[i * m + k] * A[j * m + k];
  C[i * n + j] = acc;
}

__global__ void syr2kKernel(int n, int m, float alpha, float beta,
                            float *__restrict__ C, const float *__restrict__ A,
                            const float *__restrict__ B) {
  int i = row(), j = col();
  if (i >= n || j > i)
    return;
  float acc = C[i * n + j] * beta;
  for (int k = 0; k < m; ++k)
    acc += A[j * m + k] * alpha * B[i * m + k] +
           B[j * m + k] * alpha * A[i * m + k];
  C[i * n + j] = acc;
}

//===----------------------------------------------------------------------===//
// Data mining
//===----------------------------------------------------------------------===//

// mean[j] = sum_i data[i][j] / float_n: a column a thread.
__global__ void columnMeans(int m, int n, float float_n,
                            const float *__restrict__ data,
                            float *__restrict__ mean) {
  int j = line();
  if (j >= m)
    return;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += data[i * m + j];
  mean[j] = acc / float_n;
}

// data[i][j] -= mean[j]
__global__ void centre(int m, int n, float *__restrict__ data,
                       const float *__restrict__ mean) {
  int i = row(), j = col();
  if (i < n && j < m)
    data[i * m + j] -= mean[j];
}

// j >= i: cov[i][j] = cov[j][i] = sum_k data[k][i] data[k][j] / (float_n - 1)
__global__ void covarianceTriangle(int m, int n, float float_n,
                                   const float *__restrict__ data,
                                   float *__restrict__ cov) {
  int i = row(), j = col();
  if (i >= m || j >= m || j < i)
    return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += data[k * m + i] * data[k * m + j];
  float v = acc / (float_n - 1.0f);
  cov[i * m + j] = v;
  cov[j * m + i] = v;
}

// stddev[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / float_n), 1 if <= 0.1
__global__ void columnDeviations(int m, int n, float float_n,
                                 const float *__restrict__ data,
                                 const float *__restrict__ mean,
                                 float *__restrict__ stddev) {
  int j = line();
  if (j >= m)
    return;
  float mu = mean[j], acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    float c = data[i * m + j] - mu;
    acc += c * c;
  }
  float sd = sqrtf(acc / float_n);
  stddev[j] = sd <= 0.1f ? 1.0f : sd;
}

// data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) stddev[j])
__global__ void normalise(int m, int n, float float_n, float *__restrict__ data,
                          const float *__restrict__ mean,
                          const float *__restrict__ stddev) {
  int i = row(), j = col();
  if (i < n && j < m)
    data[i * m + j] =
        (data[i * m + j] - mean[j]) / (sqrtf(float_n) * stddev[j]);
}

// corr[i][i] = 1; j > i: corr[i][j] = corr[j][i] = sum_k data[k][i] data[k][j]
__global__ void correlationTriangle(int m, int n,
                                    const float *__restrict__ data,
                                    float *__restrict__ corr) {
  int i = row(), j = col();
  if (i >= m || j >= m || j < i)
    return;
  if (j == i) {
    corr[i * m + i] = 1.0f;
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += data[k * m + i] * data[k * m + j];
  corr[i * m + j] = acc;
  corr[j * m + i] = acc;
}

//===----------------------------------------------------------------------===//
// Convolutions (PolyBench/GPU's 2DCONV and 3DCONV)
//===----------------------------------------------------------------------===//

__global__ void conv2dKernel(int ni, int nj, const float *__restrict__ A,
                             float *__restrict__ B) {
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
  const float c13 = 0.4f, c23 = 0.7f, c33 = 0.1f;
  int i = row(), j = col();
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1)
    return;
  const float *up = A + (i - 1) * nj, *mid = A + i * nj,
              *down = A + (i + 1) * nj;
  B[i * nj + j] = c11 * up[j - 1] + c12 * mid[j - 1] + c13 * down[j - 1] +
                  c21 * up[j] + c22 * mid[j] + c23 * down[j] + c31 * up[j + 1] +
                  c32 * mid[j + 1] + c33 * down[j + 1];
}

// A 32x8 block per (k, j) tile of plane i = blockIdx.z, k along x.
__global__ void conv3dKernel(int ni, int nj, int nk,
                             const float *__restrict__ A,
                             float *__restrict__ B) {
  const float c11 = 2, c21 = 5, c31 = -8;
  const float c12 = -3, c22 = 6, c32 = -9;
  const float c13 = 4, c23 = 7, c33 = 10;
  int i = blockIdx.z, j = row(), k = col();
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

//===----------------------------------------------------------------------===//
// Stencils
//===----------------------------------------------------------------------===//

// ey[0][j] = _fict_[t]
__global__ void fdtdSource(int ny, int t, const float *__restrict__ fict,
                           float *__restrict__ ey) {
  int j = line();
  if (j < ny)
    ey[j] = fict[t];
}

// i >= 1: ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j])
__global__ void fdtdEy(int nx, int ny, float *__restrict__ ey,
                       const float *__restrict__ hz) {
  int i = row(), j = col();
  if (i >= 1 && i < nx && j < ny)
    ey[i * ny + j] =
        ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

// j >= 1: ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1])
__global__ void fdtdEx(int nx, int ny, float *__restrict__ ex,
                       const float *__restrict__ hz) {
  int i = row(), j = col();
  if (i < nx && j >= 1 && j < ny)
    ex[i * ny + j] =
        ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

// hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
__global__ void fdtdHz(int nx, int ny, float *__restrict__ hz,
                       const float *__restrict__ ex,
                       const float *__restrict__ ey) {
  int i = row(), j = col();
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] =
        hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                 ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

// out = 0.2 (in[i][j] + in[i][j-1] + in[i][j+1] + in[i+1][j] + in[i-1][j])
__global__ void jacobiSweep(int n, const float *__restrict__ in,
                            float *__restrict__ out) {
  int i = row(), j = col();
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1)
    return;
  int c = i * n + j;
  out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c + n] + in[c - n]);
}

//===----------------------------------------------------------------------===//
// Gram-Schmidt, one column k a round of three launches
//===----------------------------------------------------------------------===//

// R[k][k] = sqrt(sum_i A[i][k]^2): one output, so one thread.
__global__ void columnNorm(int m, int n, int k, const float *__restrict__ A,
                           float *__restrict__ R) {
  float acc = 0.0f;
  for (int i = 0; i < m; ++i) {
    float a = A[i * n + k];
    acc += a * a;
  }
  R[k * n + k] = sqrtf(acc);
}

// Q[i][k] = A[i][k] / R[k][k]
__global__ void scaleColumn(int m, int n, int k, const float *__restrict__ A,
                            const float *__restrict__ R,
                            float *__restrict__ Q) {
  int i = line();
  if (i < m)
    Q[i * n + k] = A[i * n + k] / R[k * n + k];
}

// A thread a column j > k: R[k][j] = sum_i Q[i][k] A[i][j], then
// A[i][j] -= Q[i][k] R[k][j].
__global__ void projectOut(int m, int n, int k, float *__restrict__ A,
                           float *__restrict__ R, const float *__restrict__ Q) {
  int j = k + 1 + line();
  if (j >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < m; ++i)
    acc += Q[i * n + k] * A[i * n + j];
  R[k * n + j] = acc;
  for (int i = 0; i < m; ++i)
    A[i * n + j] = A[i * n + j] - Q[i * n + k] * acc;
}

} // namespace

//===----------------------------------------------------------------------===//
// Launchers
//===----------------------------------------------------------------------===//

extern "C" {

int gemm_hand(cudaStream_t stream, int ni, int nj, int nk, float alpha,
              float beta, float *C, const float *A, const float *B) {
  launch(gemmKernel, tileGrid(ni, nj), kTile, stream, ni, nj, nk, alpha, beta,
         C, A, B);
  return cudaGetLastError();
}

// Row-major C = alpha A B + beta C is column-major C^T = alpha B^T A^T +
// beta C^T: the same buffers, the operands swapped.
int gemm_cublas(cudaStream_t stream, int ni, int nj, int nk, float alpha,
                float beta, float *C, const float *A, const float *B) {
  static cublasHandle_t handle = nullptr;
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return cudaErrorUnknown;
  if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS ||
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, nj, ni, nk, &alpha, B, nj,
                  A, nk, &beta, C, nj) != CUBLAS_STATUS_SUCCESS)
    return cudaErrorUnknown;
  return cudaGetLastError();
}

int mm2_hand(cudaStream_t stream, int ni, int nj, int nk, int nl, float alpha,
             float beta, float *tmp, const float *A, const float *B,
             const float *C, float *D) {
  launch(mm2First, tileGrid(ni, nj), kTile, stream, ni, nj, nk, alpha, tmp, A,
         B);
  launch(mm2Second, tileGrid(ni, nl), kTile, stream, ni, nj, nl, beta, tmp, C,
         D);
  return cudaGetLastError();
}

int mm3_hand(cudaStream_t stream, int ni, int nj, int nk, int nl, int nm,
             float *E, const float *A, const float *B, float *F, const float *C,
             const float *D, float *G) {
  launch(matmulKernel, tileGrid(ni, nj), kTile, stream, ni, nj, nk, E, A, B);
  launch(matmulKernel, tileGrid(nj, nl), kTile, stream, nj, nl, nm, F, C, D);
  launch(matmulKernel, tileGrid(ni, nl), kTile, stream, ni, nl, nj, G, E, F);
  return cudaGetLastError();
}

int atax_hand(cudaStream_t stream, int m, int n, const float *A, const float *x,
              float *y, float *tmp) {
  launch(rowDot, lineGrid(m), kLine, stream, m, n, A, x, nullptr, tmp);
  launch(columnDot, lineGrid(n), kLine, stream, m, n, A, tmp, nullptr, y);
  return cudaGetLastError();
}

int bicg_hand(cudaStream_t stream, int m, int n, const float *A, float *s,
              float *q, const float *p, const float *r) {
  launch(rowDot, lineGrid(n), kLine, stream, n, m, A, p, nullptr, q);
  launch(bicgColumns, lineGrid(m), kLine, stream, n, m, A, r, s);
  return cudaGetLastError();
}

int mvt_hand(cudaStream_t stream, int n, float *x1, float *x2, const float *y1,
             const float *y2, const float *A) {
  launch(rowDot, lineGrid(n), kLine, stream, n, n, A, y1, x1, x1);
  launch(columnDot, lineGrid(n), kLine, stream, n, n, A, y2, x2, x2);
  return cudaGetLastError();
}

int gesummv_hand(cudaStream_t stream, int n, float alpha, float beta,
                 const float *A, const float *B, float *tmp, const float *x,
                 float *y) {
  launch(gesummvKernel, lineGrid(n), kLine, stream, n, alpha, beta, A, B, tmp,
         x, y);
  return cudaGetLastError();
}

int gemver_hand(cudaStream_t stream, int n, float alpha, float beta,
                float *A, const float *u1, const float *v1, const float *u2,
                const float *v2, float *w, float *x, const float *y,
                const float *z) {
  launch(gemverUpdate, tileGrid(n, n), kTile, stream, n, A, u1, v1, u2, v2);
  launch(gemverX, lineGrid(n), kLine, stream, n, beta, A, y, z, x);
  launch(gemverW, lineGrid(n), kLine, stream, n, alpha, A, x, w);
  return cudaGetLastError();
}

int syrk_hand(cudaStream_t stream, int n, int m, float alpha, float beta,
              float *C, const float *A) {
  launch(syrkKernel, tileGrid(n, n), kTile, stream, n, m, alpha, beta, C, A);
  return cudaGetLastError();
}

int syr2k_hand(cudaStream_t stream, int n, int m, float alpha, float beta,
               float *C, const float *A, const float *B) {
  launch(syr2kKernel, tileGrid(n, n), kTile, stream, n, m, alpha, beta, C, A,
         B);
  return cudaGetLastError();
}

int covariance_hand(cudaStream_t stream, int m, int n, float float_n,
                    float *data, float *cov, float *mean) {
  launch(columnMeans, lineGrid(m), kLine, stream, m, n, float_n, data, mean);
  launch(centre, tileGrid(n, m), kTile, stream, m, n, data, mean);
  launch(covarianceTriangle, tileGrid(m, m), kTile, stream, m, n, float_n, data,
         cov);
  return cudaGetLastError();
}

int correlation_hand(cudaStream_t stream, int m, int n, float float_n,
                     float *data, float *corr, float *mean, float *stddev) {
  launch(columnMeans, lineGrid(m), kLine, stream, m, n, float_n, data, mean);
  launch(columnDeviations, lineGrid(m), kLine, stream, m, n, float_n, data,
         mean, stddev);
  launch(normalise, tileGrid(n, m), kTile, stream, m, n, float_n, data, mean,
         stddev);
  launch(correlationTriangle, tileGrid(m, m), kTile, stream, m, n, data, corr);
  return cudaGetLastError();
}

int conv2d_hand(cudaStream_t stream, int ni, int nj, const float *A, float *B) {
  launch(conv2dKernel, tileGrid(ni, nj), kTile, stream, ni, nj, A, B);
  return cudaGetLastError();
}

int conv3d_hand(cudaStream_t stream, int ni, int nj, int nk, const float *A,
                float *B) {
  dim3 grid = tileGrid(nj, nk);
  grid.z = ni;
  launch(conv3dKernel, grid, kTile, stream, ni, nj, nk, A, B);
  return cudaGetLastError();
}

int fdtd_2d_hand(cudaStream_t stream, int tmax, int nx, int ny, float *ex,
                 float *ey, float *hz, const float *fict) {
  for (int t = 0; t < tmax; ++t) {
    launch(fdtdSource, lineGrid(ny), kLine, stream, ny, t, fict, ey);
    launch(fdtdEy, tileGrid(nx, ny), kTile, stream, nx, ny, ey, hz);
    launch(fdtdEx, tileGrid(nx, ny), kTile, stream, nx, ny, ex, hz);
    launch(fdtdHz, tileGrid(nx, ny), kTile, stream, nx, ny, hz, ex, ey);
  }
  return cudaGetLastError();
}

int jacobi_2d_hand(cudaStream_t stream, int tsteps, int n, float *A, float *B) {
  for (int t = 0; t < tsteps; ++t) {
    launch(jacobiSweep, tileGrid(n, n), kTile, stream, n, A, B);
    launch(jacobiSweep, tileGrid(n, n), kTile, stream, n, B, A);
  }
  return cudaGetLastError();
}

int gramschmidt_hand(cudaStream_t stream, int m, int n, float *A, float *R,
                     float *Q) {
  for (int k = 0; k < n; ++k) {
    launch(columnNorm, dim3(1), dim3(1), stream, m, n, k, A, R);
    launch(scaleColumn, lineGrid(m), kLine, stream, m, n, k, A, R, Q);
    launch(projectOut, lineGrid(n - k - 1), kLine, stream, m, n, k, A, R, Q);
  }
  return cudaGetLastError();
}

} // extern "C"

//===----------------------------------------------------------------------===//
// The harness's entry points: polybench.txt's argument order to each
// launcher's parameters
//===----------------------------------------------------------------------===//

namespace {
float *mem(const PolybenchArgs &a, int i) {
  return static_cast<float *>(a.data[i]);
}
int dim(const PolybenchArgs &a, int i, int d) {
  return static_cast<int>(a.shapes[3 * i + d]);
}
float f32(const PolybenchArgs &a, int i) {
  return static_cast<float>(a.scalars[i]);
}
int count(const PolybenchArgs &a, int i) {
  return static_cast<int>(a.scalars[i]);
}

struct Named {
  const char *name;
  PolybenchLauncher launch;
};

// Each entry's arguments, as its MLIR function takes them.
const Named kLaunchers[] = {
    // alpha, beta, C, A, B
    {"gemm_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return gemm_hand(s, dim(a, 2, 0), dim(a, 2, 1), dim(a, 3, 1), f32(a, 0),
                        f32(a, 1), mem(a, 2), mem(a, 3), mem(a, 4));
     }},
    {"gemm_cublas",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return gemm_cublas(s, dim(a, 2, 0), dim(a, 2, 1), dim(a, 3, 1),
                          f32(a, 0), f32(a, 1), mem(a, 2), mem(a, 3),
                          mem(a, 4));
     }},
    // alpha, beta, tmp, A, B, C, D
    {"mm2_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return mm2_hand(s, dim(a, 3, 0), dim(a, 4, 1), dim(a, 3, 1),
                       dim(a, 5, 1), f32(a, 0), f32(a, 1), mem(a, 2), mem(a, 3),
                       mem(a, 4), mem(a, 5), mem(a, 6));
     }},
    // E, A, B, F, C, D, G
    {"mm3_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return mm3_hand(s, dim(a, 1, 0), dim(a, 2, 1), dim(a, 1, 1),
                       dim(a, 5, 1), dim(a, 4, 1), mem(a, 0), mem(a, 1),
                       mem(a, 2), mem(a, 3), mem(a, 4), mem(a, 5), mem(a, 6));
     }},
    // A, x, y, tmp
    {"atax_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return atax_hand(s, dim(a, 0, 0), dim(a, 0, 1), mem(a, 0), mem(a, 1),
                        mem(a, 2), mem(a, 3));
     }},
    // A, s, q, p, r
    {"bicg_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return bicg_hand(s, dim(a, 0, 1), dim(a, 0, 0), mem(a, 0), mem(a, 1),
                        mem(a, 2), mem(a, 3), mem(a, 4));
     }},
    // x1, x2, y1, y2, A
    {"mvt_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return mvt_hand(s, dim(a, 4, 0), mem(a, 0), mem(a, 1), mem(a, 2),
                       mem(a, 3), mem(a, 4));
     }},
    // alpha, beta, A, u1, v1, u2, v2, w, x, y, z
    {"gemver_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return gemver_hand(s, dim(a, 2, 0), f32(a, 0), f32(a, 1), mem(a, 2),
                          mem(a, 3), mem(a, 4), mem(a, 5), mem(a, 6),
                          mem(a, 7), mem(a, 8), mem(a, 9), mem(a, 10));
     }},
    // alpha, beta, A, B, tmp, x, y
    {"gesummv_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return gesummv_hand(s, dim(a, 2, 0), f32(a, 0), f32(a, 1), mem(a, 2),
                           mem(a, 3), mem(a, 4), mem(a, 5), mem(a, 6));
     }},
    // alpha, beta, C, A
    {"syrk_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return syrk_hand(s, dim(a, 3, 0), dim(a, 3, 1), f32(a, 0), f32(a, 1),
                        mem(a, 2), mem(a, 3));
     }},
    // alpha, beta, C, A, B
    {"syr2k_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return syr2k_hand(s, dim(a, 3, 0), dim(a, 3, 1), f32(a, 0), f32(a, 1),
                         mem(a, 2), mem(a, 3), mem(a, 4));
     }},
    // float_n, data, cov, mean
    {"covariance_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return covariance_hand(s, dim(a, 1, 1), dim(a, 1, 0), f32(a, 0),
                              mem(a, 1), mem(a, 2), mem(a, 3));
     }},
    // float_n, data, corr, mean, stddev
    {"correlation_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return correlation_hand(s, dim(a, 1, 1), dim(a, 1, 0), f32(a, 0),
                               mem(a, 1), mem(a, 2), mem(a, 3), mem(a, 4));
     }},
    // A, B
    {"conv2d_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return conv2d_hand(s, dim(a, 0, 0), dim(a, 0, 1), mem(a, 0), mem(a, 1));
     }},
    // A, B
    {"conv3d_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return conv3d_hand(s, dim(a, 0, 0), dim(a, 0, 1), dim(a, 0, 2),
                          mem(a, 0), mem(a, 1));
     }},
    // ex, ey, hz, _fict_
    {"fdtd_2d_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return fdtd_2d_hand(s, dim(a, 3, 0), dim(a, 0, 0), dim(a, 0, 1),
                           mem(a, 0), mem(a, 1), mem(a, 2), mem(a, 3));
     }},
    // tsteps, A, B
    {"jacobi_2d_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return jacobi_2d_hand(s, count(a, 0), dim(a, 1, 0), mem(a, 1),
                             mem(a, 2));
     }},
    // A, R, Q
    {"gramschmidt_hand",
     [](cudaStream_t s, const PolybenchArgs &a) {
       return gramschmidt_hand(s, dim(a, 0, 0), dim(a, 0, 1), mem(a, 0),
                               mem(a, 1), mem(a, 2));
     }},
};
} // namespace

PolybenchLauncher polybenchLauncher(const char *name) {
  for (const Named &l : kLaunchers)
    if (!std::strcmp(l.name, name))
      return l.launch;
  return nullptr;
}
