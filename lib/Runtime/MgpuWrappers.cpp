//===- MgpuWrappers.cpp - What MLIR's lowered host code calls -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// gpu-to-llvm lowers host code to calls of the mgpu* functions that
// upstream's CUDA runtime wrappers define. A bundle links against these
// instead: modules load lazily (so a bundle loads without a GPU), launches
// are recorded for threadbind_launch_record, and launches are not waited
// for one by one.
//
// Lowered synchronous host code brackets every launch with a stream of its
// own and a wait for it: the GPU then idles while the host prepares each
// next launch, which is a quarter of a stencil's time at 2000 small
// launches. Here every stream a thread creates is that thread's one host
// stream, so its launches run in the order they are made, and a wait that
// follows nothing but launches is put off: no host code in a bundle reads
// what a kernel wrote except through a copy, whose wait is real. The
// bundle's entry wrappers wait once at the end of the call
// (threadbind_bundle_call_done), so a call still returns with its work
// done, and device memory is freed only after the launches that use it.
//
// A thread that called threadbind_use_stream launches on the caller's
// stream instead, and its calls return without that last wait, as a CUDA
// launch does; the waits before a copy is read and before memory is freed
// stay.
//
//===----------------------------------------------------------------------===//

#include "DriverState.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace threadbind::runtime;

namespace {
/// The legacy default stream's handle (CU_STREAM_LEGACY): unlike 0 it
/// cannot be taken for a failed mgpuStreamCreate.
CUstream const kLegacyStream = reinterpret_cast<CUstream>(0x1);

/// The stream a thread's lowered host code launches on, and whether work
/// on it has not been waited for yet.
struct HostStream {
  /// Where launches go: `own`, or the caller's stream.
  CUstream stream = nullptr;
  /// The runtime's stream for this thread, made on first use.
  CUstream own = nullptr;
  /// `stream` is the caller's (threadbind_use_stream): calls end unwaited.
  bool isCallers = false;
  /// Work was queued since the last wait.
  bool pending = false;
  /// Only launches were made since the last wait: a wait now can be put off.
  bool onlyLaunches = true;

  ~HostStream() {
    if (!own)
      return;
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.freeStreams.push_back(own);
  }
};

thread_local HostStream hostStream;

bool isHostStream(void *stream) {
  return stream && stream == static_cast<void *>(hostStream.stream);
}

/// Waits for everything the thread's host stream holds.
void waitForHostStream() {
  if (!hostStream.stream)
    return;
  if (hostStream.pending)
    CU_CHECK(cuStreamSynchronize(hostStream.stream));
  hostStream.pending = false;
  hostStream.onlyLaunches = true;
}

/// Marks work other than a launch on `stream`: its next wait is real.
void noteOtherWork(void *stream) {
  if (isHostStream(stream)) {
    hostStream.pending = true;
    hostStream.onlyLaunches = false;
  }
}
} // namespace

extern "C" {

static Module *registerModule(const void *image, bool isPtx, int optLevel) {
  Module *module = new Module();
  module->image = image;
  module->isPtx = isPtx;
  module->optLevel = optLevel;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().modules.push_back(module);
  return module;
}

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return registerModule(data, /*isPtx=*/false, 3);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return registerModule(data, /*isPtx=*/true, optLevel);
}

void mgpuModuleUnload(void *handle) {
  Module *module = static_cast<Module *>(handle);
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.modules.erase(std::remove(s.modules.begin(), s.modules.end(), module),
                    s.modules.end());
    s.residentBlocks.clear();
    s.residentBlocksBySite.clear();
    if (module)
      for (CUfunction function : module->functions)
        s.functions.erase(function);
  }
  if (module && module->handle) {
    // Bundles unload from a global destructor; at process exit the driver
    // may already have torn the context down, which freed the module too.
    CUresult result = state().cu.cuModuleUnload(module->handle);
    if (result != kErrorDeinitialized)
      check(result, "cuModuleUnload");
  }
  delete module;
}

