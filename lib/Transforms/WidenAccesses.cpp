//===- WidenAccesses.cpp - Vector loads and stores in thread loops --------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A thread loop that moves one 4-byte element an iteration leaves the
// memory system short of bytes in flight: on an H200 the float4 copy runs at
// 99% of copy bandwidth and the scalar one at 82%. Widening gives each
// thread V contiguous elements an iteration through one 128-bit access per
// memref, keeping the warp's accesses contiguous, and leaves the few
// elements that do not fill a vector to a scalar loop of the same shape.
//
// Vector accesses must be aligned to their size, which nothing in a
// memref's type promises, so the widened loop runs under a run-time check
// that is the same for every thread sharing the loop; the original loop is
// the fallback.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::threadbind {
#define GEN_PASS_DEF_WIDENACCESSESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// A loop whose iterations the threads sharing it split by lane: thread
/// `lane` (0 <= lane < stride) runs `base + lane`, `base + lane + stride`,
/// and so on, below the upper bound.
struct LaneLoop {
  scf::ForOp loop;
  /// Loop-invariant start of the range; null for 0.
  Value base;
  /// The thread's lane: blockIdx.x * blockDim.x + threadIdx.x, or
  /// threadIdx.x.
  Value lane;
};

/// A load or store at the loop's position: the last index is the induction
/// variable plus a loop-invariant offset, the others loop-invariant.
struct WideAccess {
  Operation *op;
  Value memref;
  /// The offset where it is not a constant; null otherwise.
  Value offset;
  /// The offset where it is a constant (0 for none).
  std::optional<int64_t> constant;
  SmallVector<Value> outerIndices;
  Type elementType;
};

/// The loads of one row (a memref and its outer indices) at constant
/// offsets that are not all a whole number of vectors apart: a stencil's
/// j-1, j, j+1. A vector iteration loads the row's elements from `anchor`
/// (relative to the iteration's first element) in blocks of a vector's
/// width, each block as one aligned vector where it is inside what the
/// iteration reads of the memref anyway and holds two elements the loads
/// use, else those elements one at a time; every load then takes its
/// lanes from the blocks.
struct RowLoads {
  Value memref;
  SmallVector<Value> outerIndices;
  Type elementType;
  /// The loads and their offsets.
  SmallVector<std::pair<Operation *, int64_t>> loads;
  /// Where the first block starts; congruent to the plan's residue.
  int64_t anchor = 0;
  /// For each block, whether it is loaded as one vector.
  SmallVector<bool> vectorBlocks;
  /// The elements loaded one at a time.
  int64_t singles = 0;
};

/// What widening `loop` needs, or why it cannot be done.
struct WideningPlan {
  gpu::LaunchOp launch;
  LaneLoop lanes;
  SmallVector<WideAccess> loads, stores;
  /// Elements a vector.
  unsigned width = 0;
  /// Where the host may size the launch's grid for the loop's vectors: the
  /// loop itself, alone in its launch, or the grid-stride row loop it is
  /// alone in; null where it may not.
  Operation *gridOwner = nullptr;
  /// That grid-stride loop along y, where there is one.
  scf::ForOp gridRows;
  /// The ops of one iteration: the loop's body, or the body of the branch
  /// that skips iterations below `guardLower` (the start the mapping
  /// rounded down to a warp's width).
  Block *body = nullptr;
  Value guardLower;
  /// The ops moved out of the loop's body, in order.
  SmallVector<Operation *> hoisted;
  /// A stencil's rows (see RowLoads), whose loads `loads` then leaves out.
  SmallVector<RowLoads> rows;
  /// The offset modulo the width at which the rows' vectors start: the
  /// stores' (0 without a store at a constant offset).
  int64_t residue = 0;
  /// Whether a vector at the range's edge may load whole vectors where
  /// they lie inside their memrefs: the body reads memory only through the
  /// rows and the single vectors at constant offsets, and its other ops
  /// may run on any values (its lanes outside the range compute on
  /// elements the loop does not reach).
  bool edgesLoadWhole = false;
  std::string whyNot;
};

bool isProduct(Value v, Value a, Value b) {
  auto mul = v.getDefiningOp<arith::MulIOp>();
  return mul && ((mul.getLhs() == a && mul.getRhs() == b) ||
                 (mul.getLhs() == b && mul.getRhs() == a));
}

/// Splits `v` into `lane` and a loop-invariant rest when it is `lane` or
/// `rest + lane`.
bool matchLaneStart(Value v, Value lane, scf::ForOp loop, Value &rest) {
  if (v == lane) {
    rest = Value();
    return true;
  }
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [mine, other] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
    if (mine == lane && loop.isDefinedOutsideOfLoop(other)) {
      rest = other;
      return true;
    }
  }
  return false;
}

/// Whether `v` is defined outside `launch`, on the host (true for null: a
/// missing base or offset).
bool isOnHost(Value v, gpu::LaunchOp launch) {
  return !v || !launch.getBody().isAncestor(v.getParentRegion());
}

/// Whether `v` is blockIdx * blockDim + threadIdx along launch dimension
/// `dim` (0 for x, 1 for y): the thread's position in the grid.
bool isGridPosition(Value v, gpu::LaunchOp launch, unsigned dim) {
  auto pick = [&](const gpu::KernelDim3 &d) { return dim == 0 ? d.x : d.y; };
  Value b = pick(launch.getBlockIds()), t = pick(launch.getThreadIds());
  Value bd = pick(launch.getBlockSize());
  // A block one thread deep leaves the thread's index out.
  if (isConstantIntValue(pick(launch.getBlockSizeOperandValues()), 1) &&
      isProduct(v, b, bd))
    return true;
  auto a = v.getDefiningOp<arith::AddIOp>();
  return a && ((isProduct(a.getLhs(), b, bd) && a.getRhs() == t) ||
               (isProduct(a.getRhs(), b, bd) && a.getLhs() == t));
}

/// Whether `loop` is a grid-stride loop along launch dimension `dim` (0 for
/// x, 1 for y): from [base +] blockIdx * blockDim + threadIdx by
/// gridDim * blockDim.
std::optional<LaneLoop> matchGridStride(scf::ForOp loop, gpu::LaunchOp launch,
                                        unsigned dim) {
  auto pick = [&](const gpu::KernelDim3 &v) { return dim == 0 ? v.x : v.y; };
  Value bd = pick(launch.getBlockSize()), gd = pick(launch.getGridSize());
  if (!isProduct(loop.getStep(), gd, bd))
    return std::nullopt;
  auto global = [&](Value v) -> Value {
    return isGridPosition(v, launch, dim) ? v : Value();
  };
  Value lb = loop.getLowerBound();
  if (Value lane = global(lb))
    return LaneLoop{loop, Value(), lane};
  auto outer = lb.getDefiningOp<arith::AddIOp>();
  if (!outer)
    return std::nullopt;
  for (auto [mine, other] : {std::pair(outer.getLhs(), outer.getRhs()),
                             std::pair(outer.getRhs(), outer.getLhs())}) {
    if (Value lane = global(mine); lane && loop.isDefinedOutsideOfLoop(other))
      return LaneLoop{loop, other, lane};
  }
  return std::nullopt;
}

/// Whether `loop` is one of the two lane loops the mapping emits along x:
/// grid-stride, or a block's lanes (from threadIdx.x by blockDim.x).
std::optional<LaneLoop> matchLaneLoop(scf::ForOp loop, gpu::LaunchOp launch) {
  if (std::optional<LaneLoop> lanes = matchGridStride(loop, launch, 0))
    return lanes;
  LaneLoop lanes{loop, Value(), launch.getThreadIds().x};
  if (loop.getStep() == launch.getBlockSize().x &&
      matchLaneStart(loop.getLowerBound(), lanes.lane, loop, lanes.base))
    return lanes;
  return std::nullopt;
}

/// Splits `index` into the induction variable of `loop` and a
/// loop-invariant offset: `iv`, `iv + x`, `x + iv` or `iv - c` for a
/// constant c. Sets `offset` where the offset is not a constant and
/// `constant` where it is.
bool matchLaneOffset(Value index, scf::ForOp loop, Value &offset,
                     std::optional<int64_t> &constant) {
  Value iv = loop.getInductionVar();
  offset = Value();
  constant.reset();
  if (index == iv) {
    constant = 0;
    return true;
  }
  if (auto sub = index.getDefiningOp<arith::SubIOp>()) {
    std::optional<int64_t> c = getConstantIntValue(sub.getRhs());
    if (sub.getLhs() != iv || !c || *c == std::numeric_limits<int64_t>::min())
      return false;
    constant = -*c;
    return true;
  }
  Value rest;
  if (!matchLaneStart(index, iv, loop, rest))
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(rest))
    constant = *c;
  else
    offset = rest;
  return true;
}

