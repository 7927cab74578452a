//===- NarrowIndices.cpp - 32-bit index arithmetic where sizes allow ------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Kernels count and address in `index`, 64 bits on the device, so that
// loops over more than 2^31 iterations do not wrap. ptxas schedules 64-bit
// address arithmetic far worse than 32-bit: the same CUDA gemm kernel
// written with `long` indices issues two loads per FMA, and with `int` a
// dozen loads ahead (bench/polybench/index-width.cu). So
// threadbind-narrow-indices gives a launch a copy that counts its loops and
// linearises its memref accesses in i32, and the host runs the copy when
// the sizes it was proven for hold:
//
//   scf.if (the host values the proof assumed are in range, and every
//           accessed memref's elements lie below 2^31) {
//     the copy
//   } else {
//     the launch as it was
//   }
//
// (Where the test would hold for any input, for static shapes, the launch
// itself is narrowed.) A loop is counted in i32 when its bounds and step,
// evaluated over intervals from constants, the launch's grid and block,
// enclosing loops, host arithmetic, the runtime's bounded resident-block
// queries and host values assumed to lie in [-2^30, 2^30], keep the
// counter and its last increment inside i32. An access
// `memref.load %m[%i, %j]` becomes a load from a one-dimensional view of
// %m's base buffer at `offset + i * stride0` plus `j * stride1`, each part
// computed in i32 and widened before they are added: an access of a valid
// program is in bounds, so each index and each partial sum lies between 0
// and the largest element offset, below 2^31 by the host's test. A
// constant in the last index (`%j - 1`) is added last; the sum before it
// may then stray below 0 or past the largest offset by that constant (at
// most 2^16), which the host's test leaves room for.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <limits>
#include <map>

namespace mlir::threadbind {
#define GEN_PASS_DEF_NARROWINDICESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// Host values a loop bound depends on are assumed to lie in
/// [-kAssumedLimit, kAssumedLimit]: then a counter below one such bound plus
/// a step below another stays below 2^31.
static constexpr int64_t kAssumedLimit = int64_t(1) << 30;
/// The largest element offset a linearised access may reach.
static constexpr int64_t kMaxOffset = (int64_t(1) << 31) - 1;
/// Intervals wider than this are dropped, so that their arithmetic cannot
/// overflow int64.
static constexpr int64_t kMaxMagnitude = int64_t(1) << 62;
/// The most blocks the runtime's resident-block queries answer
/// (THREADBIND_MAX_RESIDENT_BLOCKS in threadbind/Runtime/Runtime.h).
static constexpr int64_t kMaxResidentBlocks = int64_t(1) << 20;
/// How deep the interval evaluation follows operands.
static constexpr unsigned kMaxDepth = 64;
/// The ranks whose largest offset the host sums without overflow.
static constexpr int64_t kMaxRank = 7;
/// The largest constant (times its stride) split off an access's last
/// index; a memref whose accesses split one leaves that much room below
/// kMaxOffset, so that the offset without it stays inside i32 too.
static constexpr int64_t kMaxSplitOffset = int64_t(1) << 16;

namespace {
/// A closed interval of integers.
struct Interval {
  int64_t lo, hi;
  bool within(int64_t min, int64_t max) const { return lo >= min && hi <= max; }
};
} // namespace

/// `[lo, hi]`, or none when a bound is too large to compute with.
static std::optional<Interval> makeInterval(__int128 lo, __int128 hi) {
  if (lo > hi || lo < -kMaxMagnitude || hi > kMaxMagnitude)
    return std::nullopt;
  return Interval{int64_t(lo), int64_t(hi)};
}

/// Whether the host code of `host` can compute `value` in terms the
/// manifest can state: the function's arguments, constants, memref sizes,
/// strides and offsets of arguments, integer arithmetic over them, and the
/// runtime's grid queries. A launch_ptx caller evaluates the copy's
/// condition from the manifest, so it may hold nothing else. `known`
/// remembers the values answered: a grid's expression shares operands
/// (the greedy and balanced grids both read the blocks each dimension
/// needs), which a walk without it would visit once a path. An answer cut
/// short by the depth (`cut`) is not remembered, since the value may be
/// met again nearer the root.
static bool isHostExpressible(Value value, func::FuncOp host,
                              DenseMap<Value, bool> &known, bool &cut,
                              unsigned depth = 0) {
  if (depth > kMaxDepth) {
    cut = true;
    return false;
  }
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == &host.getBody().front();
  if (matchPattern(value, m_Constant()))
    return true;
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  auto operandsExpressible = [&] {
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      return isHostExpressible(operand, host, known, cut, depth + 1);
    });
  };
  bool cutBefore = cut;
  cut = false;
  bool expressible = false;
  if (isa<memref::DimOp, memref::ExtractStridedMetadataOp>(op))
    expressible =
        isa<BlockArgument>(op->getOperand(0)) && operandsExpressible();
  else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
               arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
               arith::CeilDivUIOp, arith::CeilDivSIOp, arith::MinSIOp,
               arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp, arith::SelectOp,
               arith::CmpIOp, arith::AndIOp, arith::OrIOp, arith::IndexCastOp,
               arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    expressible = operandsExpressible();
  else if (auto call = dyn_cast<func::CallOp>(op))
    expressible =
        call.getCallee().starts_with("threadbind_") && operandsExpressible();
  if (!cut)
    known[value] = expressible;
  cut |= cutBefore;
  return expressible;
}

