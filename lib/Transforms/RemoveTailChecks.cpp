//===- RemoveTailChecks.cpp - Bounds checks out of full blocks ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A cover-policy launch guards each thread's iteration with `start < end`.
// Only the grid's last block can hold threads past the end, so the check is
// removed where range analysis proves it always true, dropped where the
// threads past the end can run on padding, or, on request, split: a
// block-uniform test picks a copy of the code without the check for every
// full block.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Padding.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include <numeric>

namespace mlir::threadbind {
#define GEN_PASS_DEF_REMOVETAILCHECKSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// A memref that threads past the extent index, and the multiple its
/// allocation is padded to.
struct PaddedMemRef {
  /// The value the kernel uses, defined outside the launch.
  Value memref;
  int64_t multiple;
  /// Set when the function allocates the memref itself (memref.alloc, or
  /// gpu.alloc on the host); the pass then enlarges the allocation.
  Operation *alloc = nullptr;
};

/// How the check of a cover launch gives way to padding.
struct PadPlan {
  /// The loop's extent, a host value.
  Value end;
  /// Each memref the guarded code indexes at the thread's position.
  SmallVector<PaddedMemRef> memrefs;
};

/// A bounds check and what the pass will do with it.
struct TailCheck {
  scf::IfOp guard;
  gpu::LaunchOp launch;
  TailStrategy strategy;
  /// Range analysis proved the condition true for every thread.
  bool alwaysTrue = false;
  /// With the pad strategy, the plan if padding can replace the check, and
  /// otherwise why not.
  std::optional<PadPlan> pad;
  std::string whyNotPad;
  /// The operation that rules padding out, if one does.
  std::optional<Location> whereNotPad;
};

/// The strategy for `launch`: its `threadbind.tail` attribute, else
/// `fallback`. Failure, reported at the launch, for a malformed attribute.
FailureOr<TailStrategy> getStrategy(gpu::LaunchOp launch,
                                    TailStrategy fallback) {
  Attribute attr = launch->getAttr(kTailStrategyAttr);
  if (!attr)
    return fallback;
  auto name = dyn_cast<StringAttr>(attr);
  if (name && name.getValue() == "split")
    return TailStrategy::Split;
  if (name && name.getValue() == "pad")
    return TailStrategy::Pad;
  if (name && name.getValue() == "keep")
    return TailStrategy::Keep;
  return launch.emitError("'") << kTailStrategyAttr
                               << "' must be \"split\", \"pad\" or \"keep\", not "
                               << attr;
}

/// Whether integer range analysis proves `value` (an i1) true.
bool isProvenTrue(const DataFlowSolver &solver, Value value) {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return false;
  std::optional<APInt> constant =
      lattice->getValue().getValue().getConstantValue();
  return constant && constant->isOne();
}

bool isGlobalThreadIdX(gpu::LaunchOp launch, Value value);

/// The guard's condition for the last thread of the block, built at the
/// start of the launch body: a copy of the pure operations the condition
/// depends on inside the launch, with threadIdx.x replaced by
/// blockDim.x - 1. That is whether the whole block passes only for the
/// check a cover launch makes, `blockIdx.x * blockDim.x + threadIdx.x <
/// end` with `end` from outside the launch, which the last thread passes
/// last; the mark alone does not prove that shape. Failure for any other
/// condition.
FailureOr<Value> buildFullBlockCondition(RewriterBase &rewriter,
                                         gpu::LaunchOp launch, Value cond) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
      !isGlobalThreadIdX(launch, cmp.getLhs()) ||
      launch.getBody().isAncestor(cmp.getRhs().getParentRegion()))
    return failure();
  Region &body = launch.getBody();
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) {
    return body.isAncestor(op->getParentRegion());
  };
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(cond, &slice, options)))
    return failure();

  Value tidX = launch.getThreadIds().x;
  bool usesTidX = false;
  for (Operation *op : slice) {
    if (!isPure(op) || op->getNumRegions() != 0)
      return failure();
    for (Value operand : op->getOperands()) {
      usesTidX |= operand == tidX;
      // Other values of the launch body must come from the slice.
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner()->getParent() != &body &&
          body.isAncestor(arg.getParentRegion()))
        return failure();
    }
  }
  if (!usesTidX)
    return failure();

  rewriter.setInsertionPointToStart(&body.front());
  Location loc = cond.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value lastTid =
      arith::SubIOp::create(rewriter, loc, launch.getBlockSize().x, one);
  IRMapping mapping;
  mapping.map(tidX, lastTid);
  for (Operation *op : slice)
    rewriter.clone(*op, mapping);
  return mapping.lookup(cond);
}

