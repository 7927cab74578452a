//===- polybench-bench.cu - ThreadBind against PolyBench/GPU-style CUDA ---===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The harness of the PolyBench/GPU-style suite (polybench.txt). For every
// benchmark line, in one process:
//   - at the line's check sizes, on the same random inputs, the CPU
//     reference of the ThreadBind bundle, the bundle's GPU entry, the hand
//     CUDA twin (hand.cu) and, where the line names one, cuBLAS; every array
//     a GPU side writes is compared with the reference (CHECK and MISMATCH
//     lines);
//   - at the standard sizes, where the reference is too slow, both GPU sides
//     on the same inputs, ThreadBind's outputs compared with the twin's
//     within the line's tolerance (max |a - b| over the array's largest
//     magnitude, before or after the run);
//   - then each side timed over the whole benchmark, every launch of it:
//     CUDA events on the legacy default stream around the call, every run
//     from the same inputs, copied back untimed; the median, min and max of
//     --runs after --warmup. The twin (and cuBLAS) launch on a blocking
//     stream and return; so does ThreadBind's call on that stream
//     (threadbind-stream, threadbind_use_stream). ThreadBind's plain call
//     (threadbind) launches on a stream of the runtime's and returns with
//     its work done; the twin and cuBLAS are also timed that way, their call
//     followed by a synchronise of their stream (waited_ms). For ThreadBind
//     also the sum of its kernels' times from the runtime's launch records,
//     in separate runs, so launch overhead shows apart; and for every side
//     the median time its call took to return on the host (host_ms): a
//     side whose launches return later than their kernels end is bound by
//     launching.
// RESULT lines feed bench/polybench/report.py. --cpu-only runs the CPU
// references alone (no GPU needed) and checks that they give finite results.
//
// The bundle and the twins share device memory: the runtime makes the CUDA
// primary context current, which the CUDA runtime then uses.
//
// Built with nvcc by scripts/stage-gpu.sh, with hand.cu, against the
// runtime library and HostData of a ThreadBind build and cuBLAS:
//   nvcc -O3 -arch=sm_90 -I include polybench-bench.cu hand.cu -L build/lib
//     -lThreadBindHostData -lThreadBindRuntime -lcublas -ldl
//     -Xlinker -rpath='$ORIGIN/../lib'
// usage: polybench-bench SPEC --stage DIR [--runs N] [--warmup N]
//          [--only NAME,...] [--cpu-only]
// where DIR holds <file stem>.so, a bundle of each MLIR file of SPEC (and
// <name>.so for a line with flags=).
//
//===----------------------------------------------------------------------===//

#include "hand.h"

#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Runtime/HostData.h"
#include "threadbind/Runtime/Runtime.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace threadbind;

namespace {

using SizeSet = std::vector<std::pair<std::string, int64_t>>;

/// One line of polybench.txt.
struct Benchmark {
  std::string name, file, entry, hand, cublas;
  /// threadbind-compile options of this line's own bundle, <name>.so.
  std::string flags;
  /// Every argument of the entry: its name and its shape or value.
  std::vector<std::pair<std::string, std::string>> args;
  SizeSet standard, check;
  std::map<std::string, std::string> init;
  double tolerance = 1e-3;
};

/// How far a GPU side may be from the CPU reference at the check sizes,
/// over the array's largest magnitude: sums of a few dozen terms, in
/// another order or with fused multiply-adds, stay far inside it.
constexpr double kCheckTolerance = 1e-4;

std::vector<std::string> split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator))
    parts.push_back(part);
  return parts;
}