static bool isHostExpressible(Value value, func::FuncOp host) {
  DenseMap<Value, bool> known;
  bool cut = false;
  return isHostExpressible(value, host, known, cut);
}

namespace {
/// Intervals of the integers in one launch of a copy, under assumptions on
/// host values that the host then tests.
class LaunchIntervals {
public:
  explicit LaunchIntervals(gpu::LaunchOp launch)
      : launch(launch), host(launch->getParentOfType<func::FuncOp>()) {}

  /// The values `value` may take, or none where unknown.
  std::optional<Interval> get(Value value) { return get(value, 0); }

  /// The host values assumed so far, and their intervals.
  const llvm::MapVector<Value, Interval> &getAssumptions() const {
    return assumptions;
  }
  /// Whether the host need not test the low end of `value`'s interval.
  bool isLowUntested(Value value) const { return !testedLow.contains(value); }

private:
  std::optional<Interval> get(Value value, unsigned depth);
  std::optional<Interval> compute(Value value, unsigned depth);
  std::optional<Interval> computeArithmetic(Operation *op, unsigned depth);
  std::optional<Interval> computeWithin(function_ref<std::optional<Interval>()>
                                            evaluate,
                                        int64_t lo, int64_t hi);
  std::optional<Interval> getLaunchArgument(BlockArgument arg);
  std::optional<Interval> assume(Value value, Interval interval,
                                 bool testLow = true);

  gpu::LaunchOp launch;
  func::FuncOp host;
  DenseMap<Value, std::optional<Interval>> cache;
  llvm::MapVector<Value, Interval> assumptions;
  DenseSet<Value> testedLow;
};
} // namespace

std::optional<Interval> LaunchIntervals::get(Value value, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  std::optional<Interval> result = compute(value, depth);
  // The intervals are of mathematical integers: an op whose result leaves
  // its type's range (an i32 addition past 2^31) wraps, and is unknown.
  if (auto integer = dyn_cast<IntegerType>(value.getType());
      result && integer && integer.getWidth() < 64 &&
      !result->within(
          APInt::getSignedMinValue(integer.getWidth()).getSExtValue(),
          APInt::getSignedMaxValue(integer.getWidth()).getSExtValue()))
    result = std::nullopt;
  cache[value] = result;
  return result;
}

/// What `evaluate` gives if it lies in [lo, hi]; otherwise none, and every
/// assumption and interval the attempt made is taken back, since the caller
/// assumes something else instead.
std::optional<Interval> LaunchIntervals::computeWithin(
    function_ref<std::optional<Interval>()> evaluate, int64_t lo, int64_t hi) {
  auto savedAssumptions = assumptions;
  auto savedTestedLow = testedLow;
  auto savedCache = cache;
  std::optional<Interval> known = evaluate();
  if (known && known->within(lo, hi))
    return known;
  assumptions = std::move(savedAssumptions);
  testedLow = std::move(savedTestedLow);
  cache = std::move(savedCache);
  return std::nullopt;
}

std::optional<Interval> LaunchIntervals::assume(Value value,
                                                Interval interval,
                                                bool testLow) {
  if (!host || !isHostExpressible(value, host))
    return std::nullopt;
  if (testLow)
    testedLow.insert(value);
  auto [it, inserted] = assumptions.insert({value, interval});
  if (!inserted) {
    it->second.lo = std::max(it->second.lo, interval.lo);
    it->second.hi = std::min(it->second.hi, interval.hi);
  }
  return it->second;
}

/// The largest a block dimension can be: its launch operand's constant, or
/// the device's limit.
static int64_t getBlockLimit(gpu::LaunchOp launch, unsigned dim) {
  gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
  Value size = dim == 0 ? sizes.x : dim == 1 ? sizes.y : sizes.z;
  APInt constant;
  if (matchPattern(size, m_ConstantInt(&constant)) &&
      constant.getSExtValue() >= 1)
    return constant.getSExtValue();
  return dim == 2 ? 64 : 1024;
}

std::optional<Interval>
LaunchIntervals::getLaunchArgument(BlockArgument arg) {
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridSizes = launch.getGridSize();
  gpu::KernelDim3 blockSizes = launch.getBlockSize();
  gpu::KernelDim3 gridOperands = launch.getGridSizeOperandValues();
  auto dimOf = [&](gpu::KernelDim3 dims) -> std::optional<unsigned> {
    if (arg == dims.x)
      return 0;
    if (arg == dims.y)
      return 1;
    if (arg == dims.z)
      return 2;
    return std::nullopt;
  };
  // A grid of at most 2^30 threads a dimension: block ids times block sizes
  // plus thread ids, and grid-stride steps, stay below 2^30.
  auto gridInterval = [&](unsigned dim) -> std::optional<Interval> {
    Value operand = dim == 0   ? gridOperands.x
                    : dim == 1 ? gridOperands.y
                               : gridOperands.z;
    int64_t limit =
        std::max<int64_t>(1, kAssumedLimit / getBlockLimit(launch, dim));
    // What the host's grid computation says (a grid-stride grid is capped
    // by the resident-block query); at least 1 needs no test, as a launch
    // with an empty grid runs no thread.
    if (std::optional<Interval> known = computeWithin(
            [&] { return get(operand); }, std::numeric_limits<int64_t>::min(),
            limit))
      return Interval{std::max<int64_t>(1, known->lo), known->hi};
    return assume(operand, {1, limit}, /*testLow=*/false);
  };
  if (std::optional<unsigned> dim = dimOf(threadIds))
    return Interval{0, getBlockLimit(launch, *dim) - 1};
  if (std::optional<unsigned> dim = dimOf(blockSizes))
    return Interval{1, getBlockLimit(launch, *dim)};
  if (std::optional<unsigned> dim = dimOf(gridSizes))
    return gridInterval(*dim);
  if (std::optional<unsigned> dim = dimOf(blockIds)) {
    std::optional<Interval> grid = gridInterval(*dim);
    if (!grid)
      return std::nullopt;
    return Interval{0, grid->hi - 1};
  }
  return std::nullopt;
}

