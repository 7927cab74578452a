//===- Reductions.h - Pieces of the reduction mapping -----------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The parts threadbind-map-reductions is made of, private to lib/Transforms:
//   - ReductionCombiners.cpp: which combiners a reduction has, their
//     identities and hardware atomics, and partial results;
//   - ReductionFolds.cpp: a thread's share of the iterations folded into
//     registers (scalar or vector loads), a block's threads combined;
//   - FullReductions.cpp: a 1-D reduction as a partial and a final kernel;
//   - RowReductions.cpp: a loop of 1-D reductions, one block (or warp) a
//     row;
//   - ColumnReductions.cpp: a loop of 1-D reductions along columns, each
//     split over a block's rows of threads;
//   - MapReductions.cpp: the pass, which finds both kinds and maps them.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_LIB_TRANSFORMS_REDUCTIONS_H
#define THREADBIND_LIB_TRANSFORMS_REDUCTIONS_H

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::threadbind::reductions {

//===----------------------------------------------------------------------===//
// Combiners (ReductionCombiners.cpp)
//===----------------------------------------------------------------------===//

/// One reduced value: how its combiner folds and where the result goes.
struct Reduction {
  /// The scf.reduce region's block: two arguments, pure ops, the return.
  Block *combiner;
  /// The all-reduce operation the combiner is, where it is a single named
  /// op of its two arguments.
  std::optional<gpu::AllReduceOperation> kind;
  /// The value that leaves any operand unchanged, known for named
  /// combiners only. Without it every partial result carries a flag saying
  /// whether it holds anything yet.
  TypedAttr identity;

  Type getType() const { return combiner->getArgument(0).getType(); }
};

/// A partial result of one reduction: a value and, for a combiner without
/// an identity, an i1 that is false while the value holds nothing (null
/// for a combiner with one).
struct Partial {
  Value value;
  Value valid;
};

/// Checks that `loop` is a reduction this pass maps and describes each of
/// its results; what is done with them is collectEpilogue's. Errors at the
/// offending op otherwise; never changes the IR.
FailureOr<SmallVector<Reduction>> analyzeReduction(scf::ParallelOp loop);

/// The one op of the combiner block `body` when it applies to the block's
/// two arguments (in either order) and is yielded; null otherwise (a
/// region of several ops, an op that takes other values).
Operation *getArgumentCombiner(Block &body);

/// What the host does with `loop`'s results, which the reduction's last
/// kernel does instead: the pure ops computed from them (with values
/// defined before the loop, or constants) and the memref.stores of those
/// or of the results, after the loop in its block, in program order; no
/// other op between the loop and the last of them touches memory. Fails,
/// with an error at the offending use when `report`, on any other use.
/// Uses inside `skip` (an op after the loop that its caller handles) are
/// left out.
LogicalResult collectEpilogue(scf::ParallelOp loop,
                              SmallVectorImpl<Operation *> &epilogue,
                              bool report, Operation *skip = nullptr);

/// Clones `loop`'s `epilogue` at `builder`'s insertion point through
/// `mapping`, which maps the loop's results to the values that replace
/// them; the constants it uses from after the loop are made again.
void replayEpilogue(OpBuilder &builder, scf::ParallelOp loop,
                    ArrayRef<Operation *> epilogue, IRMapping &mapping);

/// `lhs` combined with `rhs` by a copy of `reduction`'s combiner.
Value combine(OpBuilder &builder, const Reduction &reduction, Value lhs,
              Value rhs);

/// `lhs` and `rhs` combined; where one holds nothing, the other.
Partial merge(OpBuilder &builder, Location loc, const Reduction &reduction,
              Partial lhs, Partial rhs);

/// A partial result that holds nothing: the identity, or any value flagged
/// empty.
Partial createEmpty(OpBuilder &builder, Location loc,
                    const Reduction &reduction);

/// A partial result that holds `value`.
Partial createFull(OpBuilder &builder, Location loc, const Reduction &reduction,
                   Value value);

/// The values of `partials`, each followed by its flag where it has one.
SmallVector<Value> flatten(ArrayRef<Partial> partials);

/// The inverse of flatten for `groups` partials a reduction, reduction by
/// reduction.
SmallVector<Partial> unflatten(ArrayRef<Reduction> reductions,
                               ValueRange values, unsigned groups = 1);

/// The init value combined with `total`, the loop's result: the init value
/// joins exactly once, and alone where the loop folded nothing.
Value combineInit(OpBuilder &builder, Location loc, const Reduction &reduction,
                  Value init, Partial total);

/// The hardware atomic that combines `reduction`'s values in memory, where
/// the chip has one: integer add, and, or, xor, min and max, f32 and f64
/// add.
std::optional<arith::AtomicRMWKind>
getHardwareAtomic(const Reduction &reduction);

/// A one-element device accumulator for `reduction` holding its identity,
/// from `allocate`.
Value createAtomicAccumulator(
    RewriterBase &rewriter, Location loc, const Reduction &reduction,
    function_ref<Value(MemRefType, ValueRange)> allocate);

//===----------------------------------------------------------------------===//
// Folding a thread's share and a block's threads (ReductionFolds.cpp)
//===----------------------------------------------------------------------===//

/// The elements a thread folds per main-loop iteration: `requested` (the
/// unroll option) when positive, else enough to keep 8 loads in flight, at
/// least 1.
int64_t chooseUnroll(scf::ParallelOp loop, int64_t requested);

/// A 1-D launch of `grid` blocks of `threads` threads, the insertion point
/// in its body.
gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc, Value grid,
                           Value threads);