/// "A=B" as {"A", "B"}; {"A", ""} without '='.
std::pair<std::string, std::string> keyValue(const std::string &text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    return {text, ""};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

bool parseSizes(const std::string &text, SizeSet &sizes) {
  for (const std::string &item : split(text, ',')) {
    auto [name, value] = keyValue(item);
    char *end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (name.empty() || value.empty() || *end || v < 0)
      return false;
    sizes.emplace_back(name, v);
  }
  return !sizes.empty();
}

bool parseSpec(const std::string &path, std::vector<Benchmark> &benchmarks) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "polybench-bench: cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::stringstream tokens(line);
    Benchmark b;
    if (!(tokens >> b.name) || b.name[0] == '#')
      continue;
    bool ok = true;
    std::string token;
    while (tokens >> token) {
      auto [key, value] = keyValue(token);
      if (key == "file")
        b.file = value;
      else if (key == "entry")
        b.entry = value;
      else if (key == "hand")
        b.hand = value;
      else if (key == "cublas")
        b.cublas = value;
      else if (key == "args")
        for (const std::string &arg : split(value, ','))
          b.args.push_back(keyValue(arg));
      else if (key == "std")
        ok &= parseSizes(value, b.standard);
      else if (key == "check")
        ok &= parseSizes(value, b.check);
      else if (key == "init")
        for (const std::string &item : split(value, ','))
          b.init.insert(keyValue(item));
      else if (key == "tol")
        b.tolerance = std::strtod(value.c_str(), nullptr);
      else if (key == "flags")
        b.flags = value;
      else
        ok = false;
    }
    if (!ok || b.file.empty() || b.entry.empty() || b.hand.empty() ||
        b.args.empty() || b.standard.empty() || b.check.empty()) {
      std::fprintf(stderr, "polybench-bench: %s:%d: malformed line\n",
                   path.c_str(), number);
      return false;
    }
    benchmarks.push_back(std::move(b));
  }
  return true;
}

/// "NI=512,NJ=512".
std::string sizesText(const SizeSet &sizes) {
  std::string text;
  for (const auto &[name, value] : sizes)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return text;
}

/// A size name or an integer, at `sizes`; false if it is neither.
bool resolve(const std::string &term, const SizeSet &sizes, double &value) {
  for (const auto &[name, v] : sizes)
    if (name == term) {
      value = double(v);
      return true;
    }
  char *end = nullptr;
  value = std::strtod(term.c_str(), &end);
  return !term.empty() && !*end;
}

struct Options {
  std::string spec, stage, only;
  int runs = 10, warmup = 2;
  bool cpuOnly = false;
};

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
    else if (a == "--cpu-only")
      o.cpuOnly = true;
    else if (o.spec.empty() && a[0] != '-')
      o.spec = a;
    else
      return false;
  }
  return !o.spec.empty() && !o.stage.empty() && o.runs >= 1 && o.warmup >= 0;
}

/// The bundle's entry `name`, or null after saying why.
const ThreadBindEntry *findEntry(const std::string &bundle,
                                 const std::string &name) {
  std::string error;
  const ThreadBindEntry *entry = findBundleEntry(bundle, name, error);
  if (!entry)
    std::fprintf(stderr, "polybench-bench: %s\n", error.c_str());
  return entry;
}

/// One benchmark's inputs at one size set: the host data every side
/// starts from, the scalars, and the CPU reference where it ran.
struct Inputs {
  const Benchmark &bench;
  const ThreadBindEntry &entry;
  std::string sizeName, sizeText;
  std::vector<HostMemRef> initial;
  /// Three sizes an argument (PolybenchArgs::shapes).
  std::vector<int64_t> shapes;
  std::vector<std::array<char, 8>> scalarBytes;
  std::vector<double> scalars;

  Inputs(const Benchmark &bench, const ThreadBindEntry &entry)
      : bench(bench), entry(entry) {}
  int count() const { return entry.numArguments; }
  const ThreadBindArgument &arg(int i) const { return entry.arguments[i]; }
  bool written(int i) const {
    return arg(i).isMemRef && (arg(i).access & THREADBIND_WRITE);
  }
  const std::string &argName(int i) const { return bench.args[i].first; }
};

/// Checks the spec's arguments against the entry's.
bool matchesEntry(const Benchmark &b, const ThreadBindEntry &entry) {
  if (int(b.args.size()) != entry.numArguments) {
    std::fprintf(stderr,
                 "polybench-bench: %s: args= names %zu arguments, %s takes "
                 "%d\n",
                 b.name.c_str(), b.args.size(), b.entry.c_str(),
                 entry.numArguments);
    return false;
  }
  for (int i = 0; i < entry.numArguments; ++i) {
    const ThreadBindArgument &a = entry.arguments[i];
    const std::string &name = b.args[i].first;
    if (a.isMemRef &&
        (a.elementType != THREADBIND_F32 || a.rank < 1 || a.rank > 3 ||
         a.strided || int(split(b.args[i].second, 'x').size()) != a.rank)) {
      std::fprintf(stderr,
                   "polybench-bench: %s: argument %d (%s) is not an "
                   "identity-layout f32 memref of rank %zu\n",
                   b.name.c_str(), i, name.c_str(),
                   split(b.args[i].second, 'x').size());
      return false;
    }
    if (!a.isMemRef && a.elementType != THREADBIND_F32 &&
        a.elementType != THREADBIND_INDEX) {
      std::fprintf(stderr,
                   "polybench-bench: %s: scalar %s is not f32 or "
                   "index\n",
                   b.name.c_str(), name.c_str());
      return false;
    }
  }
  return true;
}

