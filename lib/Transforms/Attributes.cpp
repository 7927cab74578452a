//===- Attributes.cpp - The marks ThreadBind's passes leave ---------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::threadbind;

StringRef threadbind::stringifyGridPolicy(GridPolicy policy) {
  return policy == GridPolicy::GridStride ? "grid-stride" : "cover";
}

std::optional<GridPolicy> threadbind::symbolizeGridPolicy(StringRef name) {
  return llvm::StringSwitch<std::optional<GridPolicy>>(name)
      .Case("grid-stride", GridPolicy::GridStride)
      .Case("cover", GridPolicy::Cover)
      .Default(std::nullopt);
}

void threadbind::setTailGuard(Operation *ifOp) {
  ifOp->setAttr(kTailGuardAttr, UnitAttr::get(ifOp->getContext()));
}

bool threadbind::isTailGuard(Operation *ifOp) {
  return isa_and_nonnull<UnitAttr>(ifOp->getAttr(kTailGuardAttr));
}

void threadbind::clearTailGuard(Operation *ifOp) {
  ifOp->removeAttr(kTailGuardAttr);
}

void threadbind::setGridPolicy(Operation *launch, GridPolicy policy) {
  launch->setAttr(kGridPolicyAttr,
                  StringAttr::get(launch->getContext(),
                                  stringifyGridPolicy(policy)));
}

std::optional<GridPolicy> threadbind::getGridPolicy(Operation *launch) {
  auto name = launch->getAttrOfType<StringAttr>(kGridPolicyAttr);
  if (!name)
    return std::nullopt;
  return symbolizeGridPolicy(name.getValue());
}

void threadbind::setStencilChoice(Operation *launch) {
  launch->setAttr(kStencilChoiceAttr, UnitAttr::get(launch->getContext()));
}

bool threadbind::isStencilChoice(Operation *launch) {
  return isa_and_nonnull<UnitAttr>(launch->getAttr(kStencilChoiceAttr));
}

void threadbind::clearStencilChoice(Operation *launch) {
  launch->removeAttr(kStencilChoiceAttr);
}

void threadbind::setWrittenDims(Operation *loop, const WrittenDims &written) {
  Builder builder(loop->getContext());
  loop->setAttr(kWrittenDimsAttr, builder.getDenseI64ArrayAttr(written.dims));
  loop->setAttr(kWrittenRankAttr, builder.getI64IntegerAttr(written.rank));
}

std::optional<WrittenDims> threadbind::getWrittenDims(Operation *loop) {
  auto dims = loop->getAttrOfType<DenseI64ArrayAttr>(kWrittenDimsAttr);
  auto rank = loop->getAttrOfType<IntegerAttr>(kWrittenRankAttr);
  if (!dims || !rank)
    return std::nullopt;
  WrittenDims written{llvm::to_vector(dims.asArrayRef()), rank.getInt()};
  if (int64_t(written.dims.size()) > written.rank ||
      llvm::any_of(written.dims, [&](int64_t d) {
        return d < 0 || d >= written.rank;
      }))
    return std::nullopt;
  return written;
}

void threadbind::setSequentialReason(Operation *loop, StringRef why) {
  loop->setAttr(kSequentialReasonAttr, StringAttr::get(loop->getContext(), why));
}

std::optional<StringRef> threadbind::getSequentialReason(Operation *loop) {
  auto why = loop->getAttrOfType<StringAttr>(kSequentialReasonAttr);
  if (!why)
    return std::nullopt;
  return why.getValue();
}

void threadbind::clearSequentialReason(Operation *loop) {
  loop->removeAttr(kSequentialReasonAttr);
}

void threadbind::setHostReadback(Operation *alloca) {
  alloca->setAttr(kHostReadbackAttr, UnitAttr::get(alloca->getContext()));
}

bool threadbind::isHostReadback(Operation *alloca) {
  return isa_and_nonnull<UnitAttr>(alloca->getAttr(kHostReadbackAttr));
}

void threadbind::setUnswitchRejected(Operation *ifOp) {
  ifOp->setAttr(kUnswitchRejectedAttr, UnitAttr::get(ifOp->getContext()));
}

bool threadbind::isUnswitchRejected(Operation *ifOp) {
  return isa_and_nonnull<UnitAttr>(ifOp->getAttr(kUnswitchRejectedAttr));
}

void threadbind::clearUnswitchRejected(Operation *ifOp) {
  ifOp->removeAttr(kUnswitchRejectedAttr);
}

void threadbind::setResultIndex(FunctionOpInterface func, unsigned arg,
                                int64_t result) {
  func.setArgAttr(arg, kResultIndexAttr,
                  Builder(func.getContext()).getI64IntegerAttr(result));
}

std::optional<int64_t> threadbind::getResultIndex(FunctionOpInterface func,
                                                  unsigned arg) {
  auto index = func.getArgAttrOfType<IntegerAttr>(arg, kResultIndexAttr);
  if (!index || index.getInt() < 0)
    return std::nullopt;
  return index.getInt();
}
