//===- threadbind-bench.cpp - Time every system on the same buffers -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The benchmark harness. For every kernel of the suite and every size, in
// one process and on the same device buffers, it runs:
//   - the ThreadBind bundle, upstream MLIR's default mapping and its tiled
//     recipe (three bundles of the same MLIR);
//   - the hand-written CUDA twin (a cubin made with nvcc);
//   - a device-to-device copy of the largest array, the bandwidth limit.
// Every system's result is checked against the CPU reference before it is
// timed; the median, min and max of --runs event-timed runs after --warmup
// are printed as RESULT lines for bench/report.py.
//
// It uses the runtime library and nothing from LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Runtime/HostData.h"
#include "threadbind/Runtime/Runtime.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace threadbind;

namespace {

struct Kernel {
  std::string name, file, entry, hand, launch;
  std::vector<std::vector<int64_t>> sizes;
  std::map<int, double> scalars;
};

std::vector<int64_t> parseShape(const std::string &text) {
  std::vector<int64_t> shape;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, 'x'))
    shape.push_back(std::strtoll(part.c_str(), nullptr, 10));
  return shape;
}

bool parseSuite(const std::string &path, std::vector<Kernel> &kernels) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "threadbind-bench: cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::stringstream tokens(line);
    Kernel k;
    if (!(tokens >> k.name) || k.name[0] == '#')
      continue;
    std::string token;
    while (tokens >> token) {
      size_t eq = token.find('=');
      std::string key = token.substr(0, eq), value = token.substr(eq + 1);
      if (key == "file")
        k.file = value;
      else if (key == "entry")
        k.entry = value;
      else if (key == "hand")
        k.hand = value;
      else if (key == "launch")
        k.launch = value;
      else if (key == "sizes") {
        std::stringstream sizes(value);
        std::string size;
        while (std::getline(sizes, size, ';'))
          k.sizes.push_back(parseShape(size));
      } else if (key == "scalar") {
        size_t colon = value.find(':');
        k.scalars[std::atoi(value.substr(0, colon).c_str())] =
            std::strtod(value.c_str() + colon + 1, nullptr);
      }
    }
    kernels.push_back(k);
  }
  return true;
}

/// The bundle's entry `name`, or null after saying why.
const ThreadBindEntry *findEntry(const std::string &bundle,
                                 const std::string &name) {
  std::string error;
  const ThreadBindEntry *entry = findBundleEntry(bundle, name, error);
  if (!entry)
    std::fprintf(stderr, "threadbind-bench: %s\n", error.c_str());
  return entry;
}

void printResult(const Kernel &k, const std::string &size,
                 const std::string &system, const char *check,
                 const TimeSummary &t, size_t bytes) {
  double gbps = t.median > 0 ? bytes / (t.median * 1e-3) / 1e9 : 0;
  std::printf("RESULT kernel=%s size=%s system=%s check=%s median_ms=%.6f "
              "min_ms=%.6f max_ms=%.6f bytes=%zu gbps=%.2f\n",
              k.name.c_str(), size.c_str(), system.c_str(), check, t.median,
              t.min, t.max, bytes, gbps);
  std::fflush(stdout);
}

/// The command line.
struct Options {
  std::string suite, stage, only;
  int runs = 30, warmup = 5;
};

/// One kernel at one size, on one set of device buffers shared by every
/// system: every memref takes the size list, inputs are random, and the
/// CPU reference has run once.
struct Case {
  const Kernel &kernel;
  const ThreadBindEntry &entry;
  std::vector<int64_t> sizes;
  std::string sizeText;
  std::vector<HostMemRef> initial, reference;
  std::vector<std::array<char, 8>> scalars;
  std::vector<void *> device;
  std::vector<std::vector<int64_t>> descriptors;
  /// The entry's argument pointers, to the device buffers.
  std::vector<void *> pointers;
  size_t bytesMoved = 0, largest = 0;

  Case(const Kernel &kernel, const ThreadBindEntry &entry,
       std::vector<int64_t> sizes)
      : kernel(kernel), entry(entry), sizes(std::move(sizes)) {}
  ~Case() {
    for (void *p : device)
      threadbind_free(p);
  }

  int numArguments() const { return entry.numArguments; }
  const ThreadBindArgument &argument(int i) const {
    return entry.arguments[i];
  }
};

/// Points `c.pointers` at the device buffers or the reference copies.
void pack(Case &c, bool onDevice) {
  for (int i = 0; i < c.numArguments(); ++i) {
    if (!c.argument(i).isMemRef) {
      c.pointers[i] = c.scalars[i].data();
      continue;
    }
    c.descriptors[i] = makeDescriptor(
        onDevice ? c.device[i] : c.reference[i].data.data(), c.initial[i]);
    c.pointers[i] = c.descriptors[i].data();
  }
}

