//===- main.cpp - Launch ThreadBind kernels from C++ through the header ---===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Calls each launcher of kernels.h (threadbind-compile --emit header, from
// kernels.mlir) on device memory, on a stream of its own, and checks every
// result against the same loops run here on the CPU. It needs only cuda.h
// and the driver: build it with CMake (the threadbind-launcher-example
// target) or by hand:
//
//   threadbind-compile kernels.mlir --emit header -o kernels.h
//   c++ -std=c++17 -I. -I/usr/local/cuda/include main.cpp -lcuda
//
// Exits 0 when every result matches, 1 on a mismatch or a failing call, and
// 3 when there is no CUDA device.
//
//===----------------------------------------------------------------------===//

#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

int failures = 0;

/// Reports a failed driver call and counts it.
bool ok(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s\n", what, name ? name : "?");
  ++failures;
  return false;
}

/// Device memory holding a copy of `host`.
template <typename T> struct DeviceArray {
  CUdeviceptr ptr = 0;
  size_t count = 0;

  explicit DeviceArray(const std::vector<T> &host) : count(host.size()) {
    if (ok(cuMemAlloc(&ptr, std::max<size_t>(count, 1) * sizeof(T)),
           "cuMemAlloc") &&
        count)
      ok(cuMemcpyHtoD(ptr, host.data(), count * sizeof(T)), "cuMemcpyHtoD");
  }
  ~DeviceArray() {
    if (ptr)
      cuMemFree(ptr);
  }
  T *get() const { return reinterpret_cast<T *>(ptr); }
  std::vector<T> read() const {
    std::vector<T> host(count);
    if (count)
      ok(cuMemcpyDtoH(host.data(), ptr, count * sizeof(T)), "cuMemcpyDtoH");
    return host;
  }
};

template <typename T> std::vector<T> randomValues(size_t count, unsigned seed) {
  std::vector<T> values(count);
  std::srand(seed);
  for (T &value : values)
    value = static_cast<T>(std::rand() % 2001 - 1000) / T(64);
  return values;
}

/// Compares `got` with `expected` within `tolerance` (relative to the
/// larger magnitude, at least 1), naming the first difference.
template <typename T>
void compare(const char *what, const std::vector<T> &got,
             const std::vector<T> &expected, double tolerance) {
  for (size_t i = 0; i < expected.size(); ++i) {
    double scale = std::max({1.0, std::fabs(double(got[i])),
                             std::fabs(double(expected[i]))});
    if (!(std::fabs(double(got[i]) - double(expected[i])) <=
          tolerance * scale)) {
      std::fprintf(stderr, "%s: element %zu is %.17g, expected %.17g\n", what,
                   i, double(got[i]), double(expected[i]));
      ++failures;
      return;
    }
  }
  std::printf("ok %s (%zu elements)\n", what, expected.size());
}

