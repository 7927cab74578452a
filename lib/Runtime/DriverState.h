//===- DriverState.h - The runtime's view of the CUDA driver ----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime: the slice of the CUDA driver API the runtime
// resolves with dlsym, and the process-wide state shared by the C API
// (Runtime.cpp) and the functions lowered host code calls
// (MgpuWrappers.cpp). Nothing here is exported from the shared library.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_LIB_RUNTIME_DRIVERSTATE_H
#define THREADBIND_LIB_RUNTIME_DRIVERSTATE_H

#include "LaunchLog.h"

#include "threadbind/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#pragma GCC visibility push(hidden)

namespace threadbind::runtime {

//===----------------------------------------------------------------------===//
// The slice of the CUDA driver API we use, with the values cuda.h gives them.
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

constexpr CUresult kSuccess = 0;
constexpr CUresult kErrorDeinitialized = 4;
constexpr CUresult kErrorNotFound = 500;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrL2CacheSize = 38;
constexpr int kAttrMaxThreadsPerMultiprocessor = 39;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMaxBlocksPerMultiprocessor = 106;
constexpr int kFuncAttrSharedSizeBytes = 1;
constexpr int kFuncAttrLocalSizeBytes = 3;
constexpr int kFuncAttrNumRegs = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kJitOptimizationLevel = 7;
constexpr unsigned kMemAttachGlobal = 1;
constexpr unsigned kEventDefault = 0;

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

/// A module as the lowered host code sees it: its image is kept, and loaded
/// into the context on first use, so loading a bundle needs no GPU.
struct Module {
  const void *image = nullptr;
  bool isPtx = false;
  int optLevel = 3;
  CUmodule handle = nullptr;
  bool loadFailed = false;
  /// The kernels lookupFunction found in it: their FunctionInfo goes when
  /// it unloads, since the driver may give a later kernel the same handle.
  std::vector<CUfunction> functions;
  /// lookupFunction's answers by the name's address: lowered host code asks
  /// before every launch, with the same constant string each time.
  std::vector<std::pair<const char *, CUfunction>> byNameAddress;
};

struct FunctionInfo {
  std::string name;
  int registers = -1, localBytes = -1, staticSharedBytes = -1;
  /// Resident blocks a multiprocessor, by threads a block (high 32 bits)
  /// and dynamic shared bytes: asked of the driver once each, since a
  /// launch record needs it on every launch.
  std::unordered_map<uint64_t, int32_t> residentBlocks;
};

struct Launch {
  ThreadBindLaunchRecord record;
  CUfunction function = nullptr;
  CUevent start = nullptr, stop = nullptr;
};

struct State {
  std::mutex mutex;
  bool initialised = false;
  int initResult = THREADBIND_ERROR;
  void *library = nullptr;
  Driver cu{};
  CUdevice device = 0;
  CUcontext context = nullptr;
  ThreadBindDeviceInfo info{};
  std::string firstError;
  std::vector<CUstream> freeStreams;
  std::unordered_map<CUfunction, FunctionInfo> functions;
  /// Every launch since the last threadbind_clear_launches, the records of
  /// the last 65536 kept.
  LaunchLog<Launch> launches{size_t(1) << 16};
  /// Modules the lowered host code registered, to find kernels by name.
  std::vector<Module *> modules;
  std::unordered_map<std::string, int64_t> residentBlocks;
  /// The same answers by call site, kernel name's address and block size.
  std::map<std::tuple<const void *, const char *, int64_t>, int64_t>
      residentBlocksBySite;
  bool timing = false;
  int defaultDevice = -1;
};

/// The runtime's state, created on first use and never destroyed: modules
/// unload from global destructors that run late.
State &state();

/// Records and prints a failure: host code lowered by MLIR has no way to
/// see a return code, so stderr is where its user learns of it.
void reportError(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// Checks a driver result, reporting failures with the call's name.
bool check(CUresult result, const char *call);

/// Calls a driver function through the state and checks its result.
#define CU_CHECK(call)                                                         \
  ::threadbind::runtime::check(::threadbind::runtime::state().cu.call, #call)

/// Whether the driver is initialised, initialising it on first use.
bool ready();

/// The name, registers and memory of `function`, read from the driver
/// once. Call with the state's mutex held.
FunctionInfo &functionInfo(CUfunction function);

/// Destroys a timed launch's events.
void destroyEvents(Launch &launch);

/// How many blocks of `threads` threads of `function` fit on one
/// multiprocessor (from the thread limits where `function` is null).
int64_t blocksPerMultiprocessor(CUfunction function, int64_t threads,
                                size_t dynamicShared);

/// Finds `name` in `module`, loading the module first if needed. Where
/// `nameOutlivesModule` (a constant of the lowered host code that loaded
/// it), later lookups of the same address skip the driver.
CUfunction lookupFunction(Module *module, const char *name,
                          bool nameOutlivesModule);

} // namespace threadbind::runtime

#pragma GCC visibility pop

#endif // THREADBIND_LIB_RUNTIME_DRIVERSTATE_H