/// Versions the launch-level operation holding `guard` on `full`: a copy
/// without the check when it holds, one with it otherwise, whose check has
/// been dealt with and loses its mark.
void splitOnFullBlock(RewriterBase &rewriter, gpu::LaunchOp launch,
                      scf::IfOp guard, Value full) {
  Operation *top = launch.getBody().front().findAncestorOpInBlock(*guard);
  versionOnCondition(rewriter, top, full, [&](IRMapping &mapping,
                                              bool thenSide) {
    auto copy = cast<scf::IfOp>(mapping.lookup(guard.getOperation()));
    if (thenSide)
      inlineIfSide(rewriter, copy, /*thenSide=*/true);
    else
      rewriter.modifyOpInPlace(copy, [&] { clearTailGuard(copy); });
  });
}

/// Whether `value` is blockIdx.x * blockDim.x + threadIdx.x of `launch`, in
/// any operand order: the position of a cover launch's thread in a loop
/// from 0 with step 1.
bool isGlobalThreadIdX(gpu::LaunchOp launch, Value value) {
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  auto isBlockStart = [&](Value v) {
    auto mul = v.getDefiningOp<arith::MulIOp>();
    if (!mul)
      return false;
    Value bid = launch.getBlockIds().x, bdim = launch.getBlockSize().x;
    return (mul.getLhs() == bid && mul.getRhs() == bdim) ||
           (mul.getLhs() == bdim && mul.getRhs() == bid);
  };
  Value tid = launch.getThreadIds().x;
  return (add.getLhs() == tid && isBlockStart(add.getRhs())) ||
         (add.getRhs() == tid && isBlockStart(add.getLhs()));
}

/// Decides whether the threads of `launch` past the extent may run the code
/// `guard` protects, on padding. See the pass description for the rules;
/// `why` says which one fails.
class PaddingPlanner {
public:
  PaddingPlanner(gpu::LaunchOp launch, scf::IfOp guard)
      : launch(launch), guard(guard) {}

  FailureOr<PadPlan> plan(std::string &whyNot,
                          std::optional<Location> &whereNot);

private:
  /// The padded multiple of `memref` (a value from outside the launch), or
  /// nullopt if threads may not index it past its size.
  std::optional<PaddedMemRef> getPadding(Value memref);

  /// Whether `indices` are exactly the thread's position in a padded
  /// memref; records the memref, as proven to reach the extent when the
  /// access runs for every thread (`unconditional`).
  bool isOwnElement(Value memref, ValueRange indices, bool unconditional);

  /// Walks `block`, tracking the values that depend on the thread's
  /// position; `taintedControl` when whether the block runs does.
  LogicalResult visit(Block &block, bool taintedControl, bool unconditional);

  LogicalResult fail(Operation *op, const Twine &reason) {
    why = reason.str();
    where = op->getLoc();
    return failure();
  }

  gpu::LaunchOp launch;
  scf::IfOp guard;
  int64_t blockX = 0;
  Value position;
  DenseSet<Value> tainted;
  llvm::MapVector<Value, PaddedMemRef> used;
  DenseSet<Value> proven;
  std::string why;
  std::optional<Location> where;
};

std::optional<PaddedMemRef> PaddingPlanner::getPadding(Value memref) {
  if (launch.getBody().isAncestor(memref.getParentRegion()))
    return std::nullopt;
  auto func = launch->getParentOfType<FunctionOpInterface>();
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return std::nullopt;
    // The attributes were verified before any planning.
    FailureOr<std::optional<int64_t>> multiple =
        getPaddedTo(func, arg.getArgNumber());
    if (failed(multiple) || !*multiple)
      return std::nullopt;
    return PaddedMemRef{memref, **multiple, {}};
  }
  Operation *alloc = memref.getDefiningOp();
  if (!isa_and_nonnull<memref::AllocOp, gpu::AllocOp>(alloc) ||
      alloc->getParentOfType<FunctionOpInterface>() != func)
    return std::nullopt;
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() != 1 || !type.getLayout().isIdentity())
    return std::nullopt;
  return PaddedMemRef{memref, blockX, alloc};
}

