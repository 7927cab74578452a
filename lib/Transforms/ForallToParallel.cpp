//===- ForallToParallel.cpp - scf.forall on memrefs to scf.parallel -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Turns scf.forall loops without shared_outs into scf.parallel, warning at
// those with them instead of failing silently as the upstream pass does.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_FORALLTOPARALLELPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

namespace {
struct ForallToParallelPass
    : threadbind::impl::ForallToParallelPassBase<ForallToParallelPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation()->walk([&](scf::ForallOp forall) {
      if (forall.getOutputs().empty()) {
        foralls.push_back(forall);
        return;
      }
      forall.emitWarning("left on the host: its shared_outs are tensors; "
                         "bufferize them to memrefs for it to be bound to "
                         "the GPU");
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : foralls) {
      rewriter.setInsertionPoint(forall);
      // Cannot fail: the only thing upstream's conversion refuses is
      // shared_outs.
      (void)scf::forallToParallelLoop(rewriter, forall);
      ++numConverted;
    }
  }
};
} // namespace
