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

#include <csignal>
#include <dlfcn.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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
    "  --strides I=AxB...  the strides, in elements, of strided memref\n"
    "                      argument I's view (default: the type's, and\n"
    "                      row-major where it leaves them open); the\n"
    "                      storage around the view holds random values\n"
    "                      that must come back unchanged\n"
    "  --offset I=N        the offset of strided memref argument I's view\n"
    "                      in its storage (default: the type's, else 0)\n"
    "  --input I=FILE      memref argument I holds a NumPy .npy file's\n"
    "                      array (its dtype and shape must fit, a --shape\n"
    "                      for I agree), not random\n"
    "                      values; use it for kernels whose addresses come\n"
    "                      from data (gathers, histograms)\n"
    "  --scalar I=V        the value of scalar argument I (floats default to\n"
    "                      a random value, integers to a random value in\n"
    "                      [-100, 100], index to 0)\n"
    "  --check             compare every memref with the CPU reference\n"
    "  --bench K           time K runs (after --warmup runs, default 3)\n"
    "  --on-stream         calls launch on the legacy default stream and\n"
    "                      return without waiting (threadbind_use_stream),\n"
    "                      as in a program that queues more work after\n"
    "                      them; the runner then waits for the device\n"
    "  --seed S            seed of the input generator (default 1)\n"
    "  --rtol R, --atol A  float tolerance: |gpu - ref| <= A + R * |ref|\n"
    "  --reference-only    run only the CPU reference (no GPU needed)\n"
    "  --print             print each memref's sum and first elements after\n"
    "                      the run (the GPU's, or the reference's)\n"
    "  --list              list the bundle's entries\n"
    "\n"
    "Random inputs suit kernels whose addresses come from the loops; where\n"
    "they come from the data, give the data with --input.\n"
    "\n"
    "exit status: 0 ok, 1 failure or mismatch, 2 usage, 3 no CUDA device\n";

int usageError(const std::string &message) {
  std::fprintf(stderr, "threadbind-run: error: %s\n\n%s", message.c_str(),
               kUsage);
  return kExitUsage;
}

int runError(const std::string &message) {
  std::fprintf(stderr, "threadbind-run: error: %s\n", message.c_str());
  return kExitFailure;
}

/// A non-negative integer that fits in int64_t, the whole of `text`.
bool parseCount(const std::string &text, int64_t &value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end)
    return false;
  value = parsed;
  return true;
}

/// `text` split at `separator`, each a count; empty on any bad item.
std::vector<int64_t> parseList(const std::string &text, char separator) {
  std::vector<int64_t> values;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    if (end == std::string::npos)
      end = text.size();
    int64_t value;
    if (!parseCount(text.substr(start, end - start), value))
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
  char scalarBytes[8] = {0};
};

struct Options {
  std::string bundle, entry;
  std::vector<int64_t> sizes;
  std::map<int64_t, std::vector<int64_t>> shapes, strides;
  std::map<int64_t, int64_t> offsets;
  std::map<int64_t, std::string> scalars, inputs;
  bool check = false, referenceOnly = false, list = false, print = false;
  bool onStream = false;
  int bench = 0, warmup = 3;
  uint64_t seed = 1;
  double rtol = -1, atol = -1;
};

