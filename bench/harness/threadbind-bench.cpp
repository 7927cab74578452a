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

struct Timing {
  double median = 0, min = 0, max = 0;
};

Timing summarise(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front(), times.back()};
}

const ThreadBindEntry *findEntry(const std::string &bundle,
                                 const std::string &name) {
  int32_t count = 0;
  std::string error;
  const ThreadBindEntry *entries = loadBundle(bundle, count, error);
  if (!entries) {
    std::fprintf(stderr, "threadbind-bench: %s\n", error.c_str());
    return nullptr;
  }
  for (int32_t e = 0; e < count; ++e)
    if (name == entries[e].name)
      return &entries[e];
  std::fprintf(stderr, "threadbind-bench: no entry %s in %s\n", name.c_str(),
               bundle.c_str());
  return nullptr;
}

void printResult(const Kernel &k, const std::string &size,
                 const std::string &system, const char *check,
                 const Timing &t, size_t bytes) {
  double gbps = t.median > 0 ? bytes / (t.median * 1e-3) / 1e9 : 0;
  std::printf("RESULT kernel=%s size=%s system=%s check=%s median_ms=%.6f "
              "min_ms=%.6f max_ms=%.6f bytes=%zu gbps=%.2f\n",
              k.name.c_str(), size.c_str(), system.c_str(), check, t.median,
              t.min, t.max, bytes, gbps);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  std::string suite, stage, only;
  int runs = 30, warmup = 5;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : ""; };
    if (a == "--stage")
      stage = next();
    else if (a == "--runs")
      runs = std::atoi(next().c_str());
    else if (a == "--warmup")
      warmup = std::atoi(next().c_str());
    else if (a == "--only")
      only = next();
    else if (suite.empty())
      suite = a;
  }
  if (suite.empty() || stage.empty() || runs < 1) {
    std::fprintf(stderr, "usage: threadbind-bench SUITE --stage DIR [--runs "
                         "N] [--warmup N] [--only KERNEL,...]\n");
    return 2;
  }
  std::vector<Kernel> kernels;
  if (!parseSuite(suite, kernels))
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

  std::vector<char> cubin;
  {
    std::ifstream in(stage + "/hand.cubin", std::ios::binary);
    cubin.assign(std::istreambuf_iterator<char>(in),
                 std::istreambuf_iterator<char>());
  }
  void *handModule = nullptr;
  if (cubin.empty() || threadbind_module_load(cubin.data(), &handModule)) {
    std::fprintf(stderr, "threadbind-bench: cannot load %s/hand.cubin: %s\n",
                 stage.c_str(), threadbind_last_error());
    return 1;
  }

  int failures = 0;
  const char *systems[] = {"threadbind", "upstream-tiled", "upstream"};
  for (const Kernel &k : kernels) {
    if (!only.empty() &&
        ("," + only + ",").find("," + k.name + ",") == std::string::npos)
      continue;
    const ThreadBindEntry *entries[3];
    for (int s = 0; s < 3; ++s) {
      entries[s] = findEntry(stage + "/" + k.name + "-" + systems[s] + ".so",
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
    const ThreadBindEntry *entry = entries[0];

    for (const std::vector<int64_t> &sizes : k.sizes) {
      std::string sizeText = shapeString(sizes);
      // Arguments: every memref takes the size list; inputs are random.
      Random random{1};
      int n = entry->numArguments;
      std::vector<HostMemRef> initial(n);
      std::vector<std::array<char, 8>> scalars(n);
      size_t bytesMoved = 0, largest = 0;
      for (int i = 0; i < n; ++i) {
        const ThreadBindArgument &a = entry->arguments[i];
        if (!a.isMemRef) {
          auto given = k.scalars.find(i);
          double v = given != k.scalars.end() ? given->second
                                              : random.symmetric();
          store(scalars[i].data(), a.elementType, 0, v);
          continue;
        }
        initial[i].elementType = a.elementType;
        initial[i].shape = sizes;
        initial[i].allocate();
        initial[i].fillRandom(random);
        size_t bytes = initial[i].bytes();
        largest = std::max(largest, bytes);
        bytesMoved += bytes * ((a.access & THREADBIND_READ ? 1 : 0) +
                               (a.access & THREADBIND_WRITE ? 1 : 0));
      }
      // Padded as the ThreadBind bundle asks; the others ignore padding.
      std::vector<void *> device(n, nullptr);
      for (int i = 0; i < n; ++i)
        if (entry->arguments[i].isMemRef &&
            allocateOnDevice(&device[i], initial[i], entry->arguments[i]))
          return 1;
      auto reset = [&]() {
        for (int i = 0; i < n; ++i)
          if (device[i])
            threadbind_copy_to_device(device[i], initial[i].data.data(),
                                      initial[i].bytes());
      };

      // The CPU reference, once.
      std::vector<HostMemRef> reference = initial;
      std::vector<std::vector<int64_t>> descriptors(n);
      std::vector<void *> pointers(n);
      auto pack = [&](bool onDevice) {
        for (int i = 0; i < n; ++i) {
          if (!entry->arguments[i].isMemRef) {
            pointers[i] = scalars[i].data();
            continue;
          }
          descriptors[i] = makeDescriptor(
              onDevice ? device[i] : reference[i].data.data(), sizes);
          pointers[i] = descriptors[i].data();
        }
      };
      pack(false);
      entry->reference(pointers.data());
      pack(true);

      // Checks every written memref against the reference.
      auto check = [&]() {
        threadbind_synchronize();
        for (int i = 0; i < n; ++i) {
          const ThreadBindArgument &a = entry->arguments[i];
          if (!a.isMemRef || !(a.access & THREADBIND_WRITE))
            continue;
          HostMemRef got = initial[i];
          threadbind_copy_to_host(got.data.data(), device[i], got.bytes());
          double tol = defaultTolerance(a.elementType);
          Comparison c = compare(got, reference[i], tol, tol, 3);
          if (c.mismatches) {
            std::printf("MISMATCH kernel=%s size=%s arg=%d count=%zu %s\n",
                        k.name.c_str(), sizeText.c_str(), i, c.mismatches,
                        c.examples.empty() ? "" : c.examples[0].c_str());
            return false;
          }
        }
        return !*threadbind_last_error();
      };

      // The three bundles: kernel time from the runtime's launch records.
      for (int s = 0; s < 3; ++s) {
        reset();
        threadbind_set_launch_timing(0);
        entries[s]->gpu(pointers.data());
        bool ok = check();
        if (!ok) {
          ++failures;
          printResult(k, sizeText, systems[s], "FAILED", {}, bytesMoved);
          threadbind_clear_error();
          continue;
        }
        threadbind_set_launch_timing(1);
        // Upstream's default mapping runs one thread per block: a handful
        // of runs tell its speed as well as 30.
        int count = (s == 2 && bytesMoved > (size_t(1) << 30)) ? 5 : runs;
        for (int w = 0; w < warmup; ++w)
          entries[s]->gpu(pointers.data());
        std::vector<double> times;
        for (int r = 0; r < count; ++r)
          times.push_back(
              timeKernels([&] { entries[s]->gpu(pointers.data()); }));
        threadbind_clear_launches();
        printResult(k, sizeText, systems[s], "ok", summarise(times),
                    bytesMoved);
      }

      // The hand-written twin: memref data pointers, scalars, then sizes.
      {
        std::vector<void *> handArgs;
        std::vector<int64_t> dims(sizes.begin(), sizes.end());
        for (int i = 0; i < n; ++i)
          if (entry->arguments[i].isMemRef)
            handArgs.push_back(&device[i]);
        for (int i = 0; i < n; ++i)
          if (!entry->arguments[i].isMemRef)
            handArgs.push_back(scalars[i].data());
        for (int64_t &d : dims)
          handArgs.push_back(&d);
        int64_t grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
        int64_t elements = 1;
        for (int64_t d : sizes)
          elements *= d;
        if (k.launch == "grid-stride") {
          grid[0] = threadbind_grid_blocks(hand, 256,
                                           (elements / 4 + 255) / 256 + 1);
        } else if (k.launch == "cover") {
          grid[0] = (elements + 255) / 256;
        } else if (k.launch == "tile32") {
          block[0] = 32, block[1] = 8;
          grid[0] = (sizes[1] + 31) / 32, grid[1] = (sizes[0] + 31) / 32;
        } else { // cover32x8, over the interior
          block[0] = 32, block[1] = 8;
          grid[0] = (sizes[1] - 2 + 31) / 32, grid[1] = (sizes[0] - 2 + 7) / 8;
        }
        reset();
        double ms;
        bool ok = !threadbind_launch_timed(hand, grid, block, handArgs.data(),
                                           &ms) &&
                  check();
        if (!ok) {
          ++failures;
          printResult(k, sizeText, "hand-cuda", "FAILED", {}, bytesMoved);
          threadbind_clear_error();
        } else {
          for (int w = 0; w < warmup; ++w)
            threadbind_launch_timed(hand, grid, block, handArgs.data(), &ms);
          std::vector<double> times;
          for (int r = 0; r < runs; ++r) {
            threadbind_launch_timed(hand, grid, block, handArgs.data(), &ms);
            times.push_back(ms);
          }
          printResult(k, sizeText, "hand-cuda", "ok", summarise(times),
                      bytesMoved);
        }
      }

      // The copy limit: the largest array, device to device (read + write).
      {
        void *src = nullptr, *dst = nullptr;
        threadbind_malloc(&src, largest);
        threadbind_malloc(&dst, largest);
        double ms;
        for (int w = 0; w < warmup; ++w)
          threadbind_copy_device_timed(dst, src, largest, &ms);
        std::vector<double> times;
        for (int r = 0; r < runs; ++r) {
          threadbind_copy_device_timed(dst, src, largest, &ms);
          times.push_back(ms);
        }
        printResult(k, sizeText, "copy", "ok", summarise(times), 2 * largest);
        threadbind_free(src);
        threadbind_free(dst);
      }
      for (void *p : device)
        threadbind_free(p);
    }
  }
  std::printf("DONE failures=%d\n", failures);
  return failures ? 1 : 0;
}