/// Whether the access `op` with `indices` into `memref` is at the loop's
/// position, and how.
std::optional<WideAccess> matchWideAccess(Operation *op, Value memref,
                                          ValueRange indices,
                                          scf::ForOp loop) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 0 || !type.isLastDimUnitStride() ||
      !loop.isDefinedOutsideOfLoop(memref))
    return std::nullopt;
  Type element = type.getElementType();
  if (!isVectorElementType(element))
    return std::nullopt;
  WideAccess access{op, memref, Value(), std::nullopt, {}, element};
  for (Value index : indices.drop_back()) {
    if (!loop.isDefinedOutsideOfLoop(index))
      return std::nullopt;
    access.outerIndices.push_back(index);
  }
  if (!matchLaneOffset(indices.back(), loop, access.offset, access.constant))
    return std::nullopt;
  return access;
}

/// The body of `loop` if it is only `scf.if (iv >= lower)` around the
/// iteration, `lower` loop-invariant: the mapping's start rounded down to a
/// warp's width, whose first iterations the branch skips. Sets `lower`.
Block *matchLowerGuard(scf::ForOp loop, Value &lower) {
  Block *body = loop.getBody();
  if (body->getOperations().size() != 3)
    return nullptr;
  auto cmp = dyn_cast<arith::CmpIOp>(body->front());
  auto guard = dyn_cast<scf::IfOp>(*std::next(body->begin()));
  if (!cmp || !guard || guard.getCondition() != cmp.getResult() ||
      !cmp->hasOneUse() || guard.getNumResults() != 0 ||
      !guard.getElseRegion().empty() ||
      cmp.getPredicate() != arith::CmpIPredicate::sge ||
      cmp.getLhs() != loop.getInductionVar() ||
      !loop.isDefinedOutsideOfLoop(cmp.getRhs()))
    return nullptr;
  lower = cmp.getRhs();
  return guard.thenBlock();
}

/// Whether `op` (not a load or store) may be cloned into several lanes and
/// moved ahead of the loop's stores: it must not write, allocate or free,
/// and its effects must be known.
bool onlyReads(Operation *op) {
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return true; // its nested ops are checked on their own
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  return !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// Whether `value` can be computed differently by two threads that share a
/// lane loop along x: it depends on threadIdx.x, or for a grid-stride loop
/// (whose lanes span blocks) on blockIdx.x. A loop's induction variable
/// depends on what its bounds and step do; any other value defined by an
/// op with regions, or carried by a loop, counts as dependent.
bool dependsOnLaneIds(Value value, gpu::LaunchOp launch, bool blockLanes) {
  Value bx = blockLanes ? Value() : launch.getBlockIds().x;
  Value tx = launch.getThreadIds().x;
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second || isOnHost(next, launch))
      continue;
    if (next == tx || (bx && next == bx))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(next)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == launch.getOperation())
        continue; // another id or size
      auto loop = dyn_cast<scf::ForOp>(owner);
      if (!loop || arg != loop.getInductionVar())
        return true;
      llvm::append_range(work,
                         ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                    loop.getStep()});
      continue;
    }
    Operation *def = next.getDefiningOp();
    if (def->getNumRegions() != 0)
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Whether the launch's grid can be sized for the widened loop of `plan`:
/// the launch is grid-stride, and the loop is its only loop (the owner is
/// the loop) or the only loop of a grid-stride loop over rows along y that
/// is (the owner is the row loop, also plan.gridRows), with every bound on
/// the host. Sets plan.gridOwner.
void findGridOwner(WideningPlan &plan) {
  const LaneLoop &lanes = plan.lanes;
  gpu::LaunchOp launch = plan.launch;
  scf::ForOp loop = lanes.loop;
  if (getGridPolicy(launch) != GridPolicy::GridStride ||
      lanes.lane == launch.getThreadIds().x)
    return;
  auto onHost = [&](Value v) { return isOnHost(v, launch); };
  auto onlyLoopIn = [](Block &block, Operation *loop) {
    return llvm::all_of(block, [&](Operation &op) {
      return &op == loop || op.getNumRegions() == 0;
    });
  };
  if (!onHost(loop.getUpperBound()) || !onHost(lanes.base))
    return;
  Block &body = launch.getBody().front();
  if (loop->getParentOp() == launch.getOperation()) {
    if (onlyLoopIn(body, loop))
      plan.gridOwner = loop;
    return;
  }
  auto rows = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!rows || rows->getParentOp() != launch.getOperation() ||
      !onlyLoopIn(body, rows) || !onlyLoopIn(*rows.getBody(), loop))
    return;
  std::optional<LaneLoop> rowLanes = matchGridStride(rows, launch, 1);
  if (!rowLanes || !onHost(rows.getUpperBound()) || !onHost(rowLanes->base))
    return;
  plan.gridOwner = rows;
  plan.gridRows = rows;
}

/// The most iterations of a nested loop that still count as straight-line
/// work (a 3x3 stencil's loops, once unrolled).
constexpr int64_t kShortTrip = 16;

/// Whether `loop` has a constant trip count of at most kShortTrip.
bool hasShortConstantTrip(LoopLikeOpInterface loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return trips && trips->ule(kShortTrip);
}

/// A 1-D cover launch: one iteration a thread, at position `position` =
/// blockIdx.x * blockDim.x + threadIdx.x, guarded by `position < extent`.
/// The guard is `root` itself, or the else branch of `root` where
/// threadbind-remove-tail-checks split the launch on whether the block is
/// full (the then branch is the same body without the check).
struct CoverLaunch {
  Operation *root;
  scf::IfOp guard;
  Value position;
  Value extent;
};

/// Whether `op` is `scf.if (position < extent)` with no else, `position`
/// blockIdx.x * blockDim.x + threadIdx.x and `extent` from the host.
bool isCoverGuard(Operation *op, gpu::LaunchOp launch, CoverLaunch &cover) {
  auto guard = dyn_cast_or_null<scf::IfOp>(op);
  if (!guard || guard.getNumResults() != 0 ||
      !guard.getElseRegion().empty())
    return false;
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
      !isOnHost(cmp.getRhs(), launch))
    return false;
  if (!isGridPosition(cmp.getLhs(), launch, 0))
    return false;
  // The loop made from the guard takes the position as its induction
  // variable: no other value the body takes from outside may depend on it.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(guard.getThenRegion(), captured);
  for (Value value : captured)
    if (value != cmp.getLhs() &&
        dependsOnLaneIds(value, launch, /*blockLanes=*/false))
      return false;
  cover.guard = guard;
  cover.position = cmp.getLhs();
  cover.extent = cmp.getRhs();
  return true;
}

/// The cover launch `launch` is, if it is one this pass can widen: a
/// cover-policy launch of one dimension whose body is pure ops and one
/// guarded iteration (see CoverLaunch).
std::optional<CoverLaunch> matchCoverLaunch(gpu::LaunchOp launch) {
  if (getGridPolicy(launch) != GridPolicy::Cover ||
      !isConstantIntValue(launch.getGridSizeY(), 1) ||
      !isConstantIntValue(launch.getGridSizeZ(), 1) ||
      !isConstantIntValue(launch.getBlockSizeY(), 1) ||
      !isConstantIntValue(launch.getBlockSizeZ(), 1))
    return std::nullopt;
  Operation *root = nullptr;
  for (Operation &op : launch.getBody().front().without_terminator()) {
    if (op.getNumRegions() == 0 && isPure(&op))
      continue;
    if (root)
      return std::nullopt;
    root = &op;
  }
  CoverLaunch cover;
  cover.root = root;
  if (isCoverGuard(root, launch, cover))
    return cover;
  auto split = dyn_cast_or_null<scf::IfOp>(root);
  if (!split || split.getNumResults() != 0 || split.getElseRegion().empty())
    return std::nullopt;
  Block &otherwise = split.getElseRegion().front();
  if (otherwise.getOperations().size() != 2 ||
      !isCoverGuard(&otherwise.front(), launch, cover))
    return std::nullopt;
  return cover;
}