/// Random inputs (seeded, the same on every run) at `sizes`.
bool makeInputs(Inputs &in, const std::string &sizeName, const SizeSet &sizes) {
  const Benchmark &b = in.bench;
  in.sizeName = sizeName;
  in.sizeText = sizesText(sizes);
  int n = in.count();
  in.initial.assign(n, HostMemRef());
  in.shapes.assign(3 * n, 1);
  in.scalarBytes.assign(n, {});
  in.scalars.assign(n, 0);
  std::vector<std::vector<int64_t>> shapes(n);
  std::vector<int64_t> integers(n, 0);
  Random random{1};
  for (int i = 0; i < n; ++i) {
    const ThreadBindArgument &a = in.arg(i);
    const std::string &value = b.args[i].second;
    if (!a.isMemRef) {
      double v;
      if (!resolve(value, sizes, v)) {
        std::fprintf(stderr, "polybench-bench: %s: no value for %s\n",
                     b.name.c_str(), value.c_str());
        return false;
      }
      in.scalars[i] = v;
      integers[i] = int64_t(v);
      store(in.scalarBytes[i].data(), a.elementType, 0, v);
      continue;
    }
    for (const std::string &dim : split(value, 'x')) {
      double v;
      if (!resolve(dim, sizes, v)) {
        std::fprintf(stderr, "polybench-bench: %s: no size %s\n",
                     b.name.c_str(), dim.c_str());
        return false;
      }
      shapes[i].push_back(int64_t(v));
    }
    for (size_t d = 0; d < shapes[i].size(); ++d)
      in.shapes[3 * i + d] = shapes[i][d];
    HostMemRef &m = in.initial[i];
    m.elementType = a.elementType;
    m.shape = shapes[i];
    m.allocate();
    m.fillRandom(random);
    auto kind = b.init.find(b.args[i].first);
    if (kind != b.init.end()) {
      if (kind->second != "diag" || m.shape.size() != 2) {
        std::fprintf(stderr,
                     "polybench-bench: %s: init=%s=%s: only 2-D "
                     "diag is known\n",
                     b.name.c_str(), kind->first.c_str(), kind->second.c_str());
        return false;
      }
      // The random part's largest singular value is near
      // (sqrt(rows) + sqrt(cols)) / sqrt(3); a diagonal of twice that sum
      // keeps every singular value of the whole far from zero, so its
      // condition number stays small at every size.
      int64_t rows = m.shape[0], cols = m.shape[1];
      double boost = 2 * (std::sqrt(double(rows)) + std::sqrt(double(cols)));
      float *data = reinterpret_cast<float *>(m.data.data());
      for (int64_t d = 0; d < std::min(rows, cols); ++d)
        data[d * cols + d] += float(boost);
    }
  }
  std::string broken = checkRequirements(in.entry, shapes, integers);
  if (!broken.empty()) {
    std::fprintf(stderr, "polybench-bench: %s at %s: %s\n", b.name.c_str(),
                 in.sizeText.c_str(), broken.c_str());
    return false;
  }
  return true;
}

/// The entry's argument pointers for memrefs whose data is at `data[i]`.
struct Packed {
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> pointers;
};
Packed pack(Inputs &in, const std::vector<void *> &data) {
  Packed p;
  p.descriptors.resize(in.count());
  p.pointers.resize(in.count());
  for (int i = 0; i < in.count(); ++i) {
    if (!in.arg(i).isMemRef) {
      p.pointers[i] = in.scalarBytes[i].data();
      continue;
    }
    p.descriptors[i] = makeDescriptor(data[i], in.initial[i]);
    p.pointers[i] = p.descriptors[i].data();
  }
  return p;
}