/// Splits "I=VALUE" into an argument index and the value.
bool splitIndexed(const std::string &text, int64_t &index,
                  std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || !parseCount(text.substr(0, eq), index))
    return false;
  value = text.substr(eq + 1);
  return true;
}

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
    std::string v, item;
    int64_t index;
    if (key == "--help" || key == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(kExitOk);
    } else if (key == "--check") {
      o.check = true;
    } else if (key == "--on-stream") {
      o.onStream = true;
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
        return usageError("--size needs non-negative sizes that fit in 64 "
                          "bits, e.g. 1024,768");
    } else if (key == "--shape") {
      std::vector<int64_t> shape;
      if (!value(v) || !splitIndexed(v, index, item) ||
          (shape = parseList(item, 'x')).empty())
        return usageError("--shape needs ARG=AxB..., an argument number and "
                          "non-negative sizes, not '" + v + "'");
      o.shapes[index] = shape;
    } else if (key == "--strides") {
      std::vector<int64_t> strides;
      if (!value(v) || !splitIndexed(v, index, item) ||
          (strides = parseList(item, 'x')).empty())
        return usageError("--strides needs ARG=AxB..., an argument number "
                          "and non-negative strides, not '" + v + "'");
      o.strides[index] = strides;
    } else if (key == "--offset") {
      int64_t offset;
      if (!value(v) || !splitIndexed(v, index, item) ||
          !parseCount(item, offset))
        return usageError("--offset needs ARG=N, an argument number and a "
                          "non-negative offset, not '" + v + "'");
      o.offsets[index] = offset;
    } else if (key == "--scalar") {
      if (!value(v) || !splitIndexed(v, index, item))
        return usageError("--scalar needs ARG=VALUE, not '" + v + "'");
      o.scalars[index] = item;
    } else if (key == "--input") {
      if (!value(v) || !splitIndexed(v, index, item) || item.empty())
        return usageError("--input needs ARG=FILE.npy, not '" + v + "'");
      o.inputs[index] = item;
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
  if (o.referenceOnly && o.onStream)
    return usageError("--on-stream needs the GPU; it cannot go with "
                      "--reference-only");
  return -1;
}

/// Checks that every argument number an option names is an argument of
/// `entry` of the kind the option is for.
int checkArgumentOptions(const Options &o, const ThreadBindEntry &entry) {
  auto check = [&](const char *flag, int64_t index, bool memref) {
    if (index >= entry.numArguments)
      return usageError(std::string(flag) + " " + std::to_string(index) +
                        ": " + entry.name + " has " +
                        std::to_string(entry.numArguments) + " arguments");
    if (entry.arguments[index].isMemRef != memref)
      return usageError(std::string(flag) + " " + std::to_string(index) +
                        ": argument " + std::to_string(index) + " is " +
                        (memref ? "a scalar" : "a memref"));
    return -1;
  };
  for (const auto &[index, shape] : o.shapes)
    if (int status = check("--shape", index, true); status >= 0)
      return status;
  for (const auto &[index, path] : o.inputs)
    if (int status = check("--input", index, true); status >= 0)
      return status;
  auto checkStrided = [&](const char *flag, int64_t index) {
    if (int status = check(flag, index, true); status >= 0)
      return status;
    if (!entry.arguments[index].strided)
      return usageError(std::string(flag) + " " + std::to_string(index) +
                        ": argument " + std::to_string(index) +
                        " has the identity layout (row-major, offset 0); "
                        "only memrefs with a strided layout take a view");
    return -1;
  };
  for (const auto &[index, strides] : o.strides)
    if (int status = checkStrided("--strides", index); status >= 0)
      return status;
  for (const auto &[index, offset] : o.offsets)
    if (int status = checkStrided("--offset", index); status >= 0)
      return status;
  for (const auto &[index, text] : o.scalars)
    if (int status = check("--scalar", index, false); status >= 0)
      return status;
  return -1;
}

/// The shape of memref argument `i`: from --shape, else its static sizes
/// and --size. Returns a usage error's status, or -1.
int chooseShape(const Options &o, int32_t i, const ThreadBindArgument &info,
                std::vector<int64_t> &shape) {
  auto given = o.shapes.find(i);
  if (given != o.shapes.end()) {
    shape = given->second;
    if (static_cast<int32_t>(shape.size()) != info.rank)
      return usageError("--shape " + std::to_string(i) + " has " +
                        std::to_string(shape.size()) +
                        " sizes; the argument has rank " +
                        std::to_string(info.rank));
  } else {
    for (int32_t k = 0; k < info.rank; ++k) {
      if (info.shape[k] >= 0)
        shape.push_back(info.shape[k]);
      else if (static_cast<size_t>(k) < o.sizes.size())
        shape.push_back(o.sizes[k]);
      else
        return usageError("argument " + std::to_string(i) +
                          " needs a size for dynamic dimension " +
                          std::to_string(k) + ": give --size with at least " +
                          std::to_string(k + 1) + " sizes, or --shape " +
                          std::to_string(i) + "=...");
    }
  }
  for (int32_t k = 0; k < info.rank; ++k)
    if (info.shape[k] >= 0 && info.shape[k] != shape[k])
      return usageError("argument " + std::to_string(i) + " has the static "
                        "size " + std::to_string(info.shape[k]) +
                        " in dimension " + std::to_string(k) + ", not " +
                        std::to_string(shape[k]));
  return -1;
}

