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

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

size_t elementBytes(int type) {
  switch (type) {
  case THREADBIND_F16:
  case THREADBIND_BF16:
  case THREADBIND_I16:
    return 2;
  case THREADBIND_F32:
  case THREADBIND_I32:
    return 4;
  case THREADBIND_I8:
    return 1;
  default:
    return 8;
  }
}

const char *elementName(int type) {
  static const char *const names[] = {"f16", "bf16", "f32", "f64", "i8",
                                      "i16", "i32", "i64", "index"};
  return type >= 0 && type <= 8 ? names[type] : "?";
}

bool isFloat(int type) { return type <= THREADBIND_F64; }

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    // Round to nearest even.
    if ((mantissa >> (shift - 1)) & 1 &&
        ((half & 1) || (mantissa & ((1u << (shift - 1)) - 1))))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (exponent >= 31)
    return static_cast<uint16_t>(sign | 0x7c00);
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) |
                  (mantissa >> 13);
  if ((mantissa & 0x1000) && ((half & 1) || (mantissa & 0xfff)))
    ++half;
  return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t x;
  if (exponent == 0) {
    if (mantissa == 0) {
      x = sign;
    } else {
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
          ((mantissa & 0x3ff) << 13);
    }
  } else if (exponent == 31) {
    x = sign | 0x7f800000 | (mantissa << 13);
  } else {
    x = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

float bf16ToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// Reads element `i` of a buffer of `type` as a double.
double load(const char *data, int type, size_t i) {
  const char *p = data + i * elementBytes(type);
  switch (type) {
  case THREADBIND_F16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return halfToFloat(v);
  }
  case THREADBIND_BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bf16ToFloat(v);
  }
  case THREADBIND_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case THREADBIND_F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case THREADBIND_I8:
    return static_cast<int8_t>(*p);
  case THREADBIND_I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case THREADBIND_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  }
}

/// Writes `value` as element `i` of a buffer of `type`.
void store(char *data, int type, size_t i, double value) {
  char *p = data + i * elementBytes(type);
  switch (type) {
  case THREADBIND_F16: {
    uint16_t v = floatToHalf(static_cast<float>(value));
    std::memcpy(p, &v, 2);
    return;
  }
  case THREADBIND_BF16: {
    uint16_t v = floatToBf16(static_cast<float>(value));
    std::memcpy(p, &v, 2);
    return;
  }
  case THREADBIND_F32: {
    float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case THREADBIND_F64:
    std::memcpy(p, &value, 8);
    return;
  case THREADBIND_I8:
    *p = static_cast<char>(static_cast<int8_t>(value));
    return;
  case THREADBIND_I16: {
    int16_t v = static_cast<int16_t>(value);
    std::memcpy(p, &v, 2);
    return;
  }
  case THREADBIND_I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  default: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(p, &v, 8);
    return;
  }
  }
}

/// splitmix64: a small, good, reproducible generator.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1).
  double symmetric() { return (next() >> 11) * 0x1.0p-52 - 1.0; }
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
};

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

struct Argument {
  const ThreadBindArgument *info;
  std::vector<int64_t> shape;
  size_t elements = 0;
  std::vector<char> initial, reference, gpu; // host copies
  void *device = nullptr;
  std::vector<int64_t> descriptorStorage; // ThreadBindMemRef, as int64 words
  double scalar = 0;
  char scalarBytes[8] = {0};
};

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

/// Fills the descriptor of `arg` to point at `data` (row-major).
void describe(Argument &arg, void *data) {
  size_t rank = arg.shape.size();
  arg.descriptorStorage.assign(3 + 2 * rank, 0);
  auto *d = reinterpret_cast<ThreadBindMemRef *>(arg.descriptorStorage.data());
  d->allocated = data;
  d->aligned = data;
  d->offset = 0;
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    d->sizesAndStrides[k] = arg.shape[k];
    d->sizesAndStrides[rank + k] = stride;
    stride *= arg.shape[k];
  }
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string text;
  for (size_t k = 0; k < shape.size(); ++k)
    text += (k ? "x" : "") + std::to_string(shape[k]);
  return text.empty() ? "scalar" : text;
}