/// The cover launch `launch` is, if it is one of two or three dimensions
/// this pass can widen: its guard along x is nested only in branches and
/// loops that take no decision on x (the guards along y and z, or the
/// loops of the copy that loops along them), and nothing outside the guard
/// but the position and the guard's test depends on x. `root` is the
/// guard.
std::optional<CoverLaunch> matchNestedCoverLaunch(gpu::LaunchOp launch) {
  if (getGridPolicy(launch) != GridPolicy::Cover)
    return std::nullopt;
  unsigned guards = 0;
  CoverLaunch cover;
  launch.getBody().walk([&](scf::IfOp op) {
    CoverLaunch candidate;
    if (isCoverGuard(op, launch, candidate)) {
      ++guards;
      cover = candidate;
    }
  });
  if (guards != 1)
    return std::nullopt;
  cover.root = cover.guard;
  auto dependsOnX = [&](Value v) {
    return dependsOnLaneIds(v, launch, /*blockLanes=*/false);
  };
  for (Operation *parent = cover.guard->getParentOp(); parent != launch;
       parent = parent->getParentOp()) {
    bool takesNoDecisionOnX =
        TypeSwitch<Operation *, bool>(parent)
            .Case([&](scf::IfOp branch) {
              return branch.getNumResults() == 0 &&
                     !dependsOnX(branch.getCondition());
            })
            .Case([&](scf::ForOp loop) {
              return loop.getNumResults() == 0 &&
                     llvm::none_of(loop.getOperands(), dependsOnX);
            })
            .Default([](Operation *) { return false; });
    if (!takesNoDecisionOnX)
      return std::nullopt;
  }
  // The widened grid has fewer threads along x: code outside the guard that
  // told them apart would lose the rest.
  Operation *test = cover.guard.getCondition().getDefiningOp();
  Operation *position = cover.position.getDefiningOp();
  WalkResult walk = launch.getBody().walk([&](Operation *op) {
    if (op == test || op == position || op == cover.guard.getOperation() ||
        cover.guard->isProperAncestor(op) ||
        (position && op == position->getOperand(0).getDefiningOp()) ||
        (position && op == position->getOperand(1).getDefiningOp()))
      return WalkResult::advance();
    return llvm::any_of(op->getOperands(), dependsOnX) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return cover;
}

/// Moves the ops of `block` (in `loop`) that compute the same value in
/// every iteration, and may run where the iteration would not, before the
/// loop: a row's index (`i + 1`) is then known to be the same for all the
/// elements of a vector.
void hoistInvariants(scf::ForOp loop, Block *block,
                     SmallVectorImpl<Operation *> &moved) {
  for (Operation &op : llvm::make_early_inc_range(block->without_terminator()))
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        isSpeculatable(&op) &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          return loop.isDefinedOutsideOfLoop(operand);
        })) {
      op.moveBefore(loop);
      moved.push_back(&op);
    }
}

/// The most vectors a stencil's row may span: a row's loads further apart
/// than that are no longer a neighbourhood a thread's vector serves.
constexpr int64_t kMaxRowBlocks = 16;

/// Moves the loads at constant offsets of `plan` (a stencil's: some of one
/// row are not a whole number of vectors apart) into rows (see RowLoads),
/// or says why not.
void planRows(WideningPlan &plan) {
  int64_t width = plan.width;
  // Every row's vectors start where a store's does, so that one peel
  // aligns them all where the rows and the stored rows are alike (equal
  // strides, aligned bases).
  plan.residue = 0;
  for (const WideAccess &store : plan.stores) {
    if (store.constant) {
      plan.residue = llvm::mod(*store.constant, width);
      break;
    }
  }
  // What a vector iteration reads or writes of each memref, relative to
  // its first element, all of it valid: each access at the top of the body
  // runs in every one of the iteration's elements, and the valid indices
  // of the last dimension are an interval, so everything between two valid
  // ones is too.
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> hull;
  auto widen = [&](const WideAccess &a) {
    if (!a.constant)
      return;
    auto [it, isNew] =
        hull.try_emplace(a.memref, *a.constant, *a.constant + width - 1);
    it->second.first = std::min(it->second.first, *a.constant);
    it->second.second = std::max(it->second.second, *a.constant + width - 1);
  };
  // Offsets this far apart would overflow the arithmetic below; no stencil
  // reads them.
  constexpr int64_t kFar = int64_t(1) << 40;
  auto far = [&](const WideAccess &a) {
    return a.constant && (*a.constant > kFar || *a.constant < -kFar);
  };
  if (llvm::any_of(plan.loads, far) || llvm::any_of(plan.stores, far)) {
    plan.whyNot = "an access is more than 2^40 elements off the loop's "
                  "position";
    return;
  }
  llvm::for_each(plan.loads, widen);
  llvm::for_each(plan.stores, widen);
  SmallVector<WideAccess> single;
  for (WideAccess &load : plan.loads) {
    if (!load.constant) {
      single.push_back(load);
      continue;
    }
    auto row = llvm::find_if(plan.rows, [&](const RowLoads &r) {
      return r.memref == load.memref && r.outerIndices == load.outerIndices;
    });
    if (row == plan.rows.end()) {
      plan.rows.push_back(RowLoads{
          load.memref, load.outerIndices, load.elementType, {}, 0, {}, 0});
      row = std::prev(plan.rows.end());
    }
    row->loads.push_back({load.op, *load.constant});
  }
  plan.loads = std::move(single);
  for (RowLoads &row : plan.rows) {
    int64_t lo = row.loads.front().second, hi = lo;
    for (auto [op, offset] : row.loads) {
      lo = std::min(lo, offset);
      hi = std::max(hi, offset);
    }
    row.anchor = lo - llvm::mod(lo - plan.residue, width);
    int64_t blocks = llvm::divideCeilSigned(hi + width - row.anchor, width);
    if (blocks > kMaxRowBlocks) {
      plan.whyNot = ("the loads of one row span " + Twine(blocks) +
                     " vectors, more than " + Twine(kMaxRowBlocks))
                        .str();
      return;
    }
    auto [valid, validEnd] = hull.lookup(row.memref);
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t start = row.anchor + b * width;
      int64_t used = 0;
      for (int64_t q = start; q < start + width; ++q)
        used += llvm::any_of(row.loads, [&](auto load) {
          return load.second <= q && q < load.second + width;
        });
      bool isVector =
          used >= 2 && start >= valid && start + width - 1 <= validEnd;
      row.vectorBlocks.push_back(isVector);
      if (!isVector)
        row.singles += used;
    }
  }
}

/// The launches in `block`, at any depth.
SmallVector<gpu::LaunchOp> getLaunches(Block *block) {
  SmallVector<gpu::LaunchOp> launches;
  block->walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  return launches;
}

/// The other launch of the stencil choice (see kStencilChoiceAttr) that
/// `launch` is one side of: the host `scf.if` around it holds one launch
/// on each side, both marked, one cover and the other grid-stride. Null
/// where static sizes settled the choice already, or canonicalization
/// merged it with another.
gpu::LaunchOp getChoicePartner(gpu::LaunchOp launch) {
  auto choice = dyn_cast_or_null<scf::IfOp>(launch->getParentOp());
  if (!isStencilChoice(launch) || !choice || choice.getNumResults() != 0 ||
      !choice.elseBlock())
    return nullptr;
  SmallVector<gpu::LaunchOp> thenSide = getLaunches(choice.thenBlock());
  SmallVector<gpu::LaunchOp> elseSide = getLaunches(choice.elseBlock());
  if (thenSide.size() != 1 || elseSide.size() != 1)
    return nullptr;
  gpu::LaunchOp cover = thenSide.front(), gridStride = elseSide.front();
  if (!isStencilChoice(cover) || !isStencilChoice(gridStride) ||
      getGridPolicy(cover) != GridPolicy::Cover ||
      getGridPolicy(gridStride) != GridPolicy::GridStride)
    return nullptr;
  return launch == cover ? gridStride : cover;
}