/// The strides and offset of strided memref argument `i` of `shape`: from
/// --strides and --offset, else those its type fixes, else row-major and 0.
/// Returns a usage error's status, or -1.
int chooseLayout(const Options &o, int32_t i, const ThreadBindArgument &info,
                 const std::vector<int64_t> &shape,
                 std::vector<int64_t> &strides, int64_t &offset) {
  std::string name = "argument " + std::to_string(i);
  auto given = o.strides.find(i);
  if (given != o.strides.end()) {
    strides = given->second;
    if (static_cast<int32_t>(strides.size()) != info.rank)
      return usageError("--strides " + std::to_string(i) + " has " +
                        std::to_string(strides.size()) +
                        " strides; the argument has rank " +
                        std::to_string(info.rank));
  } else {
    strides.assign(info.rank, 0);
    int64_t running = 1;
    for (int32_t k = info.rank; k-- > 0;) {
      if (info.strides[k] != THREADBIND_DYNAMIC)
        running = info.strides[k];
      strides[k] = running;
      if (__builtin_mul_overflow(running, std::max<int64_t>(shape[k], 1),
                                 &running))
        return usageError(name + " of shape " + shapeString(shape) +
                          " has more elements than 64 bits count");
    }
  }
  for (int32_t k = 0; k < info.rank; ++k)
    if (info.strides[k] != THREADBIND_DYNAMIC &&
        info.strides[k] != strides[k])
      return usageError(name + "'s type fixes stride " +
                        std::to_string(info.strides[k]) + " in dimension " +
                        std::to_string(k) + ", not " +
                        std::to_string(strides[k]));
  for (int64_t stride : strides)
    if (stride < 0)
      return usageError(name + ": the type's negative strides cannot be "
                        "laid out here");
  auto givenOffset = o.offsets.find(i);
  offset = givenOffset != o.offsets.end() ? givenOffset->second
           : info.offset != THREADBIND_DYNAMIC ? info.offset
                                               : 0;
  if (info.offset != THREADBIND_DYNAMIC && info.offset != offset)
    return usageError(name + "'s type fixes offset " +
                      std::to_string(info.offset) + ", not " +
                      std::to_string(offset));
  if (offset < 0)
    return usageError(name + ": the type's negative offset cannot be laid "
                      "out here");
  // Two elements of a written view in one place would leave the result to
  // the order of the writes.
  if ((info.access & THREADBIND_WRITE) && viewOverlaps(shape, strides))
    return usageError(name + " is written, but strides " +
                      shapeString(strides) + " put two elements of its " +
                      shapeString(shape) + " view in one place");
  return -1;
}

