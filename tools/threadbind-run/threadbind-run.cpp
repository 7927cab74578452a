//===- threadbind-run.cpp - Run a ThreadBind bundle and check it ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Loads a bundle made by `threadbind-compile --emit bundle`, fills the
// arguments of one entry from a seeded generator, runs the GPU entry and the
// CPU reference on the same inputs and compares them, times the kernels
// with CUDA events, and reports every launch's configuration and resources.
//
// It links nothing from LLVM or MLIR: it runs on GPU machines that have only
// the CUDA driver.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Runtime/HostData.h"
#include "threadbind/Runtime/Runtime.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace threadbind;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDevice = 3;

const char *const kUsage =
    "usage: threadbind-run BUNDLE --entry NAME [options]\n"
    "       threadbind-run BUNDLE --list\n"
    "\n"
    "  --entry NAME        the function to run\n"
    "  --size N[,M...]     dynamic memref dimension d takes the d-th size\n"
    "  --shape I=AxB...    the shape of memref argument I (overrides --size)\n"
    "  --scalar I=V        the value of scalar argument I (floats default to\n"
    "                      a random value, integers to a random value in\n"
    "                      [-100, 100], index to 0)\n"
    "  --check             compare every memref with the CPU reference\n"
    "  --bench K           time K runs (after --warmup runs, default 3)\n"
    "  --seed S            seed of the input generator (default 1)\n"
    "  --rtol R, --atol A  float tolerance: |gpu - ref| <= A + R * |ref|\n"
    "  --reference-only    run only the CPU reference (no GPU needed)\n"
    "  --print             print each memref's sum and first elements after\n"
    "                      the run (the GPU's, or the reference's)\n"
    "  --list              list the bundle's entries\n"
    "\n"
    "exit status: 0 ok, 1 failure or mismatch, 2 usage, 3 no CUDA device\n";

int usageError(const std::string &message) {
  std::fprintf(stderr, "threadbind-run: error: %s\n\n%s", message.c_str(),
               kUsage);
  return kExitUsage;
}

std::vector<int64_t> parseList(const std::string &text, char separator) {
  std::vector<int64_t> values;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    if (end == std::string::npos)
      end = text.size();
    std::string item = text.substr(start, end - start);
    char *rest = nullptr;
    long long value = std::strtoll(item.c_str(), &rest, 10);
    if (item.empty() || *rest || value < 0)
      return {};
    values.push_back(value);
    start = end + 1;
  }
  return values;
}

/// One argument of the entry: a memref's host copies and device buffer, or
/// a scalar's bytes.
struct Argument {
  const ThreadBindArgument *info;
  HostMemRef initial, reference, gpu;
  void *device = nullptr;
  std::vector<int64_t> descriptor;
  double scalar = 0;
  char scalarBytes[8] = {0};
};

struct Options {
  std::string bundle, entry;
  std::vector<int64_t> sizes;
  std::map<int, std::vector<int64_t>> shapes;
  std::map<int, double> scalars;
  bool check = false, referenceOnly = false, list = false, print = false;
  int bench = 0, warmup = 3;
  uint64_t seed = 1;
  double rtol = -1, atol = -1;
};

