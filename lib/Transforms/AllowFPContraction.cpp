//===- AllowFPContraction.cpp - Let kernels fuse multiply-add -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Marks float multiplies and adds in GPU code with the `contract` fast-math
// flag, so NVPTX forms FMA as nvcc does by default.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_ALLOWFPCONTRACTIONPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

namespace {
struct AllowFPContractionPass
    : threadbind::impl::AllowFPContractionPassBase<AllowFPContractionPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op))
        return;
      if (!threadbind::getEnclosingKernel(op))
        return;
      auto fastMath = cast<arith::ArithFastMathInterface>(op);
      arith::FastMathFlags flags = fastMath.getFastMathFlagsAttr().getValue();
      if (arith::bitEnumContainsAll(flags, arith::FastMathFlags::contract))
        return;
      op->setAttr(fastMath.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      op->getContext(), flags | arith::FastMathFlags::contract));
      ++numOpsMarked;
    });
  }
};
} // namespace