bool PaddingPlanner::isOwnElement(Value memref, ValueRange indices,
                                  bool unconditional) {
  if (indices.size() != 1 || indices.front() != position)
    return false;
  auto it = used.find(memref);
  if (it == used.end()) {
    std::optional<PaddedMemRef> padding = getPadding(memref);
    if (!padding)
      return false;
    it = used.insert({memref, *padding}).first;
  }
  if (unconditional)
    proven.insert(memref);
  return true;
}

LogicalResult PaddingPlanner::visit(Block &block, bool taintedControl,
                                    bool unconditional) {
  auto isTainted = [&](Value v) { return tainted.contains(v); };
  for (Operation &op : block) {
    bool taintedOperands = llvm::any_of(op.getOperands(), isTainted);
    auto taintResults = [&] {
      for (Value result : op.getResults())
        tainted.insert(result);
    };
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (isOwnElement(load.getMemRef(), load.getIndices(), unconditional)) {
        taintResults();
        continue;
      }
      if (taintedOperands)
        return fail(&op, "a load's address depends on the thread's "
                         "position but is not its own element of a padded "
                         "1-D memref");
      if (taintedControl)
        return fail(&op, "a load runs or not depending on padding values");
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (isOwnElement(store.getMemRef(), store.getIndices(), unconditional))
        continue;
      return fail(&op, "a store goes somewhere other than the thread's own "
                       "element of a padded 1-D memref");
    }
    if (isa<scf::YieldOp>(op))
      continue;
    if (isa<scf::ForOp, scf::IfOp>(op)) {
      // Values computed inside from tainted ones are tracked by the walk;
      // results and block arguments are tainted as a whole if anything the
      // op uses is, which also covers loop-carried values.
      SetVector<Value> captured;
      getUsedValuesDefinedAbove(op.getRegions(), captured);
      bool touched = taintedOperands || llvm::any_of(captured, isTainted);
      if (touched) {
        taintResults();
        for (Region &region : op.getRegions())
          for (Block &inner : region)
            for (Value arg : inner.getArguments())
              tainted.insert(arg);
      }
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          if (failed(visit(inner, taintedControl || taintedOperands,
                           /*unconditional=*/false)))
            return failure();
      continue;
    }
    if (op.getNumRegions() != 0)
      return fail(&op, "the guarded code holds a region other than scf.for "
                       "and scf.if");
    if (!isMemoryEffectFree(&op))
      return fail(&op, "an operation with side effects other than loads and "
                       "stores");
    if (!isPure(&op) && (taintedOperands || taintedControl))
      return fail(&op, "an operation that may trap (such as integer "
                       "division) would see padding values");
    if (taintedOperands)
      taintResults();
  }
  return success();
}

FailureOr<PadPlan> PaddingPlanner::plan(std::string &whyNot,
                                        std::optional<Location> &whereNot) {
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  std::optional<int64_t> bx = getConstantIntValue(launch.getBlockSizeX());
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
      !isGlobalThreadIdX(launch, cmp.getLhs()) || !bx ||
      launch.getBody().isAncestor(cmp.getRhs().getParentRegion())) {
    whyNot = "the loop does not start at 0 with step 1 along x, or its "
             "extent or block size is not a launch operand";
    return failure();
  }
  blockX = *bx;
  position = cmp.getLhs();
  tainted.insert(position);
  if (failed(visit(*guard.thenBlock(), /*taintedControl=*/false,
                   /*unconditional=*/true))) {
    whyNot = why;
    whereNot = where;
    return failure();
  }
  PadPlan result{cmp.getRhs(), {}};
  for (auto &[memref, padding] : used) {
    std::string name;
    llvm::raw_string_ostream os(name);
    memref.printAsOperand(os, OpPrintingFlags());
    if (!proven.contains(memref)) {
      whyNot = name + " is accessed only conditionally, so its size is not "
                      "known to reach the extent";
      return failure();
    }
    if (padding.multiple % blockX != 0) {
      whyNot = name + " is padded to a multiple of " +
               std::to_string(padding.multiple) +
               ", which the block's x extent " + std::to_string(blockX) +
               " does not divide";
      return failure();
    }
    result.memrefs.push_back(padding);
  }
  return result;
}