int parseOptions(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        out = a.substr(eq + 1);
        return true;
      }
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string key = a.substr(0, a.find('='));
    std::string v;
    if (key == "--help" || key == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(kExitOk);
    } else if (key == "--check") {
      o.check = true;
    } else if (key == "--reference-only") {
      o.referenceOnly = true;
    } else if (key == "--list") {
      o.list = true;
    } else if (key == "--print") {
      o.print = true;
    } else if (key == "--entry") {
      if (!value(o.entry))
        return usageError("--entry needs a name");
    } else if (key == "--size") {
      if (!value(v) || (o.sizes = parseList(v, ',')).empty())
        return usageError("--size needs non-negative sizes, e.g. 1024,768");
    } else if (key == "--shape") {
      size_t eq;
      if (!value(v) || (eq = v.find('=')) == std::string::npos)
        return usageError("--shape needs ARG=AxB");
      std::vector<int64_t> shape = parseList(v.substr(eq + 1), 'x');
      if (shape.empty())
        return usageError("bad shape '" + v + "'");
      o.shapes[std::atoi(v.substr(0, eq).c_str())] = shape;
    } else if (key == "--scalar") {
      size_t eq;
      if (!value(v) || (eq = v.find('=')) == std::string::npos)
        return usageError("--scalar needs ARG=VALUE");
      o.scalars[std::atoi(v.substr(0, eq).c_str())] =
          std::strtod(v.c_str() + eq + 1, nullptr);
    } else if (key == "--bench") {
      if (!value(v) || (o.bench = std::atoi(v.c_str())) <= 0)
        return usageError("--bench needs a positive count");
    } else if (key == "--warmup") {
      if (!value(v) || (o.warmup = std::atoi(v.c_str())) < 0)
        return usageError("--warmup needs a count");
    } else if (key == "--seed") {
      if (!value(v))
        return usageError("--seed needs a value");
      o.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (key == "--rtol") {
      if (!value(v))
        return usageError("--rtol needs a value");
      o.rtol = std::strtod(v.c_str(), nullptr);
    } else if (key == "--atol") {
      if (!value(v))
        return usageError("--atol needs a value");
      o.atol = std::strtod(v.c_str(), nullptr);
    } else if (!a.empty() && a[0] == '-') {
      return usageError("unknown option '" + a + "'");
    } else if (o.bundle.empty()) {
      o.bundle = a;
    } else {
      return usageError("more than one bundle given");
    }
  }
  if (o.bundle.empty())
    return usageError("no bundle given");
  if (!o.list && o.entry.empty())
    return usageError("--entry is required");
  if (o.referenceOnly && o.bench)
    return usageError("--bench needs the GPU; it cannot go with "
                      "--reference-only");
  return -1;
}

/// Prints the sum and the first elements of every memref in `which`.
void printMemRefs(const std::vector<Argument> &args,
                  HostMemRef Argument::*which, const char *label) {
  for (size_t i = 0; i < args.size(); ++i) {
    const Argument &arg = args[i];
    if (!arg.info->isMemRef)
      continue;
    const HostMemRef &m = arg.*which;
    double sum = 0;
    for (size_t k = 0; k < m.elements(); ++k)
      sum += load(m.data.data(), m.elementType, k);
    std::printf("  %s arg%zu: sum %.10g, first [", label, i, sum);
    for (size_t k = 0; k < std::min<size_t>(m.elements(), 8); ++k)
      std::printf("%s%.9g", k ? ", " : "", load(m.data.data(), m.elementType, k));
    std::printf("%s]\n", m.elements() > 8 ? ", ..." : "");
  }
}

