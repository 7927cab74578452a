//===- hand.h - Launchers of the PolyBench/GPU-style CUDA twins -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// One launcher a benchmark of polybench.txt, in hand.cu: it launches every
// kernel of the benchmark on `stream`, in order, with no synchronisation,
// and returns the first CUDA error (cudaSuccess, 0, when all launched).
// Pointers are device memory, row-major; sizes and names follow PolyBench/C
// 4.2's kernel functions. gemm_cublas does gemm_hand's work with cuBLAS.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_BENCH_POLYBENCH_HAND_H
#define THREADBIND_BENCH_POLYBENCH_HAND_H

#include <cuda_runtime.h>

#include <cstdint>

extern "C" {
int gemm_hand(cudaStream_t stream, int ni, int nj, int nk, float alpha,
              float beta, float *C, const float *A, const float *B);
int gemm_cublas(cudaStream_t stream, int ni, int nj, int nk, float alpha,
                float beta, float *C, const float *A, const float *B);
int mm2_hand(cudaStream_t stream, int ni, int nj, int nk, int nl, float alpha,
             float beta, float *tmp, const float *A, const float *B,
             const float *C, float *D);
int mm3_hand(cudaStream_t stream, int ni, int nj, int nk, int nl, int nm,
             float *E, const float *A, const float *B, float *F, const float *C,
             const float *D, float *G);
int atax_hand(cudaStream_t stream, int m, int n, const float *A, const float *x,
              float *y, float *tmp);
int bicg_hand(cudaStream_t stream, int m, int n, const float *A, float *s,
              float *q, const float *p, const float *r);
int mvt_hand(cudaStream_t stream, int n, float *x1, float *x2, const float *y1,
             const float *y2, const float *A);
int gemver_hand(cudaStream_t stream, int n, float alpha, float beta,
                float *A, const float *u1, const float *v1, const float *u2,
                const float *v2, float *w, float *x, const float *y,
                const float *z);
int gesummv_hand(cudaStream_t stream, int n, float alpha, float beta,
                 const float *A, const float *B, float *tmp, const float *x,
                 float *y);
int syrk_hand(cudaStream_t stream, int n, int m, float alpha, float beta,
              float *C, const float *A);
int syr2k_hand(cudaStream_t stream, int n, int m, float alpha, float beta,
               float *C, const float *A, const float *B);
int covariance_hand(cudaStream_t stream, int m, int n, float float_n,
                    float *data, float *cov, float *mean);
int correlation_hand(cudaStream_t stream, int m, int n, float float_n,
                     float *data, float *corr, float *mean, float *stddev);
int conv2d_hand(cudaStream_t stream, int ni, int nj, const float *A, float *B);
int conv3d_hand(cudaStream_t stream, int ni, int nj, int nk, const float *A,
                float *B);
int fdtd_2d_hand(cudaStream_t stream, int tmax, int nx, int ny, float *ex,
                 float *ey, float *hz, const float *fict);
int jacobi_2d_hand(cudaStream_t stream, int tsteps, int n, float *A, float *B);
int gramschmidt_hand(cudaStream_t stream, int m, int n, float *A, float *R,
                     float *Q);
}

/// A benchmark's arguments as the harness holds them, indexed like the
/// arguments of its MLIR entry (polybench.txt's args=).
struct PolybenchArgs {
  /// Device data of each memref argument; null for scalars.
  void *const *data;
  /// Sizes of each memref argument, three an argument: size d of argument
  /// i is shapes[3 * i + d].
  const int64_t *shapes;
  /// Value of each scalar argument.
  const double *scalars;
};

/// Calls one launcher with the arguments of its benchmark's MLIR entry.
typedef int (*PolybenchLauncher)(cudaStream_t stream,
                                 const PolybenchArgs &args);

/// The launcher that polybench.txt's hand= or cublas= calls `name`, or null.
PolybenchLauncher polybenchLauncher(const char *name);

#endif // THREADBIND_BENCH_POLYBENCH_HAND_H
