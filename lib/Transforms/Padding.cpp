//===- Padding.cpp - Memrefs whose allocations run past their size --------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Padding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::threadbind;

FailureOr<std::optional<int64_t>>
threadbind::getPaddedTo(FunctionOpInterface func, unsigned index) {
  Attribute attr = func.getArgAttr(index, kPaddedToAttr);
  if (!attr)
    return std::optional<int64_t>();
  auto multiple = dyn_cast<IntegerAttr>(attr);
  if (!multiple || multiple.getType().isInteger(1) ||
      multiple.getValue().getSExtValue() <= 0)
    return func.emitOpError("argument ")
           << index << ": '" << kPaddedToAttr
           << "' must be a positive integer, not " << attr;
  auto type = dyn_cast<MemRefType>(func.getArgumentTypes()[index]);
  if (!type || type.getRank() != 1 || !type.getLayout().isIdentity())
    return func.emitOpError("argument ")
           << index << ": '" << kPaddedToAttr
           << "' applies to 1-D memrefs with the identity layout, not "
           << func.getArgumentTypes()[index];
  return std::optional<int64_t>(multiple.getValue().getSExtValue());
}

LogicalResult threadbind::verifyPaddedToAttrs(FunctionOpInterface func) {
  bool ok = true;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    ok &= succeeded(getPaddedTo(func, i));
  return success(ok);
}

OpFoldResult threadbind::roundUpToMultiple(OpBuilder &builder, Location loc,
                                           OpFoldResult value,
                                           int64_t multiple) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return builder.getIndexAttr(llvm::alignTo(*constant, multiple));
  Value step = arith::ConstantIndexOp::create(builder, loc, multiple);
  Value blocks = arith::CeilDivUIOp::create(
      builder, loc, getValueOrCreateConstantIndexOp(builder, loc, value), step);
  return arith::MulIOp::create(builder, loc, blocks, step).getResult();
}

MemRefType threadbind::getResizedMemRefType(MemRefType type,
                                            OpFoldResult size) {
  std::optional<int64_t> staticSize = getConstantIntValue(size);
  return MemRefType::get({staticSize ? *staticSize : ShapedType::kDynamic},
                         type.getElementType(), MemRefLayoutAttrInterface(),
                         type.getMemorySpace());
}

Value threadbind::createPaddedView(OpBuilder &builder, Location loc,
                                   Value memref, int64_t multiple) {
  auto type = cast<MemRefType>(memref.getType());
  OpFoldResult size = memref::getMixedSize(builder, loc, memref, 0);
  OpFoldResult padded = roundUpToMultiple(builder, loc, size, multiple);
  return memref::ReinterpretCastOp::create(
      builder, loc, getResizedMemRefType(type, padded), memref,
      builder.getIndexAttr(0), {padded}, {builder.getIndexAttr(1)});
}
