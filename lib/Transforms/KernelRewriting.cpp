//===- KernelRewriting.cpp - Rewrites shared by the kernel passes ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"

#include "threadbind/Transforms/Attributes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::threadbind;

/// A gpu.wait that makes a token for the next async op.
static Value createReadyToken(OpBuilder &builder, Location loc) {
  return gpu::WaitOp::create(builder, loc,
                             gpu::AsyncTokenType::get(builder.getContext()),
                             ValueRange())
      .getAsyncToken();
}

Value threadbind::createDeviceAlloc(OpBuilder &builder, Location loc,
                                    MemRefType type, ValueRange sizes,
                                    ValueRange symbols) {
  Value ready = createReadyToken(builder, loc);
  auto alloc = gpu::AllocOp::create(
      builder, loc, type, ready.getType(), ValueRange{ready}, sizes, symbols,
      /*hostShared=*/UnitAttr());
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{alloc.getAsyncToken()});
  return alloc.getMemref();
}

void threadbind::createDeviceDealloc(OpBuilder &builder, Location loc,
                                     Value memref) {
  Value ready = createReadyToken(builder, loc);
  Value freed = gpu::DeallocOp::create(builder, loc, ready.getType(),
                                       ValueRange{ready}, memref)
                    .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{freed});
}

void threadbind::createDeviceCopy(OpBuilder &builder, Location loc, Value dst,
                                  Value src) {
  Value ready = createReadyToken(builder, loc);
  Value copied = gpu::MemcpyOp::create(builder, loc, ready.getType(),
                                       ValueRange{ready}, dst, src)
                     .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{copied});
}

gpu::LaunchOp threadbind::createLaunchWithTerminator(RewriterBase &rewriter,
                                                     Location loc,
                                                     ArrayRef<Value> grid,
                                                     ArrayRef<Value> block) {
  auto launch = gpu::LaunchOp::create(rewriter, loc, grid[0], grid[1],
                                      grid[2], block[0], block[1], block[2]);
  rewriter.setInsertionPointToEnd(&launch.getBody().front());
  Operation *terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  return launch;
}

SmallVector<Value> threadbind::createIfElseZeros(
    RewriterBase &rewriter, Location loc, Value condition, TypeRange types,
    function_ref<SmallVector<Value>()> thenValues) {
  auto ifOp = scf::IfOp::create(rewriter, loc, types, condition,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, thenValues());
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  SmallVector<Value> zeros;
  for (Type type : types)
    zeros.push_back(arith::ConstantOp::create(
        rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(type))));
  scf::YieldOp::create(rewriter, loc, zeros);
  return SmallVector<Value>(ifOp.getResults());
}

void threadbind::guardOnPositive(RewriterBase &rewriter, Operation *op,
                                 Value count) {
  std::optional<int64_t> constant = getConstantIntValue(count);
  if (constant && *constant > 0)
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value any = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                    count, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, any, /*withElseRegion=*/false);
  rewriter.moveOpBefore(op, ifOp.thenBlock()->getTerminator());
}

Operation *threadbind::getEnclosingKernel(Operation *op) {
  if (auto launch = op->getParentOfType<gpu::LaunchOp>())
    return launch;
  return op->getParentOfType<gpu::GPUFuncOp>();
}

Value threadbind::createHostReadback(OpBuilder &builder, Location loc,
                                     Value buffer) {
  auto host = memref::AllocaOp::create(
      builder, loc, cast<MemRefType>(buffer.getType()));
  setHostReadback(host);
  createDeviceCopy(builder, loc, host, buffer);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value read = memref::LoadOp::create(builder, loc, host, zero);
  createDeviceDealloc(builder, loc, buffer);
  return read;
}

bool threadbind::isInParallelLoop(Block *block) {
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
    if (isa<scf::ParallelOp, scf::ForallOp, affine::AffineParallelOp>(op))
      return true;
  return false;
}

void threadbind::inlineIfSide(RewriterBase &rewriter, scf::IfOp ifOp,
                              bool thenSide) {
  Block *side = thenSide ? ifOp.thenBlock() : ifOp.elseBlock();
  if (!side) {
    rewriter.eraseOp(ifOp);
    return;
  }
  Operation *yield = side->getTerminator();
  SmallVector<Value> results(yield->getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(side, ifOp);
  rewriter.replaceOp(ifOp, results);
}

scf::IfOp threadbind::versionOnCondition(
    RewriterBase &rewriter, Operation *op, Value cond,
    function_ref<void(IRMapping &mapping, bool thenSide)> adjust) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto versions = scf::IfOp::create(rewriter, loc, op->getResultTypes(), cond,
                                    /*withElseRegion=*/true);
  for (bool thenSide : {true, false}) {
    Block *block = thenSide ? versions.thenBlock() : versions.elseBlock();
    if (!block->empty())
      rewriter.eraseOp(block->getTerminator());
    rewriter.setInsertionPointToEnd(block);
    IRMapping mapping;
    Operation *copy = rewriter.clone(*op, mapping);
    // The yield goes in first: `adjust` may replace the copy itself (when
    // `op` is the branch being resolved), and the yield's operands then
    // follow the replacement instead of pointing at an erased op.
    scf::YieldOp::create(rewriter, loc, copy->getResults());
    rewriter.setInsertionPoint(block->getTerminator());
    adjust(mapping, thenSide);
  }
  rewriter.replaceOp(op, versions.getResults());
  return versions;
}

