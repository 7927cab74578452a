/*===- Runtime.h - ThreadBind runtime library, C API ---------------*- C -*-===*\
|*                                                                            *|
|* Part of the ThreadBind project.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What the runner, the Python package and user programs call in
 * libThreadBindRuntime.so. The library also provides the mgpu* functions
 * that host code lowered by MLIR's gpu-to-llvm calls, and the grid-size
 * query threadbind_max_resident_blocks of grid-stride launches.
 *
 * It talks to the CUDA driver only, loaded with dlopen on first use, so it
 * and every bundle load on a machine without a GPU (where each call reports
 * "no CUDA device") and need nothing but the driver on one with a GPU.
 * Every failing driver call is reported with the call's name; the first
 * failure stays readable through threadbind_last_error().
 */

#ifndef THREADBIND_RUNTIME_RUNTIME_H
#define THREADBIND_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Results of threadbind_init. */
enum {
  THREADBIND_OK = 0,
  THREADBIND_NO_DRIVER = 1, /* libcuda.so.1 could not be loaded */
  THREADBIND_NO_DEVICE = 2, /* the driver reports no usable device */
  THREADBIND_ERROR = 3      /* a driver call failed */
};

/* Loads the driver and makes the primary context of device
 * $THREADBIND_DEVICE (default 0) current. Idempotent; returns one of the
 * codes above. */
int threadbind_init(void);

/* The first error since the last threadbind_clear_error, or "" if none. */
const char *threadbind_last_error(void);
void threadbind_clear_error(void);

/* The device: name, compute capability, SM count and memory bus facts. */
typedef struct ThreadBindDeviceInfo {
  char name[256];
  int ccMajor, ccMinor;
  int multiprocessors;
  int maxThreadsPerMultiprocessor;
  int maxBlocksPerMultiprocessor;
  int l2CacheBytes;
} ThreadBindDeviceInfo;
int threadbind_device_info(ThreadBindDeviceInfo *info);

/* Device memory. Return 0 on success. */
int threadbind_malloc(void **devicePtr, size_t bytes);
int threadbind_free(void *devicePtr);
int threadbind_copy_to_device(void *devicePtr, const void *hostPtr,
                              size_t bytes);
int threadbind_copy_to_host(void *hostPtr, const void *devicePtr,
                            size_t bytes);
int threadbind_synchronize(void);

/* Waits for the launches the calling thread's host code made and has not
 * waited for: a bundle's entry wrappers call it before they return, so a
 * call returns with its work done. Launches within a call run in order on
 * one stream per thread without waiting one by one. */
void threadbind_bundle_call_done(void);

/* Bundle calls on the caller's stream. After threadbind_use_stream(s), the
 * calling thread's bundle calls launch on CUstream `s` of the current
 * context (0: the legacy default stream) and return without waiting for
 * their kernels, as a CUDA launch does: wait on `s`, or order later work
 * after it, before reading what a call wrote. A call still waits where its
 * own host code needs it (a copy it reads, device memory it frees), and
 * arguments it was given must stay allocated until `s` is done with them.
 * threadbind_use_own_stream() goes back to the default: launches on a
 * stream of the runtime's, and a wait before each call returns. */
void threadbind_use_stream(void *stream);
void threadbind_use_own_stream(void);

/* Grid sizing for grid-stride kernels: the blocks of `threadsPerBlock`
 * threads that fit on the device at once (blocks per SM from the
 * occupancy calculator for `function` when given, else from the SM's
 * thread and block limits, times the SM count), capped by `workBlocks`
 * when that is positive. At least 1 and at most
 * THREADBIND_MAX_RESIDENT_BLOCKS, as are the two queries below: the
 * compiler relies on that bound (threadbind-narrow-indices), and so must
 * any other implementation of them (Python's launch_ptx clamps alike). */
#define THREADBIND_MAX_RESIDENT_BLOCKS (INT64_C(1) << 20)
int64_t threadbind_grid_blocks(void *function, int64_t threadsPerBlock,
                               int64_t workBlocks);

/* The query grid-stride launches make before launching: from the SM's
 * thread and block limits alone, or, once the compiler knows the kernel,
 * from that kernel's occupancy (found by name in the modules loaded, those
 * of the calling bundle first, so bundles with kernels of the same name
 * each get their own; answers are cached). */
int64_t threadbind_max_resident_blocks(int64_t threadsPerBlock);
int64_t threadbind_kernel_resident_blocks(int64_t threadsPerBlock,
                                          const char *kernel);

/* Kernels not made by ThreadBind (hand-written CUDA, for comparison):
 * load a cubin or a NUL-terminated PTX image, find a kernel, launch it on
 * the default stream and wait, timing it with events. Return 0 on success. */
int threadbind_module_load(const void *image, void **module);
int threadbind_module_function(void *module, const char *name,
                               void **function);
int threadbind_launch_timed(void *function, const int64_t grid[3],
                            const int64_t block[3], void **args,
                            double *milliseconds);

/* A device-to-device copy on the default stream, timed with events: the
 * bandwidth limit benchmarks compare against. */
int threadbind_copy_device_timed(void *dst, const void *src, size_t bytes,
                                 double *milliseconds);

/* Every kernel launch is counted and recorded, with the kernel's
 * resources; the records of the last 65536 launches since the last clear
 * are kept (threadbind_launch_record fails for older ones), so a program
 * that launches for ever holds no more. */
typedef struct ThreadBindLaunchRecord {
  char kernel[128];
  int64_t grid[3];
  int64_t block[3];
  int32_t dynamicSharedBytes;
  int32_t registers;       /* per thread */
  int32_t localBytes;      /* per thread: spills and stack */
  int32_t staticSharedBytes;
  int32_t activeBlocksPerMultiprocessor;
  double occupancy;        /* resident threads / max threads per SM */
  double milliseconds;     /* with timing on; -1 otherwise */
} ThreadBindLaunchRecord;

void threadbind_set_launch_timing(int enabled);
int64_t threadbind_launch_count(void);
/* Fills `record` for launch `index` (waiting for its timing events if
 * needed). Returns 0 on success. */
int threadbind_launch_record(int64_t index, ThreadBindLaunchRecord *record);
void threadbind_clear_launches(void);

#ifdef __cplusplus
}
#endif

#endif /* THREADBIND_RUNTIME_RUNTIME_H */