std::optional<Interval> LaunchIntervals::compute(Value value,
                                                 unsigned depth) {
  Type type = value.getType();
  if (!type.isIntOrIndex())
    return std::nullopt;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 63)
      return std::nullopt;
    return makeInterval(constant.getSExtValue(), constant.getSExtValue());
  }
  // An integer of fewer than 32 bits holds its whole range.
  auto integer = dyn_cast<IntegerType>(type);
  if (integer && integer.getWidth() < 32)
    return makeInterval(
        APInt::getSignedMinValue(integer.getWidth()).getSExtValue(),
        APInt::getSignedMaxValue(integer.getWidth()).getSExtValue());

  Region &body = launch.getBody();
  if (!body.isAncestor(value.getParentRegion())) {
    // A host value: the runtime's resident-block queries are bounded, and
    // host arithmetic says what it can; anything else is assumed.
    if (auto call = value.getDefiningOp<func::CallOp>();
        call && (call.getCallee() == "threadbind_max_resident_blocks" ||
                 call.getCallee() == "threadbind_kernel_resident_blocks"))
      return Interval{1, kMaxResidentBlocks};
    Operation *op = value.getDefiningOp();
    if (op && isa<arith::ArithDialect>(op->getDialect()))
      if (std::optional<Interval> known = computeWithin(
              [&] { return computeArithmetic(op, depth); }, -kAssumedLimit,
              kAssumedLimit))
        return known;
    return assume(value, {-kAssumedLimit, kAssumedLimit});
  }

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == launch)
      return getLaunchArgument(arg);
    // A loop counter lies between its lower bound and its upper bound less
    // one, for a positive step.
    auto counter = [&](Value lb, Value ub,
                       Value step) -> std::optional<Interval> {
      std::optional<Interval> low = get(lb, depth + 1);
      std::optional<Interval> high = get(ub, depth + 1);
      std::optional<Interval> by = get(step, depth + 1);
      if (!low || !high || !by || by->lo < 1)
        return std::nullopt;
      return makeInterval(low->lo, std::max<__int128>(low->lo,
                                                      __int128(high->hi) - 1));
    };
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar() && !loop.getUnsignedCmp())
      return counter(loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep());
    if (auto loop = dyn_cast<scf::ParallelOp>(owner);
        loop && arg.getOwner() == loop.getBody()) {
      unsigned d = arg.getArgNumber();
      return counter(loop.getLowerBound()[d], loop.getUpperBound()[d],
                     loop.getStep()[d]);
    }
    return std::nullopt;
  }
  return computeArithmetic(value.getDefiningOp(), depth);
}

std::optional<Interval> LaunchIntervals::computeArithmetic(Operation *op,
                                                           unsigned depth) {
  auto operand = [&](unsigned i) { return get(op->getOperand(i), depth + 1); };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(op)) {
    std::optional<Interval> source = operand(0);
    // index_castui and a cast to fewer bits change negative values.
    if (!source || (isa<arith::IndexCastUIOp>(op) && source->lo < 0) ||
        !source->within(-(int64_t(1) << 31), kMaxOffset))
      return std::nullopt;
    return source;
  }
  // A select lies between its two choices.
  if (isa<arith::SelectOp>(op)) {
    std::optional<Interval> a = operand(1), b = operand(2);
    if (!a || !b)
      return std::nullopt;
    return makeInterval(std::min(a->lo, b->lo), std::max(a->hi, b->hi));
  }
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<Interval> a = operand(0), b = operand(1);
  if (!a || !b)
    return std::nullopt;
  using I = __int128;
  if (isa<arith::AddIOp>(op))
    return makeInterval(I(a->lo) + b->lo, I(a->hi) + b->hi);
  if (isa<arith::SubIOp>(op))
    return makeInterval(I(a->lo) - b->hi, I(a->hi) - b->lo);
  if (isa<arith::MulIOp>(op)) {
    I products[] = {I(a->lo) * b->lo, I(a->lo) * b->hi, I(a->hi) * b->lo,
                    I(a->hi) * b->hi};
    return makeInterval(*std::min_element(std::begin(products),
                                          std::end(products)),
                        *std::max_element(std::begin(products),
                                          std::end(products)));
  }
  if (isa<arith::MinSIOp>(op) ||
      (isa<arith::MinUIOp>(op) && a->lo >= 0 && b->lo >= 0))
    return makeInterval(std::min(a->lo, b->lo), std::min(a->hi, b->hi));
  if (isa<arith::MaxSIOp>(op) ||
      (isa<arith::MaxUIOp>(op) && a->lo >= 0 && b->lo >= 0))
    return makeInterval(std::max(a->lo, b->lo), std::max(a->hi, b->hi));
  // Division and remainder of non-negative values by positive ones.
  if (a->lo < 0 || b->lo < 1)
    return std::nullopt;
  if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    return makeInterval(a->lo / b->hi, a->hi / b->lo);
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
    return makeInterval((I(a->lo) + b->hi - 1) / b->hi,
                        (I(a->hi) + b->lo - 1) / b->lo);
  if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    return makeInterval(0, std::min(a->hi, b->hi - 1));
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Whether a loop from `lb` below `ub` by `step` counts in i32: every
/// counter and the last increment stay inside it. A counter is incremented
/// only while below `ub`, so a start at or past `ub` adds nothing.
static bool countsInI32(LaunchIntervals &intervals, Value lb, Value ub,
                        Value step) {
  if (!lb.getType().isIndex())
    return false;
  std::optional<Interval> low = intervals.get(lb);
  std::optional<Interval> high = intervals.get(ub);
  std::optional<Interval> by = intervals.get(step);
  constexpr int64_t kMin = -(int64_t(1) << 31);
  if (!low || !high || !by || by->lo < 1 || !low->within(kMin, kMaxOffset) ||
      !high->within(kMin, kMaxOffset))
    return false;
  return __int128(high->hi) - 1 + by->hi <= kMaxOffset;
}