/// The share of lane `lane` of the `lanes` threads that split `loop`'s
/// iterations (lane, lane + lanes, ... counted in steps from the lower
/// bound), folded `unroll` elements an iteration: through vector loads of
/// up to `vectorBytes` where the loop and its memory allow, else scalar.
/// The body is cloned with `mapping` for the values it uses from around it.
SmallVector<Partial> foldShare(RewriterBase &rewriter, Location loc,
                               scf::ParallelOp loop,
                               ArrayRef<Reduction> reductions, Value lane,
                               Value lanes, int64_t unroll, int64_t vectorBytes,
                               const IRMapping &mapping);

/// Combines each of `accs` across the block; every thread gets the
/// block-wide partial results.
SmallVector<Partial> reduceBlock(RewriterBase &rewriter, Location loc,
                                 ArrayRef<Reduction> reductions,
                                 ArrayRef<Partial> accs);

/// Combines each of `accs` across the block of `launch`, then opens an
/// `scf.if` on thread 0 and leaves the insertion point in it. Returns the
/// block-wide partial results.
SmallVector<Partial> reduceBlockForLeader(RewriterBase &rewriter, Location loc,
                                          gpu::LaunchOp launch,
                                          ArrayRef<Reduction> reductions,
                                          ArrayRef<Partial> accs);

//===----------------------------------------------------------------------===//
// The two mappings (FullReductions.cpp, RowReductions.cpp)
//===----------------------------------------------------------------------===//

/// Replaces the 1-D reduction `loop`, whose results `reductions` describe,
/// by a kernel that folds each block's share and a one-block kernel that
/// combines the blocks, as `options` say.
void mapFullReduction(RewriterBase &rewriter, scf::ParallelOp loop,
                      MutableArrayRef<Reduction> reductions,
                      ArrayRef<Operation *> epilogue,
                      const MapReductionsPassOptions &options);

/// A parallel loop each of whose iterations reduces a row: its body is pure
/// operations, then one 1-D reduction loop, then the stores of its results.
struct RowReduction {
  scf::ParallelOp outer;
  scf::ParallelOp inner;
  SmallVector<Reduction> reductions;
  /// The inner loop's epilogue, in the outer loop's body.
  SmallVector<Operation *> epilogue;
};

/// The longest row a warp reduces alone: with 8 elements a lane an
/// iteration, two iterations; longer rows give a block's threads enough
/// to do.
constexpr int64_t kMaxWarpRow = 512;

/// The row reduction `outer` is, if it is one: nullopt for a loop that is
/// not; failure, with an error, for a row whose reduction cannot be mapped.
FailureOr<std::optional<RowReduction>> matchRowReduction(scf::ParallelOp outer);

/// Whether `outer`, of any number of dimensions, holds one reduction a
/// row in the shape matchRowReduction takes once its dimensions are one.
bool hasRowReductionShape(scf::ParallelOp outer);

/// Rewrites `loop`, a reduction over several dimensions, into a 1-D one
/// over its iterations numbered in row-major order (the last dimension
/// varying fastest), the induction variables recomputed from that number
/// in the body. Replaces `loop` and returns the new loop.
scf::ParallelOp linearizeReduction(RewriterBase &rewriter, scf::ParallelOp loop);

/// Replaces `row.outer` by one block (or warp) a row, as `options` say.
void mapRowReduction(RewriterBase &rewriter, RowReduction &row,
                     const MapReductionsPassOptions &options);