void *mgpuModuleGetFunction(void *handle, const char *name) {
  return lookupFunction(static_cast<Module *>(handle), name,
                        /*nameOutlivesModule=*/true);
}

void mgpuLaunchKernel(void *handle, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  CUfunction function = static_cast<CUfunction>(handle);
  if (!function) {
    reportError("cuLaunchKernel skipped: the kernel could not be loaded");
    return;
  }
  if (!ready())
    return;
  State &s = state();
  Launch launch;
  launch.function = function;
  ThreadBindLaunchRecord &r = launch.record;
  r.grid[0] = gridX, r.grid[1] = gridY, r.grid[2] = gridZ;
  r.block[0] = blockX, r.block[1] = blockY, r.block[2] = blockZ;
  r.dynamicSharedBytes = sharedBytes;
  r.milliseconds = -1;
  int64_t threads = blockX * blockY * blockZ;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    FunctionInfo &info = functionInfo(function);
    size_t nameBytes = std::min(info.name.size(), sizeof(r.kernel) - 1);
    std::memcpy(r.kernel, info.name.data(), nameBytes);
    r.kernel[nameBytes] = '\0';
    r.registers = info.registers;
    r.localBytes = info.localBytes;
    r.staticSharedBytes = info.staticSharedBytes;
    uint64_t shape = static_cast<uint64_t>(threads) << 32 |
                     static_cast<uint32_t>(sharedBytes);
    auto [cached, isNew] = info.residentBlocks.try_emplace(shape, 0);
    if (isNew)
      cached->second = static_cast<int32_t>(
          blocksPerMultiprocessor(function, threads, sharedBytes));
    r.activeBlocksPerMultiprocessor = cached->second;
  }
  r.occupancy = s.info.maxThreadsPerMultiprocessor
                    ? double(r.activeBlocksPerMultiprocessor * threads) /
                          s.info.maxThreadsPerMultiprocessor
                    : 0.0;
  if (r.activeBlocksPerMultiprocessor == 0)
    reportError("kernel %s cannot run: 0 blocks of %lld threads fit on a "
                "multiprocessor (registers %d, shared %d + %d bytes)",
                r.kernel, static_cast<long long>(threads), r.registers,
                r.staticSharedBytes, sharedBytes);
  CUstream cuStream = static_cast<CUstream>(stream);
  if (s.timing) {
    check(s.cu.cuEventCreate(&launch.start, kEventDefault), "cuEventCreate");
    check(s.cu.cuEventCreate(&launch.stop, kEventDefault), "cuEventCreate");
    check(s.cu.cuEventRecord(launch.start, cuStream), "cuEventRecord");
  }
  check(s.cu.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                            blockZ, sharedBytes, cuStream, params, extra),
        "cuLaunchKernel");
  if (s.timing)
    check(s.cu.cuEventRecord(launch.stop, cuStream), "cuEventRecord");
  if (isHostStream(stream))
    hostStream.pending = true;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (std::optional<Launch> dropped = s.launches.push(launch))
    destroyEvents(*dropped);
}

void *mgpuStreamCreate() {
  if (!ready())
    return nullptr;
  if (hostStream.stream)
    return hostStream.stream;
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.freeStreams.empty()) {
      hostStream.own = s.freeStreams.back();
      s.freeStreams.pop_back();
    }
  }
  // Flags 0: the stream waits for, and is waited for by, the legacy
  // default stream, which callers may time and synchronise on.
  if (!hostStream.own)
    check(s.cu.cuStreamCreate(&hostStream.own, 0), "cuStreamCreate");
  hostStream.stream = hostStream.own;
  return hostStream.stream;
}

void mgpuStreamDestroy(void *stream) {
  // The host stream stays the thread's until the thread ends.
  if (!stream || isHostStream(stream))
    return;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.freeStreams.push_back(static_cast<CUstream>(stream));
}

void mgpuStreamSynchronize(void *stream) {
  if (!ready())
    return;
  if (!isHostStream(stream)) {
    CU_CHECK(cuStreamSynchronize(static_cast<CUstream>(stream)));
    return;
  }
  // After launches alone, nothing the host reads can have changed.
  if (hostStream.onlyLaunches)
    return;
  waitForHostStream();
}