std::optional<std::pair<Value, int64_t>>
threadbind::splitConstantAddend(Value value) {
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    if (std::optional<int64_t> c = getConstantIntValue(add.getRhs()))
      return std::make_pair(add.getLhs(), *c);
    if (std::optional<int64_t> c = getConstantIntValue(add.getLhs()))
      return std::make_pair(add.getRhs(), *c);
  }
  if (auto sub = value.getDefiningOp<arith::SubIOp>())
    if (std::optional<int64_t> c = getConstantIntValue(sub.getRhs());
        c && *c != std::numeric_limits<int64_t>::min())
      return std::make_pair(sub.getLhs(), -*c);
  return std::nullopt;
}

bool threadbind::isVectorElementType(Type type) {
  if (!isa<IntegerType, FloatType>(type))
    return false;
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits >= 8 && bits <= 64 && llvm::isPowerOf2_32(bits);
}

Value threadbind::createElementAddress(OpBuilder &builder, Location loc,
                                       Value memref, ValueRange outerIndices,
                                       Value first) {
  auto add = [&](Value a, Value b) {
    return builder.createOrFold<arith::AddIOp>(loc, a, b);
  };
  auto mul = [&](Value a, Value b) {
    return builder.createOrFold<arith::MulIOp>(loc, a, b);
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  Value element = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(outerIndices, metadata.getStrides()))
    element = add(element, mul(index, stride));
  element = add(element, first);
  unsigned bytes =
      cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  return add(
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref),
      mul(element, arith::ConstantIndexOp::create(builder, loc, bytes)));
}

Value threadbind::createRowsStartAlike(OpBuilder &builder, Location loc,
                                       Value memref, int64_t width) {
  if (cast<MemRefType>(memref.getType()).getRank() < 2)
    return Value();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value vector = arith::ConstantIndexOp::create(builder, loc, width);
  Value alike;
  for (Value stride : metadata.getStrides().drop_back()) {
    Value whole = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, stride, vector), zero);
    alike = alike ? arith::AndIOp::create(builder, loc, alike, whole) : whole;
  }
  return alike;
}

Value threadbind::createIsAligned(OpBuilder &builder, Location loc,
                                  Value memref, ValueRange outerIndices,
                                  Value first, uint64_t alignment) {
  Value address =
      createElementAddress(builder, loc, memref, outerIndices, first);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value misalignment =
      arith::RemUIOp::create(builder, loc, address, cst(alignment));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                               misalignment, cst(0));
}

void threadbind::cloneVectorLane(RewriterBase &rewriter, Location loc,
                                 Block *body, Value iv, Value first,
                                 int64_t lane,
                                 const DenseMap<Operation *, Value> &vectors,
                                 IRMapping &mapping,
                                 function_ref<bool(Operation &)> skip) {
  mapping.map(iv, rewriter.createOrFold<arith::AddIOp>(
                      loc, first,
                      arith::ConstantIndexOp::create(rewriter, loc, lane)));
  for (Operation &op : body->without_terminator()) {
    if (auto it = vectors.find(&op); it != vectors.end()) {
      mapping.map(op.getResult(0),
                  vector::ExtractOp::create(rewriter, loc, it->second,
                                            ArrayRef<int64_t>{lane}));
      continue;
    }
    if (skip && skip(op))
      continue;
    rewriter.clone(op, mapping);
  }
}

void threadbind::retargetLaunches(
    Operation *module,
    function_ref<std::optional<std::pair<StringAttr, StringAttr>>(
        StringAttr module, StringAttr kernel)>
        moved) {
  module->walk([&](gpu::LaunchFuncOp launch) {
    std::optional<std::pair<StringAttr, StringAttr>> to =
        moved(launch.getKernelModuleName(), launch.getKernelName());
    if (!to)
      return;
    launch.setKernelAttr(
        SymbolRefAttr::get(to->first, {FlatSymbolRefAttr::get(to->second)}));
  });
}