void printLaunches(int64_t first) {
  int64_t count = threadbind_launch_count();
  for (int64_t i = first; i < count; ++i) {
    ThreadBindLaunchRecord r;
    if (threadbind_launch_record(i, &r))
      continue;
    std::printf("  kernel %s: grid %" PRId64 "x%" PRId64 "x%" PRId64
                ", block %" PRId64 "x%" PRId64 "x%" PRId64
                ", %d registers, %d B local (spills+stack), %d B shared, "
                "occupancy %.0f%% (%d blocks/SM)\n",
                r.kernel, r.grid[0], r.grid[1], r.grid[2], r.block[0],
                r.block[1], r.block[2], r.registers, r.localBytes,
                r.staticSharedBytes + r.dynamicSharedBytes,
                r.occupancy * 100.0, r.activeBlocksPerMultiprocessor);
  }
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  int parsed = parseOptions(argc, argv, o);
  if (parsed >= 0)
    return parsed;

  preloadRuntime();
  int32_t numEntries = 0;
  std::string error;
  const ThreadBindEntry *entries = loadBundle(o.bundle, numEntries, error);
  if (!entries) {
    std::fprintf(stderr, "threadbind-run: error: %s\n", error.c_str());
    return kExitFailure;
  }

  if (o.list) {
    for (int32_t e = 0; e < numEntries; ++e) {
      std::printf("%s(", entries[e].name);
      for (int32_t i = 0; i < entries[e].numArguments; ++i) {
        const ThreadBindArgument &a = entries[e].arguments[i];
        std::printf("%s", i ? ", " : "");
        if (a.isMemRef) {
          std::printf("memref<");
          for (int32_t k = 0; k < a.rank; ++k)
            a.shape[k] < 0 ? std::printf("?x")
                           : std::printf("%" PRId64 "x", a.shape[k]);
          std::printf("%s>", elementName(a.elementType));
          if (a.paddedTo)
            std::printf(" padded_to %" PRId64, a.paddedTo);
        } else {
          std::printf("%s", elementName(a.elementType));
        }
      }
      std::printf(")\n");
    }
    return kExitOk;
  }

  const ThreadBindEntry *entry = nullptr;
  for (int32_t e = 0; e < numEntries; ++e)
    if (o.entry == entries[e].name)
      entry = &entries[e];
  if (!entry) {
    std::string names;
    for (int32_t e = 0; e < numEntries; ++e)
      names += (e ? ", " : "") + std::string(entries[e].name);
    return usageError("no entry '" + o.entry + "' in " + o.bundle +
                      " (entries: " + names + ")");
  }

  if ((o.check || o.referenceOnly) && !entry->reference)
    return usageError(std::string(entry->name) +
                      " has no CPU reference (its GPU code cannot run on the "
                      "host; the manifest says why), so --check and "
                      "--reference-only cannot run");

  // Arguments, filled from the seeded generator.
  Random random{o.seed};
  std::vector<Argument> args(entry->numArguments);
  size_t bytesMoved = 0;
  for (int32_t i = 0; i < entry->numArguments; ++i) {
    Argument &arg = args[i];
    arg.info = &entry->arguments[i];
    int type = arg.info->elementType;
    if (!arg.info->isMemRef) {
      auto given = o.scalars.find(i);
      if (given != o.scalars.end())
        arg.scalar = given->second;
      else if (isFloat(type))
        arg.scalar = random.symmetric();
      else if (type == THREADBIND_INDEX)
        arg.scalar = 0;
      else
        arg.scalar = static_cast<double>(random.integer(-100, 100));
      store(arg.scalarBytes, type, 0, arg.scalar);
      arg.scalar = load(arg.scalarBytes, type, 0);
      std::printf("  arg%d %s = %g\n", i, elementName(type), arg.scalar);
      continue;
    }
    std::vector<int64_t> &shape = arg.initial.shape;
    auto given = o.shapes.find(i);
    if (given != o.shapes.end()) {
      shape = given->second;
      if (static_cast<int32_t>(shape.size()) != arg.info->rank)
        return usageError("--shape " + std::to_string(i) + " has " +
                          std::to_string(shape.size()) +
                          " sizes; the argument has rank " +
                          std::to_string(arg.info->rank));
      for (int32_t k = 0; k < arg.info->rank; ++k)
        if (arg.info->shape[k] >= 0 && arg.info->shape[k] != shape[k])
          return usageError("--shape " + std::to_string(i) +
                            " contradicts the static size " +
                            std::to_string(arg.info->shape[k]) +
                            " of dimension " + std::to_string(k));
    } else {
      for (int32_t k = 0; k < arg.info->rank; ++k) {
        if (arg.info->shape[k] >= 0) {
          shape.push_back(arg.info->shape[k]);
        } else if (static_cast<size_t>(k) < o.sizes.size()) {
          shape.push_back(o.sizes[k]);
        } else {
          return usageError("argument " + std::to_string(i) +
                            " needs a size for dynamic dimension " +
                            std::to_string(k) + ": give --size with at "
                            "least " + std::to_string(k + 1) +
                            " sizes, or --shape " + std::to_string(i) + "=...");
        }
      }
    }
    arg.initial.elementType = type;
    arg.initial.allocate();
    arg.initial.fillRandom(random);
    int access = arg.info->access;
    bytesMoved += arg.initial.bytes() * ((access & THREADBIND_READ ? 1 : 0) +
                                         (access & THREADBIND_WRITE ? 1 : 0));
    std::printf("  arg%d memref<%s x %s> %s", i, shapeString(shape).c_str(),
                elementName(type),
                access == THREADBIND_READ    ? "read"
                : access == THREADBIND_WRITE ? "written"
                                             : "read and written");
    if (arg.info->paddedTo)
      std::printf(", allocated padded to a multiple of %" PRId64,
                  arg.info->paddedTo);
    std::printf("\n");
  }

  auto call = [&](void (*fn)(void **), bool onDevice) {
    std::vector<void *> pointers(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      Argument &arg = args[i];
      if (!arg.info->isMemRef) {
        pointers[i] = arg.scalarBytes;
        continue;
      }
      arg.descriptor = makeDescriptor(
          onDevice ? arg.device : arg.reference.data.data(), arg.initial.shape);
      pointers[i] = arg.descriptor.data();
    }
    fn(pointers.data());
  };

  // The CPU reference, on its own copy of the inputs.
  if (o.check || o.referenceOnly) {
    for (Argument &arg : args)
      arg.reference = arg.initial;
    call(entry->reference, /*onDevice=*/false);
    std::printf("  reference: ran %s_reference on the CPU\n", entry->name);
  }
  if (o.referenceOnly) {
    if (o.print)
      printMemRefs(args, &Argument::reference, "reference");
    return kExitOk;
  }

  int init = threadbind_init();
  if (init == THREADBIND_NO_DRIVER || init == THREADBIND_NO_DEVICE) {
    std::fprintf(stderr, "threadbind-run: no CUDA device (%s)\n",
                 threadbind_last_error());
    return kExitNoDevice;
  }
  if (init != THREADBIND_OK) {
    std::fprintf(stderr, "threadbind-run: error: %s\n",
                 threadbind_last_error());
    return kExitFailure;
  }
  ThreadBindDeviceInfo device;
  threadbind_device_info(&device);
  std::printf("  device: %s (sm_%d%d, %d SMs)\n", device.name, device.ccMajor,
              device.ccMinor, device.multiprocessors);

  auto failed = [&]() {
    if (!*threadbind_last_error())
      return false;
    std::fprintf(stderr, "threadbind-run: error: %s\n",
                 threadbind_last_error());
    return true;
  };
  for (Argument &arg : args) {
    if (!arg.info->isMemRef)
      continue;
    // A padded argument's allocation reaches the next multiple of its
    // padding; the padding starts zeroed, and kernels may overwrite it.
    if (allocateOnDevice(&arg.device, arg.initial, *arg.info))
      return failed(), kExitFailure;
  }
  int64_t firstLaunch = threadbind_launch_count();
  call(entry->gpu, /*onDevice=*/true);
  if (threadbind_synchronize() || failed())
    return kExitFailure;
  printLaunches(firstLaunch);
  if (threadbind_launch_count() == firstLaunch)
    std::printf("  no kernel was launched\n");

  int status = kExitOk;
  if (o.check || o.print) {
    for (Argument &arg : args) {
      if (!arg.info->isMemRef)
        continue;
      arg.gpu = arg.initial;
      if (threadbind_copy_to_host(arg.gpu.data.data(), arg.device,
                                  arg.gpu.bytes()))
        return failed(), kExitFailure;
    }
  }
  if (o.print)
    printMemRefs(args, &Argument::gpu, "gpu");
  if (o.check) {
    size_t mismatches = 0, compared = 0;
    double worst = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      Argument &arg = args[i];
      if (!arg.info->isMemRef)
        continue;
      double rtol = o.rtol >= 0 ? o.rtol
                                : defaultTolerance(arg.info->elementType);
      double atol = o.atol >= 0 ? o.atol : rtol;
      Comparison c = compare(arg.gpu, arg.reference, rtol, atol);
      for (const std::string &example : c.examples)
        std::printf("  MISMATCH arg%zu%s\n", i, example.c_str());
      if (c.mismatches)
        std::printf("  arg%zu: %zu of %zu elements differ\n", i, c.mismatches,
                    arg.gpu.elements());
      compared += arg.gpu.elements();
      mismatches += c.mismatches;
      worst = std::max(worst, c.worstRelative);
    }
    if (mismatches) {
      std::printf("check: FAILED, %zu of %zu elements differ from the CPU "
                  "reference\n",
                  mismatches, compared);
      status = kExitFailure;
    } else {
      std::printf("check: ok, %zu elements match the CPU reference (largest "
                  "relative difference %.3g)\n",
                  compared, worst);
    }
  }

  if (o.bench) {
    threadbind_set_launch_timing(1);
    for (int w = 0; w < o.warmup; ++w)
      call(entry->gpu, true);
    threadbind_synchronize();
    std::vector<double> times;
    for (int b = 0; b < o.bench; ++b) {
      times.push_back(timeKernels([&] { call(entry->gpu, true); }));
    }
    if (failed())
      return kExitFailure;
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    double gbps = median > 0 ? bytesMoved / (median * 1e-3) / 1e9 : 0;
    std::printf("bench: %d runs, kernel time median %.4f ms (min %.4f, max "
                "%.4f), %.3f GB moved, %.1f GB/s\n",
                o.bench, median, times.front(), times.back(),
                bytesMoved / 1e9, gbps);
    std::printf("RESULT entry=%s median_ms=%.6f min_ms=%.6f max_ms=%.6f "
                "bytes=%zu gbps=%.2f\n",
                entry->name, median, times.front(), times.back(), bytesMoved,
                gbps);
  }

  for (Argument &arg : args)
    threadbind_free(arg.device);
  return status;
}