/// Makes the inputs, the device buffers (padded as the ThreadBind bundle
/// asks; the other systems ignore padding) and the CPU reference.
bool prepareCase(Case &c) {
  Random random{1};
  int n = c.numArguments();
  c.sizeText = shapeString(c.sizes);
  c.initial.resize(n);
  c.scalars.resize(n);
  c.device.assign(n, nullptr);
  c.descriptors.resize(n);
  c.pointers.resize(n);
  for (int i = 0; i < n; ++i) {
    const ThreadBindArgument &a = c.argument(i);
    if (!a.isMemRef) {
      auto given = c.kernel.scalars.find(i);
      double v = given != c.kernel.scalars.end() ? given->second
                                                 : random.symmetric();
      store(c.scalars[i].data(), a.elementType, 0, v);
      continue;
    }
    c.initial[i].elementType = a.elementType;
    c.initial[i].shape = c.sizes;
    c.initial[i].allocate();
    c.initial[i].fillRandom(random);
    size_t bytes = c.initial[i].bytes();
    c.largest = std::max(c.largest, bytes);
    c.bytesMoved += bytes * ((a.access & THREADBIND_READ ? 1 : 0) +
                             (a.access & THREADBIND_WRITE ? 1 : 0));
  }
  for (int i = 0; i < n; ++i)
    if (c.argument(i).isMemRef &&
        allocateOnDevice(&c.device[i], c.initial[i], c.argument(i)))
      return false;
  c.reference = c.initial;
  pack(c, /*onDevice=*/false);
  c.entry.reference(c.pointers.data());
  pack(c, /*onDevice=*/true);
  return true;
}

/// Copies the inputs back into the device buffers.
void reset(Case &c) {
  for (int i = 0; i < c.numArguments(); ++i)
    if (c.device[i])
      threadbind_copy_to_device(c.device[i], c.initial[i].data.data(),
                                c.initial[i].bytes());
}

/// Checks every written memref against the reference.
bool check(const Case &c) {
  threadbind_synchronize();
  for (int i = 0; i < c.numArguments(); ++i) {
    const ThreadBindArgument &a = c.argument(i);
    if (!a.isMemRef || !(a.access & THREADBIND_WRITE))
      continue;
    HostMemRef got = c.initial[i];
    threadbind_copy_to_host(got.data.data(), c.device[i], got.bytes());
    double tol = defaultTolerance(a.elementType);
    Comparison result = compare(got, c.reference[i], tol, tol, 3);
    if (result.mismatches) {
      std::printf("MISMATCH kernel=%s size=%s arg=%d count=%zu %s\n",
                  c.kernel.name.c_str(), c.sizeText.c_str(), i,
                  result.mismatches,
                  result.examples.empty() ? "" : result.examples[0].c_str());
      return false;
    }
  }
  return !*threadbind_last_error();
}

/// Checks and times one bundle's GPU entry, kernel time from the runtime's
/// launch records. Returns whether its result was right.
bool benchBundle(Case &c, const ThreadBindEntry &entry,
                 const std::string &system, int runs, int warmup) {
  reset(c);
  threadbind_set_launch_timing(0);
  entry.gpu(c.pointers.data());
  if (!check(c)) {
    printResult(c.kernel, c.sizeText, system, "FAILED", {}, c.bytesMoved);
    threadbind_clear_error();
    return false;
  }
  threadbind_set_launch_timing(1);
  for (int w = 0; w < warmup; ++w)
    entry.gpu(c.pointers.data());
  std::vector<double> times;
  for (int r = 0; r < runs; ++r)
    times.push_back(timeKernels([&] { entry.gpu(c.pointers.data()); }));
  threadbind_clear_launches();
  printResult(c.kernel, c.sizeText, system, "ok", summarizeTimes(times),
              c.bytesMoved);
  return true;
}

/// The hand-written twin's launch: memref data pointers, scalars, then
/// sizes, on the grid its `launch=` names.
bool benchHand(Case &c, void *hand, int runs, int warmup) {
  std::vector<void *> handArgs;
  std::vector<int64_t> dims(c.sizes.begin(), c.sizes.end());
  for (int i = 0; i < c.numArguments(); ++i)
    if (c.argument(i).isMemRef)
      handArgs.push_back(&c.device[i]);
  for (int i = 0; i < c.numArguments(); ++i)
    if (!c.argument(i).isMemRef)
      handArgs.push_back(c.scalars[i].data());
  for (int64_t &d : dims)
    handArgs.push_back(&d);
  const std::vector<int64_t> &sizes = c.sizes;
  int64_t grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
  int64_t elements = 1;
  for (int64_t d : sizes)
    elements *= d;
  const std::string &launch = c.kernel.launch;
  if (launch == "grid-stride") {
    grid[0] = threadbind_grid_blocks(hand, 256, (elements / 4 + 255) / 256 + 1);
  } else if (launch == "cover") {
    grid[0] = (elements + 255) / 256;
  } else if (launch == "tile32") {
    block[0] = 32, block[1] = 8;
    grid[0] = (sizes[1] + 31) / 32, grid[1] = (sizes[0] + 31) / 32;
  } else { // cover32x8, over the interior
    block[0] = 32, block[1] = 8;
    grid[0] = (sizes[1] - 2 + 31) / 32, grid[1] = (sizes[0] - 2 + 7) / 8;
  }
  reset(c);
  double ms;
  if (threadbind_launch_timed(hand, grid, block, handArgs.data(), &ms) ||
      !check(c)) {
    printResult(c.kernel, c.sizeText, "hand-cuda", "FAILED", {},
                c.bytesMoved);
    threadbind_clear_error();
    return false;
  }
  for (int w = 0; w < warmup; ++w)
    threadbind_launch_timed(hand, grid, block, handArgs.data(), &ms);
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    threadbind_launch_timed(hand, grid, block, handArgs.data(), &ms);
    times.push_back(ms);
  }
  printResult(c.kernel, c.sizeText, "hand-cuda", "ok", summarizeTimes(times),
              c.bytesMoved);
  return true;
}