void checkSaxpy(const kernels_module &m, CUstream stream, int64_t n) {
  std::vector<float> x = randomValues<float>(n, 1), y = randomValues<float>(n, 2);
  DeviceArray<float> dx(x), dy(y);
  if (!ok(kernels_saxpy(&m, stream, 2.5f, dx.get(), n, dy.get(), n),
          "kernels_saxpy") ||
      !ok(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return;
  for (int64_t i = 0; i < n; ++i)
    y[i] = 2.5f * x[i] + y[i];
  char what[64];
  std::snprintf(what, sizeof(what), "saxpy n=%lld", (long long)n);
  compare(what, dy.read(), y, 1e-6);
}

void checkTranspose(const kernels_module &m, CUstream stream, int64_t rows,
                    int64_t cols) {
  std::vector<float> in = randomValues<float>(rows * cols, 3);
  std::vector<float> out(rows * cols, -1.0f), expected(rows * cols);
  DeviceArray<float> din(in), dout(out);
  if (!ok(kernels_transpose(&m, stream, din.get(), rows, cols, dout.get(),
                            cols, rows),
          "kernels_transpose") ||
      !ok(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      expected[j * rows + i] = in[i * cols + j];
  char what[64];
  std::snprintf(what, sizeof(what), "transpose %lldx%lld", (long long)rows,
                (long long)cols);
  compare(what, dout.read(), expected, 0.0);
}

void checkRowSums(const kernels_module &m, CUstream stream, int64_t rows,
                  int64_t cols) {
  std::vector<double> matrix = randomValues<double>(rows * cols, 4);
  std::vector<double> sums(rows, -1.0), expected(rows, 0.0);
  DeviceArray<double> dm(matrix), ds(sums);
  if (!ok(kernels_row_sums(&m, stream, dm.get(), rows, cols, ds.get(), rows),
          "kernels_row_sums") ||
      !ok(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      expected[i] += matrix[i * cols + j];
  char what[64];
  std::snprintf(what, sizeof(what), "row_sums %lldx%lld", (long long)rows,
                (long long)cols);
  compare(what, ds.read(), expected, 1e-12);
}

/// scale_view on a rows x cols view of a pitch-wide buffer, every
/// `step`-th column (step 1 takes the unit-stride version), written into a
/// view of another buffer at a row and column offset.
void checkScaleView(const kernels_module &m, CUstream stream, int64_t rows,
                    int64_t cols, int64_t step) {
  int64_t pitch = cols * step + 3;
  std::vector<float> a = randomValues<float>(rows * pitch, 5);
  int64_t outPitch = cols + 5, rowOffset = 2, colOffset = 1;
  std::vector<float> b((rows + rowOffset) * outPitch, -7.0f);
  std::vector<float> expected = b;
  DeviceArray<float> da(a), db(b);
  float *outView = db.get() + rowOffset * outPitch + colOffset;
  if (!ok(kernels_scale_view(&m, stream, da.get(), rows, cols, pitch, step,
                             outView, rows, cols, outPitch, 0.5f),
          "kernels_scale_view") ||
      !ok(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      expected[(i + rowOffset) * outPitch + colOffset + j] =
          a[i * pitch + j * step] * 0.5f;
  char what[64];
  std::snprintf(what, sizeof(what), "scale_view %lldx%lld step %lld",
                (long long)rows, (long long)cols, (long long)step);
  compare(what, db.read(), expected, 0.0);
}

void checkSum(const kernels_module &m, CUstream stream, int64_t n) {
  std::vector<int32_t> x(n);
  int32_t expected = 0;
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<int32_t>((i * 7919) % 2001) - 1000;
    expected += x[i];
  }
  std::vector<int32_t> total(1, -1);
  DeviceArray<int32_t> dx(x), dtotal(total);
  if (!ok(kernels_sum(&m, stream, dx.get(), n, dtotal.get()), "kernels_sum") ||
      !ok(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return;
  char what[64];
  std::snprintf(what, sizeof(what), "sum n=%lld", (long long)n);
  compare(what, dtotal.read(), std::vector<int32_t>{expected}, 0.0);
}

} // namespace

int main() {
  CUdevice device;
  CUcontext context;
  int count = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS ||
      count == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 3;
  }
  if (!ok(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !ok(cuDevicePrimaryCtxRetain(&context, device),
          "cuDevicePrimaryCtxRetain") ||
      !ok(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;
  kernels_module m;
  CUstream stream;
  if (!ok(kernels_load(&m), "kernels_load") ||
      !ok(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return 1;

  for (int64_t n : {0, 1, 1000, 1000003, 1 << 24})
    checkSaxpy(m, stream, n);
  checkTranspose(m, stream, 1000, 777);
  checkTranspose(m, stream, 4096, 4096);
  checkTranspose(m, stream, 1, 33);
  checkRowSums(m, stream, 300, 1000);
  checkRowSums(m, stream, 17, 3);
  checkRowSums(m, stream, 5, 100000);
  checkScaleView(m, stream, 37, 250, 1);
  checkScaleView(m, stream, 37, 250, 3);
  for (int64_t n : {0, 1, 33, 1000003, 1 << 26})
    checkSum(m, stream, n);

  // An impossible launch is refused, not attempted: 2^34 tiles do not fit
  // the 2^31 - 1 blocks of gridDim.x.
  CUresult refused = kernels_transpose(&m, stream, nullptr, INT64_C(1) << 22,
                                       INT64_C(1) << 22, nullptr,
                                       INT64_C(1) << 22, INT64_C(1) << 22);
  if (refused == CUDA_ERROR_INVALID_VALUE) {
    std::printf("ok an impossible grid is refused\n");
  } else {
    std::fprintf(stderr, "an impossible grid gave %d\n", int(refused));
    ++failures;
  }

  ok(cuStreamDestroy(stream), "cuStreamDestroy");
  ok(kernels_unload(&m), "kernels_unload");
  cuDevicePrimaryCtxRelease(device);
  if (failures) {
    std::fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  std::printf("all launches match the CPU\n");
  return 0;
}