/// Runs the CPU reference on a copy of the inputs; returns the copy.
std::vector<HostMemRef> runReference(Inputs &in, double &ms) {
  std::vector<HostMemRef> ref = in.initial;
  std::vector<void *> data(in.count(), nullptr);
  for (int i = 0; i < in.count(); ++i)
    if (in.arg(i).isMemRef)
      data[i] = ref[i].data.data();
  Packed p = pack(in, data);
  auto start = std::chrono::steady_clock::now();
  in.entry.reference(p.pointers.data());
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - start)
           .count();
  return ref;
}

double largestMagnitude(const HostMemRef &m) {
  const float *v = reinterpret_cast<const float *>(m.data.data());
  double largest = 0;
  for (size_t e = 0, n = m.elements(); e < n; ++e)
    if (std::isfinite(v[e]))
      largest = std::max(largest, double(std::fabs(v[e])));
  return largest;
}

/// max |got - expected| over the largest magnitude of `expected` and
/// `initial` (infinite where an element is NaN or infinite on one side
/// only).
double relativeDifference(const HostMemRef &got, const HostMemRef &expected,
                          const HostMemRef &initial) {
  double scale =
      std::max(largestMagnitude(expected), largestMagnitude(initial));
  if (scale == 0)
    scale = 1;
  const float *g = reinterpret_cast<const float *>(got.data.data());
  const float *e = reinterpret_cast<const float *>(expected.data.data());
  double worst = 0;
  for (size_t k = 0, n = got.elements(); k < n; ++k) {
    if (std::isnan(g[k]) && std::isnan(e[k]))
      continue;
    double d = std::fabs(double(g[k]) - double(e[k]));
    worst = std::max(worst, std::isfinite(d) ? d / scale : INFINITY);
  }
  return worst;
}

/// Device buffers for one Inputs, and untouched copies of the arrays the
/// benchmark writes, to start every run from the same data.
struct Device {
  Inputs &in;
  std::vector<void *> data, pristine;

  explicit Device(Inputs &in)
      : in(in), data(in.count(), nullptr), pristine(in.count(), nullptr) {}
  ~Device() {
    for (void *p : data)
      if (p)
        threadbind_free(p);
    for (void *p : pristine)
      if (p)
        threadbind_free(p);
  }
  bool allocate() {
    for (int i = 0; i < in.count(); ++i) {
      if (!in.arg(i).isMemRef)
        continue;
      if (allocateOnDevice(&data[i], in.initial[i], in.arg(i)))
        return false;
      if (in.written(i) &&
          (threadbind_malloc(&pristine[i], in.initial[i].bytes()) ||
           threadbind_copy_to_device(pristine[i], in.initial[i].data.data(),
                                     in.initial[i].bytes())))
        return false;
    }
    return true;
  }
  /// Restores the written arrays and waits: no side's kernels overlap it.
  void reset() {
    for (int i = 0; i < in.count(); ++i)
      if (pristine[i])
        cudaMemcpyAsync(data[i], pristine[i], in.initial[i].bytes(),
                        cudaMemcpyDeviceToDevice, cudaStreamLegacy);
    cudaStreamSynchronize(cudaStreamLegacy);
  }
  /// The written arrays, back on the host.
  std::vector<HostMemRef> results() {
    std::vector<HostMemRef> out(in.count());
    for (int i = 0; i < in.count(); ++i) {
      if (!in.written(i))
        continue;
      out[i] = in.initial[i];
      threadbind_copy_to_host(out[i].data.data(), data[i], out[i].bytes());
    }
    return out;
  }
};

/// One GPU side: `call` runs the whole benchmark on the device buffers and
/// returns false when it reported an error.
struct System {
  std::string name;
  std::function<bool()> call;
};

bool finishedCleanly(const System &s) {
  cudaError_t sync = cudaDeviceSynchronize();
  if (sync != cudaSuccess || *threadbind_last_error()) {
    std::printf("ERROR system=%s cuda=\"%s\" runtime=\"%s\"\n", s.name.c_str(),
                cudaGetErrorString(sync), threadbind_last_error());
    threadbind_clear_error();
    return false;
  }
  return true;
}

System threadbindSystem(Inputs &in, Packed &packed) {
  return {"threadbind", [&packed, &in]() {
            in.entry.gpu(packed.pointers.data());
            return !*threadbind_last_error();
          }};
}