/// The reduction loop of `outer`, of any number of dimensions, if its body
/// is pure operations and loads, one reduction loop, and pure operations
/// and the stores of what is computed from the reduction (which `epilogue`
/// gets); null otherwise. Where `update` is given, the body may end in an
/// scf.parallel without reductions after the reduction loop, which is left
/// to the caller and returned there (null if there is none).
scf::ParallelOp findReductionShape(scf::ParallelOp outer,
                                   SmallVectorImpl<Operation *> &epilogue,
                                   scf::ParallelOp *update = nullptr);

/// How the loads in `inner`'s body fall across a warp whose threads walk
/// `iv`: those that do not move with `iv` are broadcasts and not counted.
struct LoadsAlong {
  /// Bytes of the int or float loads that move along their memref's
  /// unit-stride dimension other than one element a thread (strided).
  int64_t stridedBytes = 0;
  /// Loads that move one element a thread along it (coalesced).
  unsigned contiguous = 0;
  /// Loads that move otherwise but are not counted in `stridedBytes`: of
  /// a layout without a unit stride, or of another element type.
  unsigned unclassified = 0;
};
LoadsAlong summarizeLoadsAlong(scf::ParallelOp inner, Value iv);

/// Whether the loads of `inner`, the reduction loop of `outer`, coalesce
/// better with a thread an iteration of `outer` than with the threads of a
/// block sharing `inner` (a column sum rather than a row sum).
bool walksAcrossRows(scf::ParallelOp outer, scf::ParallelOp inner);

/// A 1-D parallel loop each of whose iterations reduces a column: the shape
/// of a RowReduction, but with loads that walk memory along the outer loop.
struct ColumnReduction {
  scf::ParallelOp outer;
  scf::ParallelOp inner;
  SmallVector<Reduction> reductions;
  SmallVector<Operation *> epilogue;
  /// A 1-D parallel loop after the reduction, the last op of the output's
  /// body (Gram-Schmidt's a[i][j] -= q[i] * r over i): the block's rows of
  /// threads share it too. Null if there is none.
  scf::ParallelOp update;
  /// The ops before the reduction that `update` uses, all pure, in order:
  /// every thread makes them again.
  SmallVector<Operation *> updatePrologue;
  /// Whether neighbouring outputs read their rows side by side (a column
  /// sum's `A[i][j]` over `j`), so a warp's loads coalesce; not where a
  /// row's start hangs on data (a sparse row from `ptr[j]`). For remarks.
  bool readsAcrossOutputs = false;
};

/// The column reduction `outer` is, if it is one that blocks of
/// `threadsPerBlock` threads can split; nullopt otherwise (the loop mapping
/// then takes it, a thread an output). Reports nothing.
FailureOr<std::optional<ColumnReduction>>
matchColumnReduction(scf::ParallelOp outer, int64_t threadsPerBlock);

/// Replaces `col.outer` by a choice the host makes at run time: with fewer
/// outputs than the device holds threads, blocks of 32 outputs whose rows
/// of threads split each reduction and combine through workgroup memory
/// (and share the loop after it, if any); otherwise the loop as it was,
/// which the loop mapping takes.
void mapColumnReduction(RewriterBase &rewriter, ColumnReduction &col,
                        const MapReductionsPassOptions &options);

/// A parallel loop whose iterations each run a program of phases over a
/// row: reductions (1-D scf.parallel with results), loops of independent
/// iterations (scf.parallel without), code every thread can run (pure, or
/// only reading memory), and code that writes memory otherwise (stores of
/// the reduced values, say).
struct BlockRows {
  scf::ParallelOp outer;
  /// The reductions of each nested reduction loop, in program order.
  SmallVector<std::pair<scf::ParallelOp, SmallVector<Reduction>>> reductions;
};

/// The block-per-row program `outer` is, if it is one that a thread a row
/// or matchRowReduction would serve worse: nullopt for a loop that is not;
/// failure, with an error, for a nested reduction that cannot be mapped.
FailureOr<std::optional<BlockRows>> matchBlockRows(scf::ParallelOp outer);

/// Replaces `rows.outer` by one block an iteration: the block's threads
/// share each nested loop, combine each reduction across the block (every
/// thread gets the result), run the code between on every thread, or on
/// thread 0 where it writes memory, with a barrier between phases that
/// share memory.
void mapBlockRows(RewriterBase &rewriter, BlockRows &rows,
                  const MapReductionsPassOptions &options);

} // namespace mlir::threadbind::reductions

#endif // THREADBIND_LIB_TRANSFORMS_REDUCTIONS_H