/// The plan for widening the loop of `lanes`, which `isCover` says the
/// pass built from a cover launch's guard (its grid then the loop's). Ops
/// of its body that are the same in every iteration move out of it first
/// (plan.hoisted).
WideningPlan planWidening(const LaneLoop &lanes, gpu::LaunchOp launch,
                          unsigned vectorBytes, bool nestedLoops,
                          bool isCover = false) {
  WideningPlan plan;
  plan.launch = launch;
  plan.lanes = lanes;
  scf::ForOp loop = lanes.loop;
  if (loop.getNumResults() != 0) {
    plan.whyNot = "the loop carries values";
    return plan;
  }
  if (isCover)
    plan.gridOwner = loop;
  else
    findGridOwner(plan);
  if (plan.gridOwner != loop.getOperation() && !nestedLoops) {
    plan.whyNot = "its threads along x also run other loops or rows, and "
                  "the grid is sized for one element a thread, so most of "
                  "them would have no vector to take (nested-loops widens "
                  "it anyway)";
    return plan;
  }
  // Widening divides the threads by the vector's width. Where each
  // element is a loop's work (a reduction over a row, a recurrence, gemm's
  // sum over k), the vectors save little, and the threads left idle (or a
  // grid sized for the vectors) cost more: on an H200 in one run, gemm at
  // 512 took 0.085 ms with scalar rows and 0.125 ms widened, 3mm 0.574 ms
  // widened (bench/results/2026-11-26-polybench-nvidia-h200.md).
  Operation *inner = nullptr;
  loop.getBody()->walk([&](Operation *op) {
    auto nested = dyn_cast<LoopLikeOpInterface>(op);
    if (isa<scf::WhileOp>(op) || (nested && !hasShortConstantTrip(nested)))
      inner = op;
  });
  if (inner) {
    plan.whyNot = ("each iteration runs a '" +
                   inner->getName().getStringRef() +
                   "' of its own, so vectors would take few bytes off its "
                   "work while dividing the threads by the vector's width")
                      .str();
    return plan;
  }
  // A loop the mapping started below its lower bound, so that warps start
  // on a cache line, skips those first iterations in a branch: the
  // iterations are then the branch's body from that bound on.
  hoistInvariants(loop, loop.getBody(), plan.hoisted);
  plan.body = loop.getBody();
  if (Block *guarded = matchLowerGuard(loop, plan.guardLower)) {
    plan.body = guarded;
    hoistInvariants(loop, guarded, plan.hoisted);
  }
  bool sawStore = false;
  unsigned widestBytes = 0;
  auto note = [&](const WideAccess &a) {
    widestBytes =
        std::max(widestBytes, a.elementType.getIntOrFloatBitWidth() / 8);
  };
  Block *body = plan.body;
  WalkResult walk = body->walk([&](Operation *op) -> WalkResult {
    bool topLevel = op->getBlock() == body;
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      std::optional<WideAccess> access = matchWideAccess(
          op, store.getMemRef(), store.getIndices(), loop);
      if (!access || !topLevel) {
        plan.whyNot = "a store is not at the loop's position in the last, "
                      "unit-stride dimension of a memref";
        return WalkResult::interrupt();
      }
      sawStore = true;
      note(*access);
      plan.stores.push_back(*access);
      return WalkResult::advance();
    }
    if (!onlyReads(op)) {
      plan.whyNot = ("'" + op->getName().getStringRef() +
                     "' writes memory or has unknown effects")
                        .str();
      return WalkResult::interrupt();
    }
    bool reads = !isMemoryEffectFree(op) &&
                 !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
    if (reads && sawStore) {
      plan.whyNot = ("'" + op->getName().getStringRef() +
                     "' reads memory after a store")
                        .str();
      return WalkResult::interrupt();
    }
    if (auto load = dyn_cast<memref::LoadOp>(op); load && topLevel) {
      if (std::optional<WideAccess> access = matchWideAccess(
              op, load.getMemRef(), load.getIndices(), loop)) {
        note(*access);
        plan.loads.push_back(*access);
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return plan;
  if (plan.loads.empty() && plan.stores.empty()) {
    plan.whyNot = "no load or store is at the loop's position in a "
                  "unit-stride dimension";
    return plan;
  }
  plan.width = vectorBytes / widestBytes;
  if (plan.width < 2) {
    plan.whyNot = ("its widest element, " + Twine(widestBytes) +
                   " bytes, fills a " + Twine(vectorBytes) + "-byte vector")
                      .str();
    return plan;
  }
  int64_t width = plan.width;
  auto sameRow = [](const WideAccess &a, const WideAccess &b) {
    return a.memref == b.memref && a.outerIndices == b.outerIndices;
  };
  // Two accesses to one row a constant distance apart that is not a whole
  // number of vectors (a stencil's j-1, j, j+1) are never aligned together.
  // A store and another access could not be widened: no peel serves both,
  // and a grid sized for vectors would run the scalar fallback on too few
  // threads. Loads of one row at different offsets are a stencil's: they
  // take their elements from the row's aligned vectors (see RowLoads).
  SmallVector<const WideAccess *> all;
  for (const WideAccess &a : plan.stores)
    all.push_back(&a);
  for (const WideAccess &a : plan.loads)
    all.push_back(&a);
  bool stencil = false;
  for (auto [i, a] : llvm::enumerate(all)) {
    for (const WideAccess *b : ArrayRef(all).take_front(i)) {
      if (!sameRow(*a, *b) || !a->constant || !b->constant ||
          *a->constant == *b->constant)
        continue;
      if (isa<memref::LoadOp>(a->op) && isa<memref::LoadOp>(b->op)) {
        stencil = true;
        continue;
      }
      if ((*a->constant - *b->constant) % width == 0)
        continue;
      plan.whyNot = ("two of its accesses to one row, one a store, are " +
                     Twine(std::abs(*a->constant - *b->constant)) +
                     " elements apart, not a multiple of the " +
                     Twine(plan.width) + " a vector, so no start aligns both")
                        .str();
      return plan;
    }
  }
  // The peel must come out the same for every thread that shares the
  // loop, or they would split the range differently.
  bool blockLanes = lanes.lane == launch.getThreadIds().x;
  auto laneDependent = [&](const WideAccess &a) {
    if (a.offset && dependsOnLaneIds(a.offset, launch, blockLanes))
      return true;
    if (dependsOnLaneIds(a.memref, launch, blockLanes))
      return true;
    return llvm::any_of(a.outerIndices, [&](Value index) {
      return dependsOnLaneIds(index, launch, blockLanes);
    });
  };
  if (llvm::any_of(plan.loads, laneDependent) ||
      llvm::any_of(plan.stores, laneDependent) ||
      (lanes.base && dependsOnLaneIds(lanes.base, launch, blockLanes)) ||
      (plan.guardLower &&
       dependsOnLaneIds(plan.guardLower, launch, blockLanes))) {
    plan.whyNot = "where an access starts depends on threadIdx.x or "
                  "blockIdx.x, so threads sharing the loop could disagree "
                  "on its alignment";
    return plan;
  }
  // Widening hands a thread its neighbours' elements, so every thread of
  // the original partition must reach this loop: no enclosing branch may
  // tell them apart.
  for (Operation *parent = loop->getParentOp(); parent != launch;
       parent = parent->getParentOp()) {
    bool laneDependentControl =
        TypeSwitch<Operation *, bool>(parent)
            .Case([&](scf::IfOp branch) {
              return dependsOnLaneIds(branch.getCondition(), launch,
                                      blockLanes);
            })
            .Case([&](scf::ForOp outer) {
              return llvm::any_of(outer.getOperands(), [&](Value v) {
                return dependsOnLaneIds(v, launch, blockLanes);
              });
            })
            .Default([](Operation *) { return true; });
    if (laneDependentControl) {
      plan.whyNot = ("it runs under '" + parent->getName().getStringRef() +
                     "', whose control may differ between threads along "
                     "x, and widening hands a thread its neighbours' "
                     "elements")
                        .str();
      return plan;
    }
  }
  if (stencil) {
    // In a grid-stride nest each thread walks rows, and a row of a
    // thread's vectors is too little to pay for the row's alignment test:
    // on an H200, 3-D stencils so widened ran up to 2.5 times slower and
    // 2-D ones from 12% faster to 30% slower, where cover grids widened
    // ran faster than scalar ones
    // (bench/results/2026-11-29-stencil-widen-h200.md).
    if (plan.gridOwner != loop.getOperation()) {
      plan.whyNot = getChoicePartner(launch)
                        ? "its rows are read at shifted offsets (a "
                          "stencil's), which a grid-stride nest does not "
                          "widen; the host runs the cover launch beside it "
                          "where every row starts alike"
                        : "its rows are read at shifted offsets (a "
                          "stencil's), which are widened in cover launches "
                          "(--grid-policy=cover) and in loops that are "
                          "alone in their grid-stride launch, not in a "
                          "grid-stride nest";
      return plan;
    }
    planRows(plan);
    llvm::SmallPtrSet<Operation *, 16> rowLoads;
    for (const RowLoads &row : plan.rows)
      for (auto [op, offset] : row.loads)
        rowLoads.insert(op);
    for (const WideAccess &access : plan.loads)
      if (access.constant)
        rowLoads.insert(access.op);
    plan.edgesLoadWhole =
        llvm::all_of(plan.body->without_terminator(), [&](Operation &op) {
          if (isa<memref::StoreOp>(op))
            return true;
          if (isa<memref::LoadOp>(op))
            return rowLoads.contains(&op);
          return op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
                 isSpeculatable(&op);
        });
  }
  return plan;
}

/// Whether `op` asks the host for the resident blocks
/// (kMaxResidentBlocksFn), a query that only reads the device's properties.
bool isResidentBlocksQuery(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && call.getCallee() == kMaxResidentBlocksFn;
}

/// Whether `gridX`, a launch's x grid size, is capped by the resident
/// blocks the host reports (not by a static max-blocks, or nothing).
bool isCappedByResidentBlocks(Value gridX) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  if (Operation *def = gridX.getDefiningOp())
    (void)getBackwardSlice(def, &slice, options);
  return llvm::any_of(slice, isResidentBlocksQuery);
}

/// Erases `op` if nothing uses it, and then the ops that computed its
/// operands, as they become unused: pure ops, and the resident-blocks
/// query.
void eraseDeadHostChain(RewriterBase &rewriter, Operation *op) {
  SmallVector<Operation *> work = {op};
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    if (!next || !next->use_empty() ||
        !(isPure(next) || isResidentBlocksQuery(next)))
      continue;
    for (Value operand : next->getOperands())
      work.push_back(operand.getDefiningOp());
    rewriter.eraseOp(next);
  }
}

/// Builds the widened loops for one plan.
class Widener {
public:
  Widener(RewriterBase &rewriter, WideningPlan &plan, unsigned unroll,
          bool assumeAligned)
      : rewriter(rewriter), plan(plan), unroll(unroll),
        assumeAligned(assumeAligned), loc(plan.lanes.loop.getLoc()) {}

  void run();

private:
  void shrinkGrid();

  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }
  Value add(Value a, Value b) {
    return rewriter.createOrFold<arith::AddIOp>(loc, a, b);
  }
  Value mul(Value a, Value b) {
    return rewriter.createOrFold<arith::MulIOp>(loc, a, b);
  }
  /// Where the range starts: the loop's base, or past the iterations its
  /// guard skips.
  Value start() { return start(plan.guardLower); }
  /// The same with the guard's bound `lower` (null for none).
  Value start(Value lower) {
    Value base = plan.lanes.base ? plan.lanes.base : cst(0);
    if (!lower)
      return base;
    return rewriter.createOrFold<arith::MaxSIOp>(loc, base, lower);
  }

  /// The element index of `access` at range position `element`.
  Value lastIndex(const WideAccess &access, Value element) {
    if (access.offset)
      return add(element, access.offset);
    return *access.constant ? add(element, cst(*access.constant)) : element;
  }
  Value rowIndex(int64_t position, Value element) {
    return position ? add(element, cst(position)) : element;
  }
  VectorType vectorType(const WideAccess &access) {
    return VectorType::get({plan.width}, access.elementType);
  }
  uint64_t alignment(const WideAccess &access) {
    return plan.width * access.elementType.getIntOrFloatBitWidth() / 8;
  }

  /// An i1 that holds where every access's first element (from range
  /// position `from`) lies the same number of elements past a vector
  /// boundary, and sets `elements` to that number. With `firstRow`, the
  /// same for every thread: in the accesses' first rows, and every outer
  /// stride a whole number of vectors (rowsStartAlike), so that every row
  /// agrees with the first.
  Value commonMisalignment(Value &elements, Value from, bool firstRow = false);
  /// An i1 that holds where every outer stride of `memref` is a whole number
  /// of vectors, so that its rows all start the same number of elements past
  /// a vector boundary; null for a memref of one dimension.
  Value rowsStartAlike(Value memref);
  /// On the host, before the launch: an i1 that holds where every row of
  /// each memref starts alike (its outer strides whole vectors), with in
  /// `elements` how far past a boundary the first store would start from
  /// the range's start (set in `from`) were its memory aligned (null
  /// without such a store); null where the host lacks a value it needs.
  Value hostAgreement(Value &elements, Value &from);
  /// The vector loops from `vectorStart`, then the elements after the last
  /// whole vector, by the same threads.
  void emitWide();
  /// The elements [start, vectorStart) by the loop's threads, one each.
  void emitScalar(Value lb, Value ub);
  /// One vector iteration of the body at vector index `vector`.
  void emitVectorBody(Value vector);
  /// One vector iteration from element `first`; where `full` is given and
  /// false at run time, only the lanes in [lo, hi) store.
  void emitVectorAt(Value first, Value full = Value(), Value lo = Value(),
                    Value hi = Value());
  /// An i1 that holds where lo <= v < hi.
  Value inRange(Value v, Value lo, Value hi);
  /// For each lane k of the vector from element `first` whose element lies
  /// in [lo, hi), `body(k, element)` under a test of it.
  void forLanesInRange(Value first, Value lo, Value hi,
                       function_ref<void(unsigned, Value)> body);
  /// An i1 that holds where every vector a stencil's vector iteration from
  /// `first` loads lies inside its memref (true where it loads none).
  Value rowsInBounds(Value first);
  /// A stencil's vectors on the boundaries `misaligned` elements below the
  /// range's start (null for on it), each thread's from its lane by the
  /// loop's stride, the vectors at the range's edges storing only their
  /// lanes inside it: no scalar loops at either end (see run()).
  void emitMaskedVectors(Value misaligned);
  scf::ForOp emitLoop(Value lb, Value ub, Value step,
                      function_ref<void(Value)> body);

  RewriterBase &rewriter;
  WideningPlan &plan;
  unsigned unroll;
  bool assumeAligned;
  Location loc;
  /// Where the first whole vector starts: start(), or past the peeled
  /// elements.
  Value vectorStart;
  /// For a stencil, on the host (see hostAgreement): whether the rows of
  /// each memref start alike, how far past a vector boundary the first
  /// store would start, and the range's start; null where the host cannot
  /// tell.
  Value hostAgree, hostPast, hostFrom;
};