/// The bundle's call on `stream`, returning once its work is queued, as the
/// launchers do (threadbind_use_stream).
System threadbindStreamSystem(Inputs &in, Packed &packed, cudaStream_t stream) {
  return {"threadbind-stream", [&packed, &in, stream]() {
            threadbind_use_stream(stream);
            in.entry.gpu(packed.pointers.data());
            threadbind_use_own_stream();
            return !*threadbind_last_error();
          }};
}

System launcherSystem(const std::string &name, PolybenchLauncher launcher,
                      cudaStream_t stream, const PolybenchArgs &args) {
  return {name, [launcher, stream, &args]() {
            return launcher(stream, args) == cudaSuccess;
          }};
}

/// Runs `s` once from the inputs and returns its written arrays, or
/// nothing if it failed.
bool runOnce(Device &dev, const System &s, std::vector<HostMemRef> &out) {
  dev.reset();
  bool ok = s.call();
  if (!finishedCleanly(s) || !ok)
    return false;
  out = dev.results();
  return true;
}

/// Compares every written array of `got` with `expected`, printing a CHECK
/// line and a MISMATCH line for each array off by more than `tolerance`.
bool reportAgreement(const Inputs &in, const std::string &system,
                     const std::string &against,
                     const std::vector<HostMemRef> &got,
                     const std::vector<HostMemRef> &expected,
                     double tolerance) {
  double worst = 0;
  bool ok = true;
  for (int i = 0; i < in.count(); ++i) {
    if (!in.written(i))
      continue;
    double rel = relativeDifference(got[i], expected[i], in.initial[i]);
    worst = std::max(worst, rel);
    if (rel <= tolerance)
      continue;
    ok = false;
    double scale = std::max(largestMagnitude(expected[i]),
                            largestMagnitude(in.initial[i]));
    Comparison c = compare(got[i], expected[i], 0, tolerance * scale, 3);
    std::printf("MISMATCH bench=%s size=%s system=%s against=%s arg=%s "
                "count=%zu max_rel=%.3g %s\n",
                in.bench.name.c_str(), in.sizeName.c_str(), system.c_str(),
                against.c_str(), in.argName(i).c_str(), c.mismatches, rel,
                c.examples.empty() ? "" : c.examples[0].c_str());
  }
  std::printf("CHECK bench=%s size=%s dims=%s system=%s against=%s "
              "status=%s max_rel=%.3g\n",
              in.bench.name.c_str(), in.sizeName.c_str(), in.sizeText.c_str(),
              system.c_str(), against.c_str(), ok ? "ok" : "FAILED", worst);
  std::fflush(stdout);
  return ok;
}

/// The whole call, bracketed by events on the legacy default stream, every
/// run from the inputs; `hostMs`, where given, gets the median time the
/// call took to return on the host.
TimeSummary timeCalls(Device &dev, const System &s, const Options &o,
                      double *hostMs = nullptr) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int w = 0; w < o.warmup; ++w) {
    dev.reset();
    s.call();
  }
  std::vector<double> times, hostTimes;
  for (int r = 0; r < o.runs; ++r) {
    dev.reset();
    cudaEventRecord(start, cudaStreamLegacy);
    auto begin = std::chrono::steady_clock::now();
    s.call();
    auto end = std::chrono::steady_clock::now();
    cudaEventRecord(stop, cudaStreamLegacy);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms);
    hostTimes.push_back(
        std::chrono::duration<double, std::milli>(end - begin).count());
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (hostMs)
    *hostMs = summarizeTimes(hostTimes).median;
  return summarizeTimes(times);
}

/// ThreadBind's kernel time alone, from the runtime's launch records.
TimeSummary timeKernelsOnly(Device &dev, const System &s, const Options &o,
                       int64_t &launches) {
  threadbind_set_launch_timing(1);
  std::vector<double> times;
  for (int r = 0; r < o.runs; ++r) {
    dev.reset();
    int64_t first = threadbind_launch_count();
    times.push_back(timeKernels([&] { s.call(); }));
    launches = threadbind_launch_count() - first;
  }
  threadbind_set_launch_timing(0);
  threadbind_clear_launches();
  return summarizeTimes(times);
}

void printResult(const Inputs &in, const std::string &system, bool checked,
                 const TimeSummary &t, const std::string &extra) {
  std::printf("RESULT bench=%s size=%s dims=%s system=%s check=%s "
              "median_ms=%.6f min_ms=%.6f max_ms=%.6f%s\n",
              in.bench.name.c_str(), in.sizeName.c_str(), in.sizeText.c_str(),
              system.c_str(), checked ? "ok" : "FAILED", t.median, t.min, t.max,
              extra.c_str());
  std::fflush(stdout);
}

