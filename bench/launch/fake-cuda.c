// A stand-in for libcuda.so.1 whose calls succeed and do nothing, so that
// the host side of a bundle's call (its own code and ThreadBind's runtime,
// everything but the driver) can be timed and profiled on a machine
// without a GPU. Device memory is host memory; launches run nothing.
//
//   cc -O2 -shared -fPIC -o /tmp/fake/libcuda.so.1 bench/launch/fake-cuda.c
//   threadbind-compile bench/polybench/jacobi-2d.mlir --emit bundle -o jac.so
//   time LD_LIBRARY_PATH=/tmp/fake threadbind-run jac.so
//     --entry jacobi_2d --scalar 0=1000000 --shape 1=16x16 --shape 2=16x16
//
// (two million launches; perf record works the same way).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
CUresult cuGetErrorName(int e, const char **s) {
  *s = "FAKE";
  return 0;
}
CUresult cuGetErrorString(int e, const char **s) {
  *s = "fake";
  return 0;
}
CUresult cuInit(unsigned f) { return 0; }
CUresult cuDeviceGetCount(int *c) {
  *c = 1;
  return 0;
}
CUresult cuDeviceGet(int *d, int o) {
  *d = 0;
  return 0;
}
CUresult cuDeviceGetName(char *n, int len, int d) {
  strncpy(n, "fake", len);
  return 0;
}
// The CUdevice_attribute values the runtime reads, as an H200 answers.
enum {
  kMultiprocessors = 16,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiprocessor = 39,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxBlocksPerMultiprocessor = 106,
};
CUresult cuDeviceGetAttribute(int *v, int a, int d) {
  switch (a) {
  case kComputeCapabilityMajor:
    *v = 9;
    break;
  case kComputeCapabilityMinor:
    *v = 0;
    break;
  case kMultiprocessors:
    *v = 132;
    break;
  case kMaxThreadsPerMultiprocessor:
    *v = 2048;
    break;
  case kMaxBlocksPerMultiprocessor:
    *v = 32;
    break;
  case kL2CacheSize:
    *v = 50 << 20;
    break;
  default:
    *v = 1;
  }
  return 0;
}
static int ctx;
CUresult cuDevicePrimaryCtxRetain(void **c, int d) {
  *c = &ctx;
  return 0;
}
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuModuleLoadDataEx(void **m, const void *img, unsigned n, int *o,
                            void **v) {
  *m = malloc(16);
  return 0;
}
CUresult cuModuleUnload(void *m) { return 0; }
// One handle a kernel name, the same each time it is asked for; past 256
// names, CUDA_ERROR_OUT_OF_MEMORY.
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  static const char *names[256];
  static void *fns[256];
  static int count;
  for (int i = 0; i < count; ++i)
    if (!strcmp(names[i], name)) {
      *f = fns[i];
      return 0;
    }
  if (count == 256)
    return 2;
  names[count] = strdup(name);
  fns[count] = malloc(16);
  *f = fns[count++];
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned sh,
                        void *s, void **p, void **e) {
  return 0;
}
CUresult cuStreamCreate(void **s, unsigned f) {
  *s = malloc(16);
  return 0;
}
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) {
  *e = malloc(16);
  return 0;
}
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) {
  *ms = 0.001f;
  return 0;
}
CUresult cuEventDestroy_v2(void *e) {
  free(e);
  return 0;
}
CUresult cuMemAlloc_v2(uint64_t *p, size_t n) {
  *p = (uint64_t)malloc(n ? n : 1);
  return 0;
}
CUresult cuMemAllocManaged(uint64_t *p, size_t n, unsigned f) {
  *p = (uint64_t)malloc(n ? n : 1);
  return 0;
}
CUresult cuMemFree_v2(uint64_t p) {
  free((void *)p);
  return 0;
}
CUresult cuMemcpyAsync(uint64_t d, uint64_t s, size_t n, void *st) {
  memmove((void *)d, (void *)s, n);
  return 0;
}
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) {
  memcpy((void *)d, s, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) {
  memcpy(d, (void *)s, n);
  return 0;
}
CUresult cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) {
  return 0;
}
CUresult cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void *s) {
  return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) { return 0; }
CUresult cuMemHostUnregister(void *p) { return 0; }
CUresult cuFuncGetAttribute(int *v, int a, void *f) {
  *v = 32;
  return 0;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *b, void *f, int t,
                                                     size_t s) {
  *b = 2048 / (t ? t : 1);
  return 0;
}