/// Grows `alloc` (memref.alloc, or gpu.alloc on the host) to a multiple of
/// `multiple` elements; every user sees a view of the original size.
/// Returns the view.
Value enlargeAllocation(RewriterBase &rewriter, Operation *alloc,
                        int64_t multiple) {
  Location loc = alloc->getLoc();
  rewriter.setInsertionPoint(alloc);
  Value original = alloc->getResult(0);
  auto type = cast<MemRefType>(original.getType());
  auto memrefAlloc = dyn_cast<memref::AllocOp>(alloc);
  auto gpuAlloc = dyn_cast<gpu::AllocOp>(alloc);
  ValueRange sizes = memrefAlloc ? memrefAlloc.getDynamicSizes()
                                 : gpuAlloc.getDynamicSizes();
  OpFoldResult size =
      type.isDynamicDim(0)
          ? OpFoldResult(sizes.front())
          : OpFoldResult(rewriter.getIndexAttr(type.getDimSize(0)));
  OpFoldResult padded = roundUpToMultiple(rewriter, loc, size, multiple);
  SmallVector<Value> dynamicSizes;
  if (auto dynamicSize = dyn_cast<Value>(padded))
    dynamicSizes.push_back(dynamicSize);
  MemRefType grownType = getResizedMemRefType(type, padded);
  Value grown;
  SmallVector<Value> replacements;
  if (memrefAlloc) {
    grown = memref::AllocOp::create(rewriter, loc, grownType, dynamicSizes,
                                    memrefAlloc.getAlignmentAttr());
  } else {
    Value token = gpuAlloc.getAsyncToken();
    auto grownAlloc = gpu::AllocOp::create(
        rewriter, loc, grownType, token ? token.getType() : Type(),
        gpuAlloc.getAsyncDependencies(), dynamicSizes,
        gpuAlloc.getSymbolOperands(), gpuAlloc.getHostSharedAttr());
    grown = grownAlloc.getMemref();
    if (token)
      replacements.push_back(grownAlloc.getAsyncToken());
  }
  Value view = memref::ReinterpretCastOp::create(
      rewriter, loc, type, grown, rewriter.getIndexAttr(0), {size},
      {rewriter.getIndexAttr(1)});
  replacements.insert(replacements.begin(), view);
  rewriter.replaceOp(alloc, replacements);
  return view;
}

/// Replaces the check of `check` by padding, as `plan` says.
/// `allocMultiples` gives each allocation to enlarge its multiple (the one
/// every kernel running past it needs); `enlarged` holds the view of each
/// allocation already enlarged, so it grows once.
void padOut(RewriterBase &rewriter, TailCheck &check, const PadPlan &plan,
            DenseMap<Operation *, int64_t> &allocMultiples,
            DenseMap<Operation *, Value> &enlarged) {
  gpu::LaunchOp launch = check.launch;
  Location loc = check.guard.getLoc();
  for (const PaddedMemRef &padding : plan.memrefs) {
    Value memref = padding.memref;
    int64_t multiple = padding.multiple;
    if (padding.alloc) {
      Operation *alloc = padding.alloc;
      multiple = allocMultiples.lookup(alloc);
      auto [it, inserted] = enlarged.try_emplace(alloc, Value());
      if (inserted)
        it->second = enlargeAllocation(rewriter, padding.alloc, multiple);
      memref = it->second;
    }
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    Value view = createPaddedView(rewriter, loc, memref, multiple);
    rewriter.replaceUsesWithIf(memref, view, [&](OpOperand &use) {
      return check.guard->isAncestor(use.getOwner());
    });
  }
  Operation *condition = check.guard.getCondition().getDefiningOp();
  inlineIfSide(rewriter, check.guard, /*thenSide=*/true);
  if (condition && condition->use_empty())
    rewriter.eraseOp(condition);

  // With no iteration the grid is still one block, whose threads would all
  // be past the end; the host skips the launch instead.
  guardOnPositive(rewriter, launch, plan.end);
}

struct RemoveTailChecksPass
    : threadbind::impl::RemoveTailChecksPassBase<RemoveTailChecksPass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

