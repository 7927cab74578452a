//===- HostData.h - Typed host buffers for runners and benchmarks -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// What threadbind-run and the benchmark harness share: reading and writing
// elements of every bundle element type, the seeded input generator, memref
// descriptors, the comparison with a CPU reference, and loading a bundle.
// Like the runtime, it uses nothing from LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_RUNTIME_HOSTDATA_H
#define THREADBIND_RUNTIME_HOSTDATA_H

#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace threadbind {

/// Bytes of one element of a ThreadBindElementType.
size_t elementBytes(int type);
/// "f32", "index", ...
const char *elementName(int type);
/// f16, bf16, f32 and f64.
bool isFloat(int type);

/// Element `i` of a buffer of `type`, as a double.
double load(const char *data, int type, size_t i);
/// Element `i` of a buffer of integer `type`, exactly.
int64_t loadInteger(const char *data, int type, size_t i);
/// Stores `value` (rounded to nearest for narrow floats) as element `i`.
void store(char *data, int type, size_t i, double value);

/// splitmix64: small, good and reproducible across machines.
struct Random {
  uint64_t state;
  uint64_t next();
  /// Uniform in [-1, 1).
  double symmetric();
  /// Uniform in [lo, hi].
  int64_t integer(int64_t lo, int64_t hi);
};

/// The bytes of a buffer of `shape` with elements of `type`, or false when
/// that number does not fit in size_t.
bool bufferBytes(const std::vector<int64_t> &shape, int type, size_t &bytes);

/// Parses `text` as a value of scalar type `type` into `bytes`: an integer
/// that fits the type (index and the integer types are signed), or a
/// float. Returns an error message, or an empty string.
std::string parseScalar(const std::string &text, int type, char bytes[8]);

/// A memref argument's host data: the storage a view of `shape` lies in.
/// Row-major and exactly the view when `strides` is empty; otherwise
/// element i of the view is at storage element offset + sum(i_k*strides_k).
struct HostMemRef {
  int elementType = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::vector<char> data;

  /// The elements of the view.
  size_t elements() const;
  /// The storage element of the view's element `flat` (row-major).
  size_t position(size_t flat) const;
  size_t bytes() const { return data.size(); }
  /// Sizes the storage for the view.
  void allocate();
  /// Floats uniform in [-1, 1), integers in [-100, 100], in all the
  /// storage (the view and the gaps around it).
  void fillRandom(Random &random);
  /// Lays the data out with `newStrides` and `newOffset`: the view keeps
  /// its values, the new storage's gaps get random ones.
  void restride(std::vector<int64_t> newStrides, int64_t newOffset,
                Random &random);
};

/// The storage elements a view of `shape` with `strides` (non-negative)
/// and `offset` spans, or false when that does not fit in size_t.
bool storageElements(const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &strides, int64_t offset,
                     size_t &elements);

/// Whether two elements of a view of `shape` with non-negative `strides`
/// may share a storage element.
bool viewOverlaps(const std::vector<int64_t> &shape,
                  const std::vector<int64_t> &strides);

/// Reads a NumPy .npy file (C order, little endian) into `memref`, whose
/// elementType is set; its shape becomes the file's. Returns an error
/// message naming what does not fit, or an empty string.
std::string readNpy(const std::string &path, HostMemRef &memref);

/// The device allocation `memref` needs as argument `info`: its bytes, or,
/// for an argument padded to a multiple (ThreadBindArgument::paddedTo), the
/// bytes of its size rounded up to that multiple.
size_t deviceBytes(const HostMemRef &memref, const ThreadBindArgument &info);

/// Allocates `memref`'s device buffer as deviceBytes says, copies its data
/// in and zeroes any padding. Returns the runtime's status (0 on success).
int allocateOnDevice(void **devicePtr, const HostMemRef &memref,
                     const ThreadBindArgument &info);

/// The words of a ThreadBindMemRef for `memref`'s view with its storage
/// at `data`.
std::vector<int64_t> makeDescriptor(void *data, const HostMemRef &memref);

/// The default tolerance for `type`: 1e-5 relative for f32, 1e-12 for f64,
/// 1e-2 for f16 and bf16, exact for integers.
double defaultTolerance(int type);

/// The outcome of comparing a result with its reference.
struct Comparison {
  size_t mismatches = 0;
  double worstRelative = 0;
  /// The first few differing elements, as "[i, j]: got X, expected Y".
  std::vector<std::string> examples;
};

/// Compares `got` with `expected` elementwise: exactly for integers, within
/// |got - expected| <= atol + rtol * |expected| for floats. Storage outside
/// a strided view must match bit for bit: nothing may write there.
Comparison compare(const HostMemRef &got, const HostMemRef &expected,
                   double rtol, double atol, size_t maxExamples = 10);

/// "1000x777".
std::string shapeString(const std::vector<int64_t> &shape);
/// "[3, 7]" for flat index `flat` of `shape`.
std::string indexString(size_t flat, const std::vector<int64_t> &shape);

/// Runs `call` (one call of a bundle entry) and returns the kernel time of
/// the launches it made, in milliseconds, from the runtime's launch records.
/// Launch timing must be on (threadbind_set_launch_timing).
template <typename Call>
double timeKernels(Call call);

/// Loads the libThreadBindRuntime.so beside this executable (in ../lib)
/// with global symbols, so bundles find it wherever the build was copied.
void preloadRuntime();

/// The first of `entry`'s size requirements that a call with memref
/// arguments of `shapes` and integer scalars of `scalars` (both indexed by
/// argument; unused slots ignored) breaks, as a message; an empty string
/// when the call keeps them all.
std::string checkRequirements(const ThreadBindEntry &entry,
                              const std::vector<std::vector<int64_t>> &shapes,
                              const std::vector<int64_t> &scalars);

/// Whether `path` is a whole ELF shared object: every segment and section
/// header the file names lies inside it (dlopen maps a truncated file and
/// dies of SIGBUS). Returns an error message, or an empty string.
std::string checkSharedObject(const std::string &path);

/// Loads a bundle and returns its entries, or null with `error` set.
const ThreadBindEntry *loadBundle(const std::string &path, int32_t &count,
                                  std::string &error);

/// Loads the bundle at `path` and finds its entry `name`; null, with
/// `error` saying why, where either fails.
const ThreadBindEntry *findBundleEntry(const std::string &path,
                                       const std::string &name,
                                       std::string &error);

/// The median, least and greatest of a set of timings, in milliseconds.
struct TimeSummary {
  double median = 0, min = 0, max = 0;
};

/// Summarises `times`, which must not be empty.
TimeSummary summarizeTimes(std::vector<double> times);

/// The kernel time of launch records [first, end), in milliseconds.
double sumLaunchMilliseconds(int64_t first);

template <typename Call>
double timeKernels(Call call) {
  int64_t first = threadbind_launch_count();
  call();
  return sumLaunchMilliseconds(first);
}

} // namespace threadbind

#endif // THREADBIND_RUNTIME_HOSTDATA_H