Value Widener::commonMisalignment(Value &elements, Value from, bool firstRow) {
  Value agree;
  auto both = [&](Value ok) {
    agree = agree ? arith::AndIOp::create(rewriter, loc, agree, ok) : ok;
  };
  elements = nullptr;
  // Each vector's first element for this loop instance: the accesses
  // loaded or stored as one vector each, and the first vector of each
  // stencil row (the row's others are whole vectors after it).
  struct Checked {
    Value memref;
    SmallVector<Value> outerIndices;
    Value element;
    Type elementType;
  };
  SmallVector<Checked> checked;
  for (const SmallVector<WideAccess> *list : {&plan.loads, &plan.stores})
    for (const WideAccess &access : *list)
      checked.push_back({access.memref, access.outerIndices,
                         lastIndex(access, from), access.elementType});
  for (const RowLoads &row : plan.rows) {
    const bool *first = llvm::find(row.vectorBlocks, true);
    if (first == row.vectorBlocks.end())
      continue;
    int64_t block = first - row.vectorBlocks.begin();
    checked.push_back({row.memref, row.outerIndices,
                       rowIndex(row.anchor + block * plan.width, from),
                       row.elementType});
  }
  DenseSet<Value> strided;
  for (Checked &access : checked) {
    if (firstRow) {
      if (strided.insert(access.memref).second)
        if (Value alike = rowsStartAlike(access.memref))
          both(alike);
      for (Value &index : access.outerIndices)
        index = cst(0);
    }
    Value address = createElementAddress(rewriter, loc, access.memref,
                                         access.outerIndices, access.element);
    int64_t bytes = access.elementType.getIntOrFloatBitWidth() / 8;
    // An address off the element size (a reinterpreted byte buffer) can
    // never be peeled to a vector boundary.
    if (bytes > 1)
      both(arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(rewriter, loc, address, cst(bytes)), cst(0)));
    Value past = arith::DivUIOp::create(
        rewriter, loc,
        arith::RemUIOp::create(rewriter, loc, address, cst(plan.width * bytes)),
        cst(bytes));
    if (!elements)
      elements = past;
    else
      both(arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, past,
                                 elements));
  }
  return agree ? agree : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
}

Value Widener::rowsStartAlike(Value memref) {
  return createRowsStartAlike(rewriter, loc, memref, plan.width);
}

Value Widener::hostAgreement(Value &elements, Value &from) {
  auto onHost = [&](Value v) { return isOnHost(v, plan.launch); };
  if (!onHost(plan.lanes.base) ||
      (plan.guardLower && !onHost(plan.guardLower) &&
       !getConstantIntValue(plan.guardLower)))
    return Value();
  for (const SmallVector<WideAccess> *list : {&plan.loads, &plan.stores})
    for (const WideAccess &access : *list)
      if (!onHost(access.memref) || !onHost(access.offset))
        return Value();
  for (const RowLoads &row : plan.rows)
    if (!onHost(row.memref))
      return Value();
  // The guard's bound, made again on the host where it is a constant the
  // launch holds.
  Value lower = plan.guardLower;
  if (lower && !onHost(lower))
    lower = cst(*getConstantIntValue(lower));
  from = start(lower);
  // Every row starts where the first does, give or take whole vectors,
  // where each outer stride is a whole number of vectors. The pointers
  // are left to the kernel: the launch's quantities are what a C caller
  // computes from its arguments' sizes, strides and offsets (the header's
  // launchers, docs/Manifest.md).
  Value alike;
  DenseSet<Value> seen;
  auto note = [&](Value memref) {
    if (!seen.insert(memref).second)
      return;
    if (Value whole = rowsStartAlike(memref))
      alike =
          alike ? arith::AndIOp::create(rewriter, loc, alike, whole) : whole;
  };
  for (const SmallVector<WideAccess> *list : {&plan.loads, &plan.stores})
    for (const WideAccess &access : *list)
      note(access.memref);
  for (const RowLoads &row : plan.rows)
    note(row.memref);
  // Where the first store starts past a boundary, were its memory
  // aligned (as allocations are): the grid's count of vectors, one short
  // for a pointer off a boundary, whose lane then takes two.
  elements = Value();
  const WideAccess *store = llvm::find_if(
      plan.stores, [](const WideAccess &a) { return a.constant.has_value(); });
  if (store != plan.stores.end()) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, store->memref);
    elements = arith::RemUIOp::create(
        rewriter, loc, add(metadata.getOffset(), lastIndex(*store, from)),
        cst(plan.width));
  }
  return alike ? alike : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
}

