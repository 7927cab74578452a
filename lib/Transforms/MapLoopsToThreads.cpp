//===- MapLoopsToThreads.cpp - Bind parallel loops to the GPU -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Turns outermost scf.parallel loops into gpu.launch ops whose threads run
// strip-mined, grid-stride loops, with the loop dimension that walks memory
// contiguously bound to threadIdx.x.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

#define DEBUG_TYPE "threadbind-map-loops-to-threads"

namespace mlir::threadbind {
#define GEN_PASS_DEF_MAPLOOPSTOTHREADSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

std::string
threadbind::verifyLoopMappingOptions(const LoopMappingOptions &options) {
  if (!options.blockShape.empty()) {
    if (options.blockShape.size() > 3)
      return "block-shape has more than three dimensions";
    int64_t total = 1;
    for (auto [i, size] : llvm::enumerate(options.blockShape)) {
      if (size < 1 || size > GpuLimits::kMaxBlockDim[i])
        return llvm::formatv("block-shape[{0}] = {1} is outside [1, {2}]", i,
                             size, GpuLimits::kMaxBlockDim[i]);
      total *= size;
    }
    if (total > GpuLimits::kMaxThreadsPerBlock)
      return llvm::formatv("block-shape has {0} threads, more than {1}",
                           total, GpuLimits::kMaxThreadsPerBlock);
  } else if (options.threadsPerBlock < 1 ||
             options.threadsPerBlock > GpuLimits::kMaxThreadsPerBlock) {
    return llvm::formatv("threads-per-block = {0} is outside [1, {1}]",
                         options.threadsPerBlock,
                         GpuLimits::kMaxThreadsPerBlock);
  }
  if (options.maxBlocks < 0)
    return llvm::formatv("max-blocks = {0} is negative", options.maxBlocks);
  for (int64_t d : options.dimOrder)
    if (d < 0)
      return llvm::formatv("dim-order has a negative dimension {0}", d);
  if (options.vectorBytes != 0 && !isSupportedVectorBytes(options.vectorBytes))
    return llvm::formatv("vector-bytes = {0} is not 0, 4, 8 or 16",
                         options.vectorBytes);
  return "";
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

std::optional<int64_t> threadbind::getStaticTripCount(scf::ParallelOp loop,
                                                   unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  uint64_t span = static_cast<uint64_t>(*ub) - static_cast<uint64_t>(*lb);
  uint64_t trips = (span - 1) / static_cast<uint64_t>(*step) + 1;
  if (trips > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return static_cast<int64_t>(trips);
}

/// A nest of three or more block dimensions whose body reads at most this
/// many elements an iteration gets flat 64x4x1 blocks, one reading more
/// 32x4x2 (both scaled for other totals). Measured on an H200
/// (bench/results/2026-11-28-block-shape-3d-again-h200.md), 256^3 and
/// 192^3: 64x4x1 took conv3d (11 loads) 13-18% faster, heat-3d (7) 0-8%,
/// grad3d 0-5%, while a 27-point box filter ran 12-24% slower, written
/// with loops or in a straight line alike: blocks over two planes keep
/// more of a dense neighbourhood in L1.
static constexpr int64_t kFlatBlockMaxLoads = 16;

/// The elements `loop`'s body reads an iteration: its loads, those in
/// nested loops (scf.for, or scf.parallel) times their static trip counts;
/// none where a nested loop's trip count is not static, or past `limit`
/// (counting stops there).
static std::optional<int64_t> countLoadsPerIteration(scf::ParallelOp loop,
                                                     int64_t limit) {
  // An inner loop's static trip count, capped past `limit`: a sequential
  // one, or a parallel one (a reduction normalisation made of an scf.for);
  // one for any other op.
  auto tripOf = [&](Operation *op) -> std::optional<int64_t> {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trip = forOp.getStaticTripCount();
      if (!trip)
        return std::nullopt;
      return trip->getLimitedValue(limit + 1);
    }
    int64_t product = 1;
    if (auto inner = dyn_cast<scf::ParallelOp>(op))
      for (unsigned d = 0, e = inner.getNumLoops(); d < e; ++d) {
        std::optional<int64_t> trip = getStaticTripCount(inner, d);
        if (!trip)
          return std::nullopt;
        product = std::min(product * std::min(*trip, limit + 1), limit + 1);
      }
    return product;
  };
  // A trip count that is not static counts as past the limit.
  int64_t loads = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp>(op))
      return WalkResult::advance();
    int64_t times = 1;
    for (Operation *parent = op->getParentOp(); parent != loop;
         parent = parent->getParentOp()) {
      std::optional<int64_t> trip = tripOf(parent);
      times = trip ? std::min(times * *trip, limit + 1) : limit + 1;
    }
    loads += times;
    return loads > limit ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (loads > limit)
    return std::nullopt;
  return loads;
}

/// The 256-style default: 256, 32x8, and 32x4x2 or, with `flat`, 64x4x1
/// (scaled for other totals).
static SmallVector<int64_t, 3>
defaultBlockShape(int64_t threads, unsigned numGroups, bool flat) {
  if (numGroups <= 1)
    return {threads, 1, 1};
  int64_t x = std::min(threads, GpuLimits::kWarpSize);
  int64_t rest = std::max<int64_t>(1, threads / x);
  if (numGroups == 2)
    return {x, rest, 1};
  if (flat) {
    // Two warps wide where that keeps every thread (96 threads: 32x3x1).
    int64_t wide = threads % (2 * x) == 0 ? 2 * x : x;
    return {wide, threads / wide, 1};
  }
  int64_t z = rest >= 4 ? 2 : 1;
  return {x, rest / z, z};
}

/// Shrinks block dimensions that exceed a small static extent and hands the
/// freed threads to dimensions that can use them, keeping x a multiple of
/// the warp size where the work allows.
static void fitBlockShapeToExtents(SmallVector<int64_t, 3> &shape,
                                   ArrayRef<std::optional<int64_t>> extents) {
  auto wants = [&](unsigned g) -> int64_t {
    // How many threads dimension g can use: its extent rounded up to a
    // power of two, or the hardware limit when the extent is dynamic.
    if (g >= extents.size())
      return 1;
    if (!extents[g])
      return GpuLimits::kMaxBlockDim[g];
    return std::min<int64_t>(GpuLimits::kMaxBlockDim[g],
                             llvm::PowerOf2Ceil(std::max<int64_t>(1,
                                                                  *extents[g])));
  };
  int64_t freed = 1;
  for (unsigned g = 0; g < 3; ++g) {
    while (shape[g] > 1 && shape[g] / 2 >= wants(g) && shape[g] % 2 == 0) {
      shape[g] /= 2;
      freed *= 2;
    }
  }
  for (unsigned g = 0; g < 3 && freed > 1; ++g) {
    while (freed > 1 && shape[g] * 2 <= wants(g)) {
      shape[g] *= 2;
      freed /= 2;
    }
  }
}

/// Returns the nested loop of `outer` if the nest should run one outer
/// iteration per block: the outer body holds exactly one scf.parallel,
/// without reductions, and nothing else but side-effect-free ops (which
/// every thread of the block can compute for itself).
static scf::ParallelOp getRowPerBlockInnerLoop(scf::ParallelOp outer) {
  scf::ParallelOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (auto nested = dyn_cast<scf::ParallelOp>(op)) {
      if (inner || !nested.getInitVals().empty())
        return nullptr;
      inner = nested;
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return nullptr;
  }
  return inner;
}

/// Blocks hardware dimension g of a cover grid needs for `plan`'s group g
/// of `loop`, where the trip counts are static.
static std::optional<int64_t> getStaticCoverBlocks(scf::ParallelOp loop,
                                                   const LoopMappingPlan &plan,
                                                   unsigned g) {
  std::optional<int64_t> iterations = 1;
  for (unsigned d : plan.groups[g]) {
    std::optional<int64_t> trips = getStaticTripCount(loop, d);
    if (!trips || !iterations)
      return std::nullopt;
    iterations = llvm::checkedMul(*iterations, *trips);
  }
  if (!iterations)
    return std::nullopt;
  return llvm::divideCeil(*iterations, plan.blockShape[g]);
}

/// A cover launch visits each x iteration (each outer iteration, for a nest
/// run one per block) from a thread of its own, and a grid has at most
/// kMaxGridDim[0] blocks along x: past that, iterations would silently not
/// run. Checked where the extent is static; a dynamic one must fit at run
/// time.
static LogicalResult verifyCoverGridFits(scf::ParallelOp outerLoop,
                                         const LoopMappingPlan &plan) {
  std::optional<int64_t> blocks;
  bool overflows = false;
  if (plan.innerLoop) {
    blocks = 1;
    for (unsigned d = 0; d < outerLoop.getNumLoops(); ++d) {
      std::optional<int64_t> trips = getStaticTripCount(outerLoop, d);
      if (!trips)
        return success();
      std::optional<int64_t> product = llvm::checkedMul(*blocks, *trips);
      // A product that overflows is certainly too large, unless a later
      // dimension is empty.
      overflows |= !product;
      blocks = product.value_or(std::numeric_limits<int64_t>::max());
      if (*trips == 0)
        return success();
    }
  } else {
    blocks = getStaticCoverBlocks(outerLoop, plan, 0);
  }
  if (!blocks || *blocks <= GpuLimits::kMaxGridDim[0])
    return success();
  InFlightDiagnostic diag = outerLoop.emitOpError("needs ");
  if (overflows)
    diag << "more than ";
  diag << *blocks << " blocks along x under grid-policy=cover ("
       << (plan.innerLoop ? "a block an outer iteration"
                          : "a thread an iteration, " +
                                std::to_string(plan.blockShape[0]) + " a block")
       << "), but a grid has at most " << GpuLimits::kMaxGridDim[0]
       << "; grid-policy=grid-stride loops over any extent";
  return diag;
}

/// The launches `loop`, planned as `plan`, becomes under `options`: a
/// cover launch of two or three groups needs a looping copy where the
/// sizes along y or z may pass the grid's limits.
static CoverCopies planCoverCopies(scf::ParallelOp loop,
                                   const LoopMappingPlan &plan,
                                   const LoopMappingOptions &options) {
  if (options.gridPolicy != GridPolicy::Cover || plan.innerLoop ||
      plan.groups.size() < 2)
    return CoverCopies::Single;
  bool allFit = true;
  for (unsigned g = 1; g < plan.groups.size(); ++g) {
    std::optional<int64_t> blocks = getStaticCoverBlocks(loop, plan, g);
    if (blocks && *blocks > GpuLimits::kMaxGridDim[g])
      return CoverCopies::Looping;
    allFit &= blocks.has_value();
  }
  return allFit ? CoverCopies::Single : CoverCopies::Both;
}

int64_t threadbind::getDimOrderRank(scf::ParallelOp outerLoop) {
  scf::ParallelOp inner = getRowPerBlockInnerLoop(outerLoop);
  scf::ParallelOp loop = inner ? inner : outerLoop;
  std::optional<WrittenDims> written = getWrittenDims(loop);
  return written ? written->rank : loop.getNumLoops();
}

/// The memref and indices of a memref.load or memref.store; none for other
/// ops.
static std::optional<std::pair<Value, ValueRange>>
getLoadOrStore(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return std::make_pair(load.getMemRef(), load.getIndices());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return std::make_pair(store.getMemRef(), store.getIndices());
  return std::nullopt;
}

/// The static iteration count of each of `plan`'s groups of `loop`; none
/// where a dimension's is dynamic (or the product overflows).
static SmallVector<std::optional<int64_t>, 3>
getGroupExtents(scf::ParallelOp loop, const LoopMappingPlan &plan) {
  SmallVector<std::optional<int64_t>, 3> extents;
  for (const auto &group : plan.groups) {
    std::optional<int64_t> extent = 1;
    for (unsigned d : group) {
      std::optional<int64_t> trips = getStaticTripCount(loop, d);
      extent =
          trips && extent ? llvm::checkedMul(*extent, *trips) : std::nullopt;
    }
    extents.push_back(extent);
  }
  return extents;
}

/// Threads along x of a 3-D stencil's cover launch (see
/// LoopMappingPlan::stencilCoverBlock).
static constexpr int64_t kStencilCoverBlockX = 16;

/// Whether `a` and `b` hold the same value: one SSA value, or results of
/// equal pure ops on the same values (a stencil's `i - 1` may be computed
/// again for each load until CSE runs).
static bool isSameValue(Value a, Value b, unsigned depth = 4) {
  if (a == b)
    return true;
  auto x = dyn_cast<OpResult>(a), y = dyn_cast<OpResult>(b);
  if (!depth || !x || !y || x.getResultNumber() != y.getResultNumber() ||
      !isPure(x.getOwner()) || !isPure(y.getOwner()))
    return false;
  return OperationEquivalence::isEquivalentTo(
      x.getOwner(), y.getOwner(),
      [&](Value l, Value r) { return success(isSameValue(l, r, depth - 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// The constant c where `index` is `iv + c`: `iv` itself, or an addi or
/// subi of it and a constant; nullopt otherwise.
static std::optional<int64_t> getOffsetFrom(Value index, Value iv) {
  if (index == iv)
    return 0;
  std::optional<std::pair<Value, int64_t>> split = splitConstantAddend(index);
  if (split && split->first == iv)
    return split->second;
  return std::nullopt;
}

/// Whether `loop`'s body reads one row of a memref at two offsets along
/// dimension `d` (a stencil's a[i][j - 1] and a[i][j + 1]): the loads
/// threadbind-widen-accesses takes from a row's vectors, in cover launches
/// only. Narrower than hasStencilAlong, which also counts stores and
/// places in different rows.
static bool readsShiftedRows(scf::ParallelOp loop, unsigned d) {
  Value iv = loop.getInductionVars()[d];
  struct RowRead {
    Value memref;
    ValueRange outer;
    int64_t offset;
  };
  SmallVector<RowRead> reads;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || load.getIndices().empty())
      continue;
    std::optional<int64_t> offset = getOffsetFrom(load.getIndices().back(), iv);
    if (!offset)
      continue;
    ValueRange outer = load.getIndices().drop_back();
    for (const RowRead &read : reads)
      if (read.memref == load.getMemRef() && read.offset != *offset &&
          llvm::all_of(llvm::zip_equal(read.outer, outer), [](auto pair) {
            return isSameValue(std::get<0>(pair), std::get<1>(pair));
          }))
        return true;
    reads.push_back({load.getMemRef(), outer, *offset});
  }
  return false;
}

/// How many elements of the widest type `loop` loads or stores a vector of
/// `vectorBytes` holds; 0 where one is not a type threadbind-widen-accesses
/// puts in vectors (isVectorElementType).
static int64_t getVectorWidth(scf::ParallelOp loop, unsigned vectorBytes) {
  unsigned widest = 0;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    std::optional<std::pair<Value, ValueRange>> access = getLoadOrStore(op);
    if (!access)
      return WalkResult::advance();
    Type element = cast<MemRefType>(access->first.getType()).getElementType();
    if (!isVectorElementType(element))
      return WalkResult::interrupt();
    widest = std::max(widest, element.getIntOrFloatBitWidth() / 8);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || widest == 0)
    return 0;
  return vectorBytes / widest;
}

/// Whether a cover grid for `plan` may fit: every static extent does.
static bool mayCoverFit(scf::ParallelOp loop, const LoopMappingPlan &plan) {
  for (unsigned g = 0; g < plan.groups.size(); ++g) {
    std::optional<int64_t> blocks = getStaticCoverBlocks(loop, plan, g);
    if (blocks && *blocks > GpuLimits::kMaxGridDim[g])
      return false;
  }
  return true;
}

FailureOr<LoopMappingPlan>
threadbind::planLoopMapping(scf::ParallelOp outerLoop,
                            const LoopMappingOptions &options,
                            bool dimOrderFitsOthers) {
  LoopMappingPlan plan;
  // For a nest run one row per block, the thread dimensions are the nested
  // loop's.
  plan.innerLoop = getRowPerBlockInnerLoop(outerLoop);
  scf::ParallelOp loop = plan.innerLoop ? plan.innerLoop : outerLoop;
  unsigned numDims = loop.getNumLoops();

  // Order the dimensions: forced ones first, the analysis ranks the rest.
  // dim-order names the dimensions as written; those normalisation folded
  // (one trip) are gone.
  std::optional<WrittenDims> written = getWrittenDims(loop);
  int64_t rank = written ? written->rank : numDims;
  SmallVector<unsigned> order;
  SmallVector<int64_t> named;
  // An order for the program's larger loops leaves a smaller one to the
  // analysis: a 1-D loop beside the 2-D one the user ordered is no error.
  bool lacksNamed =
      llvm::any_of(options.dimOrder, [&](int64_t d) { return d >= rank; });
  bool skipOrder = dimOrderFitsOthers && lacksNamed;
  for (int64_t d : skipOrder ? ArrayRef<int64_t>() : options.dimOrder) {
    if (d >= rank || llvm::is_contained(named, d))
      return loop.emitOpError("dim-order ")
             << d << " is not a distinct dimension of this " << rank
             << "-D loop";
    named.push_back(d);
    if (!written) {
      order.push_back(static_cast<unsigned>(d));
      continue;
    }
    const int64_t *it = llvm::find(written->dims, d);
    if (it != written->dims.end())
      order.push_back(static_cast<unsigned>(it - written->dims.begin()));
  }
  bool forced = !order.empty();
  SmallVector<std::optional<int64_t>> trips;
  for (unsigned d = 0; d < numDims; ++d)
    trips.push_back(getStaticTripCount(loop, d));
  DimRanking ranking =
      rankDimsForCoalescing(analyzeAccessPattern(loop), trips);
  for (unsigned d : ranking.order)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  plan.reason = forced ? "forced by dim-order" : ranking.reason;
  if (skipOrder)
    plan.reason += llvm::formatv(" (dim-order names dimensions this {0}-D "
                                 "loop does not have; it orders the "
                                 "program's larger loops)",
                                 rank)
                       .str();

  // x and y take one dimension each; z takes the rest, linearised in loop
  // order so the innermost of them varies fastest.
  for (unsigned g = 0; g < std::min(numDims, 2u); ++g)
    plan.groups.push_back({order[g]});
  if (numDims > 2) {
    SmallVector<unsigned, 2> rest(order.begin() + 2, order.end());
    llvm::sort(rest);
    plan.groups.push_back(rest);
  }

  unsigned numGroups = plan.groups.size();
  if (!options.blockShape.empty()) {
    plan.blockShape.assign(options.blockShape.begin(),
                           options.blockShape.end());
    plan.blockShape.resize(3, 1);
    // Threads along a block dimension that no loop dimension is bound to
    // would each run every iteration again. Their threads join the last
    // bound dimension instead, which keeps the block's size (and every
    // dimension within its limit, as the product is at most 1024).
    for (unsigned g = numGroups; g < 3; ++g) {
      plan.blockShape[numGroups - 1] *= plan.blockShape[g];
      plan.blockShape[g] = 1;
    }
    if (!llvm::equal(plan.blockShape, options.blockShape))
      plan.fittedFrom.assign(options.blockShape.begin(),
                             options.blockShape.end());
  } else {
    bool flat = numGroups == 3 &&
                countLoadsPerIteration(loop, kFlatBlockMaxLoads).has_value();
    plan.blockShape =
        defaultBlockShape(options.threadsPerBlock, numGroups, flat);
    fitBlockShapeToExtents(plan.blockShape, getGroupExtents(loop, plan));
  }
  if (options.gridPolicy == GridPolicy::Cover &&
      failed(verifyCoverGridFits(outerLoop, plan)))
    return failure();
  plan.coverCopies = planCoverCopies(outerLoop, plan, options);
  // A stencil widens in a cover launch, where a vector a thread with its
  // row's neighbours loaded once ran 1.05-1.6x faster than the grid-stride
  // launch, and not in a grid-stride nest; at odd row lengths no row
  // starts alike and the grid-stride launch was faster
  // (bench/results/2026-11-29-stencil-widen-h200.md). A cap on the grid
  // is the user's, which a cover launch would not keep.
  if (options.stencilCover && options.gridPolicy == GridPolicy::GridStride &&
      options.maxBlocks == 0 && !plan.innerLoop && numGroups >= 2 &&
      plan.groups[0].size() == 1 &&
      readsShiftedRows(loop, plan.groups[0].front()) &&
      mayCoverFit(loop, plan)) {
    int64_t width = getVectorWidth(loop, options.vectorBytes);
    if (width >= 2)
      plan.stencilCoverWidth = width;
    // Widened, a cover launch's x threads each take a vector: 64x4 blocks
    // then span 256 elements of a row, and a 318-element row (PolyBench
    // conv3d at 320^3) left 48 of 128 threads idle. On an H200, 16x16x1
    // blocks ran conv3d, heat-3d and grad3d at 320^3 11-18% faster than
    // 64x4x1 and box27s 2% faster than 32x4x2, and within 2% at 256^3
    // (bench/results/2026-11-29-stencil-choice-blocks-h200.log). The
    // grid-stride launch keeps its block: there 16x16x1 ran odd sizes up
    // to 38% slower.
    int64_t threads =
        plan.blockShape[0] * plan.blockShape[1] * plan.blockShape[2];
    if (plan.stencilCoverWidth && numGroups == 3 &&
        options.blockShape.empty() && threads % kStencilCoverBlockX == 0) {
      plan.stencilCoverBlock = {kStencilCoverBlockX,
                                threads / kStencilCoverBlockX, 1};
      fitBlockShapeToExtents(plan.stencilCoverBlock,
                             getGroupExtents(loop, plan));
      if (plan.stencilCoverBlock == plan.blockShape)
        plan.stencilCoverBlock.clear();
    }
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

namespace {
/// Builds index arithmetic at the rewriter's insertion point.
struct IndexBuilder {
  RewriterBase &b;
  Location loc;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  // Adding 0 and multiplying by 1 (unit steps, zero lower bounds) are
  // skipped so the kernels read cleanly before any canonicalization.
  Value add(Value l, Value r) {
    if (isConstantIntValue(r, 0))
      return l;
    if (isConstantIntValue(l, 0))
      return r;
    return arith::AddIOp::create(b, loc, l, r);
  }
  Value mul(Value l, Value r) {
    if (isConstantIntValue(r, 1))
      return l;
    if (isConstantIntValue(l, 1))
      return r;
    return arith::MulIOp::create(b, loc, l, r);
  }
  Value divu(Value l, Value r) { return arith::DivUIOp::create(b, loc, l, r); }
  Value remu(Value l, Value r) { return arith::RemUIOp::create(b, loc, l, r); }
  Value ceilDivu(Value l, Value r) {
    return arith::CeilDivUIOp::create(b, loc, l, r);
  }
  Value minu(Value l, Value r) { return arith::MinUIOp::create(b, loc, l, r); }
  Value maxu(Value l, Value r) { return arith::MaxUIOp::create(b, loc, l, r); }

  /// The trip count of every dimension of `loop`.
  SmallVector<Value> tripCounts(scf::ParallelOp loop) {
    SmallVector<Value> trips;
    for (unsigned d = 0; d < loop.getNumLoops(); ++d)
      trips.push_back(createTripCount(b, loc, loop, d));
    return trips;
  }

  /// Product of the trip counts of `dims`.
  Value extent(ArrayRef<Value> trips, ArrayRef<unsigned> dims) {
    Value result = trips[dims.front()];
    for (unsigned d : dims.drop_front())
      result = mul(result, trips[d]);
    return result;
  }
};
} // namespace

/// Replaces `loop` by loops in which this thread visits, along hardware
/// dimension g, iteration `first[g]`, then every `jump[g]` after it, of the
/// group's iteration space [0, product of its dimensions' `trips`); a group
/// of several dimensions is delinearised, its last dimension varying
/// fastest. The first `guarded` dimensions make one guarded visit instead
/// of looping, for grids that cover them; dimension 0's guard is the
/// launch's tail guard. Loops nest z outermost, so consecutive threads of a
/// warp take consecutive x iterations. The loop body is inlined innermost.
///
/// The loops count iterations, not induction-variable values: dimension d's
/// value is `lb + k * step` for iteration k, computed inside. Iteration
/// numbers stay below the trip count, so neither a thread's first value
/// nor its stride wraps, whatever the bounds and step (near the limits of
/// the index type, or a step times the grid past them).
static void emitThreadLoops(RewriterBase &rewriter, scf::ParallelOp loop,
                            ArrayRef<SmallVector<unsigned, 2>> groups,
                            ArrayRef<Value> trips, ArrayRef<Value> first,
                            ArrayRef<Value> jump, unsigned guarded) {
  Location loc = loop.getLoc();
  IndexBuilder ib{rewriter, loc};
  ValueRange lbs = loop.getLowerBound(), steps = loop.getStep();

  // Extents are computed once, before any loop. A dimension from 0 by 1
  // counts its iterations with its own values: its upper bound serves as
  // its trip count (iteration numbers are not negative, and scf.for
  // compares signed), which keeps the kernel's parameters as the user
  // wrote them.
  SmallVector<Value, 3> extents;
  for (ArrayRef<unsigned> group : groups) {
    unsigned d = group.front();
    bool countsItself = group.size() == 1 && isConstantIntValue(lbs[d], 0) &&
                        isConstantIntValue(steps[d], 1);
    extents.push_back(countsItself ? loop.getUpperBound()[d]
                                   : ib.extent(trips, group));
  }

  SmallVector<Value> ivs(loop.getNumLoops());
  for (int g = groups.size() - 1; g >= 0; --g) {
    Value iteration;
    if (g < static_cast<int>(guarded)) {
      Value inBounds = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, first[g], extents[g]);
      auto guardOp = scf::IfOp::create(rewriter, loc, inBounds,
                                       /*withElseRegion=*/false);
      // threadbind-remove-tail-checks finds the bounds check by this mark.
      if (g == 0)
        setTailGuard(guardOp);
      rewriter.setInsertionPoint(guardOp.thenBlock()->getTerminator());
      iteration = first[g];
    } else {
      auto forOp =
          scf::ForOp::create(rewriter, loc, first[g], extents[g], jump[g]);
      rewriter.setInsertionPoint(forOp.getBody()->getTerminator());
      iteration = forOp.getInductionVar();
    }
    ArrayRef<unsigned> group = groups[g];
    Value linear = iteration;
    for (unsigned d : llvm::reverse(group)) {
      Value index = linear;
      if (d != group.front()) {
        index = ib.remu(linear, trips[d]);
        linear = ib.divu(linear, trips[d]);
      }
      ivs[d] = ib.add(lbs[d], ib.mul(index, steps[d]));
    }
  }

  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), ivs);
  rewriter.eraseOp(loop);
}

Value threadbind::createTripCount(OpBuilder &builder, Location loc, Value lb,
                                  Value ub, Value step) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  if (isConstantIntValue(lb, 0))
    return builder.createOrFold<arith::CeilDivUIOp>(
        loc, builder.createOrFold<arith::MaxSIOp>(loc, ub, zero), step);
  // ub - lb wraps as a signed number when the bounds are far apart, but is
  // exact as an unsigned one whenever ub > lb.
  Value nonEmpty = builder.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::sgt, ub, lb);
  Value span = builder.createOrFold<arith::SelectOp>(
      loc, nonEmpty, builder.createOrFold<arith::SubIOp>(loc, ub, lb), zero);
  return builder.createOrFold<arith::CeilDivUIOp>(loc, span, step);
}