/// `value` (an index) as an i32.
static Value toI32(OpBuilder &b, Location loc, Value value) {
  return b.createOrFold<arith::IndexCastOp>(loc, b.getI32Type(), value);
}

/// Counts `loop` in i32; its body sees the counter widened back to index.
static void narrowLoop(RewriterBase &rewriter, scf::ForOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto narrow = scf::ForOp::create(
      rewriter, loc, toI32(rewriter, loc, loop.getLowerBound()),
      toI32(rewriter, loc, loop.getUpperBound()),
      toI32(rewriter, loc, loop.getStep()), loop.getInitArgs());
  narrow->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = narrow.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> arguments = {arith::IndexCastOp::create(
      rewriter, loc, rewriter.getIndexType(), narrow.getInductionVar())};
  llvm::append_range(arguments, narrow.getRegionIterArgs());
  rewriter.mergeBlocks(loop.getBody(), body, arguments);
  rewriter.replaceOp(loop, narrow.getResults());
}

/// A loop nest for `loop`, a sequential `scf.parallel` of a kernel: one
/// `scf.for` a dimension, the innermost combining each iteration's values
/// into the carried results as `scf.reduce` says, in iteration order.
/// Returns the loops, outermost first.
static SmallVector<scf::ForOp> parallelToFors(RewriterBase &rewriter,
                                              scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<scf::ForOp> fors;
  SmallVector<Value> carried(loop.getInitVals());
  IRMapping mapping;
  for (auto [iv, lb, ub, step] :
       llvm::zip_equal(loop.getInductionVars(), loop.getLowerBound(),
                       loop.getUpperBound(), loop.getStep())) {
    auto inner = scf::ForOp::create(rewriter, loc, lb, ub, step, carried);
    if (!fors.empty())
      scf::YieldOp::create(rewriter, loc, inner.getResults());
    fors.push_back(inner);
    Block *body = inner.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    rewriter.setInsertionPointToStart(body);
    mapping.map(iv, inner.getInductionVar());
    carried.assign(inner.getRegionIterArgs().begin(),
                   inner.getRegionIterArgs().end());
  }
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator())
    rewriter.clone(op, mapping);
  auto reduce = cast<scf::ReduceOp>(body->getTerminator());
  SmallVector<Value> next;
  for (auto [r, value] : llvm::enumerate(reduce.getOperands())) {
    Block &combiner = reduce.getReductions()[r].front();
    IRMapping combine = mapping;
    combine.map(combiner.getArgument(0), carried[r]);
    combine.map(combiner.getArgument(1), mapping.lookupOrDefault(value));
    for (Operation &op : combiner.without_terminator())
      rewriter.clone(op, combine);
    auto result = cast<scf::ReduceReturnOp>(combiner.getTerminator());
    next.push_back(combine.lookupOrDefault(result.getResult()));
  }
  scf::YieldOp::create(rewriter, loc, next);
  rewriter.replaceOp(loop, fors.front().getResults());
  return fors;
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

namespace {
/// The memref operand and the index operands of an access this pass
/// linearises.
struct AccessOperands {
  unsigned memref, firstIndex;
};

/// How the host finds a memref's layout: each part a host value or a
/// constant.
struct Layout {
  OpFoldResult offset;
  SmallVector<OpFoldResult> sizes, strides;
};
} // namespace

static std::optional<AccessOperands> getAccessOperands(Operation *op) {
  if (isa<memref::LoadOp, vector::LoadOp>(op))
    return AccessOperands{0, 1};
  if (isa<memref::StoreOp, vector::StoreOp>(op))
    return AccessOperands{1, 2};
  return std::nullopt;
}

/// An access's last index as a value plus a constant (`%k - 1` is `%k` and
/// -1), with the constant times the last dimension's stride, where that
/// stride is a constant and the product nonzero and at most
/// kMaxSplitOffset in magnitude; none otherwise. The linearised offset
/// adds the product last, so that the NVPTX back end folds it into the
/// access's immediate and a stencil's neighbours share one address. With
/// the constant inside (`sext(row + (k - 1))`), the back end distributes
/// the widening over the sum to reach it, and the address becomes 64-bit
/// adds and shifts: conv3d's kernel ran 7% fewer instructions with the
/// split (bench/results/2026-11-29-narrow-split-h200.md).
static std::optional<std::pair<Value, int64_t>>
splitColumnConstant(Operation *op) {
  AccessOperands operands = *getAccessOperands(op);
  auto type = cast<MemRefType>(op->getOperand(operands.memref).getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides.back()))
    return std::nullopt;
  std::optional<std::pair<Value, int64_t>> split = splitConstantAddend(
      op->getOperand(operands.firstIndex + type.getRank() - 1));
  if (!split)
    return std::nullopt;
  __int128 scaled = __int128(split->second) * strides.back();
  if (scaled == 0 || scaled < -kMaxSplitOffset || scaled > kMaxSplitOffset)
    return std::nullopt;
  return std::make_pair(split->first, int64_t(scaled));
}