void threadbind_bundle_call_done(void) {
  // On the caller's stream, the caller waits when it needs the results.
  if (!hostStream.isCallers && ready())
    waitForHostStream();
}

void threadbind_use_stream(void *stream) {
  // Calls end with their work done on the runtime's own stream, so nothing
  // of it is left behind; what a caller's stream holds is the caller's.
  hostStream.stream = stream ? static_cast<CUstream>(stream) : kLegacyStream;
  hostStream.isCallers = true;
  hostStream.pending = true;
}

void threadbind_use_own_stream(void) {
  hostStream.stream = hostStream.own;
  hostStream.isCallers = false;
  hostStream.pending = true;
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (ready())
    CU_CHECK(cuStreamWaitEvent(static_cast<CUstream>(stream),
                               static_cast<CUevent>(event), 0));
}

void *mgpuEventCreate() {
  CUevent event = nullptr;
  if (ready())
    CU_CHECK(cuEventCreate(&event, kEventDefault));
  return event;
}

void mgpuEventDestroy(void *event) {
  if (event && ready())
    CU_CHECK(cuEventDestroy(static_cast<CUevent>(event)));
}

void mgpuEventSynchronize(void *event) {
  if (ready())
    CU_CHECK(cuEventSynchronize(static_cast<CUevent>(event)));
}

void mgpuEventRecord(void *event, void *stream) {
  if (ready())
    CU_CHECK(cuEventRecord(static_cast<CUevent>(event),
                           static_cast<CUstream>(stream)));
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool isHostShared) {
  if (!ready())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (isHostShared)
    CU_CHECK(cuMemAllocManaged(&ptr, bytes ? bytes : 1, kMemAttachGlobal));
  else
    CU_CHECK(cuMemAlloc(&ptr, bytes ? bytes : 1));
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  // Launches still queued may use the memory.
  if (ready())
    waitForHostStream();
  threadbind_free(ptr);
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  noteOtherWork(stream);
  if (bytes && ready())
    CU_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                           reinterpret_cast<CUdeviceptr>(src), bytes,
                           static_cast<CUstream>(stream)));
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  noteOtherWork(stream);
  if (count && ready())
    CU_CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                              count, static_cast<CUstream>(stream)));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  noteOtherWork(stream);
  if (count && ready())
    CU_CHECK(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                              count, static_cast<CUstream>(stream)));
}

/// The layout of a ranked memref descriptor: two pointers, an offset, then
/// `rank` sizes and `rank` strides.
struct MemRefDescriptorPrefix {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

static void memrefExtent(int64_t rank, MemRefDescriptorPrefix *descriptor,
                         int64_t elementBytes, char *&begin, size_t &bytes) {
  int64_t span = 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = descriptor->sizesAndStrides[d];
    int64_t stride = descriptor->sizesAndStrides[rank + d];
    if (size == 0) {
      span = 0;
      break;
    }
    span += (size - 1) * stride;
  }
  begin = descriptor->aligned + descriptor->offset * elementBytes;
  bytes = static_cast<size_t>(span * elementBytes);
}

void mgpuMemHostRegisterMemRef(int64_t rank, MemRefDescriptorPrefix *descriptor,
                               int64_t elementBytes) {
  char *begin;
  size_t bytes;
  memrefExtent(rank, descriptor, elementBytes, begin, bytes);
  if (bytes && ready())
    CU_CHECK(cuMemHostRegister(begin, bytes, 0));
}

void mgpuMemHostUnregisterMemRef(int64_t rank,
                                 MemRefDescriptorPrefix *descriptor,
                                 int64_t elementBytes) {
  char *begin;
  size_t bytes;
  memrefExtent(rank, descriptor, elementBytes, begin, bytes);
  if (bytes && ready())
    CU_CHECK(cuMemHostUnregister(begin));
}

void mgpuSetDefaultDevice(int32_t device) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().defaultDevice = device;
}

} // extern "C"