/// The copy limit: the largest array, device to device (read + write).
void benchCopy(const Case &c, int runs, int warmup) {
  void *src = nullptr, *dst = nullptr;
  threadbind_malloc(&src, c.largest);
  threadbind_malloc(&dst, c.largest);
  double ms;
  for (int w = 0; w < warmup; ++w)
    threadbind_copy_device_timed(dst, src, c.largest, &ms);
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    threadbind_copy_device_timed(dst, src, c.largest, &ms);
    times.push_back(ms);
  }
  printResult(c.kernel, c.sizeText, "copy", "ok", summarizeTimes(times),
              2 * c.largest);
  threadbind_free(src);
  threadbind_free(dst);
}

/// Reads the command line. Returns false on a usage error.
bool parseOptions(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : ""; };
    if (a == "--stage")
      o.stage = next();
    else if (a == "--runs")
      o.runs = std::atoi(next().c_str());
    else if (a == "--warmup")
      o.warmup = std::atoi(next().c_str());
    else if (a == "--only")
      o.only = next();
    else if (o.suite.empty())
      o.suite = a;
  }
  return !o.suite.empty() && !o.stage.empty() && o.runs >= 1;
}

/// Loads the nvcc-built hand kernels of the stage.
void *loadHandModule(const std::string &stage) {
  std::vector<char> cubin;
  std::ifstream in(stage + "/hand.cubin", std::ios::binary);
  cubin.assign(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
  void *handModule = nullptr;
  if (cubin.empty() || threadbind_module_load(cubin.data(), &handModule)) {
    std::fprintf(stderr, "threadbind-bench: cannot load %s/hand.cubin: %s\n",
                 stage.c_str(), threadbind_last_error());
    return nullptr;
  }
  return handModule;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    std::fprintf(stderr, "usage: threadbind-bench SUITE --stage DIR [--runs "
                         "N] [--warmup N] [--only KERNEL,...]\n");
    return 2;
  }
  std::vector<Kernel> kernels;
  if (!parseSuite(o.suite, kernels))
    return 2;

  preloadRuntime();
  if (threadbind_init() != THREADBIND_OK) {
    std::fprintf(stderr, "threadbind-bench: no CUDA device (%s)\n",
                 threadbind_last_error());
    return 3;
  }
  ThreadBindDeviceInfo device;
  threadbind_device_info(&device);
  std::printf("DEVICE name=\"%s\" sm=%d%d sms=%d l2_bytes=%d\n", device.name,
              device.ccMajor, device.ccMinor, device.multiprocessors,
              device.l2CacheBytes);
  void *handModule = loadHandModule(o.stage);
  if (!handModule)
    return 1;

  int failures = 0;
  const char *systems[] = {"threadbind", "upstream-tiled", "upstream"};
  for (const Kernel &k : kernels) {
    if (!o.only.empty() &&
        ("," + o.only + ",").find("," + k.name + ",") == std::string::npos)
      continue;
    const ThreadBindEntry *entries[3];
    for (int s = 0; s < 3; ++s) {
      entries[s] = findEntry(o.stage + "/" + k.name + "-" + systems[s] + ".so",
                             k.entry);
      if (!entries[s])
        return 1;
    }
    void *hand = nullptr;
    if (threadbind_module_function(handModule, k.hand.c_str(), &hand)) {
      std::fprintf(stderr, "threadbind-bench: no %s in hand.cubin\n",
                   k.hand.c_str());
      return 1;
    }
    for (const std::vector<int64_t> &sizes : k.sizes) {
      Case c(k, *entries[0], sizes);
      if (!prepareCase(c))
        return 1;
      for (int s = 0; s < 3; ++s) {
        // Upstream's default mapping runs one thread per block: a handful
        // of runs tell its speed as well as 30.
        int runs = (s == 2 && c.bytesMoved > (size_t(1) << 30)) ? 5 : o.runs;
        failures += !benchBundle(c, *entries[s], systems[s], runs, o.warmup);
      }
      failures += !benchHand(c, hand, o.runs, o.warmup);
      benchCopy(c, o.runs, o.warmup);
    }
  }
  std::printf("DONE failures=%d\n", failures);
  return failures ? 1 : 0;
}