/// The layout of `memref`, a value of the host, built before `launch`: a
/// function argument's from its descriptor, a reinterpret_cast's from its
/// operands, or the type's where it fixes all. None where the manifest
/// could not state it.
static std::optional<Layout> getHostLayout(OpBuilder &b, gpu::LaunchOp launch,
                                           Value memref, func::FuncOp host) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getMemorySpace() || type.getRank() == 0 ||
      type.getRank() > kMaxRank || !type.getElementType().isIntOrIndexOrFloat())
    return std::nullopt;
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
    return std::nullopt;
  Layout layout;
  auto fixed = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  if (type.hasStaticShape() && !ShapedType::isDynamic(staticOffset) &&
      llvm::none_of(staticStrides, ShapedType::isDynamic)) {
    layout.offset = fixed(staticOffset);
    for (int64_t size : type.getShape())
      layout.sizes.push_back(fixed(size));
    for (int64_t stride : staticStrides)
      layout.strides.push_back(fixed(stride));
    return layout;
  }
  if (auto view = memref.getDefiningOp<memref::ReinterpretCastOp>()) {
    auto expressible = [&](OpFoldResult part) {
      auto value = dyn_cast<Value>(part);
      return !value || isHostExpressible(value, host);
    };
    layout.offset = view.getMixedOffsets().front();
    layout.sizes = view.getMixedSizes();
    layout.strides = view.getMixedStrides();
    if (!expressible(layout.offset) ||
        !llvm::all_of(layout.sizes, expressible) ||
        !llvm::all_of(layout.strides, expressible))
      return std::nullopt;
    return layout;
  }
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || arg.getOwner() != &host.getBody().front())
    return std::nullopt;
  b.setInsertionPoint(launch);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, launch.getLoc(), memref);
  // The type's static parts as constants, so that the test folds them.
  auto part = [&](int64_t known, Value dynamic) -> OpFoldResult {
    return ShapedType::isDynamic(known) ? OpFoldResult(dynamic) : fixed(known);
  };
  layout.offset = part(staticOffset, metadata.getOffset());
  for (auto [size, value] : llvm::zip_equal(type.getShape(),
                                            metadata.getSizes()))
    layout.sizes.push_back(part(size, value));
  for (auto [stride, value] : llvm::zip_equal(staticStrides,
                                              metadata.getStrides()))
    layout.strides.push_back(part(stride, value));
  return layout;
}

//===----------------------------------------------------------------------===//
// The host's test
//===----------------------------------------------------------------------===//