scf::ForOp Widener::emitLoop(Value lb, Value ub, Value step,
                             function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
  return loop;
}

void Widener::emitVectorBody(Value vector) {
  emitVectorAt(add(vectorStart, mul(vector, cst(plan.width))));
}

void Widener::emitVectorAt(Value first, Value full, Value lo, Value hi) {
  scf::ForOp original = plan.lanes.loop;
  // Loads first: the plan proved nothing in the body reads after a store,
  // and every lane's reads then precede every lane's writes.
  DenseMap<Operation *, Value> loaded;
  for (const WideAccess &access : plan.loads) {
    SmallVector<Value> indices(access.outerIndices);
    indices.push_back(lastIndex(access, first));
    loaded[access.op] = vector::LoadOp::create(
        rewriter, loc, vectorType(access), access.memref, indices,
        /*nontemporal=*/false, llvm::MaybeAlign(alignment(access)));
  }
  // A stencil's rows: each block of the row a vector or the elements the
  // loads use one at a time, and each load's lanes taken from them.
  DenseMap<Operation *, SmallVector<Value>> fromRows;
  for (const RowLoads &row : plan.rows) {
    int64_t width = plan.width;
    SmallVector<Value> blocks;
    for (auto [b, isVector] : llvm::enumerate(row.vectorBlocks)) {
      if (!isVector) {
        blocks.push_back(Value());
        continue;
      }
      SmallVector<Value> indices(row.outerIndices);
      indices.push_back(rowIndex(row.anchor + b * width, first));
      blocks.push_back(vector::LoadOp::create(
          rewriter, loc, VectorType::get({width}, row.elementType), row.memref,
          indices, /*nontemporal=*/false,
          llvm::MaybeAlign(width * row.elementType.getIntOrFloatBitWidth() /
                           8)));
    }
    DenseMap<int64_t, Value> elements;
    auto element = [&](int64_t position) -> Value {
      auto [it, isNew] = elements.try_emplace(position, Value());
      if (!isNew)
        return it->second;
      int64_t fromAnchor = position - row.anchor;
      if (Value block = blocks[fromAnchor / width])
        return it->second = vector::ExtractOp::create(
                   rewriter, loc, block, ArrayRef<int64_t>{fromAnchor % width});
      SmallVector<Value> indices(row.outerIndices);
      Value index = rowIndex(position, first);
      indices.push_back(index);
      if (!full)
        return it->second =
                   memref::LoadOp::create(rewriter, loc, row.memref, indices);
      // A vector at the range's edge may reach past its memref's row with
      // a single element (the one before the first): that lane's value is
      // never stored, and the element is not loaded.
      Value size = memref::DimOp::create(rewriter, loc, row.memref,
                                         row.outerIndices.size());
      Value inside = inRange(index, cst(0), size);
      auto guarded = scf::IfOp::create(rewriter, loc, row.elementType, inside,
                                       /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(guarded.thenBlock(),
                                 guarded.thenBlock()->end());
      scf::YieldOp::create(
          rewriter, loc,
          memref::LoadOp::create(rewriter, loc, row.memref, indices)
              .getResult());
      rewriter.setInsertionPoint(guarded.elseBlock(),
                                 guarded.elseBlock()->end());
      scf::YieldOp::create(
          rewriter, loc,
          arith::ConstantOp::create(
              rewriter, loc,
              cast<TypedAttr>(rewriter.getZeroAttr(row.elementType)))
              .getResult());
      return it->second = guarded.getResult(0);
    };
    for (auto [op, offset] : row.loads)
      for (int64_t k = 0; k < width; ++k)
        fromRows[op].push_back(element(offset + k));
  }
  // Every lane's copy of the body, but the widened stores, which gather
  // each lane's value.
  DenseMap<Operation *, SmallVector<Value>> stored;
  for (unsigned k = 0; k < plan.width; ++k) {
    IRMapping mapping;
    for (auto &[op, lanes] : fromRows)
      mapping.map(op->getResult(0), lanes[k]);
    cloneVectorLane(rewriter, loc, plan.body, original.getInductionVar(), first,
                    k, loaded, mapping, [&](Operation &op) {
                      return isa<memref::StoreOp>(op) || fromRows.count(&op);
                    });
    for (const WideAccess &access : plan.stores)
      stored[access.op].push_back(mapping.lookupOrDefault(
          cast<memref::StoreOp>(access.op).getValue()));
  }
  // A vector at the range's edge stores only its lanes inside the range.
  scf::IfOp whole;
  if (full) {
    whole = scf::IfOp::create(rewriter, loc, full, /*withElseRegion=*/true);
    rewriter.setInsertionPoint(whole.thenBlock()->getTerminator());
  }
  for (const WideAccess &access : plan.stores) {
    Value values = vector::FromElementsOp::create(
        rewriter, loc, vectorType(access), stored[access.op]);
    SmallVector<Value> indices(access.outerIndices);
    indices.push_back(lastIndex(access, first));
    vector::StoreOp::create(rewriter, loc, values, access.memref, indices,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(alignment(access)));
  }
  if (!full)
    return;
  rewriter.setInsertionPoint(whole.elseBlock()->getTerminator());
  forLanesInRange(first, lo, hi, [&](unsigned k, Value element) {
    for (const WideAccess &access : plan.stores) {
      SmallVector<Value> indices(access.outerIndices);
      indices.push_back(lastIndex(access, element));
      memref::StoreOp::create(rewriter, loc, stored[access.op][k],
                              access.memref, indices);
    }
  });
  rewriter.setInsertionPointAfter(whole);
}

Value Widener::inRange(Value v, Value lo, Value hi) {
  return arith::AndIOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, v, lo),
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, v, hi));
}

void Widener::forLanesInRange(Value first, Value lo, Value hi,
                              function_ref<void(unsigned, Value)> body) {
  for (unsigned k = 0; k < plan.width; ++k) {
    Value element = add(first, cst(k));
    auto inside = scf::IfOp::create(rewriter, loc, inRange(element, lo, hi),
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(inside.thenBlock()->getTerminator());
    body(k, element);
  }
}

Value Widener::rowsInBounds(Value first) {
  // The widest reach of each memref's vectors and single elements, from
  // the vector's first element.
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> reach;
  auto note = [&](Value memref, int64_t from, int64_t to) {
    auto [it, isNew] = reach.try_emplace(memref, from, to);
    it->second.first = std::min(it->second.first, from);
    it->second.second = std::max(it->second.second, to);
  };
  // (Single elements are loaded under their own test.)
  int64_t width = plan.width;
  for (const RowLoads &row : plan.rows)
    for (auto [b, isVector] : llvm::enumerate(row.vectorBlocks))
      if (isVector)
        note(row.memref, row.anchor + int64_t(b) * width,
             row.anchor + int64_t(b + 1) * width - 1);
  for (const WideAccess &access : plan.loads)
    note(access.memref, *access.constant, *access.constant + width - 1);
  Value ok;
  for (auto [memref, span] : reach) {
    int64_t rank = cast<MemRefType>(memref.getType()).getRank();
    Value size = memref::DimOp::create(rewriter, loc, memref, rank - 1);
    Value below =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                              add(first, cst(span.first)), cst(0));
    Value above =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                              add(first, cst(span.second)), size);
    Value both = arith::AndIOp::create(rewriter, loc, below, above);
    ok = ok ? arith::AndIOp::create(rewriter, loc, ok, both) : both;
  }
  return ok ? ok : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
}

