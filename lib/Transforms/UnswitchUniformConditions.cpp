//===- UnswitchUniformConditions.cpp - Version GPU loops on uniform ifs ---===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A branch inside a GPU loop whose condition is loop-invariant and the same
// across a warp costs a compare and branch per iteration and splits the
// loop body; versioning the loop on it removes both without ever splitting
// a warp. LLVM will not do this non-trivial unswitching on NVPTX; the
// uniformity analysis is what makes it safe to do here.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/Uniformity.h"
#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_UNSWITCHUNIFORMCONDITIONSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// Versions `loop` on the condition of `ifOp` (nested in it, its condition
/// defined outside it): each version keeps one side of the if.
void unswitch(RewriterBase &rewriter, Operation *loop, scf::IfOp ifOp) {
  versionOnCondition(rewriter, loop, ifOp.getCondition(),
                     [&](IRMapping &mapping, bool thenSide) {
                       inlineIfSide(rewriter,
                                    cast<scf::IfOp>(mapping.lookup(
                                        ifOp.getOperation())),
                                    thenSide);
                     });
}

struct UnswitchUniformConditionsPass
    : threadbind::impl::UnswitchUniformConditionsPassBase<
          UnswitchUniformConditionsPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// Why a candidate was left alone, or empty if it can be unswitched.
struct Decision {
  scf::IfOp ifOp;
  Operation *loop = nullptr;
  std::string whyNot;
};

} // namespace

void UnswitchUniformConditionsPass::runOnOperation() {
  IRRewriter rewriter(&getContext());
  DenseMap<Operation *, unsigned> hoistedPerKernel;
  // Each change clones loops, so the analysis is rerun before the next
  // decision; the number of changes is bounded by max-conditions per kernel.
  while (true) {
    DataFlowSolver solver;
    loadUniformityAnalysis(solver);
    if (failed(solver.initializeAndRun(getOperation())))
      return signalPassFailure();

    std::optional<Decision> chosen;
    SmallVector<Decision> rejected;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::IfOp ifOp) {
      Operation *kernel = getEnclosingKernel(ifOp);
      if (!kernel || isUnswitchRejected(ifOp))
        return WalkResult::advance();
      // The outermost loop of this kernel the condition is invariant to:
      // climbing out, stop at the first loop that defines it.
      Value cond = ifOp.getCondition();
      Operation *definer = cond.getDefiningOp()
                               ? cond.getDefiningOp()
                               : cond.getParentBlock()->getParentOp();
      Operation *target = nullptr;
      for (Operation *p = ifOp->getParentOp(); p && p != kernel;
           p = p->getParentOp()) {
        if (!isa<scf::ForOp, scf::WhileOp>(p))
          continue;
        if (p->isAncestor(definer))
          break;
        target = p;
      }
      if (!target)
        return WalkResult::advance(); // not in a loop it is invariant to
      Decision d{ifOp, target, ""};
      UniformityValue u = getUniformity(solver, cond);
      unsigned size = 0;
      target->walk([&](Operation *) { ++size; });
      if (u.getLevel() == UniformityLevel::Divergent)
        d.whyNot = "its condition is divergent; versions of the loop would "
                   "split warps";
      else if (size > maxLoopOps)
        d.whyNot = ("the loop has " + Twine(size) +
                    " operations, more than max-loop-ops = " +
                    Twine(maxLoopOps))
                       .str();
      else if (hoistedPerKernel[kernel] >= maxConditions)
        d.whyNot = ("max-conditions = " + Twine(maxConditions) +
                    " conditions were already hoisted from this kernel")
                       .str();
      if (!d.whyNot.empty()) {
        rejected.push_back(d);
        return WalkResult::advance();
      }
      chosen = d;
      return WalkResult::interrupt();
    });

    for (Decision &d : rejected) {
      if (emitRemarks)
        d.ifOp.emitRemark("not unswitched: ") << d.whyNot;
      // Decided once; later rounds do not reconsider (or re-report) it.
      setUnswitchRejected(d.ifOp);
    }
    if (!chosen)
      break;
    if (emitRemarks)
      chosen->ifOp.emitRemark("unswitched: the condition is ")
          << stringify(getUniformity(solver, chosen->ifOp.getCondition())
                           .getLevel())
          << " and invariant in the enclosing '"
          << chosen->loop->getName() << "', which now has a version for "
          << "each side";
    ++hoistedPerKernel[getEnclosingKernel(chosen->ifOp)];
    unswitch(rewriter, chosen->loop, chosen->ifOp);
    ++numUnswitched;
  }
  getOperation()->walk([](scf::IfOp ifOp) {
    clearUnswitchRejected(ifOp);
  });
}