void RemoveTailChecksPass::runOnOperation() {
  // Decide everything first, so a malformed attribute leaves the IR as it
  // was.
  SmallVector<TailCheck> checks;
  bool malformed = false;
  getOperation()->walk([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      malformed |= failed(verifyPaddedToAttrs(func));
      return;
    }
    auto guard = dyn_cast<scf::IfOp>(op);
    if (!guard || !isTailGuard(guard))
      return;
    auto launch = guard->getParentOfType<gpu::LaunchOp>();
    if (!launch)
      return;
    FailureOr<TailStrategy> strategy = getStrategy(launch, this->strategy);
    if (failed(strategy)) {
      malformed = true;
      return;
    }
    checks.push_back({guard, launch, *strategy});
  });
  if (malformed)
    return signalPassFailure();
  if (checks.empty())
    return;

  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(getOperation())))
    return signalPassFailure();
  // An allocation that several kernels run past is padded for all of them.
  DenseMap<Operation *, int64_t> allocMultiples;
  for (TailCheck &check : checks) {
    check.alwaysTrue = isProvenTrue(solver, check.guard.getCondition());
    if (check.alwaysTrue || check.strategy != TailStrategy::Pad)
      continue;
    PaddingPlanner planner(check.launch, check.guard);
    FailureOr<PadPlan> plan =
        planner.plan(check.whyNotPad, check.whereNotPad);
    if (failed(plan))
      continue;
    for (const PaddedMemRef &padding : plan->memrefs)
      if (padding.alloc) {
        int64_t &multiple = allocMultiples[padding.alloc];
        multiple = std::lcm(multiple ? multiple : 1, padding.multiple);
      }
    check.pad = std::move(*plan);
  }

  IRRewriter rewriter(&getContext());
  DenseMap<Operation *, Value> enlarged;
  for (TailCheck &check : checks) {
    scf::IfOp guard = check.guard;
    if (check.alwaysTrue) {
      if (emitRemarks)
        guard.emitRemark("bounds check removed: it holds for every thread, "
                         "the grid covering the extent exactly");
      inlineIfSide(rewriter, guard, /*thenSide=*/true);
      ++numRemoved;
      continue;
    }
    if (check.strategy == TailStrategy::Keep) {
      if (emitRemarks)
        guard.emitRemark("bounds check kept: the tail strategy is 'keep'");
      continue;
    }
    if (check.pad) {
      if (emitRemarks) {
        InFlightDiagnostic remark = guard.emitRemark(
            "bounds check removed: threads past the extent run on padding");
        if (!check.pad->memrefs.empty()) {
          remark << " of ";
          llvm::interleaveComma(
              check.pad->memrefs, remark, [&](const PaddedMemRef &padding) {
                if (auto arg = dyn_cast<BlockArgument>(padding.memref))
                  remark << "argument " << arg.getArgNumber();
                else
                  remark << "an allocation it enlarges";
              });
          for (const PaddedMemRef &padding : check.pad->memrefs)
            if (padding.alloc)
              remark.attachNote(padding.memref.getLoc())
                  << "enlarged to a multiple of "
                  << allocMultiples.lookup(padding.alloc) << " elements";
        }
      }
      padOut(rewriter, check, *check.pad, allocMultiples, enlarged);
      ++numPadded;
      continue;
    }
    if (check.strategy == TailStrategy::Pad) {
      if (emitRemarks) {
        InFlightDiagnostic remark = guard.emitRemark(
            "bounds check kept: no padding: " + check.whyNotPad);
        if (check.whereNotPad)
          remark.attachNote(*check.whereNotPad)
              << "this operation rules padding out";
      }
      continue;
    }
    FailureOr<Value> full =
        buildFullBlockCondition(rewriter, check.launch, guard.getCondition());
    if (failed(full)) {
      if (emitRemarks)
        guard.emitRemark("bounds check kept: it is not blockIdx.x * "
                         "blockDim.x + threadIdx.x < a bound from outside "
                         "the launch, so whether a whole block passes is "
                         "not known");
      continue;
    }
    if (emitRemarks)
      guard.emitRemark("bounds check split: blocks entirely in bounds run a "
                       "copy without it; only the last block checks");
    splitOnFullBlock(rewriter, check.launch, guard, *full);
    ++numSplit;
  }
}
