//===- RemoveTailChecks.cpp - Bounds checks out of full blocks ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A cover-policy launch guards each thread's iteration with `start < end`.
// Only the grid's last block can hold threads past the end, so the check is
// removed where range analysis proves it always true, and otherwise split:
// a block-uniform test picks a copy of the code without the check for
// every full block.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_REMOVETAILCHECKSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// A bounds check and what the pass will do with it.
struct TailCheck {
  scf::IfOp guard;
  gpu::LaunchOp launch;
  TailStrategy strategy;
  /// Range analysis proved the condition true for every thread.
  bool alwaysTrue = false;
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
  if (name && name.getValue() == "keep")
    return TailStrategy::Keep;
  return launch.emitError("'")
         << kTailStrategyAttr << "' must be \"split\" or \"keep\", not "
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

/// The guard's condition for the last thread of the block, built at the
/// start of the launch body: a copy of the pure operations the condition
/// depends on inside the launch, with threadIdx.x replaced by
/// blockDim.x - 1. Failure if the condition depends on anything else inside
/// the launch, or does not depend on threadIdx.x at all (then it is the
/// same for the whole block and there is nothing to split).
FailureOr<Value> buildFullBlockCondition(RewriterBase &rewriter,
                                         gpu::LaunchOp launch, Value cond) {
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
      rewriter.modifyOpInPlace(copy, [&] { copy->removeAttr(kTailGuardAttr); });
  });
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
  getOperation()->walk([&](scf::IfOp guard) {
    if (!guard->hasAttr(kTailGuardAttr))
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
  for (TailCheck &check : checks)
    check.alwaysTrue = isProvenTrue(solver, check.guard.getCondition());

  IRRewriter rewriter(&getContext());
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
    FailureOr<Value> full =
        buildFullBlockCondition(rewriter, check.launch, guard.getCondition());
    if (failed(full)) {
      if (emitRemarks)
        guard.emitRemark("bounds check kept: it does not vary within a "
                         "block, or depends on more than thread and block "
                         "ids");
      continue;
    }
    if (emitRemarks)
      guard.emitRemark("bounds check split: blocks entirely in bounds run "
                       "a copy without it; only the last block checks");
    splitOnFullBlock(rewriter, check.launch, guard, *full);
    ++numSplit;
  }
}