Value threadbind::createTripCount(OpBuilder &builder, Location loc,
                                  scf::ParallelOp loop, unsigned dim) {
  return createTripCount(builder, loc, loop.getLowerBound()[dim],
                         loop.getUpperBound()[dim], loop.getStep()[dim]);
}

Value threadbind::createGridCap(OpBuilder &builder, Location loc,
                                int64_t threadsPerBlock, int64_t maxBlocks) {
  if (maxBlocks > 0)
    return arith::ConstantIndexOp::create(builder, loc, maxBlocks);
  Value threads = arith::ConstantIndexOp::create(builder, loc, threadsPerBlock);
  return func::CallOp::create(builder, loc, kMaxResidentBlocksFn,
                              TypeRange{builder.getIndexType()},
                              ValueRange{threads})
      .getResult(0);
}

/// Fewer iterations than this, a thread each, fill fewer than 16 blocks of
/// 256 threads: too few for any GPU ThreadBind targets (an H100 has 132
/// SMs), which the mapping's remark says.
static constexpr int64_t kFewIterations = 4096;

/// The iterations of `loop`, all its dimensions together, where every trip
/// count is a constant and the product fits.
static std::optional<int64_t> getStaticIterations(scf::ParallelOp loop) {
  int64_t total = 1;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    std::optional<int64_t> trips = getStaticTripCount(loop, d);
    if (!trips)
      return std::nullopt;
    std::optional<int64_t> product = llvm::checkedMul(total, *trips);
    if (!product)
      return std::nullopt;
    total = *product;
  }
  return total;
}