/// Fills `args` for `entry` from the options: --input files, shapes and
/// the seeded generator. Refuses sizes that do not fit in memory before
/// allocating anything. Returns an exit status, or -1.
int buildArguments(const Options &o, const ThreadBindEntry &entry,
                   std::vector<Argument> &args, size_t &bytesMoved) {
  Random random{o.seed};
  args.resize(entry.numArguments);
  // Host copies: the inputs, the reference's and the GPU's results.
  size_t hostBytes = 0;
  for (int32_t i = 0; i < entry.numArguments; ++i) {
    Argument &arg = args[i];
    arg.info = &entry.arguments[i];
    int type = arg.info->elementType;
    if (!arg.info->isMemRef) {
      auto given = o.scalars.find(i);
      if (given != o.scalars.end()) {
        std::string error = parseScalar(given->second, type, arg.scalarBytes);
        if (!error.empty())
          return usageError("--scalar " + std::to_string(i) + ": " + error);
      } else if (isFloat(type)) {
        store(arg.scalarBytes, type, 0, random.symmetric());
      } else if (type != THREADBIND_INDEX) {
        store(arg.scalarBytes, type, 0,
              static_cast<double>(random.integer(-100, 100)));
      }
      std::printf("  arg%d %s = %.17g\n", i, elementName(type),
                  load(arg.scalarBytes, type, 0));
      continue;
    }
    arg.initial.elementType = type;
    auto input = o.inputs.find(i);
    if (input != o.inputs.end()) {
      std::string error = readNpy(input->second, arg.initial);
      if (error.empty() &&
          static_cast<int32_t>(arg.initial.shape.size()) != arg.info->rank)
        error = input->second + " has rank " +
                std::to_string(arg.initial.shape.size()) +
                "; the argument has rank " + std::to_string(arg.info->rank);
      for (int32_t k = 0; error.empty() && k < arg.info->rank; ++k)
        if (arg.info->shape[k] >= 0 &&
            arg.info->shape[k] != arg.initial.shape[k])
          error = input->second + " has " +
                  std::to_string(arg.initial.shape[k]) + " in dimension " +
                  std::to_string(k) + ", where the argument has " +
                  std::to_string(arg.info->shape[k]);
      // The file's shape is the argument's: a --shape that says otherwise
      // is a mistake, not a request to reshape.
      if (auto shape = o.shapes.find(i); error.empty() &&
                                         shape != o.shapes.end() &&
                                         shape->second != arg.initial.shape)
        error = input->second + " has shape " + shapeString(arg.initial.shape) +
                ", but --shape " + std::to_string(i) + " gives " +
                shapeString(shape->second);
      if (!error.empty())
        return usageError("--input " + std::to_string(i) + ": " + error);
    } else if (int status = chooseShape(o, i, *arg.info, arg.initial.shape);
               status >= 0) {
      return status;
    }
    size_t bytes = 0;
    if (arg.info->strided) {
      if (int status =
              chooseLayout(o, i, *arg.info, arg.initial.shape,
                           arg.initial.strides, arg.initial.offset);
          status >= 0)
        return status;
      size_t elements;
      if (!storageElements(arg.initial.shape, arg.initial.strides,
                           arg.initial.offset, elements) ||
          __builtin_mul_overflow(elements, elementBytes(type), &bytes))
        return usageError("argument " + std::to_string(i) + "'s view spans "
                          "more bytes than an address can count");
    }
    if ((!arg.info->strided && !bufferBytes(arg.initial.shape, type, bytes)) ||
        __builtin_add_overflow(hostBytes, bytes, &hostBytes))
      return usageError("argument " + std::to_string(i) + " of shape " +
                        shapeString(arg.initial.shape) +
                        " has more bytes than an address can count");
  }
  // Sizes that disagree with what the loops need would send the reference
  // and the kernels out of bounds.
  std::vector<std::vector<int64_t>> shapes(entry.numArguments);
  std::vector<int64_t> scalars(entry.numArguments, 0);
  for (int32_t i = 0; i < entry.numArguments; ++i) {
    shapes[i] = args[i].initial.shape;
    if (!args[i].info->isMemRef && !isFloat(args[i].info->elementType))
      scalars[i] =
          loadInteger(args[i].scalarBytes, args[i].info->elementType, 0);
  }
  std::string broken = checkRequirements(entry, shapes, scalars);
  if (!broken.empty())
    return usageError("the sizes do not fit " + std::string(entry.name) +
                      ": " + broken);

  long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
  double memory = pages > 0 && pageBytes > 0
                      ? static_cast<double>(pages) * pageBytes
                      : 0;
  if (memory > 0 && 3.0 * hostBytes > memory)
    return runError("the arguments need " +
                    std::to_string(3.0 * hostBytes / 1e9) +
                    " GB of host memory (inputs, reference and GPU results), "
                    "more than this machine's " +
                    std::to_string(memory / 1e9) + " GB");
  try {
    for (int32_t i = 0; i < entry.numArguments; ++i) {
      Argument &arg = args[i];
      if (!arg.info->isMemRef)
        continue;
      if (o.inputs.count(i) && !arg.initial.strides.empty()) {
        // The file holds the view; it moves into storage laid out as
        // chosen.
        std::vector<int64_t> strides = std::move(arg.initial.strides);
        arg.initial.strides.clear();
        arg.initial.restride(std::move(strides), arg.initial.offset, random);
      } else if (arg.initial.data.empty() && !o.inputs.count(i)) {
        arg.initial.allocate();
        arg.initial.fillRandom(random);
      }
      int access = arg.info->access;
      bytesMoved += arg.initial.elements() * elementBytes(arg.initial.elementType) *
                    ((access & THREADBIND_READ ? 1 : 0) +
                     (access & THREADBIND_WRITE ? 1 : 0));
      std::printf("  arg%d memref<%s x %s> %s%s", i,
                  shapeString(arg.initial.shape).c_str(),
                  elementName(arg.info->elementType),
                  access == THREADBIND_READ    ? "read"
                  : access == THREADBIND_WRITE ? "written"
                                               : "read and written",
                  o.inputs.count(i) ? ", from --input" : "");
      if (arg.info->paddedTo)
        std::printf(", allocated padded to a multiple of %" PRId64,
                    arg.info->paddedTo);
      if (arg.info->strided)
        std::printf(", strides %s offset %" PRId64 " in %zu elements",
                    shapeString(arg.initial.strides).c_str(),
                    arg.initial.offset,
                    arg.initial.bytes() / elementBytes(arg.initial.elementType));
      std::printf("\n");
    }
  } catch (const std::bad_alloc &) {
    return runError("out of host memory for the arguments");
  }
  return -1;
}

