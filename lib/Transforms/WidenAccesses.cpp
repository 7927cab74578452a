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
#include "llvm/ADT/TypeSwitch.h"

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
/// variable plus `offset` (null for none), the others loop-invariant.
struct WideAccess {
  Operation *op;
  Value memref;
  Value offset;
  SmallVector<Value> outerIndices;
  Type elementType;
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

/// Whether `v` is blockIdx * blockDim + threadIdx along launch dimension
/// `dim` (0 for x, 1 for y): the thread's position in the grid.
bool isGridPosition(Value v, gpu::LaunchOp launch, unsigned dim) {
  auto pick = [&](const gpu::KernelDim3 &d) { return dim == 0 ? d.x : d.y; };
  Value b = pick(launch.getBlockIds()), t = pick(launch.getThreadIds());
  Value bd = pick(launch.getBlockSize());
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
  WideAccess access{op, memref, Value(), {}, element};
  for (Value index : indices.drop_back()) {
    if (!loop.isDefinedOutsideOfLoop(index))
      return std::nullopt;
    access.outerIndices.push_back(index);
  }
  if (!matchLaneStart(indices.back(), loop.getInductionVar(), loop,
                      access.offset))
    return std::nullopt;
  return access;
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
/// (whose lanes span blocks) on blockIdx.x.
bool dependsOnLaneIds(Value value, gpu::LaunchOp launch, bool blockLanes) {
  Value bx = blockLanes ? Value() : launch.getBlockIds().x;
  Value tx = launch.getThreadIds().x;
  if (value == bx || value == tx)
    return true;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitUsesFromAbove = false;
  options.filter = [&](Operation *op) {
    return launch->isProperAncestor(op);
  };
  SetVector<Operation *> slice;
  if (Operation *def = value.getDefiningOp())
    (void)getBackwardSlice(def, &slice, options);
  for (Operation *op : slice)
    for (Value operand : op->getOperands())
      if (operand == tx || (bx && operand == bx))
        return true;
  return false;
}

/// Whether the launch's grid can be sized for the widened loop `lanes`:
/// the launch is grid-stride, and the loop is its only loop (returns the
/// loop) or its only loop's only loop, a grid-stride loop over rows along y
/// (returns that row loop), with every bound on the host. Null otherwise.
Operation *gridOwner(const LaneLoop &lanes, gpu::LaunchOp launch) {
  scf::ForOp loop = lanes.loop;
  if (getGridPolicy(launch) != GridPolicy::GridStride ||
      lanes.lane == launch.getThreadIds().x)
    return nullptr;
  auto onHost = [&](Value v) {
    return !v || !launch.getBody().isAncestor(v.getParentRegion());
  };
  auto onlyLoopIn = [](Block &block, Operation *loop) {
    return llvm::all_of(block, [&](Operation &op) {
      return &op == loop || op.getNumRegions() == 0;
    });
  };
  if (!onHost(loop.getUpperBound()) || !onHost(lanes.base))
    return nullptr;
  Block &body = launch.getBody().front();
  if (loop->getParentOp() == launch.getOperation())
    return onlyLoopIn(body, loop) ? loop.getOperation() : nullptr;
  auto rows = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!rows || rows->getParentOp() != launch.getOperation() ||
      !onlyLoopIn(body, rows) || !onlyLoopIn(*rows.getBody(), loop))
    return nullptr;
  std::optional<LaneLoop> rowLanes = matchGridStride(rows, launch, 1);
  if (!rowLanes || !onHost(rows.getUpperBound()) || !onHost(rowLanes->base))
    return nullptr;
  return rows.getOperation();
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
      launch.getBody().isAncestor(cmp.getRhs().getParentRegion()))
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

WideningPlan planWidening(const LaneLoop &lanes, gpu::LaunchOp launch,
                          unsigned vectorBytes, bool nestedLoops) {
  WideningPlan plan;
  plan.launch = launch;
  plan.lanes = lanes;
  scf::ForOp loop = lanes.loop;
  if (loop.getNumResults() != 0) {
    plan.whyNot = "the loop carries values";
    return plan;
  }
  plan.gridOwner = gridOwner(lanes, launch);
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
  bool sawStore = false;
  unsigned widestBytes = 0;
  auto note = [&](const WideAccess &a) {
    widestBytes =
        std::max(widestBytes, a.elementType.getIntOrFloatBitWidth() / 8);
  };
  Block *body = loop.getBody();
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
  // Two accesses to the same row a constant distance apart that is not a
  // whole number of vectors (a stencil's j-1, j, j+1) are never aligned
  // together: no peel serves both, and a grid sized for vectors would run
  // the scalar fallback on too few threads.
  auto constantOffset = [](const WideAccess &a) -> std::optional<int64_t> {
    return a.offset ? getConstantIntValue(a.offset) : std::optional<int64_t>(0);
  };
  SmallVector<const WideAccess *> all;
  for (const WideAccess &a : plan.loads)
    all.push_back(&a);
  for (const WideAccess &a : plan.stores)
    all.push_back(&a);
  for (auto [i, a] : llvm::enumerate(all)) {
    for (const WideAccess *b : ArrayRef(all).take_front(i)) {
      if (a->memref != b->memref || a->outerIndices != b->outerIndices)
        continue;
      std::optional<int64_t> x = constantOffset(*a), y = constantOffset(*b);
      if (x && y && (*x - *y) % plan.width != 0) {
        plan.whyNot = ("two of its accesses to one row are " +
                       Twine(std::abs(*x - *y)) +
                       " elements apart, not a multiple of the " +
                       Twine(plan.width) +
                       " a vector, so no start aligns both")
                          .str();
        return plan;
      }
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
      (lanes.base && dependsOnLaneIds(lanes.base, launch, blockLanes))) {
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
  Value start() { return plan.lanes.base ? plan.lanes.base : cst(0); }

  /// The element index of `access` at range position `element`.
  Value lastIndex(const WideAccess &access, Value element) {
    return access.offset ? add(element, access.offset) : element;
  }
  VectorType vectorType(const WideAccess &access) {
    return VectorType::get({plan.width}, access.elementType);
  }
  uint64_t alignment(const WideAccess &access) {
    return plan.width * access.elementType.getIntOrFloatBitWidth() / 8;
  }

  /// An i1 that holds where every access's first element lies the same
  /// number of elements past a vector boundary, and sets `elements` to that
  /// number.
  Value commonMisalignment(Value &elements);
  /// The vector loops from `vectorStart`, then the elements after the last
  /// whole vector, by the same threads.
  void emitWide();
  /// The elements [start, vectorStart) by the loop's threads, one each.
  void emitScalar(Value lb, Value ub);
  /// One vector iteration of the body at vector index `vector`.
  void emitVectorBody(Value vector);
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
};

Value Widener::commonMisalignment(Value &elements) {
  Value agree;
  auto both = [&](Value ok) {
    agree = agree ? arith::AndIOp::create(rewriter, loc, agree, ok) : ok;
  };
  elements = nullptr;
  for (const SmallVector<WideAccess> *list : {&plan.loads, &plan.stores}) {
    for (const WideAccess &access : *list) {
      // The access's first element for this loop instance.
      Value address =
          createElementAddress(rewriter, loc, access.memref,
                               access.outerIndices, lastIndex(access, start()));
      int64_t bytes = access.elementType.getIntOrFloatBitWidth() / 8;
      // An address off the element size (a reinterpreted byte buffer) can
      // never be peeled to a vector boundary.
      if (bytes > 1)
        both(arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(rewriter, loc, address, cst(bytes)),
            cst(0)));
      Value past = arith::DivUIOp::create(
          rewriter, loc,
          arith::RemUIOp::create(rewriter, loc, address,
                                 cst(alignment(access))),
          cst(bytes));
      if (!elements)
        elements = past;
      else
        both(arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                   past, elements));
    }
  }
  return agree ? agree : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
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
  scf::ForOp original = plan.lanes.loop;
  Value first = add(vectorStart, mul(vector, cst(plan.width)));
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
  // Every lane's copy of the body, but the widened stores, which gather
  // each lane's value.
  DenseMap<Operation *, SmallVector<Value>> stored;
  for (unsigned k = 0; k < plan.width; ++k) {
    IRMapping mapping;
    cloneVectorLane(rewriter, loc, original.getBody(),
                    original.getInductionVar(), first, k, loaded, mapping,
                    [](Operation &op) { return isa<memref::StoreOp>(op); });
    for (const WideAccess &access : plan.stores)
      stored[access.op].push_back(mapping.lookupOrDefault(
          cast<memref::StoreOp>(access.op).getValue()));
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
  Value vectors = ceilDiv(extent(loop.getUpperBound(), plan.lanes.base),
                          cst(plan.width));
  Value oldX = launch.getGridSizeX();
  Value wanted = atLeastOne(ceilDiv(vectors, launch.getBlockSizeX()));
  auto rows = dyn_cast<scf::ForOp>(plan.gridOwner);
  if (rows == loop && isCappedByResidentBlocks(oldX)) {
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
  if (!rows || rows == loop)
    return;
  // As many blocks in all as before, and no more rows of blocks than the
  // rows need (or y allows).
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
    for (Operation &op : original.getBody()->without_terminator())
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
  shrinkGrid();
  scf::ForOp original = plan.lanes.loop;
  rewriter.setInsertionPoint(original);
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
  Value agree = commonMisalignment(misaligned);
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
                     vectorBytes, /*nestedLoops=*/true);
    if (!plan.whyNot.empty()) {
      rewriter.eraseOp(loop);
      ++numRejected;
      if (emitRemarks)
        cover->root->emitRemark("not widened: ") << plan.whyNot;
      continue;
    }
    plan.gridOwner = loop;
    rewriter.eraseOp(cover->root);
    coverLoops.insert(loop);
    plans.push_back(std::move(plan));
  }
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
      plan.lanes.loop.emitRemark("widened: ")
          << plan.width << " elements a vector, " << vectors
          << (vectors == 1 ? " vector" : " vectors")
          << " a thread an iteration, " << plan.loads.size() << " vector "
          << (plan.loads.size() == 1 ? "load" : "loads") << " and "
          << plan.stores.size() << " vector "
          << (plan.stores.size() == 1 ? "store" : "stores")
          << (assumeAligned ? ", alignment assumed"
                            : ", the first elements up to a vector boundary "
                              "peeled at run time");
    }
    Widener(rewriter, plan, isCover ? 1 : unroll, assumeAligned).run();
    ++numWidened;
  }
}