/// The most blocks a grid-stride launch of `blockShape` blocks should use.
static Value gridCap(IndexBuilder &ib, const LoopMappingOptions &options,
                     ArrayRef<int64_t> blockShape) {
  return createGridCap(ib.b, ib.loc,
                       blockShape[0] * blockShape[1] * blockShape[2],
                       options.maxBlocks);
}

/// Blocks the last dimension of a grid-stride grid is given at least, where
/// it needs them: see createGridStrideGrid.
static constexpr int64_t kLastDimBlocks = 16;

/// Whether `loop`'s body reads some memref at two different places an
/// iteration (a stencil's neighbourhood: a[i][j] and a[i - 1][j]).
static bool readsNeighbourhood(scf::ParallelOp loop) {
  llvm::DenseMap<Value, ValueRange> seen; // memref -> its first load's indices
  WalkResult walk = loop.getBody()->walk([&](memref::LoadOp load) {
    auto [it, inserted] = seen.try_emplace(load.getMemRef(), load.getIndices());
    if (!inserted && !llvm::equal(it->second, load.getIndices()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The grid of a grid-stride launch whose dimensions need `needed` blocks
/// each (the first `numGroups` of them mapped), with at most `cap` blocks
/// in all: no dimension's blocks may outnumber the resident ones, which
/// would run as a second, mostly empty wave.
///
/// Dimensions take what they need of the cap in order, x first, and the
/// last two share what is left. Taken greedily, the second-to-last can
/// leave the last a single block while most of the cap stays unused: a
/// 382^3 nest in 64x4 blocks of 1056 resident gets 6 x 96 x 1 (55% of the
/// device), and each thread walks all 382 planes. With `balance` the pair
/// is also balanced: the last dimension is promised min(its need, 16)
/// blocks, the second-to-last takes as few iterations a thread as the rest
/// of the cap allows (its blocks cut to an even share of its need) and the
/// last gets all that is left: 6 x 11 x 16 there, 1056 blocks, 216 tiles a
/// block where there were 382. Whichever grid gives a block fewer tiles
/// (the product of the two dimensions' iterations a thread) is kept; ties
/// keep the greedy one. A grid expression stays a tree of arith ops
/// without loops, which the manifest and the C header evaluate.
///
/// Balance pays for stencils in flat blocks and costs streams: on an H200
/// (bench/results/2026-11-28-grid-balance-h200.md) at 320^3 to 448^3 it
/// took conv3d, heat-3d and grad3d 7-41% less time, and a 7-point
/// Laplacian in CUDA 13-33% less; a copy took 5-23% more (its blocks, spread
/// over 16 planes, no longer stream one), and a 27-point box filter in 32x4x2
/// blocks 7-35% more (a block walking consecutive planes keeps the dense
/// neighbourhood in L1). So mapFlatLoop asks for it only for 3-D nests in
/// blocks one plane deep that read a neighbourhood.
static SmallVector<Value, 3> createGridStrideGrid(IndexBuilder &ib,
                                                  ArrayRef<Value> needed,
                                                  unsigned numGroups, Value cap,
                                                  bool balance) {
  Value one = ib.cst(1);
  auto clampTo = [&](Value blocks, Value left, unsigned g) {
    return ib.maxu(
        ib.minu(ib.minu(blocks, left), ib.cst(GpuLimits::kMaxGridDim[g])), one);
  };
  SmallVector<Value, 3> grid(3, one);
  Value left = cap;
  for (unsigned g = 0; g < numGroups; ++g) {
    grid[g] = clampTo(needed[g], left, g);
    if (g + 1 < numGroups)
      left = ib.maxu(ib.divu(left, grid[g]), one);
  }
  if (numGroups < 2 || !balance)
    return grid;
  unsigned last = numGroups - 1, pen = last - 1;
  // What the pair shares: the cap less the dimensions before it.
  Value pairCap = cap;
  for (unsigned g = 0; g < pen; ++g)
    pairCap = ib.maxu(ib.divu(pairCap, grid[g]), one);
  auto tiles = [&](Value penBlocks, Value lastBlocks) {
    return ib.mul(ib.ceilDivu(needed[pen], penBlocks),
                  ib.ceilDivu(needed[last], lastBlocks));
  };
  Value promised = ib.minu(needed[last], ib.cst(kLastDimBlocks));
  Value penShare = ib.maxu(ib.divu(pairCap, promised), one);
  Value steps = ib.ceilDivu(needed[pen], penShare);
  Value penBlocks = clampTo(ib.ceilDivu(needed[pen], steps), pairCap, pen);
  Value lastBlocks =
      clampTo(needed[last], ib.maxu(ib.divu(pairCap, penBlocks), one), last);
  // Tile counts of needs below 2^31 multiply without overflow; past that
  // the greedy grid stands.
  Value small = arith::CmpIOp::create(ib.b, ib.loc, arith::CmpIPredicate::ult,
                                      ib.maxu(needed[pen], needed[last]),
                                      ib.cst(int64_t(1) << 31));
  Value fewer = arith::AndIOp::create(
      ib.b, ib.loc, small,
      arith::CmpIOp::create(ib.b, ib.loc, arith::CmpIPredicate::ult,
                            tiles(penBlocks, lastBlocks),
                            tiles(grid[pen], grid[last])));
  grid[pen] =
      arith::SelectOp::create(ib.b, ib.loc, fewer, penBlocks, grid[pen]);
  grid[last] =
      arith::SelectOp::create(ib.b, ib.loc, fewer, lastBlocks, grid[last]);
  return grid;
}

/// Creates the launch with a terminator and leaves the insertion point
/// before that terminator.
static gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc,
                                  ArrayRef<Value> grid,
                                  ArrayRef<Value> blockSizes,
                                  GridPolicy policy) {
  gpu::LaunchOp launch =
      createLaunchWithTerminator(rewriter, loc, grid, blockSizes);
  setGridPolicy(launch, policy);
  return launch;
}

static Value pick(const gpu::KernelDim3 &v, unsigned g) {
  return g == 0 ? v.x : g == 1 ? v.y : v.z;
}

/// Whether `loop`'s accesses read or write some memref at two places along
/// its unit-stride dimension that move with dimension `d` (a stencil: a[j]
/// and a[j - 1]). The distance is not weighed: widening would take two
/// places a whole number of vectors apart, which this counts too.
static bool hasStencilAlong(scf::ParallelOp loop, unsigned d) {
  IndexCoefficients along(loop.getInductionVars()[d]);
  llvm::DenseMap<Value, Value> seen; // memref -> its first such index
  bool stencil = false;
  loop.getBody()->walk([&](Operation *op) {
    std::optional<std::pair<Value, ValueRange>> access = getLoadOrStore(op);
    if (!access)
      return WalkResult::advance();
    auto [memref, indices] = *access;
    std::optional<unsigned> unit =
        getUnitStrideDim(cast<MemRefType>(memref.getType()));
    if (!unit || along.get(indices[*unit]) != 1)
      return WalkResult::advance();
    auto [it, inserted] = seen.try_emplace(memref, indices[*unit]);
    if (!inserted && it->second != indices[*unit]) {
      stencil = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return stencil;
}

/// The 128-byte cache lines that 32 consecutive elements of `bytes` bytes
/// each touch, the first at element `start + offset` of a row (rows taken
/// to start on a line). Both are reduced modulo a line's elements of one
/// byte first, so bounds near 2^63 do not overflow.
static int64_t getWarpLines(int64_t start, int64_t offset, int64_t bytes) {
  constexpr int64_t kLineBytes = 128;
  int64_t first = start % kLineBytes + offset % kLineBytes;
  int64_t at = ((first * bytes) % kLineBytes + kLineBytes) % kLineBytes;
  return (at + GpuLimits::kWarpSize * bytes + kLineBytes - 1) / kLineBytes;
}

/// The cache lines a warp of loop dimension `d` touches, summed over the
/// accesses whose unit-stride index is the induction variable plus a
/// constant, when the warp starts at iteration `lb` and at `aligned`.
static std::pair<int64_t, int64_t> countWarpLines(scf::ParallelOp loop,
                                                  unsigned d, int64_t lb,
                                                  int64_t aligned) {
  Value iv = loop.getInductionVars()[d];
  int64_t before = 0, after = 0;
  loop.getBody()->walk([&](Operation *op) {
    std::optional<std::pair<Value, ValueRange>> access = getLoadOrStore(op);
    if (!access)
      return;
    auto [memref, indices] = *access;
    auto type = cast<MemRefType>(memref.getType());
    std::optional<unsigned> unit = getUnitStrideDim(type);
    Type element = type.getElementType();
    if (!unit || !element.isIntOrFloat())
      return;
    std::optional<int64_t> offset = getOffsetFrom(indices[*unit], iv);
    if (!offset)
      return;
    int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    before += getWarpLines(lb, *offset, bytes);
    after += getWarpLines(aligned, *offset, bytes);
  });
  return {before, after};
}

namespace {
/// Where a stencil's contiguous loop starts off a warp's width, what
/// starting it on one would do.
struct StencilStart {
  /// The loop dimension on threadIdx.x, its lower bound, and that bound
  /// rounded down to the warp's width.
  unsigned dim;
  int64_t lb, aligned;
  /// The cache lines a warp's accesses touch from each start.
  int64_t linesFromBound, linesAligned;
  /// Whether the start moves.
  bool moves;
};
} // namespace

/// Where thread x walks a stencil's contiguous dimension from a constant
/// lower bound off a warp's width (an interior from 1), a warp's accesses
/// straddle two cache lines: the loop can start at the bound rounded down
/// to the warp's width, its first iterations skipped by a test, as
/// hand-written kernels start their threads at 0 and skip the edge. On an
/// H200 (bench/results/2026-11-27-stencil-align-h200.md) fdtd-2d's ex
/// update ran 43% longer than its twin's without, and the benchmark became
/// 19% faster with. In 3-D nests heat-3d (15 lines a warp against 10) ran
/// 25% faster aligned, conv3d (22 against 20) and box filters 20% and
/// 17-50% slower (bench/results/2026-11-29-align-3d-h200.md); once
/// threadbind-narrow-indices added the column constants last, conv3d and
/// box27s ran 3-9% faster aligned where rows start on a line, but box27s
/// 27% slower at 255x257x259, where none does and the line count does not
/// hold (2026-11-29-narrow-split-h200.md). So in 3-D the start moves only
/// where it saves a fifth of the lines. None where the loop is no such
/// stencil.
static std::optional<StencilStart>
planStencilStart(scf::ParallelOp loop, const LoopMappingPlan &plan) {
  if (plan.innerLoop || plan.groups.empty() ||
      plan.groups.front().size() != 1 || !loop.getInitVals().empty())
    return std::nullopt;
  unsigned d = plan.groups.front().front();
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  if (!lb || *lb <= 0 || !isConstantIntValue(loop.getStep()[d], 1))
    return std::nullopt;
  int64_t skip = *lb % GpuLimits::kWarpSize;
  if (skip == 0 || !hasStencilAlong(loop, d))
    return std::nullopt;
  StencilStart start{d, *lb, *lb - skip, 0, 0, true};
  std::tie(start.linesFromBound, start.linesAligned) =
      countWarpLines(loop, d, start.lb, start.aligned);
  if (loop.getNumLoops() > 2)
    start.moves = 5 * start.linesAligned <= 4 * start.linesFromBound;
  return start;
}

/// Starts `loop`'s contiguous dimension on a warp's width where
/// planStencilStart says so: the bound rounded down, the body under a test
/// that skips the iterations below the bound.
static void alignStencilStart(RewriterBase &rewriter, scf::ParallelOp loop,
                              const LoopMappingPlan &plan) {
  std::optional<StencilStart> start = planStencilStart(loop, plan);
  if (!start || !start->moves)
    return;
  unsigned d = start->dim;
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value from = arith::ConstantIndexOp::create(rewriter, loc, start->aligned);
  rewriter.modifyOpInPlace(
      loop, [&] { loop.getLowerBoundMutable()[d].assign(from); });
  // The body, but its terminator, moves under the test.
  Block *body = loop.getBody();
  rewriter.setInsertionPointToStart(body);
  Value inside = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::sge, loop.getInductionVars()[d],
      arith::ConstantIndexOp::create(rewriter, loc, start->lb));
  auto test = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
  Block *then = test.thenBlock();
  SmallVector<Operation *> moved;
  for (Operation &op : llvm::make_range(std::next(test->getIterator()),
                                        body->getTerminator()->getIterator()))
    moved.push_back(&op);
  for (Operation *op : moved)
    rewriter.moveOpBefore(op, then->getTerminator());
}

/// One thread per iteration of `loop`, along every dimension. A cover
/// launch makes one guarded visit along x; along y and z too with
/// `exactCover`, for a grid the host found to cover them, and loops there
/// otherwise.
static gpu::LaunchOp mapFlatLoop(RewriterBase &rewriter, scf::ParallelOp loop,
                                 const LoopMappingPlan &plan,
                                 const LoopMappingOptions &options,
                                 bool exactCover) {
  Location loc = loop.getLoc();
  IndexBuilder ib{rewriter, loc};
  unsigned numGroups = plan.groups.size();
  alignStencilStart(rewriter, loop, plan);

  // Host side: how many blocks each hardware dimension needs; at least one,
  // so a zero-trip loop still launches validly.
  SmallVector<Value> trips = ib.tripCounts(loop);
  Value one = ib.cst(1);
  SmallVector<Value, 3> blockSizes, needed;
  for (unsigned g = 0; g < 3; ++g) {
    blockSizes.push_back(ib.cst(plan.blockShape[g]));
    needed.push_back(
        g < numGroups
            ? ib.maxu(ib.ceilDivu(ib.extent(trips, plan.groups[g]),
                                  blockSizes[g]),
                      one)
            : one);
  }
  SmallVector<Value, 3> grid(3);
  if (options.gridPolicy == GridPolicy::GridStride) {
    bool balance =
        numGroups == 3 && plan.blockShape[2] == 1 && readsNeighbourhood(loop);
    grid = createGridStrideGrid(ib, needed, numGroups,
                                gridCap(ib, options, plan.blockShape), balance);
  } else {
    for (unsigned g = 0; g < 3; ++g)
      grid[g] = ib.minu(needed[g], ib.cst(GpuLimits::kMaxGridDim[g]));
  }

  gpu::LaunchOp launch =
      createLaunch(rewriter, loc, grid, blockSizes, options.gridPolicy);
  if (Attribute tail = loop->getAttr(kTailStrategyAttr))
    launch->setAttr(kTailStrategyAttr, tail);
  SmallVector<Value, 3> first, jump;
  for (unsigned g = 0; g < numGroups; ++g) {
    first.push_back(
        ib.add(ib.mul(pick(launch.getBlockIds(), g),
                      pick(launch.getBlockSize(), g)),
               pick(launch.getThreadIds(), g)));
    jump.push_back(ib.mul(pick(launch.getGridSize(), g),
                          pick(launch.getBlockSize(), g)));
  }
  unsigned guarded = 0;
  if (options.gridPolicy == GridPolicy::Cover)
    guarded = exactCover ? numGroups : 1;
  emitThreadLoops(rewriter, loop, plan.groups, trips, first, jump, guarded);
  return launch;
}

/// One outer iteration per block (grid-stride over blocks), the nested
/// loop's iterations over the block's threads.
static gpu::LaunchOp mapRowPerBlock(RewriterBase &rewriter,
                                    scf::ParallelOp outer,
                                    const LoopMappingPlan &plan,
                                    const LoopMappingOptions &options) {
  Location loc = outer.getLoc();
  IndexBuilder ib{rewriter, loc};
  scf::ParallelOp inner = plan.innerLoop;
  SmallVector<unsigned, 2> outerDims =
      llvm::to_vector<2>(llvm::seq<unsigned>(0, outer.getNumLoops()));

  SmallVector<Value> outerTrips = ib.tripCounts(outer);
  Value one = ib.cst(1);
  Value gridX = ib.maxu(ib.extent(outerTrips, outerDims), one);
  if (options.gridPolicy == GridPolicy::GridStride)
    gridX = ib.minu(gridX, gridCap(ib, options, plan.blockShape));
  SmallVector<Value, 3> grid = {
      ib.minu(gridX, ib.cst(GpuLimits::kMaxGridDim[0])), one, one};
  SmallVector<Value, 3> blockSizes;
  for (unsigned g = 0; g < 3; ++g)
    blockSizes.push_back(ib.cst(plan.blockShape[g]));

  gpu::LaunchOp launch =
      createLaunch(rewriter, loc, grid, blockSizes, options.gridPolicy);
  if (Attribute tail = outer->getAttr(kTailStrategyAttr))
    launch->setAttr(kTailStrategyAttr, tail);
  // The outer body, pure ops and the nested loop, is inlined into the block
  // loop; every thread of the block computes the pure ops itself.
  emitThreadLoops(rewriter, outer, {outerDims}, outerTrips,
                  {launch.getBlockIds().x}, {launch.getGridSize().x},
                  options.gridPolicy == GridPolicy::Cover ? 1 : 0);
  // The nested loop's bounds may depend on the outer induction variables:
  // its trip counts are computed where it stood.
  rewriter.setInsertionPoint(inner);
  SmallVector<Value> innerTrips = ib.tripCounts(inner);
  SmallVector<Value, 3> first, jump;
  for (unsigned g = 0; g < plan.groups.size(); ++g) {
    first.push_back(pick(launch.getThreadIds(), g));
    jump.push_back(pick(launch.getBlockSize(), g));
  }
  emitThreadLoops(rewriter, inner, plan.groups, innerTrips, first, jump,
                  /*guarded=*/0);
  return launch;
}

/// Whether a cover grid fits every dimension of `loop` from group
/// `firstGroup` on (x must fit under the cover policy, see
/// verifyCoverGridFits): computed on the host at the rewriter's insertion
/// point.
static Value createCoverFits(RewriterBase &rewriter, scf::ParallelOp loop,
                             const LoopMappingPlan &plan,
                             unsigned firstGroup = 1) {
  IndexBuilder ib{rewriter, loop.getLoc()};
  SmallVector<Value> trips = ib.tripCounts(loop);
  Value fits;
  for (unsigned g = firstGroup; g < plan.groups.size(); ++g) {
    Value blocks = ib.ceilDivu(ib.extent(trips, plan.groups[g]),
                               ib.cst(plan.blockShape[g]));
    Value fitsG =
        arith::CmpIOp::create(rewriter, ib.loc, arith::CmpIPredicate::ule,
                              blocks, ib.cst(GpuLimits::kMaxGridDim[g]));
    fits = fits ? arith::AndIOp::create(rewriter, ib.loc, fits, fitsG) : fitsG;
  }
  return fits;
}

/// Whether, on the host at the rewriter's insertion point, the rows of
/// every memref `loop` accesses start alike (createRowsStartAlike); null
/// where no memref has more than one dimension.
static Value createRowsStartAlike(RewriterBase &rewriter, scf::ParallelOp loop,
                                  int64_t width) {
  SetVector<Value> memrefs;
  loop.getBody()->walk([&](Operation *op) {
    if (std::optional<std::pair<Value, ValueRange>> access = getLoadOrStore(op))
      if (loop.isDefinedOutsideOfLoop(access->first))
        memrefs.insert(access->first);
  });
  Value alike;
  for (Value memref : memrefs)
    if (Value whole =
            createRowsStartAlike(rewriter, loop.getLoc(), memref, width))
      alike = alike
                  ? arith::AndIOp::create(rewriter, loop.getLoc(), alike, whole)
                  : whole;
  return alike;
}

/// A stencil nest under the grid-stride policy (plan.stencilCoverWidth): a
/// cover launch, a thread an iteration, where the host finds every row
/// starting alike and the grid fitting, for threadbind-widen-accesses to
/// widen; the grid-stride launch otherwise.
static void mapStencilChoice(RewriterBase &rewriter, scf::ParallelOp loop,
                             const LoopMappingPlan &plan,
                             const LoopMappingOptions &options) {
  Location loc = loop.getLoc();
  LoopMappingPlan coverPlan = plan;
  if (!plan.stencilCoverBlock.empty())
    coverPlan.blockShape = plan.stencilCoverBlock;
  Value cover = createCoverFits(rewriter, loop, coverPlan, /*firstGroup=*/0);
  if (Value alike =
          createRowsStartAlike(rewriter, loop, plan.stencilCoverWidth))
    cover = arith::AndIOp::create(rewriter, loc, cover, alike);
  auto choice =
      scf::IfOp::create(rewriter, loc, cover, /*withElseRegion=*/true);
  rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
  auto copy = cast<scf::ParallelOp>(rewriter.clone(*loop));
  rewriter.moveOpBefore(loop, choice.elseBlock()->getTerminator());
  LoopMappingOptions coverOptions = options;
  coverOptions.gridPolicy = GridPolicy::Cover;
  rewriter.setInsertionPoint(copy);
  setStencilChoice(mapFlatLoop(rewriter, copy, coverPlan, coverOptions,
                               /*exactCover=*/true));
  rewriter.setInsertionPoint(loop);
  setStencilChoice(
      mapFlatLoop(rewriter, loop, plan, options, /*exactCover=*/false));
}

void threadbind::mapLoopToLaunch(RewriterBase &rewriter, scf::ParallelOp loop,
                                 const LoopMappingPlan &plan,
                                 const LoopMappingOptions &options) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  if (plan.innerLoop) {
    mapRowPerBlock(rewriter, loop, plan, options);
    return;
  }
  if (plan.stencilCoverWidth) {
    mapStencilChoice(rewriter, loop, plan, options);
    return;
  }
  switch (plan.coverCopies) {
  case CoverCopies::Single:
    mapFlatLoop(rewriter, loop, plan, options, /*exactCover=*/true);
    return;
  case CoverCopies::Looping:
    mapFlatLoop(rewriter, loop, plan, options, /*exactCover=*/false);
    return;
  case CoverCopies::Both:
    break;
  }
  // The host picks the copy: a thread an iteration where the grid covers
  // the loop, looping along y and z where the grid limits fall short.
  Value fits = createCoverFits(rewriter, loop, plan);
  auto choice = scf::IfOp::create(rewriter, loop.getLoc(), fits,
                                  /*withElseRegion=*/true);
  rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
  auto exact = cast<scf::ParallelOp>(rewriter.clone(*loop));
  rewriter.moveOpBefore(loop, choice.elseBlock()->getTerminator());
  rewriter.setInsertionPoint(exact);
  mapFlatLoop(rewriter, exact, plan, options, /*exactCover=*/true);
  rewriter.setInsertionPoint(loop);
  mapFlatLoop(rewriter, loop, plan, options, /*exactCover=*/false);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct MapLoopsToThreadsPass
    : threadbind::impl::MapLoopsToThreadsPassBase<MapLoopsToThreadsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    mappingOptions.threadsPerBlock = threadsPerBlock;
    mappingOptions.blockShape.assign(blockShape.begin(), blockShape.end());
    mappingOptions.dimOrder.assign(dimOrder.begin(), dimOrder.end());
    mappingOptions.gridPolicy = gridPolicy;
    mappingOptions.stencilCover = stencilCover;
    mappingOptions.maxBlocks = maxBlocks;
    mappingOptions.emitRemarks = emitRemarks;
    mappingOptions.stageTransposes = stageTransposes;
    mappingOptions.vectorBytes = vectorBytes;
    mappingOptions.registerTiles = registerTiles;
    mappingOptions.sharedTiles = sharedTiles;
    std::string error = verifyLoopMappingOptions(mappingOptions);
    if (!error.empty())
      return emitError(UnknownLoc::get(context))
             << "threadbind-map-loops-to-threads: " << error;
    return success();
  }

  void runOnOperation() override;

  LoopMappingOptions mappingOptions;
};
} // namespace

static FunctionType maxResidentBlocksType(MLIRContext *context) {
  Builder b(context);
  return b.getFunctionType({b.getIndexType()}, {b.getIndexType()});
}

LogicalResult threadbind::verifyMaxResidentBlocksDecl(ModuleOp module) {
  Operation *existing = module.lookupSymbol(kMaxResidentBlocksFn);
  if (!existing)
    return success();
  FunctionType type = maxResidentBlocksType(module.getContext());
  auto func = dyn_cast<FunctionOpInterface>(existing);
  if (!func || func.getFunctionType() != type)
    return existing->emitError("'")
           << kMaxResidentBlocksFn << "' must be a function of type " << type
           << ": grid-stride launches call it to size their grid";
  return success();
}

void threadbind::declareMaxResidentBlocks(ModuleOp module) {
  if (module.lookupSymbol(kMaxResidentBlocksFn))
    return;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(),
                                   kMaxResidentBlocksFn,
                                   maxResidentBlocksType(module.getContext()));
  decl.setPrivate();
}

void MapLoopsToThreadsPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool asksHost = mappingOptions.gridPolicy == GridPolicy::GridStride &&
                  mappingOptions.maxBlocks == 0;
  // Register tiles ask whether their tiles fill the device, whatever the
  // grid policy.
  bool tilesAskHost =
      mappingOptions.registerTiles && mappingOptions.maxBlocks == 0;
  if ((asksHost || tilesAskHost) &&
      failed(verifyMaxResidentBlocksDecl(module)))
    return signalPassFailure();
  bool anyFailed = false, needsHostQuery = false;
  IRRewriter rewriter(&getContext());

  // Whether dim-order names only dimensions some loop of the program has:
  // then a loop of fewer dimensions is the analysis's, not an error.
  bool dimOrderFitsSome = false;
  if (!mappingOptions.dimOrder.empty()) {
    int64_t needed = *llvm::max_element(mappingOptions.dimOrder) + 1;
    module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        dimOrderFitsSome |= getDimOrderRank(loop) >= needed;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
  }

  for (auto func : module.getOps<FunctionOpInterface>()) {
    // Outermost loops only; loops already on the device stay as they are.
    SmallVector<scf::ParallelOp> loops;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      // threadbind-normalize turns linalg on memrefs into loops; on tensors
      // there is no memory yet for a kernel to write, and without a word
      // here a module of them would only hear that there was nothing to map.
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && !linalgOp.hasPureBufferSemantics()) {
        op->emitWarning("left on the host: '")
            << op->getName()
            << "' works on tensors; bufferize them to memrefs for it to be "
               "bound to the GPU";
        return WalkResult::skip();
      }
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        loops.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });

    // Check and plan every loop before rewriting any: a function with one
    // loop that cannot be bound is left exactly as it was.
    SmallVector<LoopMappingPlan, 0> plans;
    SmallVector<std::optional<StagedTransposePlan>> stagedPlans;
    SmallVector<std::optional<RegisterTilePlan>> tilePlans;
    bool funcOk = true;
    SmallVector<scf::ParallelOp> bound;
    for (scf::ParallelOp loop : loops) {
      // Loops the device can run, but not in parallel, are left to
      // threadbind-sequential-kernels under the fallback.
      if (sequentialFallback && getSequentialReason(loop))
        continue;
      FailureOr<std::optional<Refusal>> refusal = checkWithFallback(
          loop, sequentialFallback, [&] { return verifyMappable(loop); });
      if (failed(refusal)) {
        funcOk = false;
        continue;
      }
      if (*refusal) {
        leaveToOneThread(loop, **refusal);
        continue;
      }
      FailureOr<LoopMappingPlan> plan =
          planLoopMapping(loop, mappingOptions, dimOrderFitsSome);
      if (failed(plan)) {
        funcOk = false;
        continue;
      }
      warnIterationConflicts(loop);
      plans.push_back(std::move(*plan));
      stagedPlans.push_back(
          plans.back().innerLoop
              ? std::nullopt
              : matchStagedTranspose(loop, mappingOptions));
      tilePlans.push_back(matchRegisterTiles(loop, mappingOptions));
      bound.push_back(loop);
    }
    if (!funcOk) {
      anyFailed = true;
      continue;
    }

    // A triangle whose outer body also has side effects (correlation
    // stores the diagonal there) gives them a loop of their own, mapped
    // before it, and is register-tiled.
    for (size_t i = 0; i < bound.size(); ++i) {
      if (tilePlans[i] || stagedPlans[i])
        continue;
      std::optional<scf::ParallelOp> first =
          splitTriangleEffects(rewriter, bound[i], mappingOptions);
      if (!first)
        continue;
      FailureOr<LoopMappingPlan> plan =
          planLoopMapping(*first, mappingOptions, dimOrderFitsSome);
      if (failed(plan)) {
        anyFailed = true;
        continue;
      }
      tilePlans[i] = matchRegisterTiles(bound[i], mappingOptions);
      bound.insert(bound.begin() + i, *first);
      plans.insert(plans.begin() + i, std::move(*plan));
      stagedPlans.insert(stagedPlans.begin() + i, std::nullopt);
      tilePlans.insert(tilePlans.begin() + i, std::nullopt);
      ++i;
    }

    for (auto [loop, plan, staged, tiled] :
         llvm::zip_equal(bound, plans, stagedPlans, tilePlans)) {
      // Remarks name dimensions as written, before one-trip ones folded.
      scf::ParallelOp bound = plan.innerLoop ? plan.innerLoop : loop;
      std::optional<WrittenDims> written = getWrittenDims(bound);
      auto asWritten = [&](unsigned d) -> int64_t {
        return written && d < written->dims.size() ? written->dims[d] : d;
      };
      if (tiled) {
        if (emitRemarks) {
          InFlightDiagnostic remark = loop.emitRemark();
          remark << "bound to gpu.launch with register tiles: each output "
                    "runs a loop over k that reads memory along ";
          if (tiled->columnLoop)
            remark << "the outer loop and along the inner one, whose bounds "
                      "vary with the outer (a triangle, run over the "
                      "rectangle around it, threads outside it skipping "
                      "the loop over k)";
          else
            remark << "loop dimension " << asWritten(tiled->rowDim)
                   << " and along dimension " << asWritten(tiled->colDim);
          remark << ", so each thread computes 4x2 outputs (rows "
                 << tiled->threadsY
                 << " apart, columns 32 apart), sharing each k's row and "
                    "column loads; block 32x"
                 << tiled->threadsY
                 << "x1, grid-stride over tiles; while the tiles are fewer "
                    "than the device holds blocks, "
                 << (tiled->columnLoop
                         ? "one output a thread over the same blocks"
                         : "a thread an output as mapped below")
                 << " (register-tiles=false maps a thread an output)";
          if (!tiled->sharedShapes.empty()) {
            auto [rows, cols] = tiled->sharedShapes.front();
            remark << "; where a block for every 8 the device holds has a "
                      "shared tile, the k loop runs through workgroup "
                      "memory, 8 steps at a time, each thread computing "
                   << rows << "x" << cols << " outputs";
            if (tiled->sharedShapes.size() > 1) {
              remark << ", or ";
              llvm::interleave(
                  ArrayRef(tiled->sharedShapes).drop_front(), remark,
                  [&](std::pair<int64_t, int64_t> shape) {
                    remark << shape.first << "x" << shape.second;
                  },
                  " or ");
              remark << " where only tiles of those give a block for every 8";
            }
            remark << " (shared-tiles=false keeps it in registers)";
          }
        }
        needsHostQuery |= tilesAskHost;
        // A 2-D nest is left, on the run-time side with few tiles, for the
        // mapping below.
        if (!mapRegisterTiles(rewriter, loop, *tiled, mappingOptions)) {
          ++numLoopsMapped;
          continue;
        }
      }
      if (staged) {
        if (emitRemarks) {
          InFlightDiagnostic remark = loop.emitRemark();
          int64_t storeEdge = staged->getStoreEdge();
          int64_t loadEdge = staged->getLoadEdge();
          remark << "bound to gpu.launch through workgroup memory: the "
                    "stores walk loop dimension "
                 << asWritten(staged->storeDim) << " contiguously and "
                 << staged->stagedLoads.size() << " load"
                 << (staged->stagedLoads.size() == 1 ? "" : "s")
                 << " dimension " << asWritten(staged->loadDim) << ", so "
                 << storeEdge << "x" << loadEdge << " tiles"
                 << (storeEdge == loadEdge
                         ? ""
                         : " (positions along the stores' dimension by the "
                           "loads')")
                 << " are read along one and written along the other";
          for (ArrayRef<unsigned> axis :
               {ArrayRef(staged->loadAxis), ArrayRef(staged->storeAxis)})
            if (axis.size() == 2)
              remark << "; dimensions " << asWritten(axis[0]) << " and "
                     << asWritten(axis[1]) << " walked as one";
          if (staged->pack > 1)
            remark << "; " << staged->pack
                   << " elements a thread an access where contiguous and "
                      "aligned (vector-bytes=0 moves one)";
          if (staged->alignedPack > 1)
            remark << "; where the host finds every row aligned, "
                   << 32 * staged->alignedPack << "x"
                   << 32 * staged->alignedPack << " tiles of "
                   << staged->alignedPack
                   << " elements a thread an access in blocks of 32x"
                   << staged->alignedBlockRows
                   << " instead (vector-bytes=4 keeps one)";
          if (staged->widePack > 1)
            remark << "; where the host finds every row aligned to 16 "
                      "bytes, "
                   << staged->widePack
                   << " elements a thread an access in blocks of 32x"
                   << staged->wideBlockRows
                   << " instead (vector-bytes=8 keeps 4 bytes)";
          remark << "; block 32x" << staged->blockRows
                 << "x1, one tile a block "
                 << "(stage-transposes=false maps it directly)";
        }
        mapStagedTranspose(rewriter, loop, *staged);
        ++numLoopsMapped;
        continue;
      }
      if (emitRemarks) {
        InFlightDiagnostic remark = loop.emitRemark();
        remark << "bound to gpu.launch: ";
        if (plan.innerLoop)
          remark << "one iteration per block, nested ";
        remark << "loop dimension "
               << asWritten(plan.groups[0].front())
               << " on threadIdx.x because "
               << plan.reason << "; block " << plan.blockShape[0] << "x"
               << plan.blockShape[1] << "x" << plan.blockShape[2] << ", "
               << stringifyGridPolicy(mappingOptions.gridPolicy) << " grid";
        switch (plan.coverCopies) {
        case CoverCopies::Single:
          break;
        case CoverCopies::Both:
          remark << ", a thread an iteration; a copy looping along y and z "
                    "runs where the host finds they need more than 65535 "
                    "blocks";
          break;
        case CoverCopies::Looping:
          remark << " looping along y and z, as they need more than 65535 "
                    "blocks";
          break;
        }
        if (plan.stencilCoverWidth) {
          remark << "; its rows are read at shifted offsets (a stencil's), "
                    "so a cover launch";
          if (!plan.stencilCoverBlock.empty())
            remark << " in " << plan.stencilCoverBlock[0] << "x"
                   << plan.stencilCoverBlock[1] << "x"
                   << plan.stencilCoverBlock[2] << " blocks";
          remark << ", a thread an iteration, runs instead "
                    "where the host finds every outer stride a whole number "
                    "of "
                 << plan.stencilCoverWidth
                 << " elements and the grid fitting, for "
                    "threadbind-widen-accesses to widen (which drops it "
                    "where it cannot)";
        }
        if (!plan.fittedFrom.empty()) {
          remark << "; block-shape ";
          llvm::interleave(plan.fittedFrom, remark, "x");
          remark << " fitted to the " << plan.groups.size()
                 << " bound dimension" << (plan.groups.size() == 1 ? "" : "s")
                 << ", so no thread repeats another's iterations";
        }
        if (plan.groups.size() == 3 && plan.groups[2].size() > 1) {
          remark << "; dimensions ";
          llvm::interleaveComma(
              llvm::map_range(plan.groups[2], asWritten), remark);
          remark << " linearised onto z";
        }
        if (written)
          remark << "; its dimensions that run once were folded away";
        if (std::optional<StencilStart> start = planStencilStart(loop, plan)) {
          remark << "; loop dimension " << asWritten(start->dim);
          if (start->moves)
            remark << " runs from " << start->aligned << ", its lower bound "
                   << start->lb
                   << " rounded down to a warp's width, the iterations "
                      "below "
                   << start->lb
                   << " skipped, so that warps start on a cache line ("
                   << start->linesAligned << " lines a warp's accesses "
                   << "touch instead of " << start->linesFromBound << ")";
          else
            remark << " keeps its lower bound " << start->lb << ": from "
                   << start->aligned << " a warp's accesses would touch "
                   << start->linesAligned << " cache lines against "
                   << start->linesFromBound << " from " << start->lb
                   << ", not a fifth fewer, which in a nest of three loops "
                      "or more does not pay for the test that skips the "
                      "first iterations";
        }
        if (auto rank = loop->getAttrOfType<IntegerAttr>(kCollapsedFromAttr))
          remark << "; a " << rank.getInt()
                 << "-D nest collapsed into this loop, as every access walks "
                    "its memref in the loop's order (the nest as written "
                    "runs where a memref's rows are longer than the loop's)";
        if (std::optional<int64_t> total = getStaticIterations(bound);
            total && *total > 0 && *total < kFewIterations)
          remark << "; only " << *total
                 << " iterations, a thread each: too few to keep a GPU busy "
                    "(an H100 has 132 SMs of up to 2048 threads), so most "
                    "of it idles while this kernel runs";
      }
      LDBG() << "mapping " << loop.getNumLoops() << "-D loop at "
             << loop.getLoc();
      if (plan.groups.size() == 3 && plan.groups[2].size() > 1)
        ++numLoopsLinearised;
      mapLoopToLaunch(rewriter, loop, plan, mappingOptions);
      ++numLoopsMapped;
      needsHostQuery |= asksHost;
    }
  }

  if (needsHostQuery)
    declareMaxResidentBlocks(module);
  if (anyFailed)
    signalPassFailure();
}