/// Calls `fn` (an entry's GPU or reference version) on `args`: device
/// buffers, or the reference copies.
void callEntry(void (*fn)(void **), std::vector<Argument> &args,
               bool onDevice) {
  std::vector<void *> pointers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    Argument &arg = args[i];
    if (!arg.info->isMemRef) {
      pointers[i] = arg.scalarBytes;
      continue;
    }
    arg.descriptor = makeDescriptor(
        onDevice ? arg.device : arg.reference.data.data(), arg.initial);
    pointers[i] = arg.descriptor.data();
  }
  fn(pointers.data());
}

/// Runs the CPU reference on copies of the inputs, in a child process: an
/// input the reference cannot take (an index read from random data that
/// lies outside an array) crashes the child, not the runner, which says
/// so. The child sends its results back through a pipe.
int runReference(const ThreadBindEntry &entry, std::vector<Argument> &args) {
  for (Argument &arg : args)
    arg.reference = arg.initial;
  int fds[2];
  if (pipe(fds) != 0)
    return runError("cannot create a pipe for the CPU reference");
  std::fflush(stdout);
  pid_t parent = getpid();
  pid_t child = fork();
  if (child < 0)
    return runError("cannot fork the CPU reference");
  if (child == 0) {
    close(fds[0]);
    // A runner killed (a timeout, ^C) takes its reference with it, rather
    // than leaving it to spin in a loop that never ends.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(1);
    // A failed bounds check prints what it found, then aborts: unbuffered,
    // the message survives the abort.
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    // The user's code traps here, not the runner's: the parent names the
    // signal, so it must end the child whatever handler a sanitizer
    // runtime installed.
    for (int trap : {SIGFPE, SIGSEGV, SIGBUS, SIGILL})
      std::signal(trap, SIG_DFL);
    callEntry(entry.reference, args, /*onDevice=*/false);
    for (Argument &arg : args) {
      const char *data = arg.reference.data.data();
      size_t left = arg.reference.bytes();
      while (left) {
        ssize_t n = write(fds[1], data, left);
        if (n <= 0)
          _exit(kExitFailure);
        data += n;
        left -= static_cast<size_t>(n);
      }
    }
    _exit(kExitOk);
  }
  close(fds[1]);
  bool complete = true;
  for (Argument &arg : args) {
    char *data = arg.reference.data.data();
    size_t left = arg.reference.bytes();
    while (complete && left) {
      ssize_t n = read(fds[0], data, left);
      complete = n > 0;
      if (complete) {
        data += n;
        left -= static_cast<size_t>(n);
      }
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  // An integer division by zero (a divisor or step that came from a
  // scalar left at its default 0, say) raises SIGFPE; a wild access SIGSEGV
  // or SIGBUS; runtime verification of an access aborts with its location.
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGFPE)
    return runError(std::string("the CPU reference of ") + entry.name +
                    " crashed (" + strsignal(WTERMSIG(status)) +
                    "): an integer division or remainder by zero. Check the "
                    "--scalar values (an index scalar not given is 0) and "
                    "the sizes the divisors come from");
  if (WIFSIGNALED(status))
    return runError(std::string("the CPU reference of ") + entry.name +
                    " crashed (" + strsignal(WTERMSIG(status)) +
                    "): it read or wrote outside an argument. Check that the "
                    "sizes agree with each other; where addresses come from "
                    "the data, give that data with --input");
  if (!complete || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return runError("the CPU reference did not finish");
  std::printf("  reference: ran %s_reference on the CPU\n", entry.name);
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
      sum += load(m.data.data(), m.elementType, m.position(k));
    std::printf("  %s arg%zu: sum %.10g, first [", label, i, sum);
    for (size_t k = 0; k < std::min<size_t>(m.elements(), 8); ++k)
      std::printf("%s%.9g", k ? ", " : "",
                  load(m.data.data(), m.elementType, m.position(k)));
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


/// --list: every entry with its arguments' types.
void printEntries(const ThreadBindEntry *entries, int32_t numEntries) {
  for (int32_t e = 0; e < numEntries; ++e) {
    std::printf("%s(", entries[e].name);
    for (int32_t i = 0; i < entries[e].numArguments; ++i) {
      const ThreadBindArgument &a = entries[e].arguments[i];
      std::printf("%s", i ? ", " : "");
      if (!a.isMemRef) {
        std::printf("%s", elementName(a.elementType));
        continue;
      }
      std::printf("memref<");
      for (int32_t k = 0; k < a.rank; ++k)
        a.shape[k] < 0 ? std::printf("?x")
                       : std::printf("%" PRId64 "x", a.shape[k]);
      std::printf("%s", elementName(a.elementType));
      if (a.strided) {
        auto print = [](int64_t value) {
          value == THREADBIND_DYNAMIC ? std::printf("?")
                                      : std::printf("%" PRId64, value);
        };
        std::printf(", strided<[");
        for (int32_t k = 0; k < a.rank; ++k) {
          std::printf("%s", k ? ", " : "");
          print(a.strides[k]);
        }
        std::printf("], offset: ");
        print(a.offset);
        std::printf(">");
      }
      std::printf(">");
      if (a.paddedTo)
        std::printf(" padded_to %" PRId64, a.paddedTo);
    }
    std::printf(")\n");
  }
}

/// The entry --entry names, or null.
const ThreadBindEntry *findEntry(const ThreadBindEntry *entries,
                                 int32_t numEntries, const std::string &name) {
  for (int32_t e = 0; e < numEntries; ++e)
    if (name == entries[e].name)
      return &entries[e];
  return nullptr;
}

/// Prints the runtime's last error, if there is one, and says whether
/// there was.
bool reportRuntimeError() {
  if (!*threadbind_last_error())
    return false;
  std::fprintf(stderr, "threadbind-run: error: %s\n", threadbind_last_error());
  return true;
}

/// Starts the CUDA driver and prints the device. Returns the exit code, or
/// -1 to go on.
int initDevice() {
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
  return -1;
}

/// Copies the arguments to the device, runs the entry's GPU version once,
/// prints its launches, and copies the memrefs back into `gpu` when
/// `copyBack`. Returns the exit code, or -1 to go on.
int runOnDevice(const ThreadBindEntry &entry, std::vector<Argument> &args,
                bool copyBack) {
  for (Argument &arg : args) {
    if (!arg.info->isMemRef)
      continue;
    // A padded argument's allocation reaches the next multiple of its
    // padding; the padding starts zeroed, and kernels may overwrite it.
    if (allocateOnDevice(&arg.device, arg.initial, *arg.info))
      return reportRuntimeError(), kExitFailure;
  }
  int64_t firstLaunch = threadbind_launch_count();
  callEntry(entry.gpu, args, /*onDevice=*/true);
  if (threadbind_synchronize() || reportRuntimeError())
    return kExitFailure;
  printLaunches(firstLaunch);
  if (threadbind_launch_count() == firstLaunch)
    std::printf("  no kernel was launched\n");
  if (!copyBack)
    return -1;
  for (Argument &arg : args) {
    if (!arg.info->isMemRef)
      continue;
    arg.gpu = arg.initial;
    if (threadbind_copy_to_host(arg.gpu.data.data(), arg.device,
                                arg.gpu.bytes()))
      return reportRuntimeError(), kExitFailure;
  }
  return -1;
}

/// --check: compares every memref the GPU left with the reference's.
/// Returns the exit code.
int checkResults(const Options &o, const std::vector<Argument> &args) {
  size_t mismatches = 0, compared = 0;
  double worst = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const Argument &arg = args[i];
    if (!arg.info->isMemRef)
      continue;
    double rtol =
        o.rtol >= 0 ? o.rtol : defaultTolerance(arg.info->elementType);
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
    return kExitFailure;
  }
  std::printf("check: ok, %zu elements match the CPU reference (largest "
              "relative difference %.3g)\n",
              compared, worst);
  return kExitOk;
}

/// --bench: times the entry's kernels and prints the median. Returns the
/// exit code, or -1 to go on.
int benchEntry(const Options &o, const ThreadBindEntry &entry,
               std::vector<Argument> &args, size_t bytesMoved) {
  threadbind_set_launch_timing(1);
  for (int w = 0; w < o.warmup; ++w)
    callEntry(entry.gpu, args, /*onDevice=*/true);
  threadbind_synchronize();
  std::vector<double> times;
  for (int b = 0; b < o.bench; ++b)
    times.push_back(
        timeKernels([&] { callEntry(entry.gpu, args, /*onDevice=*/true); }));
  if (reportRuntimeError())
    return kExitFailure;
  TimeSummary summary = summarizeTimes(times);
  double median = summary.median;
  double gbps = median > 0 ? bytesMoved / (median * 1e-3) / 1e9 : 0;
  std::printf("bench: %d runs, kernel time median %.4f ms (min %.4f, max "
              "%.4f), %.3f GB moved, %.1f GB/s\n",
              o.bench, median, summary.min, summary.max, bytesMoved / 1e9,
              gbps);
  std::printf("RESULT entry=%s median_ms=%.6f min_ms=%.6f max_ms=%.6f "
              "bytes=%zu gbps=%.2f\n",
              entry.name, median, summary.min, summary.max, bytesMoved,
              gbps);
  return -1;
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
    printEntries(entries, numEntries);
    return kExitOk;
  }
  const ThreadBindEntry *entry = findEntry(entries, numEntries, o.entry);
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

  if (int status = checkArgumentOptions(o, *entry); status >= 0)
    return status;
  std::vector<Argument> args;
  size_t bytesMoved = 0;
  if (int status = buildArguments(o, *entry, args, bytesMoved); status >= 0)
    return status;

  if (o.check || o.referenceOnly)
    if (int status = runReference(*entry, args); status >= 0)
      return status;
  if (o.referenceOnly) {
    if (o.print)
      printMemRefs(args, &Argument::reference, "reference");
    return kExitOk;
  }

  if (int status = initDevice(); status >= 0)
    return status;
  if (o.onStream)
    threadbind_use_stream(/*stream=*/nullptr);
  if (int status = runOnDevice(*entry, args, o.check || o.print); status >= 0)
    return status;
  if (o.print)
    printMemRefs(args, &Argument::gpu, "gpu");
  int status = o.check ? checkResults(o, args) : kExitOk;
  if (o.bench)
    if (int benched = benchEntry(o, *entry, args, bytesMoved); benched >= 0)
      return benched;
  for (Argument &arg : args)
    threadbind_free(arg.device);
  return status;
}
