//===- PassEnums.h - The choices ThreadBind's passes take -------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The enums and defaults of pass options, apart from any pass, so that the
// generated pass declarations (Passes.h), the pipeline options
// (Pipelines/Options.h) and the marks (Attributes.h) share them without
// including each other.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_PASSENUMS_H
#define THREADBIND_TRANSFORMS_PASSENUMS_H

#include "threadbind/Target/ObjectFormat.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::threadbind {

/// Threads a block when neither a count nor a shape is given.
inline constexpr int64_t kDefaultThreadsPerBlock = 256;
/// Bytes of the widest vector access a thread makes (an LDG.128).
inline constexpr unsigned kDefaultVectorBytes = 16;

/// How threadbind-remove-tail-checks treats a bounds check it cannot prove
/// dead.
enum class TailStrategy {
  /// Full blocks run a copy of the body without the check; only the last,
  /// partial block keeps it.
  Split,
  /// Threads past the extent run on the padding of the memrefs they touch,
  /// so the check goes; where padding is not possible, as Keep.
  Pad,
  /// The check stays.
  Keep,
};

/// How a bound loop covers its iteration space.
enum class GridPolicy {
  /// Every thread loops with stride gridDim * blockDim, so a grid sized for
  /// occupancy covers any extent.
  GridStride,
  /// One guarded iteration per thread along x, with a ceil-div grid; y and z
  /// still loop so extents beyond the 65535-block limit stay correct.
  Cover,
};

/// "grid-stride" or "cover", as options and the manifest spell them.
StringRef stringifyGridPolicy(GridPolicy policy);
std::optional<GridPolicy> symbolizeGridPolicy(StringRef name);

/// How threadbind-map-reductions combines the blocks of a full reduction.
enum class CrossBlockCombine {
  /// Each block stores its result; a second one-block kernel folds them in
  /// block order, so results are the same from run to run.
  SecondKernel,
  /// Where the combiner has a hardware atomic (integer add, and, or, xor,
  /// min and max; f32 and f64 add), each block combines its result into one
  /// accumulator atomically. Floating-point sums then depend on the order
  /// the blocks finish in.
  Atomic,
};

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_PASSENUMS_H
