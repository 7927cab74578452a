//===- Runtime.cpp - ThreadBind runtime on the CUDA driver API ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver is opened with dlopen on first use rather than linked, so
// bundles load (and run their CPU reference) on machines without a GPU. No
// LLVM or MLIR header or library is used here: this file ships to GPU
// machines that have nothing but the driver.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/Runtime.h"

#include "DriverState.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#pragma GCC visibility push(hidden)
namespace threadbind::runtime {

State &state() {
  static State *s = new State(); // never destroyed: module unloads run late
  return *s;
}

void recordError(bool print, const char *format, va_list args) {
  char buffer[2048];
  vsnprintf(buffer, sizeof(buffer), format, args);
  if (print)
    std::fprintf(stderr, "threadbind-runtime: %s\n", buffer);
  State &s = state();
  if (s.firstError.empty())
    s.firstError = buffer;
}

/// Records and prints a failure: host code lowered by MLIR has no way to
/// see a return code, so stderr is where its user learns of it.
void reportError(const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordError(true, format, args);
  va_end(args);
}

/// Records without printing: threadbind_init's caller gets a result code
/// and decides what to say (a missing GPU is expected on many machines).
void noteUnavailable(const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordError(false, format, args);
  va_end(args);
}

/// Checks a driver result, reporting failures with the call's name.
bool check(CUresult result, const char *call) {
  if (result == kSuccess)
    return true;
  const char *name = "unknown error", *text = "";
  Driver &cu = state().cu;
  if (cu.cuGetErrorName)
    cu.cuGetErrorName(result, &name);
  if (cu.cuGetErrorString)
    cu.cuGetErrorString(result, &text);
  reportError("%s failed: %s (%d): %s", call, name, result, text);
  return false;
}

template <typename Fn>
bool resolve(void *library, Fn &fn, const char *name,
             const char *fallback = nullptr) {
  void *symbol = dlsym(library, name);
  if (!symbol && fallback)
    symbol = dlsym(library, fallback);
  fn = reinterpret_cast<Fn>(symbol);
  if (!symbol)
    reportError("the CUDA driver has no %s", name);
  return symbol != nullptr;
}

int initLocked() {
  State &s = state();
  if (s.initialised)
    return s.initResult;
  s.initialised = true;
  s.library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!s.library) {
    noteUnavailable("cannot load libcuda.so.1 (%s)", dlerror());
    return s.initResult = THREADBIND_NO_DRIVER;
  }
  Driver &cu = s.cu;
  void *l = s.library;
  // Every missing symbol is reported, not just the first.
  bool ok = true;
  auto need = [&](auto &fn, const char *name,
                  const char *fallback = nullptr) {
    ok = resolve(l, fn, name, fallback) && ok;
  };
  need(cu.cuGetErrorName, "cuGetErrorName");
  need(cu.cuGetErrorString, "cuGetErrorString");
  need(cu.cuInit, "cuInit");
  need(cu.cuDeviceGetCount, "cuDeviceGetCount");
  need(cu.cuDeviceGet, "cuDeviceGet");
  need(cu.cuDeviceGetName, "cuDeviceGetName");
  need(cu.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  need(cu.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  need(cu.cuCtxSetCurrent, "cuCtxSetCurrent");
  need(cu.cuCtxSynchronize, "cuCtxSynchronize");
  need(cu.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  need(cu.cuModuleUnload, "cuModuleUnload");
  need(cu.cuModuleGetFunction, "cuModuleGetFunction");
  need(cu.cuLaunchKernel, "cuLaunchKernel");
  need(cu.cuStreamCreate, "cuStreamCreate");
  need(cu.cuStreamSynchronize, "cuStreamSynchronize");
  need(cu.cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy");
  need(cu.cuStreamWaitEvent, "cuStreamWaitEvent");
  need(cu.cuEventCreate, "cuEventCreate");
  need(cu.cuEventRecord, "cuEventRecord");
  need(cu.cuEventSynchronize, "cuEventSynchronize");
  need(cu.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  need(cu.cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
  need(cu.cuMemAlloc, "cuMemAlloc_v2");
  need(cu.cuMemAllocManaged, "cuMemAllocManaged");
  need(cu.cuMemFree, "cuMemFree_v2");
  need(cu.cuMemcpyAsync, "cuMemcpyAsync");
  need(cu.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  need(cu.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  need(cu.cuMemsetD32Async, "cuMemsetD32Async");
  need(cu.cuMemsetD16Async, "cuMemsetD16Async");
  need(cu.cuMemHostRegister, "cuMemHostRegister_v2");
  need(cu.cuMemHostUnregister, "cuMemHostUnregister");
  need(cu.cuFuncGetAttribute, "cuFuncGetAttribute");
  need(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!ok)
    return s.initResult = THREADBIND_ERROR;

  CUresult initResult = cu.cuInit(0);
  int count = 0;
  if (initResult != kSuccess || cu.cuDeviceGetCount(&count) != kSuccess ||
      count == 0) {
    const char *name = "no device";
    if (initResult != kSuccess)
      cu.cuGetErrorName(initResult, &name);
    noteUnavailable("cuInit/cuDeviceGetCount report %s", name);
    return s.initResult = THREADBIND_NO_DEVICE;
  }
  int ordinal = s.defaultDevice;
  if (ordinal < 0) {
    const char *env = std::getenv("THREADBIND_DEVICE");
    ordinal = env ? std::atoi(env) : 0;
  }
  if (ordinal < 0 || ordinal >= count) {
    reportError("THREADBIND_DEVICE=%d but there are %d devices", ordinal,
                count);
    return s.initResult = THREADBIND_NO_DEVICE;
  }
  if (!CU_CHECK(cuDeviceGet(&s.device, ordinal)) ||
      !CU_CHECK(cuDevicePrimaryCtxRetain(&s.context, s.device)) ||
      !CU_CHECK(cuCtxSetCurrent(s.context)))
    return s.initResult = THREADBIND_ERROR;

  ThreadBindDeviceInfo &info = s.info;
  CU_CHECK(cuDeviceGetName(info.name, sizeof(info.name), s.device));
  auto attribute = [&](int attr, int &out, const char *what) {
    if (!check(cu.cuDeviceGetAttribute(&out, attr, s.device), what))
      out = 0;
  };
  attribute(kAttrComputeCapabilityMajor, info.ccMajor,
            "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)");
  attribute(kAttrComputeCapabilityMinor, info.ccMinor,
            "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)");
  attribute(kAttrMultiprocessorCount, info.multiprocessors,
            "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  attribute(kAttrMaxThreadsPerMultiprocessor,
            info.maxThreadsPerMultiprocessor,
            "cuDeviceGetAttribute(MAX_THREADS_PER_MULTIPROCESSOR)");
  attribute(kAttrMaxBlocksPerMultiprocessor, info.maxBlocksPerMultiprocessor,
            "cuDeviceGetAttribute(MAX_BLOCKS_PER_MULTIPROCESSOR)");
  attribute(kAttrL2CacheSize, info.l2CacheBytes,
            "cuDeviceGetAttribute(L2_CACHE_SIZE)");
  return s.initResult = THREADBIND_OK;
}

bool ready() {
  // A driver that came up stays up: lowered host code asks several times a
  // launch, and then needs no lock.
  static std::atomic<bool> up{false};
  if (up.load(std::memory_order_acquire))
    return true;
  std::lock_guard<std::mutex> lock(state().mutex);
  bool ok = initLocked() == THREADBIND_OK;
  if (ok)
    up.store(true, std::memory_order_release);
  return ok;
}

/// Loads `module` into the context if it is not loaded yet.
bool loadModule(Module &module) {
  if (module.handle)
    return true;
  if (module.loadFailed || !ready())
    return false;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (module.handle)
    return true;
  char log[8192] = {0};
  int options[3] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes,
                    kJitOptimizationLevel};
  void *values[3] = {log, reinterpret_cast<void *>(sizeof(log)),
                     reinterpret_cast<void *>(
                         static_cast<intptr_t>(module.optLevel))};
  unsigned numOptions = module.isPtx ? 3 : 2;
  if (!check(s.cu.cuModuleLoadDataEx(&module.handle, module.image, numOptions,
                                     options, values),
             module.isPtx ? "cuModuleLoadDataEx (JIT-compiling PTX)"
                          : "cuModuleLoadDataEx")) {
    if (log[0])
      reportError("driver log: %s", log);
    module.loadFailed = true;
    return false;
  }
  return true;
}

void destroyEvents(Launch &launch) {
  State &s = state();
  if (launch.start)
    check(s.cu.cuEventDestroy(launch.start), "cuEventDestroy");
  if (launch.stop)
    check(s.cu.cuEventDestroy(launch.stop), "cuEventDestroy");
  launch.start = launch.stop = nullptr;
}

FunctionInfo &functionInfo(CUfunction function) {
  State &s = state();
  FunctionInfo &info = s.functions[function];
  if (info.registers < 0) {
    check(s.cu.cuFuncGetAttribute(&info.registers, kFuncAttrNumRegs, function),
          "cuFuncGetAttribute(NUM_REGS)");
    check(s.cu.cuFuncGetAttribute(&info.localBytes, kFuncAttrLocalSizeBytes,
                                  function),
          "cuFuncGetAttribute(LOCAL_SIZE_BYTES)");
    check(s.cu.cuFuncGetAttribute(&info.staticSharedBytes,
                                  kFuncAttrSharedSizeBytes, function),
          "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
  }
  return info;
}

int64_t blocksPerMultiprocessor(CUfunction function, int64_t threads,
                                size_t dynamicShared) {
  State &s = state();
  if (function) {
    int blocks = 0;
    if (check(s.cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                  &blocks, function, static_cast<int>(threads),
                  dynamicShared),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
      return blocks;
  }
  int64_t byThreads = threads > 0
                          ? s.info.maxThreadsPerMultiprocessor / threads
                          : 0;
  int64_t limit = s.info.maxBlocksPerMultiprocessor > 0
                      ? s.info.maxBlocksPerMultiprocessor
                      : byThreads;
  return std::min(byThreads, limit);
}

/// Runs `enqueue` on the default stream between two events and returns the
/// elapsed time, or a negative value on failure.
template <typename Fn>
double timeOnDefaultStream(Fn enqueue) {
  State &s = state();
  CUevent start = nullptr, stop = nullptr;
  double ms = -1;
  if (check(s.cu.cuEventCreate(&start, kEventDefault), "cuEventCreate") &&
      check(s.cu.cuEventCreate(&stop, kEventDefault), "cuEventCreate") &&
      check(s.cu.cuEventRecord(start, nullptr), "cuEventRecord") &&
      enqueue() && check(s.cu.cuEventRecord(stop, nullptr), "cuEventRecord") &&
      check(s.cu.cuEventSynchronize(stop), "cuEventSynchronize")) {
    float elapsed = 0;
    if (check(s.cu.cuEventElapsedTime(&elapsed, start, stop),
              "cuEventElapsedTime"))
      ms = elapsed;
  }
  if (start)
    check(s.cu.cuEventDestroy(start), "cuEventDestroy");
  if (stop)
    check(s.cu.cuEventDestroy(stop), "cuEventDestroy");
  return ms;
}

/// Finds `name` in `module`, loading the module first if needed.
CUfunction lookupFunction(Module *module, const char *name,
                          bool nameOutlivesModule) {
  if (!module || !loadModule(*module))
    return nullptr;
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto [address, function] : module->byNameAddress)
      if (address == name)
        return function;
  }
  CUfunction function = nullptr;
  if (!check(s.cu.cuModuleGetFunction(&function, module->handle, name),
             "cuModuleGetFunction"))
    return nullptr;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.functions[function].name = name;
  if (std::find(module->functions.begin(), module->functions.end(),
                function) == module->functions.end())
    module->functions.push_back(function);
  if (nameOutlivesModule)
    module->byNameAddress.emplace_back(name, function);
  return function;
}

} // namespace threadbind::runtime
#pragma GCC visibility pop

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

using namespace threadbind::runtime;

extern "C" {

int threadbind_init(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return initLocked();
}

const char *threadbind_last_error(void) {
  return state().firstError.c_str();
}

void threadbind_clear_error(void) { state().firstError.clear(); }

int threadbind_device_info(ThreadBindDeviceInfo *info) {
  if (!ready())
    return 1;
  *info = state().info;
  return 0;
}

int threadbind_malloc(void **devicePtr, size_t bytes) {
  *devicePtr = nullptr;
  if (!ready())
    return 1;
  CUdeviceptr ptr = 0;
  // The driver rejects zero-byte allocations; a 0-size memref still needs a
  // valid, distinct pointer.
  if (!CU_CHECK(cuMemAlloc(&ptr, bytes ? bytes : 1)))
    return 1;
  *devicePtr = reinterpret_cast<void *>(ptr);
  return 0;
}

int threadbind_free(void *devicePtr) {
  if (!devicePtr)
    return 0;
  if (!ready())
    return 1;
  return CU_CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(devicePtr))) ? 0 : 1;
}

int threadbind_copy_to_device(void *devicePtr, const void *hostPtr,
                              size_t bytes) {
  if (!bytes)
    return 0;
  if (!ready())
    return 1;
  return CU_CHECK(cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(devicePtr),
                               hostPtr, bytes))
             ? 0
             : 1;
}

int threadbind_copy_to_host(void *hostPtr, const void *devicePtr,
                            size_t bytes) {
  if (!bytes)
    return 0;
  if (!ready())
    return 1;
  return CU_CHECK(cuMemcpyDtoH(hostPtr,
                               reinterpret_cast<CUdeviceptr>(devicePtr),
                               bytes))
             ? 0
             : 1;
}

int threadbind_synchronize(void) {
  if (!ready())
    return 1;
  return CU_CHECK(cuCtxSynchronize()) ? 0 : 1;
}

int64_t threadbind_grid_blocks(void *function, int64_t threadsPerBlock,
                               int64_t workBlocks) {
  if (!ready())
    return 1;
  int64_t total =
      blocksPerMultiprocessor(static_cast<CUfunction>(function),
                              threadsPerBlock, 0) *
      state().info.multiprocessors;
  if (workBlocks > 0)
    total = std::min(total, workBlocks);
  return std::clamp<int64_t>(total, 1, THREADBIND_MAX_RESIDENT_BLOCKS);
}

int64_t threadbind_max_resident_blocks(int64_t threadsPerBlock) {
  return threadbind_grid_blocks(nullptr, threadsPerBlock, 0);
}

/// The base address of the shared object holding `address` (a bundle, or
/// the program); null where the loader does not know it.
static const void *getObjectBase(const void *address) {
  Dl_info info;
  if (!address || !dladdr(address, &info))
    return nullptr;
  return info.dli_fbase;
}

int64_t threadbind_kernel_resident_blocks(int64_t threadsPerBlock,
                                          const char *kernel) {
  if (!ready())
    return 1;
  State &s = state();
  // Bundles loaded together may each have a kernel of the same name (two
  // programs' "kernel_kernel", or variants of one program): the caller is
  // a bundle's host code, and its kernel is the one in the module whose
  // image that bundle carries. Other callers take the first found.
  // Lowered host code asks from the same call site, with the same constant
  // name, before every launch: remember the answer by both addresses first.
  const void *site = __builtin_return_address(0);
  auto siteKey = std::make_tuple(site, kernel, threadsPerBlock);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto cached = s.residentBlocksBySite.find(siteKey);
    if (cached != s.residentBlocksBySite.end())
      return cached->second;
  }
  const void *caller = getObjectBase(site);
  // Only a name among the caller's constants keeps its address and text
  // (a caller's buffer may hold another name next time).
  bool remember = caller && getObjectBase(kernel) == caller;
  std::string key = std::string(kernel) + "/" +
                    std::to_string(threadsPerBlock) + "/" +
                    std::to_string(reinterpret_cast<uintptr_t>(caller));
  std::vector<Module *> modules;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto cached = s.residentBlocks.find(key);
    if (cached != s.residentBlocks.end()) {
      if (remember)
        s.residentBlocksBySite[siteKey] = cached->second;
      return cached->second;
    }
    modules = s.modules;
  }
  std::stable_partition(modules.begin(), modules.end(), [&](Module *module) {
    return caller && getObjectBase(module->image) == caller;
  });
  CUfunction function = nullptr;
  for (Module *module : modules) {
    if (!loadModule(*module))
      continue;
    CUresult result =
        s.cu.cuModuleGetFunction(&function, module->handle, kernel);
    if (result == kSuccess)
      break;
    function = nullptr;
    if (result != kErrorNotFound)
      check(result, "cuModuleGetFunction");
  }
  // A kernel not found (not loaded by this process) falls back to the SM
  // limits, like the query that does not name one.
  int64_t blocks = threadbind_grid_blocks(function, threadsPerBlock, 0);
  std::lock_guard<std::mutex> lock(s.mutex);
  s.residentBlocks[key] = blocks;
  if (remember)
    s.residentBlocksBySite[siteKey] = blocks;
  return blocks;
}

int threadbind_module_load(const void *image, void **module) {
  *module = nullptr;
  if (!ready())
    return 1;
  Module *m = new Module();
  m->image = image;
  // PTX is text; a cubin starts with the ELF magic.
  m->isPtx = std::memcmp(image, "\x7f" "ELF", 4) != 0;
  if (!loadModule(*m)) {
    delete m;
    return 1;
  }
  *module = m;
  return 0;
}

int threadbind_module_function(void *module, const char *name,
                               void **function) {
  *function = lookupFunction(static_cast<Module *>(module), name,
                             /*nameOutlivesModule=*/false);
  return *function ? 0 : 1;
}


int threadbind_launch_timed(void *function, const int64_t grid[3],
                            const int64_t block[3], void **args,
                            double *milliseconds) {
  if (!ready() || !function)
    return 1;
  State &s = state();
  *milliseconds = timeOnDefaultStream([&] {
    return check(s.cu.cuLaunchKernel(static_cast<CUfunction>(function),
                                     grid[0], grid[1], grid[2], block[0],
                                     block[1], block[2], 0, nullptr, args,
                                     nullptr),
                 "cuLaunchKernel");
  });
  return *milliseconds < 0 ? 1 : 0;
}

int threadbind_copy_device_timed(void *dst, const void *src, size_t bytes,
                                 double *milliseconds) {
  if (!ready())
    return 1;
  State &s = state();
  *milliseconds = timeOnDefaultStream([&] {
    return check(s.cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                    reinterpret_cast<CUdeviceptr>(src), bytes,
                                    nullptr),
                 "cuMemcpyAsync");
  });
  return *milliseconds < 0 ? 1 : 0;
}

void threadbind_set_launch_timing(int enabled) { state().timing = enabled; }

int64_t threadbind_launch_count(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.launches.count();
}

int threadbind_launch_record(int64_t index, ThreadBindLaunchRecord *record) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  Launch *found = s.launches.find(index);
  if (!found)
    return 1;
  Launch &launch = *found;
  if (launch.start && launch.record.milliseconds < 0) {
    float ms = 0;
    if (check(s.cu.cuEventSynchronize(launch.stop), "cuEventSynchronize") &&
        check(s.cu.cuEventElapsedTime(&ms, launch.start, launch.stop),
              "cuEventElapsedTime"))
      launch.record.milliseconds = ms;
  }
  *record = launch.record;
  return 0;
}

void threadbind_clear_launches(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (Launch &launch : s.launches.clear())
    destroyEvents(launch);
}

} // extern "C"
