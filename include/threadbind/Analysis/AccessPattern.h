//===- AccessPattern.h - Which loop walks memory contiguously ---*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Coalescing on a GPU depends on which loop dimension consecutive threads
// (threadIdx.x) walk: when that dimension moves along a memref's unit-stride
// dimension, a warp's accesses fall into a few 128-byte lines. This analysis
// looks at the loads and stores in a parallel loop body and, for every loop
// dimension, adds up the bytes it moves with unit stride.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_ANALYSIS_ACCESSPATTERN_H
#define THREADBIND_ANALYSIS_ACCESSPATTERN_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir {
class MemRefType;
namespace scf {
class ParallelOp;
} // namespace scf
} // namespace mlir

namespace mlir::threadbind {

/// Computes how an index value changes when one induction variable changes:
/// the constant `c` such that `index = c * iv + (terms independent of iv)`.
/// Follows arith add/sub/mul-by-constant, casts and affine.apply. Returns
/// std::nullopt when the dependence is not affine with a constant
/// coefficient (for example `iv * iv` or `iv floordiv 4`).
class IndexCoefficients {
public:
  explicit IndexCoefficients(Value iv) : iv(iv) {}

  std::optional<int64_t> get(Value index);

private:
  std::optional<int64_t> compute(Value index, unsigned depth);

  Value iv;
  llvm::DenseMap<Value, std::optional<int64_t>> cache;
};

/// Returns the dimension of `type` whose stride is statically 1 (the last
/// such dimension if several are), or std::nullopt if there is none or the
/// layout is not strided.
std::optional<unsigned> getUnitStrideDim(MemRefType type);

/// What the accesses in a parallel loop body say about one loop dimension.
struct DimAccessSummary {
  /// Bytes per iteration moved by accesses for which this dimension walks
  /// the unit-stride memref dimension with stride one element.
  int64_t contiguousBytes = 0;
  /// Number of such accesses.
  unsigned contiguousAccesses = 0;
  /// Accesses whose unit-stride index depends on this dimension with another
  /// stride, or non-affinely: consecutive iterations do not coalesce.
  unsigned stridedAccesses = 0;
  /// Accesses whose address depends on this dimension through any index
  /// (the contiguous and strided ones, and those walking an outer
  /// dimension).
  unsigned movingAccesses = 0;
};

/// The result of analysing a parallel loop's memory accesses.
struct LoopAccessPattern {
  /// One entry per loop dimension.
  SmallVector<DimAccessSummary> dims;
  /// Number of memory accesses found in the body (nested regions included).
  unsigned numAccesses = 0;
  /// Accesses the analysis could not classify (unknown layout, non-memref).
  unsigned numUnanalysed = 0;
};

/// Analyses the loads and stores (memref, affine and vector) in the body of
/// `loop`, including nested regions.
LoopAccessPattern analyzeAccessPattern(scf::ParallelOp loop);

/// The loop dimensions in the order they should be bound to x, y, z, and
/// the rule that put the first one first.
struct DimRanking {
  SmallVector<unsigned> order;
  /// Why order[0] goes to x rather than the runner-up, as the end of a
  /// sentence ("it walks ..."), for remarks.
  std::string reason;
};

/// Orders the loop dimensions for binding to x, y, z. The keys, in turn:
/// most bytes moved contiguously; then a dimension with enough iterations
/// to fill a warp (a dynamic count counts as enough; `trips` holds the
/// static counts, one per dimension, where known) before one without;
/// then the fewest strided accesses; then the innermost (highest-numbered)
/// dimension.
DimRanking rankDimsForCoalescing(const LoopAccessPattern &pattern,
                                 ArrayRef<std::optional<int64_t>> trips);

} // namespace mlir::threadbind

#endif // THREADBIND_ANALYSIS_ACCESSPATTERN_H
