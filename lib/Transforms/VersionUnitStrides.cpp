//===- VersionUnitStrides.cpp - A copy of a function for unit strides -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Views whose innermost stride is dynamic reach ThreadBind from PyTorch
// slices and from bufferized front-end IR. The access analysis needs a
// static unit stride to put a dimension on threadIdx.x for coalescing and to
// widen accesses into vectors, so a function over such views is versioned:
//
//   if (stride(a, last) == 1 && stride(b, last) == 1 ...) {
//     %a1 = <%a rebuilt by memref.reinterpret_cast as strided<[?, 1], ...>>
//     <the body, on %a1 ...>
//   } else {
//     <the body as written>
//   }
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_VERSIONUNITSTRIDESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

/// `type` with a static unit innermost stride, if it is a strided memref
/// whose innermost stride is dynamic; null otherwise.
static MemRefType getUnitInnermostType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() == 0 || memref.getLayout().isIdentity())
    return nullptr;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      !ShapedType::isDynamic(strides.back()))
    return nullptr;
  strides.back() = 1;
  return MemRefType::get(
      memref.getShape(), memref.getElementType(),
      StridedLayoutAttr::get(memref.getContext(), offset, strides),
      memref.getMemorySpace());
}

namespace {
struct VersionUnitStridesPass
    : threadbind::impl::VersionUnitStridesPassBase<VersionUnitStridesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isDeclaration() || !func.getBody().hasOneBlock() ||
        func.getNumResults() != 0 ||
        func->getParentOfType<gpu::GPUModuleOp>())
      return;
    Block &body = func.getBody().front();
    SmallVector<std::pair<BlockArgument, MemRefType>> views;
    for (BlockArgument arg : body.getArguments())
      if (MemRefType unit = getUnitInnermostType(arg.getType());
          unit && !arg.use_empty())
        views.push_back({arg, unit});
    bool hasParallelLoop =
        func.walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (views.empty() || !hasParallelLoop)
      return;

    // The body, less its return, moves into the scf.if's else branch; a
    // copy on the cast arguments goes into its then branch.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    Location loc = func.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&body);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value all;
    SmallVector<memref::ExtractStridedMetadataOp> metadata;
    for (auto [arg, unit] : views) {
      metadata.push_back(
          memref::ExtractStridedMetadataOp::create(builder, loc, arg));
      Value isUnit =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                metadata.back().getStrides().back(), one);
      all = all ? arith::AndIOp::create(builder, loc, all, isUnit).getResult()
                : isUnit;
    }
    auto version = scf::IfOp::create(builder, loc, all, /*withElse=*/true);
    Block *thenBlock = version.thenBlock();
    Block *elseBlock = version.elseBlock();
    elseBlock->getOperations().splice(
        elseBlock->getTerminator()->getIterator(), body.getOperations(),
        std::next(version->getIterator()), ret->getIterator());

    builder.setInsertionPoint(thenBlock->getTerminator());
    // The view rebuilt from its parts, with a static unit innermost stride.
    // (A memref.cast to the same type would say as much, but canonicalizers
    // fold casts that add static information into the ops that use them.)
    IRMapping mapping;
    for (auto [view, parts] : llvm::zip(views, metadata)) {
      auto [arg, unit] = view;
      SmallVector<int64_t> staticStrides;
      int64_t staticOffset;
      (void)unit.getStridesAndOffset(staticStrides, staticOffset);
      auto fixedOr = [&](int64_t fixed, Value value) -> OpFoldResult {
        if (ShapedType::isDynamic(fixed))
          return value;
        return builder.getIndexAttr(fixed);
      };
      SmallVector<OpFoldResult> sizes, strides;
      for (int64_t k = 0, e = unit.getRank(); k < e; ++k) {
        sizes.push_back(fixedOr(unit.getDimSize(k), parts.getSizes()[k]));
        strides.push_back(fixedOr(staticStrides[k], parts.getStrides()[k]));
      }
      Value rebuilt = memref::ReinterpretCastOp::create(
          builder, loc, unit, parts.getBaseBuffer(),
          fixedOr(staticOffset, parts.getOffset()), sizes, strides);
      mapping.map(arg, rebuilt);
    }
    for (Operation &op : llvm::make_early_inc_range(
             elseBlock->without_terminator()))
      builder.clone(op, mapping);
    ++numFunctionsVersioned;
  }
};
} // namespace
