//===- StripInternalMarks.cpp - Drop marks the input should not carry -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Passes leave marks for later passes (which scf.if is a cover launch's
// bounds check, which grid policy a launch has). A later pass acts on such
// a mark as a promise, so a program that carries one, copied from a
// dump or written on purpose, would have its code transformed on a
// promise nobody checked. The pipelines run this pass first.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_STRIPINTERNALMARKSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {
struct StripInternalMarksPass
    : threadbind::impl::StripInternalMarksPassBase<StripInternalMarksPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      for (StringLiteral mark : kInternalMarks) {
        if (!op->hasAttr(mark))
          continue;
        op->emitWarning("ignored '")
            << mark << "': ThreadBind's passes set it for each other, and "
            << "do not take it from their input";
        op->removeAttr(mark);
        ++numMarksStripped;
      }
    });
  }
};
} // namespace