void Widener::emitMaskedVectors(Value misaligned) {
  scf::ForOp original = plan.lanes.loop;
  Value lane = plan.lanes.lane, stride = original.getStep();
  Value width = cst(plan.width);
  Value lo = start(), hi = original.getUpperBound();
  // The vectors start on the boundary at or below the range's first
  // element and run past its last.
  Value base = misaligned
                   ? rewriter.createOrFold<arith::SubIOp>(loc, lo, misaligned)
                   : lo;
  // None for an empty range: every vector then holds an iteration of the
  // range, whose loads say that the rows they read (their outer indices)
  // exist; an end vector tests only the last dimension.
  Value span = arith::SelectOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lo, hi),
      rewriter.createOrFold<arith::SubIOp>(loc, hi, base), cst(0));
  Value vectors = arith::CeilDivUIOp::create(rewriter, loc, span, width);
  emitLoop(lane, vectors, stride, [&](Value v) {
    Value first = add(base, mul(v, width));
    Value full = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, first,
                              lo),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                              add(first, width), hi));
    // A vector at an edge loads whole vectors where they lie inside their
    // memrefs (a row's first and last elements outside the range are still
    // the row's); the lanes outside the range compute what nothing stores.
    Value vectorOK = full;
    if (plan.edgesLoadWhole)
      vectorOK = arith::OrIOp::create(rewriter, loc, full, rowsInBounds(first));
    auto ifOp = scf::IfOp::create(rewriter, loc, vectorOK,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      emitVectorAt(first, full, lo, hi);
      rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      // Else each lane inside the range runs the iteration as written.
      forLanesInRange(first, lo, hi, [&](unsigned, Value element) {
        IRMapping mapping;
        mapping.map(original.getInductionVar(), element);
        for (Operation &op : plan.body->without_terminator())
          rewriter.clone(op, mapping);
      });
    }
  });
}

/// A grid-stride launch is sized for one element a thread: a widened loop
/// needs a width's fewer threads along x, and below the resident grid the
/// surplus blocks only find no work. Where the host may size the grid, x
/// shrinks to what the vectors need; in a 2-D launch, y gets the blocks x
/// gave up, as far as the rows need them. A grid-stride loop is right with
/// any grid.
void Widener::shrinkGrid() {
  if (!plan.gridOwner)
    return;
  gpu::LaunchOp launch = plan.launch;
  scf::ForOp loop = plan.lanes.loop;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(launch);
  auto ceilDiv = [&](Value a, Value b) -> Value {
    return arith::CeilDivUIOp::create(rewriter, loc, a, b);
  };
  auto atLeastOne = [&](Value v) -> Value {
    return arith::MaxUIOp::create(rewriter, loc, v, cst(1));
  };
  auto extent = [&](Value ub, Value base) -> Value {
    return rewriter.createOrFold<arith::MaxSIOp>(
        loc,
        base ? rewriter.createOrFold<arith::SubIOp>(loc, ub, base) : ub,
        cst(0));
  };
  Value vectors;
  // A stencil's vectors start on the boundary at or below the range's
  // start: as many more elements as its first store starts past one, where
  // the host can tell (one more vector where it cannot).
  if (!plan.rows.empty() && hostPast) {
    vectors = ceilDiv(rewriter.createOrFold<arith::MaxSIOp>(
                          loc,
                          add(rewriter.createOrFold<arith::SubIOp>(
                                  loc, loop.getUpperBound(), hostFrom),
                              hostPast),
                          cst(0)),
                      cst(plan.width));
  } else {
    vectors =
        ceilDiv(extent(loop.getUpperBound(), plan.lanes.base), cst(plan.width));
    if (!plan.rows.empty())
      vectors = arith::AddIOp::create(rewriter, loc, vectors, cst(1));
  }
  Value oldX = launch.getGridSizeX();
  Value wanted = atLeastOne(ceilDiv(vectors, launch.getBlockSizeX()));
  if (plan.gridOwner == loop.getOperation() && isCappedByResidentBlocks(oldX)) {
    // A vector a thread outruns a resident grid looping over vectors: on
    // an H200 in one run, a vector add of 2^28 floats took 0.781 ms on
    // the resident grid (1056 blocks), 0.759 ms on 16 times that and
    // 0.738 ms on a block a 256 vectors, and 6% less at 2^26 too
    // (bench/results/2026-11-27-grid-size-h200.md). The loop stays a
    // grid-stride loop, right on any grid; a static max-blocks still caps.
    Value newX = arith::MinUIOp::create(rewriter, loc, wanted,
                                        cst(GpuLimits::kMaxGridDim[0]));
    rewriter.modifyOpInPlace(
        launch, [&] { launch.getGridSizeXMutable().assign(newX); });
    eraseDeadHostChain(rewriter, oldX.getDefiningOp());
    return;
  }
  Value newX = arith::MinUIOp::create(rewriter, loc, oldX, wanted);
  rewriter.modifyOpInPlace(
      launch, [&] { launch.getGridSizeXMutable().assign(newX); });
  if (!plan.gridRows)
    return;
  // As many blocks in all as before, and no more rows of blocks than the
  // rows need (or y allows).
  scf::ForOp rows = plan.gridRows;
  std::optional<LaneLoop> rowLanes = matchGridStride(rows, launch, 1);
  Value oldY = launch.getGridSizeY();
  Value total = arith::MulIOp::create(rewriter, loc, oldX, oldY);
  Value neededY = atLeastOne(ceilDiv(
      extent(rows.getUpperBound(), rowLanes->base), launch.getBlockSizeY()));
  Value newY = arith::MinUIOp::create(
      rewriter, loc,
      arith::MinUIOp::create(
          rewriter, loc,
          atLeastOne(arith::DivUIOp::create(rewriter, loc, total, newX)),
          neededY),
      cst(GpuLimits::kMaxGridDim[1]));
  newY = arith::MaxUIOp::create(rewriter, loc, newY, oldY);
  rewriter.modifyOpInPlace(
      launch, [&] { launch.getGridSizeYMutable().assign(newY); });
}

void Widener::emitScalar(Value lb, Value ub) {
  scf::ForOp original = plan.lanes.loop;
  emitLoop(add(lb, plan.lanes.lane), ub, original.getStep(), [&](Value i) {
    IRMapping mapping;
    mapping.map(original.getInductionVar(), i);
    for (Operation &op : plan.body->without_terminator())
      rewriter.clone(op, mapping);
  });
}

void Widener::emitWide() {
  scf::ForOp original = plan.lanes.loop;
  Value lane = plan.lanes.lane, stride = original.getStep();
  Value width = cst(plan.width);
  // Whole vectors in [vectorStart, ub), and where they end.
  Value count = rewriter.createOrFold<arith::MaxSIOp>(
      loc,
      rewriter.createOrFold<arith::SubIOp>(loc, original.getUpperBound(),
                                           vectorStart),
      cst(0));
  Value vectors = arith::DivUIOp::create(rewriter, loc, count, width);
  Value vectorEnd = add(vectorStart, mul(vectors, width));
  Value rest = lane;
  if (unroll > 1) {
    // Whole chunks of `unroll` strides first: every thread runs the same
    // number of them, each vector one stride from the last, so the warp
    // stays on consecutive vectors; the leftover vectors one at a time.
    Value chunk = mul(stride, cst(unroll));
    Value chunked =
        mul(arith::DivUIOp::create(rewriter, loc, vectors, chunk), chunk);
    emitLoop(lane, chunked, chunk, [&](Value v) {
      for (unsigned u = 0; u < unroll; ++u)
        emitVectorBody(u == 0 ? v : add(v, mul(stride, cst(u))));
    });
    rest = add(chunked, lane);
  }
  emitLoop(rest, vectors, stride, [&](Value v) { emitVectorBody(v); });
  emitScalar(vectorEnd, original.getUpperBound());
}