namespace {
/// Builds the conjunction the host tests before running the copy: bounds
/// on host values, gathered by bound so that the test is one `max` and one
/// `min` a bound, each a balanced tree. The manifest states it, and a
/// caller of launch_ptx evaluates it, so it stays short and shallow.
class HostTest {
public:
  HostTest(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  void requireAtLeast(Value value, int64_t lo) { atLeast[lo].insert(value); }
  void requireAtMost(Value value, int64_t hi) { atMost[hi].insert(value); }

  /// That every element of a memref with `layout` lies at an offset in
  /// [0, kMaxOffset - headroom]: the offset and strides at least 0, and the
  /// sizes, strides, each size times its stride at most kMaxOffset, and the
  /// offset plus those products at most kMaxOffset - headroom (so that the
  /// sum of at most kMaxRank + 1 parts cannot overflow; sizes are never
  /// negative). False when the constant parts already rule it out.
  bool requireSmall(const Layout &layout, int64_t headroom) {
    const int64_t limit = kMaxOffset - headroom;
    __int128 fixedSum = 0;
    SmallVector<Value> dynamicSum;
    // Each part of the sum, bounded alone too.
    auto addPart = [&](OpFoldResult part) {
      if (std::optional<int64_t> known = getConstantIntValue(part)) {
        fixedSum += *known;
        return *known >= 0 && *known <= kMaxOffset;
      }
      Value value = cast<Value>(part);
      requireAtMost(value, kMaxOffset);
      dynamicSum.push_back(value);
      return true;
    };
    // A stride or the offset: also not negative.
    auto check = [&](OpFoldResult part, bool mayBeNegative) {
      if (std::optional<int64_t> known = getConstantIntValue(part))
        return *known >= 0 && *known <= kMaxOffset;
      Value value = cast<Value>(part);
      if (mayBeNegative)
        requireAtLeast(value, 0);
      requireAtMost(value, kMaxOffset);
      return true;
    };
    if (!check(layout.offset, true) || !addPart(layout.offset))
      return false;
    for (auto [size, stride] : llvm::zip_equal(layout.sizes, layout.strides)) {
      if (!check(size, false) || !check(stride, true))
        return false;
      std::optional<int64_t> knownSize = getConstantIntValue(size);
      std::optional<int64_t> knownStride = getConstantIntValue(stride);
      OpFoldResult product;
      if (knownSize && knownStride)
        product = b.getIndexAttr(*knownSize * *knownStride);
      else if (knownStride == 1)
        product = size;
      else if (knownSize == 1)
        product = stride;
      else
        product = arith::MulIOp::create(
                      b, loc, getValueOrCreateConstantIndexOp(b, loc, size),
                      getValueOrCreateConstantIndexOp(b, loc, stride))
                      .getResult();
      if (!addPart(product))
        return false;
    }
    if (fixedSum > limit)
      return false;
    if (dynamicSum.empty())
      return true;
    Value sum = dynamicSum.front();
    for (Value part : ArrayRef(dynamicSum).drop_front())
      sum = arith::AddIOp::create(b, loc, sum, part);
    if (fixedSum != 0)
      sum = arith::AddIOp::create(
          b, loc, sum, arith::ConstantIndexOp::create(b, loc, int64_t(fixedSum)));
    requireAtMost(sum, limit);
    return true;
  }

  /// The conjunction; true when nothing was required.
  Value get() {
    SmallVector<Value> holds;
    auto bound = [&](ArrayRef<Value> values, int64_t limit, bool isMax) {
      // Values of one type at a time; index almost always.
      llvm::MapVector<Type, SmallVector<Value>> byType;
      for (Value value : values)
        byType[value.getType()].push_back(value);
      for (auto &[type, group] : byType) {
        Value extreme = reduceBalanced(group, [&](Value x, Value y) -> Value {
          if (isMax)
            return arith::MaxSIOp::create(b, loc, x, y);
          return arith::MinSIOp::create(b, loc, x, y);
        });
        Value cst =
            type.isIndex()
                ? arith::ConstantIndexOp::create(b, loc, limit).getResult()
                : arith::ConstantIntOp::create(b, loc, type, limit)
                      .getResult();
        holds.push_back(arith::CmpIOp::create(
            b, loc,
            isMax ? arith::CmpIPredicate::sle : arith::CmpIPredicate::sge,
            extreme, cst));
      }
    };
    for (auto &[limit, values] : atMost)
      bound(values.getArrayRef(), limit, /*isMax=*/true);
    for (auto &[limit, values] : atLeast)
      bound(values.getArrayRef(), limit, /*isMax=*/false);
    if (holds.empty())
      return arith::ConstantIntOp::create(b, loc, 1, 1);
    return reduceBalanced(holds, [&](Value x, Value y) -> Value {
      return arith::AndIOp::create(b, loc, x, y);
    });
  }

private:
  /// `combine` over `values` as a balanced tree.
  static Value reduceBalanced(ArrayRef<Value> values,
                              function_ref<Value(Value, Value)> combine) {
    if (values.size() == 1)
      return values.front();
    size_t half = values.size() / 2;
    return combine(reduceBalanced(values.take_front(half), combine),
                   reduceBalanced(values.drop_front(half), combine));
  }

  OpBuilder &b;
  Location loc;
  std::map<int64_t, llvm::SetVector<Value>> atMost, atLeast;
};
} // namespace

//===----------------------------------------------------------------------===//
// threadbind-narrow-indices
//===----------------------------------------------------------------------===//

namespace {
struct NarrowIndicesPass
    : threadbind::impl::NarrowIndicesPassBase<NarrowIndicesPass> {
  using NarrowIndicesPassBase::NarrowIndicesPassBase;
  void runOnOperation() override;
  void narrowLaunch(gpu::LaunchOp launch);
};
} // namespace

/// Whether `op` lies in a loop of `launch`'s body inside another loop of it:
/// a kernel's sequential loop rather than its grid-stride loops alone.
static unsigned getLoopDepth(Operation *op, gpu::LaunchOp launch) {
  unsigned depth = 0;
  for (Operation *parent = op->getParentOp(); parent && parent != launch;
       parent = parent->getParentOp())
    if (isa<scf::ForOp, scf::ParallelOp, scf::WhileOp>(parent))
      ++depth;
  return depth;
}

/// The accesses (among `accesses`, all linearised) whose row is added to
/// their column after widening: those of a multi-dimensional memref the
/// launch accesses at least twice, at no more than four distinct rows
/// (indices but the last). Such rows become a few 64-bit row addresses
/// that several accesses share, as a register tile's loads of four rows
/// of A and one row of B. Elsewhere the whole offset is computed in i32
/// and widened once: a lone access gains nothing from a row address, and
/// many rows kept as 64-bit addresses cost registers (a 3-D stencil's
/// nine). Chosen by measurement on an H200
/// (bench/results/2026-11-26-session8-h200.md).
static DenseSet<Operation *>
findRowSharedAccesses(ArrayRef<Operation *> accesses) {
  constexpr unsigned kMaxSharedRows = 4;
  struct Uses {
    SmallVector<Operation *> accesses;
    SmallVector<SmallVector<Value>> rows;
  };
  llvm::MapVector<Value, Uses> byMemRef;
  for (Operation *op : accesses) {
    AccessOperands operands = *getAccessOperands(op);
    Value memref = op->getOperand(operands.memref);
    unsigned rank = cast<MemRefType>(memref.getType()).getRank();
    if (rank < 2)
      continue;
    auto row = op->getOperands().slice(operands.firstIndex, rank).drop_back();
    Uses &uses = byMemRef[memref];
    uses.accesses.push_back(op);
    if (!llvm::any_of(uses.rows, [&](ArrayRef<Value> seen) {
          return llvm::equal(seen, row);
        }))
      uses.rows.emplace_back(row.begin(), row.end());
  }
  DenseSet<Operation *> shared;
  for (auto &[memref, uses] : byMemRef)
    if (uses.accesses.size() > 1 && uses.rows.size() <= kMaxSharedRows)
      shared.insert(uses.accesses.begin(), uses.accesses.end());
  return shared;
}

void NarrowIndicesPass::narrowLaunch(gpu::LaunchOp launch) {
  auto host = launch->getParentOfType<func::FuncOp>();
  if (!host || launch.getAsyncToken() ||
      !launch.getAsyncDependencies().empty())
    return;
  Region &body = launch.getBody();
  Location loc = launch.getLoc();

  // What the copy would narrow, found on the launch itself; the host's
  // layouts are built before it, and erased again if it is not copied.
  OpBuilder hostBuilder(launch);
  IRRewriter rewriter(launch->getContext());
  LaunchIntervals intervals(launch);
  SmallVector<Operation *> loops;
  body.walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!loop.getUnsignedCmp() &&
          countsInI32(intervals, loop.getLowerBound(), loop.getUpperBound(),
                      loop.getStep()))
        loops.push_back(loop);
      return;
    }
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop)
      return;
    if (llvm::all_of(llvm::zip_equal(loop.getLowerBound(),
                                     loop.getUpperBound(), loop.getStep()),
                     [&](auto bounds) {
                       auto [lb, ub, step] = bounds;
                       return countsInI32(intervals, lb, ub, step);
                     }))
      loops.push_back(loop);
  });

  llvm::MapVector<Value, std::optional<Layout>> layouts;
  SmallVector<Operation *> accesses;
  bool worthIt = llvm::any_of(loops, [&](Operation *loop) {
    return getLoopDepth(loop, launch) > 0;
  });
  Operation *firstHostOp = launch->getPrevNode();
  body.walk([&](Operation *op) {
    std::optional<AccessOperands> operands = getAccessOperands(op);
    if (!operands)
      return;
    Value memref = op->getOperand(operands->memref);
    if (body.isAncestor(memref.getParentRegion()))
      return;
    auto [it, inserted] = layouts.insert({memref, std::nullopt});
    if (inserted)
      it->second = getHostLayout(hostBuilder, launch, memref, host);
    if (!it->second)
      return;
    accesses.push_back(op);
    if (cast<MemRefType>(memref.getType()).getRank() > 1)
      worthIt = true;
  });

  // The constants split off last indices (splitColumnConstant), read off
  // the launch, and the room each memref's test leaves for them.
  DenseMap<Operation *, std::pair<Value, int64_t>> columnSplits;
  DenseMap<Value, int64_t> headroom;
  for (Operation *op : accesses) {
    std::optional<std::pair<Value, int64_t>> split = splitColumnConstant(op);
    if (!split)
      continue;
    columnSplits[op] = *split;
    int64_t &room = headroom[op->getOperand(getAccessOperands(op)->memref)];
    room = std::max(room, std::abs(split->second));
  }
  // The host's test: the memrefs accessed in i32 are small, less that room,
  // and the values the loop bounds assumed in range.
  hostBuilder.setInsertionPoint(launch);
  HostTest test(hostBuilder, loc);
  for (auto &[memref, layout] : layouts) {
    if (!layout)
      continue;
    if (!test.requireSmall(*layout, headroom.lookup(memref))) {
      // The constant parts rule it out: its accesses stay 64-bit.
      llvm::erase_if(accesses, [&, m = memref](Operation *op) {
        return op->getOperand(getAccessOperands(op)->memref) == m;
      });
      layout.reset();
    }
  }
  for (auto &[value, interval] : intervals.getAssumptions()) {
    if (!intervals.isLowUntested(value))
      test.requireAtLeast(value, interval.lo);
    test.requireAtMost(value, interval.hi);
  }
  Value condition = test.get();

  // Takes back what the test built before the launch where it goes unused.
  auto eraseUnusedTest = [&] {
    for (Operation *op = launch->getPrevNode(); op && op != firstHostOp;) {
      Operation *prev = op->getPrevNode();
      if (op->use_empty())
        rewriter.eraseOp(op);
      op = prev;
    }
  };
  if (!worthIt || (loops.empty() && accesses.empty())) {
    eraseUnusedTest();
    if (emitRemarks)
      launch.emitRemark("indices kept 64-bit: ")
          << (loops.empty() && accesses.empty()
                  ? "no loop bound or memref layout the host can bound"
                  : "only one-dimensional accesses in grid-stride loops, "
                    "whose 64-bit addressing costs one add a thread");
    return;
  }

  // Read off the launch before it is replaced by its two versions.
  DenseSet<Operation *> rowShared = findRowSharedAccesses(accesses);

  // scf.if (test) { the copy } else { the launch }; where the test needs
  // nothing (static sizes, grids the host bounds), the launch itself. The
  // rewriting below finds the copy's ops through `copied`; the originals
  // are only keys from here on.
  bool inPlace = matchPattern(condition, m_One());
  gpu::LaunchOp copy = launch;
  IRMapping copied;
  if (inPlace) {
    eraseUnusedTest();
  } else {
    versionOnCondition(rewriter, launch, condition,
                       [&](IRMapping &mapping, bool thenSide) {
                         if (!thenSide)
                           return;
                         copied = mapping;
                         copy = cast<gpu::LaunchOp>(mapping.lookup(
                             launch.getOperation()));
                       });
  }

  // Accesses first: a loop's conversion clones its body.
  Block &copyBody = copy.getBody().front();
  DenseMap<Value, std::pair<Value, SmallVector<Value>>> linearParts;
  unsigned numAccesses = 0;
  for (Operation *original : accesses) {
    Operation *op = copied.lookupOrDefault(original);
    AccessOperands operands = *getAccessOperands(op);
    Value memref = op->getOperand(operands.memref);
    auto type = cast<MemRefType>(memref.getType());
    auto &[flat, parts] = linearParts[memref];
    if (!flat) {
      // At the top of the kernel: the base buffer as a one-dimensional view
      // from its first element, and the offset and strides in i32.
      rewriter.setInsertionPointToStart(&copyBody);
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
      flat = memref::ReinterpretCastOp::create(
          rewriter, loc, MemRefType::get({kMaxOffset}, type.getElementType()),
          metadata.getBaseBuffer(), rewriter.getIndexAttr(0),
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(kMaxOffset)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      SmallVector<int64_t> staticStrides;
      int64_t staticOffset;
      (void)type.getStridesAndOffset(staticStrides, staticOffset);
      auto part = [&](int64_t known, Value dynamic) -> Value {
        if (!ShapedType::isDynamic(known))
          return arith::ConstantIntOp::create(rewriter, loc, known, 32);
        return toI32(rewriter, loc, dynamic);
      };
      parts.push_back(part(staticOffset, metadata.getOffset()));
      for (auto [stride, value] :
           llvm::zip_equal(staticStrides, metadata.getStrides()))
        parts.push_back(part(stride, value));
    }
    // offset + sum of index * stride, in i32 without wrapping. For an
    // access whose row others share (findRowSharedAccesses), the last
    // dimension's term is widened and added apart. A constant split off the
    // last index is added at the end: the sum before it lies within
    // `headroom` of an element's offset, which the host's test left room
    // for.
    rewriter.setInsertionPoint(op);
    auto flags = arith::IntegerOverflowFlags::nsw;
    SmallVector<Value> indices(
        op->getOperands().slice(operands.firstIndex, type.getRank()));
    auto [column, columnConstant] = columnSplits.lookup(original);
    if (columnConstant != 0)
      indices.back() = copied.lookupOrDefault(column);
    bool apart = rowShared.contains(original);
    Value linear = parts.front();
    for (auto [index, stride] : llvm::zip_equal(
             apart ? ArrayRef(indices).drop_back() : ArrayRef(indices),
             apart ? ArrayRef(parts).drop_front().drop_back()
                   : ArrayRef(parts).drop_front())) {
      Value term = toI32(rewriter, loc, index);
      if (!matchPattern(stride, m_One()))
        term = arith::MulIOp::create(rewriter, loc, term, stride, flags);
      linear = matchPattern(linear, m_Zero())
                   ? term
                   : arith::AddIOp::create(rewriter, loc, linear, term, flags)
                         .getResult();
    }
    auto widen = [&](Value i32) -> Value {
      return arith::IndexCastOp::create(rewriter, loc,
                                        rewriter.getIndexType(), i32);
    };
    if (!apart && columnConstant != 0)
      linear = arith::AddIOp::create(
          rewriter, loc, linear,
          arith::ConstantIntOp::create(rewriter, loc, columnConstant, 32),
          flags);
    Value offset = widen(linear);
    if (apart) {
      Value term = toI32(rewriter, loc, indices.back());
      if (!matchPattern(parts.back(), m_One()))
        term = arith::MulIOp::create(rewriter, loc, term, parts.back(), flags);
      // A column split from its constant may be negative: no nuw then.
      offset = arith::AddIOp::create(
          rewriter, loc, offset, widen(term),
          columnConstant != 0 ? flags
                              : arith::IntegerOverflowFlags::nsw |
                                    arith::IntegerOverflowFlags::nuw);
      if (columnConstant != 0)
        offset = arith::AddIOp::create(
            rewriter, loc, offset,
            arith::ConstantIndexOp::create(rewriter, loc, columnConstant),
            flags);
    }
    op->setOperand(operands.memref, flat);
    op->setOperands(operands.firstIndex, type.getRank(), offset);
    ++numAccesses;
  }

  unsigned numLoops = 0;
  for (Operation *original : loops) {
    Operation *op = copied.lookupOrDefault(original);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      narrowLoop(rewriter, loop);
      ++numLoops;
      continue;
    }
    for (scf::ForOp loop :
         parallelToFors(rewriter, cast<scf::ParallelOp>(op))) {
      narrowLoop(rewriter, loop);
      ++numLoops;
    }
  }
  ++numLaunchesNarrowed;
  if (emitRemarks && inPlace)
    copy.emitRemark("32-bit indices in place: ")
        << numLoops << " loop(s) counted and " << numAccesses
        << " access(es) addressed in i32; the types and the grid fix every "
           "size the proof needs, so no test and no copy";
  else if (emitRemarks)
    copy.emitRemark("32-bit index copy: ")
        << numLoops << " loop(s) counted and " << numAccesses
        << " access(es) addressed in i32, run while the host finds the "
           "assumed sizes and every accessed memref's offsets below 2^31";
}

void NarrowIndicesPass::runOnOperation() {
  SmallVector<gpu::LaunchOp> launches;
  getOperation().walk([&](gpu::LaunchOp launch) {
    if (!launch->getParentOfType<gpu::GPUModuleOp>())
      launches.push_back(launch);
  });
  for (gpu::LaunchOp launch : launches)
    narrowLaunch(launch);
}