std::string indexString(size_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    index[k] = static_cast<int64_t>(flat % shape[k]);
    flat /= shape[k];
  }
  std::string text = "[";
  for (size_t k = 0; k < index.size(); ++k)
    text += (k ? ", " : "") + std::to_string(index[k]);
  return text + "]";
}

/// Where the runner's own libThreadBindRuntime.so is: ../lib next to bin/.
std::string runtimeBesideRunner() {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return "";
  self[n] = 0;
  std::string path(self);
  path = path.substr(0, path.rfind('/')); // bin
  path = path.substr(0, path.rfind('/')); // prefix
  return path + "/lib/libThreadBindRuntime.so";
}

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
                  std::vector<char> Argument::*which, const char *label) {
  for (size_t i = 0; i < args.size(); ++i) {
    const Argument &arg = args[i];
    if (!arg.info->isMemRef)
      continue;
    const std::vector<char> &data = arg.*which;
    int type = arg.info->elementType;
    double sum = 0;
    for (size_t k = 0; k < arg.elements; ++k)
      sum += load(data.data(), type, k);
    std::printf("  %s arg%zu: sum %.10g, first [", label, i, sum);
    for (size_t k = 0; k < std::min<size_t>(arg.elements, 8); ++k)
      std::printf("%s%.9g", k ? ", " : "", load(data.data(), type, k));
    std::printf("%s]\n", arg.elements > 8 ? ", ..." : "");
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

  // The bundle needs libThreadBindRuntime.so; load the one beside this
  // runner first so it is found wherever the build tree was copied.
  std::string runtime = runtimeBesideRunner();
  if (!runtime.empty())
    dlopen(runtime.c_str(), RTLD_NOW | RTLD_GLOBAL);
  // dlopen searches the library path for a name without a slash; a bundle
  // named on the command line is a file.
  std::string bundlePath =
      o.bundle.find('/') == std::string::npos ? "./" + o.bundle : o.bundle;
  void *bundle = dlopen(bundlePath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!bundle) {
    std::fprintf(stderr, "threadbind-run: error: cannot load %s: %s\n",
                 o.bundle.c_str(), dlerror());
    return kExitFailure;
  }
  using EntriesFn = const ThreadBindEntry *(*)(int32_t *);
  auto entriesFn =
      reinterpret_cast<EntriesFn>(dlsym(bundle, "threadbind_bundle_entries"));
  if (!entriesFn) {
    std::fprintf(stderr,
                 "threadbind-run: error: %s is not a ThreadBind bundle (no "
                 "threadbind_bundle_entries)\n",
                 o.bundle.c_str());
    return kExitFailure;
  }
  int32_t numEntries = 0;
  const ThreadBindEntry *entries = entriesFn(&numEntries);

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
    auto given = o.shapes.find(i);
    if (given != o.shapes.end()) {
      arg.shape = given->second;
      if (static_cast<int32_t>(arg.shape.size()) != arg.info->rank)
        return usageError("--shape " + std::to_string(i) + " has " +
                          std::to_string(arg.shape.size()) +
                          " sizes; the argument has rank " +
                          std::to_string(arg.info->rank));
      for (int32_t k = 0; k < arg.info->rank; ++k)
        if (arg.info->shape[k] >= 0 && arg.info->shape[k] != arg.shape[k])
          return usageError("--shape " + std::to_string(i) +
                            " contradicts the static size " +
                            std::to_string(arg.info->shape[k]) +
                            " of dimension " + std::to_string(k));
    } else {
      for (int32_t k = 0; k < arg.info->rank; ++k) {
        if (arg.info->shape[k] >= 0) {
          arg.shape.push_back(arg.info->shape[k]);
        } else if (static_cast<size_t>(k) < o.sizes.size()) {
          arg.shape.push_back(o.sizes[k]);
        } else {
          return usageError("argument " + std::to_string(i) +
                            " needs a size for dynamic dimension " +
                            std::to_string(k) + ": give --size with at "
                            "least " + std::to_string(k + 1) +
                            " sizes, or --shape " + std::to_string(i) + "=...");
        }
      }
    }
    arg.elements = 1;
    for (int64_t size : arg.shape)
      arg.elements *= static_cast<size_t>(size);
    size_t bytes = arg.elements * elementBytes(type);
    arg.initial.resize(bytes);
    for (size_t k = 0; k < arg.elements; ++k)
      store(arg.initial.data(), type, k,
            isFloat(type) ? random.symmetric()
                          : static_cast<double>(random.integer(-100, 100)));
    int access = arg.info->access;
    bytesMoved += bytes * ((access & THREADBIND_READ ? 1 : 0) +
                           (access & THREADBIND_WRITE ? 1 : 0));
    std::printf("  arg%d memref<%s x %s> %s\n", i,
                shapeString(arg.shape).c_str(), elementName(type),
                access == THREADBIND_READ    ? "read"
                : access == THREADBIND_WRITE ? "written"
                                             : "read and written");
  }

  auto call = [&](void (*fn)(void **), bool onDevice) {
    std::vector<void *> pointers(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      Argument &arg = args[i];
      if (!arg.info->isMemRef) {
        pointers[i] = arg.scalarBytes;
        continue;
      }
      describe(arg, onDevice ? arg.device : arg.reference.data());
      pointers[i] = arg.descriptorStorage.data();
    }
    fn(pointers.data());
  };

  // The CPU reference, on its own copy of the inputs.
  bool wantReference = o.check || o.referenceOnly;
  if (wantReference) {
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
    if (threadbind_malloc(&arg.device, arg.initial.size()) ||
        threadbind_copy_to_device(arg.device, arg.initial.data(),
                                  arg.initial.size()))
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
      arg.gpu.resize(arg.initial.size());
      if (threadbind_copy_to_host(arg.gpu.data(), arg.device, arg.gpu.size()))
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
      int type = arg.info->elementType;
      double rtol = o.rtol >= 0 ? o.rtol
                    : type == THREADBIND_F64 ? 1e-12
                    : type == THREADBIND_F32 ? 1e-5
                    : isFloat(type) ? 1e-2 : 0.0;
      double atol = o.atol >= 0 ? o.atol : rtol;
      size_t reported = 0, bad = 0;
      for (size_t k = 0; k < arg.elements; ++k) {
        double g = load(arg.gpu.data(), type, k);
        double r = load(arg.reference.data(), type, k);
        double error = std::fabs(g - r);
        bool same = isFloat(type) ? (error <= atol + rtol * std::fabs(r) ||
                                     (std::isnan(g) && std::isnan(r)))
                                  : g == r;
        if (isFloat(type) && r != 0)
          worst = std::max(worst, error / std::fabs(r));
        if (same)
          continue;
        ++bad;
        if (reported++ < 10)
          std::printf("  MISMATCH arg%zu%s: gpu %.9g, reference %.9g\n", i,
                      indexString(k, arg.shape).c_str(), g, r);
      }
      compared += arg.elements;
      mismatches += bad;
      if (bad)
        std::printf("  arg%zu: %zu of %zu elements differ\n", i, bad,
                    arg.elements);
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
      int64_t before = threadbind_launch_count();
      call(entry->gpu, true);
      double ms = 0;
      for (int64_t l = before; l < threadbind_launch_count(); ++l) {
        ThreadBindLaunchRecord r;
        threadbind_launch_record(l, &r);
        ms += r.milliseconds;
      }
      times.push_back(ms);
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