/// The GPU systems of a benchmark on `dev`: ThreadBind, the twin, cuBLAS.
struct Systems {
  Packed packed;
  std::vector<void *> data;
  PolybenchArgs args;
  std::vector<System> list;
};

void makeSystems(Inputs &in, Device &dev, cudaStream_t stream,
                 PolybenchLauncher hand, PolybenchLauncher cublas, Systems &s) {
  s.packed = pack(in, dev.data);
  s.args = {dev.data.data(), in.shapes.data(), in.scalars.data()};
  s.list.push_back(threadbindSystem(in, s.packed));
  s.list.push_back(threadbindStreamSystem(in, s.packed, stream));
  s.list.push_back(launcherSystem("hand", hand, stream, s.args));
  if (cublas)
    s.list.push_back(launcherSystem("cublas", cublas, stream, s.args));
}

/// The check sizes: every side against the CPU reference. Returns the
/// failures; `passed` tells which systems may be timed.
int checkAgainstReference(Inputs &in, bool cpuOnly, cudaStream_t stream,
                          PolybenchLauncher hand, PolybenchLauncher cublas,
                          std::map<std::string, bool> &passed) {
  double ms = 0;
  std::vector<HostMemRef> ref = runReference(in, ms);
  bool finite = true;
  for (int i = 0; i < in.count(); ++i)
    if (in.written(i)) {
      const float *v = reinterpret_cast<const float *>(ref[i].data.data());
      for (size_t e = 0, n = ref[i].elements(); e < n; ++e)
        finite &= std::isfinite(v[e]) != 0;
    }
  std::printf("CHECK bench=%s size=%s dims=%s system=reference status=%s "
              "ms=%.3f\n",
              in.bench.name.c_str(), in.sizeName.c_str(), in.sizeText.c_str(),
              finite ? "ok" : "NONFINITE", ms);
  std::fflush(stdout);
  int failures = !finite;
  if (cpuOnly)
    return failures;
  Device dev(in);
  if (!dev.allocate()) {
    std::printf("ERROR bench=%s: device allocation: %s\n",
                in.bench.name.c_str(), threadbind_last_error());
    return failures + 1;
  }
  Systems systems;
  makeSystems(in, dev, stream, hand, cublas, systems);
  for (const System &s : systems.list) {
    std::vector<HostMemRef> got;
    bool ok =
        runOnce(dev, s, got) &&
        reportAgreement(in, s.name, "reference", got, ref, kCheckTolerance);
    if (got.empty())
      std::printf("CHECK bench=%s size=%s dims=%s system=%s "
                  "against=reference status=FAILED\n",
                  in.bench.name.c_str(), in.sizeName.c_str(),
                  in.sizeText.c_str(), s.name.c_str());
    passed[s.name] = ok;
    failures += !ok;
  }
  return failures;
}

