//===- ExpandShapesToViews.cpp - Reshapes MLIR 22 cannot lower ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// MLIR 22's expand-strided-metadata, which both the host and the device
// lowering run, assumes at most one dynamic size in each reassociation
// group of a `memref.expand_shape`. `output_shape` allows more (a 1-D
// buffer viewed as an r x c matrix, both dynamic), and on such an op the
// pass reads a null size and crashes (llvm-project issue 186830, fixed
// after the 22 release). This pass rewrites exactly those expand_shapes
// into the `memref.reinterpret_cast` the lowering would have made: the
// source's base and offset, the output shape as sizes, and each group's
// strides from its source dimension's stride times the sizes inside it.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_EXPANDSHAPESTOVIEWSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// Whether a reassociation group of `op` holds more than one dynamic size.
static bool hasGroupWithDynamicSizes(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  return llvm::any_of(op.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return type.isDynamicDim(dim);
                               }) > 1;
                      });
}

/// `a * b`, folded where both are constants.
static OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult a,
                             OpFoldResult c) {
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(c);
  if (x && y)
    return b.getIndexAttr(*x * *y);
  if (x == 1)
    return c;
  if (y == 1)
    return a;
  return arith::MulIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, a),
                               getValueOrCreateConstantIndexOp(b, loc, c))
      .getResult();
}

/// Replaces `op` with the equivalent reinterpret_cast of its source.
static LogicalResult rewriteAsView(RewriterBase &rewriter,
                                   memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
  SmallVector<OpFoldResult> sourceStrides =
      metadata.getConstifiedMixedStrides();
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(type.getRank());
  for (auto [source, group] : llvm::enumerate(op.getReassociationIndices())) {
    // Innermost first: each dimension steps over the sizes inside it.
    OpFoldResult stride = sourceStrides[source];
    for (int64_t dim : llvm::reverse(group)) {
      strides[dim] = stride;
      stride = multiply(rewriter, loc, stride, sizes[dim]);
    }
  }
  // The type's static parts as attributes, as the verifier wants them.
  auto fix = [&](OpFoldResult part, int64_t known) -> OpFoldResult {
    return ShapedType::isDynamic(known) ? part : rewriter.getIndexAttr(known);
  };
  for (auto [size, known] : llvm::zip_equal(sizes, type.getShape()))
    size = fix(size, known);
  for (auto [stride, known] : llvm::zip_equal(strides, staticStrides))
    stride = fix(stride, known);
  OpFoldResult offset =
      fix(metadata.getConstifiedMixedOffset(), staticOffset);
  rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
      op, type, op.getSrc(), offset, sizes, strides);
  return success();
}

namespace {
struct ExpandShapesToViewsPass
    : threadbind::impl::ExpandShapesToViewsPassBase<ExpandShapesToViewsPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation()->walk([&](memref::ExpandShapeOp op) {
      if (hasGroupWithDynamicSizes(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::ExpandShapeOp op : ops)
      if (succeeded(rewriteAsView(rewriter, op)))
        ++numRewritten;
  }
};
} // namespace