void Widener::run() {
  if (!plan.rows.empty() && !assumeAligned) {
    // A stencil whose rows may not start alike (an odd row length) runs a
    // copy of the launch as it was, chosen on the host: the widened
    // kernel's fallback ran odd widths a fifth to a third longer than the
    // launch as it was on the widened grid, and up to twice as long on a
    // grid of a thread an element
    // (bench/results/2026-11-29-stencil-widen-h200.md).
    gpu::LaunchOp launch = plan.launch;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(launch);
    hostAgree = hostAgreement(hostPast, hostFrom);
    // A launch of a stencil's host choice runs only where the host found
    // every row starting alike; the grid-stride launch runs otherwise.
    if (hostAgree && !isConstantIntValue(hostAgree, 1) &&
        !isStencilChoice(launch)) {
      auto choice = scf::IfOp::create(rewriter, loc, hostAgree,
                                      /*withElseRegion=*/true);
      rewriter.setInsertionPoint(choice.elseBlock()->getTerminator());
      rewriter.clone(*launch);
      rewriter.moveOpBefore(launch, choice.thenBlock()->getTerminator());
    }
  }
  shrinkGrid();
  scf::ForOp original = plan.lanes.loop;
  rewriter.setInsertionPoint(original);
  if (!plan.rows.empty()) {
    // A stencil's threads take vectors from the boundary below the range's
    // start, rather than the elements up to it one a thread and the rest
    // after the last whole vector: those run in turn with the vectors, and
    // in a cover launch (a vector a thread) tripled the time of the warps
    // that hold them (bench/results/2026-11-29-stencil-widen-h200.md).
    if (assumeAligned) {
      emitMaskedVectors(Value());
      rewriter.eraseOp(original);
      return;
    }
    // Where the host found every row starts alike, the kernel tests the
    // pointers of the first rows only, the same for every thread.
    Value misaligned;
    Value agree = commonMisalignment(misaligned, start(),
                                     /*firstRow=*/static_cast<bool>(hostAgree));
    auto ifOp = scf::IfOp::create(rewriter, loc, agree,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitMaskedVectors(misaligned);
    rewriter.moveOpBefore(original, ifOp.elseBlock()->getTerminator());
    return;
  }
  if (assumeAligned) {
    vectorStart = start();
    emitWide();
    rewriter.eraseOp(original);
    return;
  }
  // A view that starts off a vector boundary (a row of an odd-width
  // matrix, a subview one element in) still takes vectors: the first
  // elements up to the boundary go one a thread, the rest as vectors. That
  // needs every access to be off by the same number of elements; where
  // they are not (an access shifted against another), the loop runs as
  // written.
  Value misaligned;
  Value agree = commonMisalignment(misaligned, start());
  auto ifOp = scf::IfOp::create(rewriter, loc, agree,
                                /*withElseRegion=*/true);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  Value width = cst(plan.width);
  Value peel = arith::RemUIOp::create(
      rewriter, loc, arith::SubIOp::create(rewriter, loc, width, misaligned),
      width);
  // Past the peeled elements, but never past the end.
  vectorStart = arith::MinSIOp::create(
      rewriter, loc, add(start(), peel),
      rewriter.createOrFold<arith::MaxSIOp>(loc, original.getUpperBound(),
                                            start()));
  emitScalar(start(), vectorStart);
  emitWide();
  rewriter.moveOpBefore(original, ifOp.elseBlock()->getTerminator());
}

/// Settles the stencil choices threadbind-map-loops-to-threads made (see
/// kStencilChoiceAttr): a cover launch this pass widened stays, run where
/// the host finds every row starting alike; one it did not widen would run
/// slower than the grid-stride launch, which then runs alone. A choice that
/// canonicalization merged with another keeps both branches (each is
/// correct).
void settleStencilChoices(Operation *root, const DenseSet<Operation *> &widened,
                          RewriterBase &rewriter) {
  SmallVector<scf::IfOp> dropped;
  root->walk([&](gpu::LaunchOp launch) {
    if (getGridPolicy(launch) == GridPolicy::Cover &&
        !widened.contains(launch) && getChoicePartner(launch))
      dropped.push_back(cast<scf::IfOp>(launch->getParentOp()));
  });
  for (scf::IfOp choice : dropped) {
    for (Operation &op :
         llvm::make_early_inc_range(choice.elseBlock()->without_terminator()))
      rewriter.moveOpBefore(&op, choice);
    rewriter.eraseOp(choice);
  }
  root->walk([&](gpu::LaunchOp launch) { clearStencilChoice(launch); });
}

struct WidenAccessesPass
    : threadbind::impl::WidenAccessesPassBase<WidenAccessesPass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

void WidenAccessesPass::runOnOperation() {
  if (!isSupportedVectorBytes(vectorBytes)) {
    emitError(getOperation()->getLoc())
        << "vector-bytes must be 4, 8 or 16, not "
        << static_cast<unsigned>(vectorBytes);
    return signalPassFailure();
  }
  if (unroll == 0) {
    emitError(getOperation()->getLoc()) << "unroll must be at least 1";
    return signalPassFailure();
  }
  // The body is cloned once a vector element for each of the `unroll`
  // vectors: an unroll of thousands would grow the kernel without end (and
  // the compile with it) for no more bytes in flight. Reductions stop at 16
  // too.
  if (unroll > 16) {
    emitError(getOperation()->getLoc())
        << "unroll must be at most 16, not " << static_cast<unsigned>(unroll);
    return signalPassFailure();
  }
  // Plan every loop before changing any.
  SmallVector<WideningPlan, 0> plans;
  getOperation()->walk([&](gpu::LaunchOp launch) {
    launch.getBody().walk([&](scf::ForOp loop) {
      if (std::optional<LaneLoop> lanes = matchLaneLoop(loop, launch))
        plans.push_back(
            planWidening(*lanes, launch, vectorBytes, nestedLoops));
    });
  });
  IRRewriter rewriter(&getContext());
  // A cover launch runs one guarded iteration a thread; as a grid-stride
  // loop over an uncapped grid (at most one trip a thread) it widens like
  // one, and its grid then shrinks to a thread a vector. The loop is built
  // beside the guard, planned, and kept only where it widens. A thread
  // takes one vector: unrolling would find nothing to unroll.
  llvm::SmallPtrSet<Operation *, 4> coverLoops;
  SmallVector<gpu::LaunchOp> coverLaunches;
  getOperation()->walk([&](gpu::LaunchOp launch) {
    if (llvm::none_of(plans, [&](const WideningPlan &plan) {
          return plan.launch == launch;
        }))
      coverLaunches.push_back(launch);
  });
  for (gpu::LaunchOp launch : coverLaunches) {
    std::optional<CoverLaunch> cover = matchCoverLaunch(launch);
    if (!cover)
      cover = matchNestedCoverLaunch(launch);
    if (!cover)
      continue;
    rewriter.setInsertionPoint(cover->root);
    Location loc = cover->root->getLoc();
    Value stride = arith::MulIOp::create(rewriter, loc,
                                         launch.getGridSize().x,
                                         launch.getBlockSize().x);
    auto loop = scf::ForOp::create(rewriter, loc, cover->position,
                                   cover->extent, stride);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    IRMapping mapping;
    mapping.map(cover->position, loop.getInductionVar());
    for (Operation &op : cover->guard.thenBlock()->without_terminator())
      rewriter.clone(op, mapping);
    WideningPlan plan =
        planWidening(LaneLoop{loop, Value(), cover->position}, launch,
                     vectorBytes, /*nestedLoops=*/true, /*isCover=*/true);
    if (!plan.whyNot.empty()) {
      rewriter.eraseOp(loop);
      for (Operation *op : llvm::reverse(plan.hoisted))
        rewriter.eraseOp(op);
      ++numRejected;
      if (emitRemarks)
        cover->root->emitRemark("not widened: ") << plan.whyNot;
      continue;
    }
    rewriter.eraseOp(cover->root);
    coverLoops.insert(loop);
    plans.push_back(std::move(plan));
  }
  DenseSet<Operation *> widened;
  for (WideningPlan &plan : plans) {
    bool isCover = coverLoops.contains(plan.lanes.loop);
    if (!plan.whyNot.empty()) {
      ++numRejected;
      if (emitRemarks)
        plan.lanes.loop.emitRemark("not widened: ") << plan.whyNot;
      continue;
    }
    if (emitRemarks) {
      unsigned vectors = isCover ? 1 : unroll;
      size_t vectorLoads = plan.loads.size(), singles = 0;
      for (const RowLoads &row : plan.rows) {
        vectorLoads += llvm::count(row.vectorBlocks, true);
        singles += row.singles;
      }
      InFlightDiagnostic remark = plan.lanes.loop.emitRemark("widened: ");
      remark << plan.width << " elements a vector, " << vectors
             << (vectors == 1 ? " vector" : " vectors")
             << " a thread an iteration, " << vectorLoads << " vector "
             << (vectorLoads == 1 ? "load" : "loads") << " and "
             << plan.stores.size() << " vector "
             << (plan.stores.size() == 1 ? "store" : "stores");
      if (!plan.rows.empty())
        remark << ", the shifted reads of " << plan.rows.size()
               << (plan.rows.size() == 1 ? " row" : " rows")
               << " taken from its vectors and " << singles
               << (singles == 1 ? " element" : " elements") << " loaded singly";
      remark << (assumeAligned ? ", alignment assumed"
                               : ", the first elements up to a vector boundary "
                                 "peeled at run time");
    }
    Widener(rewriter, plan, isCover ? 1 : unroll, assumeAligned).run();
    widened.insert(plan.launch);
    ++numWidened;
  }
  settleStencilChoices(getOperation(), widened, rewriter);
}