/// The standard sizes: ThreadBind (and cuBLAS) against the twin, then every
/// side timed. Returns the failures.
int benchStandard(Inputs &in, const Options &o, cudaStream_t stream,
                  PolybenchLauncher hand, PolybenchLauncher cublas,
                  const std::map<std::string, bool> &passed) {
  Device dev(in);
  if (!dev.allocate()) {
    std::printf("ERROR bench=%s: device allocation: %s\n",
                in.bench.name.c_str(), threadbind_last_error());
    return 1;
  }
  Systems systems;
  makeSystems(in, dev, stream, hand, cublas, systems);
  int failures = 0;
  std::map<std::string, std::vector<HostMemRef>> outputs;
  std::map<std::string, bool> agrees;
  for (const System &s : systems.list)
    if (passed.at(s.name) && !runOnce(dev, s, outputs[s.name])) {
      outputs.erase(s.name);
      ++failures;
    }
  // The twin is the yardstick here: the CPU reference would take minutes.
  // A side that failed to run was counted already.
  agrees["hand"] = outputs.count("hand") != 0;
  for (const System &s : systems.list) {
    if (s.name == "hand")
      continue;
    agrees[s.name] = false;
    if (!outputs.count(s.name) || !outputs.count("hand"))
      continue;
    agrees[s.name] = reportAgreement(in, s.name, "hand", outputs[s.name],
                                     outputs["hand"], in.bench.tolerance);
    failures += !agrees[s.name];
  }
  for (const System &s : systems.list) {
    if (!outputs.count(s.name)) {
      printResult(in, s.name, false, {}, "");
      continue;
    }
    double hostMs = 0;
    TimeSummary t = timeCalls(dev, s, o, &hostMs);
    char text[128];
    std::snprintf(text, sizeof text, " host_ms=%.6f", hostMs);
    std::string extra = text;
    if (s.name == "threadbind-stream") {
      // Timed like the launchers; the plain call is the waited one.
    } else if (s.name != "threadbind") {
      // The bundle's call returns with its work done; the launchers return
      // once it is queued. Timed also as the bundle is: ending in a wait.
      System waited = {s.name, [&s, stream]() {
                         bool ok = s.call();
                         return cudaStreamSynchronize(stream) == cudaSuccess &&
                                ok;
                       }};
      TimeSummary w = timeCalls(dev, waited, o);
      std::snprintf(text, sizeof text, " waited_ms=%.6f", w.median);
      extra += text;
    } else {
      int64_t launches = 0;
      TimeSummary k = timeKernelsOnly(dev, s, o, launches);
      std::snprintf(text, sizeof text, " kernel_ms=%.6f launches=%lld",
                    k.median, (long long)launches);
      extra += text;
    }
    bool clean = finishedCleanly(s);
    failures += !clean;
    printResult(in, s.name, agrees[s.name] && clean, t, extra);
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    std::fprintf(stderr, "usage: polybench-bench SPEC --stage DIR [--runs N] "
                         "[--warmup N] [--only NAME,...] [--cpu-only]\n");
    return 2;
  }
  std::vector<Benchmark> benchmarks;
  if (!parseSpec(o.spec, benchmarks))
    return 2;

  preloadRuntime();
  cudaStream_t stream = nullptr;
  if (!o.cpuOnly) {
    if (threadbind_init() != THREADBIND_OK) {
      std::fprintf(stderr, "polybench-bench: no CUDA device (%s)\n",
                   threadbind_last_error());
      return 3;
    }
    ThreadBindDeviceInfo device;
    threadbind_device_info(&device);
    std::printf("DEVICE name=\"%s\" sm=%d%d sms=%d l2_bytes=%d\n", device.name,
                device.ccMajor, device.ccMinor, device.multiprocessors,
                device.l2CacheBytes);
    // A blocking stream: the events on the legacy stream bracket its work.
    if (cudaStreamCreate(&stream) != cudaSuccess) {
      std::fprintf(stderr, "polybench-bench: cannot make a stream\n");
      return 3;
    }
  }

  int failures = 0;
  for (const Benchmark &b : benchmarks) {
    if (!o.only.empty() &&
        ("," + o.only + ",").find("," + b.name + ",") == std::string::npos)
      continue;
    std::string stem = b.flags.empty() ? b.file.substr(0, b.file.rfind('.'))
                                       : b.name;
    const ThreadBindEntry *entry =
        findEntry(o.stage + "/" + stem + ".so", b.entry);
    PolybenchLauncher hand = polybenchLauncher(b.hand.c_str());
    PolybenchLauncher cublas =
        b.cublas.empty() ? nullptr : polybenchLauncher(b.cublas.c_str());
    if (!entry || !entry->reference || !matchesEntry(b, *entry) || !hand ||
        (!b.cublas.empty() && !cublas)) {
      std::printf("ERROR bench=%s: cannot set up (entry, reference, "
                  "arguments or launcher)\n",
                  b.name.c_str());
      ++failures;
      continue;
    }
    std::map<std::string, bool> passed;
    {
      Inputs check(b, *entry);
      if (!makeInputs(check, "check", b.check)) {
        ++failures;
        continue;
      }
      failures +=
          checkAgainstReference(check, o.cpuOnly, stream, hand, cublas, passed);
    }
    if (o.cpuOnly)
      continue;
    Inputs standard(b, *entry);
    if (!makeInputs(standard, "std", b.standard)) {
      ++failures;
      continue;
    }
    failures += benchStandard(standard, o, stream, hand, cublas, passed);
  }
  std::printf("DONE failures=%d\n", failures);
  return failures ? 1 : 0;
}
