//===- ReadOnlyArguments.cpp - Loads through the read-only data cache -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// NVPTX loads through a kernel parameter with `ld.global.nc` (the read-only
// data cache) when the parameter is `noalias` and `readonly`: what nvcc does
// for `const T *__restrict__`. Memrefs arrive as arguments that may overlap,
// so nothing may claim that at compile time; three passes claim it where
// the host has checked it:
//   1. threadbind-version-read-only-launches, on host code before
//      outlining: a launch reading some memrefs and writing others becomes
//      `scf.if (each read-only memref's bytes are disjoint from each written
//      one's) { a copy, its read-only loads marked } else { the launch }`;
//   2. threadbind-mark-read-only-arguments, after outlining: a kernel
//      parameter all of whose accesses are marked loads gets
//      `llvm.readonly`, the kernel a mark;
//   3. threadbind-noalias-read-only-arguments, after the NVVM lowering: the
//      marked kernel's `llvm.readonly` pointers get `llvm.noalias`.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_VERSIONREADONLYLAUNCHESPASS
#define GEN_PASS_DEF_MARKREADONLYARGUMENTSPASS
#define GEN_PASS_DEF_NOALIASREADONLYARGUMENTSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// What a kernel does with a memref
//===----------------------------------------------------------------------===//

/// The memref a load-like op reads, if `op` is one.
static Value getLoadedMemRef(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getBase();
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    return read.getBase();
  if (auto load = dyn_cast<vector::MaskedLoadOp>(op))
    return load.getBase();
  return {};
}

/// Collects into `loads` the loads of `memref` within `scope`, following
/// views of it. Fails if anything in `scope` could write through it or
/// let it escape (a store, a call, an op this does not know).
static LogicalResult collectReadOnlyLoads(Value memref, Region &scope,
                                          SmallVectorImpl<Operation *> &loads) {
  SmallVector<Value> work = {memref};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (!scope.isAncestor(user->getParentRegion()))
        continue;
      if (getLoadedMemRef(user) == value) {
        loads.push_back(user);
        continue;
      }
      // Sizes and addresses (widening's alignment test) read no data.
      if (isa<memref::DimOp, memref::ExtractAlignedPointerAsIndexOp>(user))
        continue;
      if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
        work.push_back(metadata.getBaseBuffer());
        continue;
      }
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value &&
          isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp,
              memref::ExpandShapeOp, memref::CollapseShapeOp,
              memref::TransposeOp>(user)) {
        llvm::append_range(work, user->getResults());
        continue;
      }
      return failure();
    }
  }
  return success();
}

/// The size in bytes of an element of `type`, or 0 for types this pass
/// does not weigh.
static int64_t getElementBytes(Type type) {
  if (isa<IndexType>(type))
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
  if (auto vector = dyn_cast<VectorType>(type))
    if (vector.hasStaticShape())
      return vector.getNumElements() * getElementBytes(vector.getElementType());
  return 0;
}

/// Whether the host can find `type`'s bytes: a strided layout in the
/// default memory space, and an element of known size.
static bool hasMeasurableBytes(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.getMemorySpace() && memref.isStrided() &&
         getElementBytes(memref.getElementType()) > 0;
}

//===----------------------------------------------------------------------===//
// threadbind-version-read-only-launches
//===----------------------------------------------------------------------===//

/// The memref whose bytes `value` spans: through casts, and through the
/// reinterpret_cast of threadbind-version-unit-strides, which keeps its
/// source's offset and sizes and makes the strides 1 under a test that they
/// are (where they are not, it is never used).
static Value getSameBytesSource(Value value) {
  while (true) {
    if (auto cast = value.getDefiningOp<memref::CastOp>()) {
      value = cast.getSource();
      continue;
    }
    auto reinterpret = value.getDefiningOp<memref::ReinterpretCastOp>();
    if (!reinterpret)
      return value;
    Value source = reinterpret.getSource();
    auto fromSource = [&](Value v) {
      auto metadata = v.getDefiningOp<memref::ExtractStridedMetadataOp>();
      return metadata && metadata.getSource() == source;
    };
    auto unit = [](int64_t stride) { return stride == 1; };
    if (!llvm::all_of(reinterpret.getOffsets(), fromSource) ||
        !llvm::all_of(reinterpret.getSizes(), fromSource) ||
        !reinterpret.getStrides().empty() ||
        !llvm::all_of(reinterpret.getStaticStrides(), unit))
      return value;
    value = source;
  }
}

namespace {
/// The bytes of a memref at run time: from `lo` to `hi` (exclusive), or
/// none.
struct ByteRange {
  Value lo, hi, empty;
};
} // namespace

/// The bytes `memref` spans: its aligned pointer plus its offset and, for
/// each dimension, (size - 1) * stride, towards lower addresses for a
/// negative stride.
static ByteRange buildByteRange(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value zero = cst(0), one = cst(1);
  Value lo = metadata.getOffset();
  Value hi = arith::AddIOp::create(b, loc, lo, one);
  Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (auto [size, stride] :
       llvm::zip_equal(metadata.getSizes(), metadata.getStrides())) {
    empty = arith::OrIOp::create(
        b, loc, empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
    Value last = arith::SubIOp::create(b, loc, size, one);
    Value span = arith::MulIOp::create(b, loc, last, stride);
    lo = arith::AddIOp::create(b, loc, lo,
                               arith::MinSIOp::create(b, loc, span, zero));
    hi = arith::AddIOp::create(b, loc, hi,
                               arith::MaxSIOp::create(b, loc, span, zero));
  }
  Value bytes = cst(getElementBytes(type.getElementType()));
  auto toBytes = [&](Value elements) -> Value {
    return arith::AddIOp::create(
        b, loc, pointer, arith::MulIOp::create(b, loc, elements, bytes));
  };
  return {toBytes(lo), toBytes(hi), empty};
}

/// The helper `(memref, memref) -> i1` telling whether the bytes of its
/// arguments, of types `a` and `b`, are disjoint; made once a pair of
/// types.
static func::FuncOp
getDisjointHelper(SymbolTable &symbols, Type a, Type b,
                  DenseMap<std::pair<Type, Type>, func::FuncOp> &helpers) {
  func::FuncOp &helper = helpers[{a, b}];
  if (helper)
    return helper;
  Operation *module = symbols.getOp();
  MLIRContext *context = module->getContext();
  Location loc = module->getLoc();
  helper = func::FuncOp::create(
      loc, "threadbind_disjoint",
      FunctionType::get(context, {a, b}, {IntegerType::get(context, 1)}));
  helper.setPrivate();
  helper->setAttr(kDisjointHelperAttr, UnitAttr::get(context));
  // At the module's end, named uniquely among its symbols.
  symbols.insert(helper, module->getRegion(0).front().end());
  OpBuilder builder(context);
  Block *entry = helper.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  ByteRange x = buildByteRange(builder, loc, entry->getArgument(0));
  ByteRange y = buildByteRange(builder, loc, entry->getArgument(1));
  auto le = [&](Value l, Value r) -> Value {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule, l,
                                 r);
  };
  Value apart = arith::OrIOp::create(builder, loc, le(x.hi, y.lo),
                                     le(y.hi, x.lo));
  Value disjoint = arith::OrIOp::create(
      builder, loc, apart,
      arith::OrIOp::create(builder, loc, x.empty, y.empty));
  func::ReturnOp::create(builder, loc, disjoint);
  return helper;
}

/// Marks `load` as reading memory nothing the kernel writes overlaps.
static void markReadOnlyLoad(Operation *load) {
  load->setAttr(kReadOnlyLoadAttr, UnitAttr::get(load->getContext()));
}

namespace {
struct VersionReadOnlyLaunchesPass
    : threadbind::impl::VersionReadOnlyLaunchesPassBase<
          VersionReadOnlyLaunchesPass> {
  void runOnOperation() override;
};
} // namespace

void VersionReadOnlyLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<gpu::LaunchOp> launches;
  module.walk([&](gpu::LaunchOp launch) {
    if (!launch->getParentOfType<gpu::GPUModuleOp>())
      launches.push_back(launch);
  });
  DenseMap<std::pair<Type, Type>, func::FuncOp> helpers;
  std::optional<SymbolTable> symbols;
  for (gpu::LaunchOp launch : launches) {
    if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
      continue;
    auto host = launch->getParentOfType<func::FuncOp>();
    if (!host)
      continue;
    Region &body = launch.getBody();
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(body, captured);
    // The loads of the read-only memrefs; the memrefs whose bytes the host
    // compares, read-only and written.
    SmallVector<Operation *> readOnlyLoads;
    SmallVector<Value> readOnlyBytes, writtenBytes;
    bool measurable = true;
    for (Value value : captured) {
      if (!isa<BaseMemRefType>(value.getType()))
        continue;
      SmallVector<Operation *> loads;
      bool isReadOnly = succeeded(collectReadOnlyLoads(value, body, loads));
      if (isReadOnly && loads.empty())
        continue; // sizes only
      // The host tests function arguments, which the manifest can name.
      Value source = getSameBytesSource(value);
      auto arg = dyn_cast<BlockArgument>(source);
      if (!arg || arg.getOwner() != &host.getBody().front() ||
          !hasMeasurableBytes(source.getType()))
        measurable = false;
      (isReadOnly ? readOnlyBytes : writtenBytes).push_back(source);
      if (isReadOnly)
        llvm::append_range(readOnlyLoads, loads);
    }
    if (readOnlyBytes.empty())
      continue;
    if (writtenBytes.empty()) {
      llvm::for_each(readOnlyLoads, markReadOnlyLoad);
      ++numLaunchesMarked;
      continue;
    }
    if (!measurable)
      continue;
    if (!symbols)
      symbols.emplace(module);
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value disjoint;
    for (Value r : readOnlyBytes)
      for (Value w : writtenBytes) {
        func::FuncOp helper =
            getDisjointHelper(*symbols, r.getType(), w.getType(), helpers);
        Value apart =
            func::CallOp::create(builder, loc, helper, ValueRange{r, w})
                .getResult(0);
        disjoint = disjoint
                       ? arith::AndIOp::create(builder, loc, disjoint, apart)
                             .getResult()
                       : apart;
      }
    IRRewriter rewriter(builder);
    versionOnCondition(rewriter, launch, disjoint,
                       [&](IRMapping &copied, bool thenSide) {
                         if (thenSide)
                           for (Operation *load : readOnlyLoads)
                             markReadOnlyLoad(copied.lookup(load));
                       });
    ++numLaunchesVersioned;
  }
}

//===----------------------------------------------------------------------===//
// threadbind-mark-read-only-arguments
//===----------------------------------------------------------------------===//

namespace {
struct MarkReadOnlyArgumentsPass
    : threadbind::impl::MarkReadOnlyArgumentsPassBase<
          MarkReadOnlyArgumentsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      bool any = false;
      for (BlockArgument arg : func.getArguments()) {
        if (!isa<MemRefType>(arg.getType()))
          continue;
        SmallVector<Operation *> loads;
        if (failed(collectReadOnlyLoads(arg, func.getBody(), loads)) ||
            loads.empty() || !llvm::all_of(loads, [](Operation *load) {
              return load->hasAttr(kReadOnlyLoadAttr);
            }))
          continue;
        func.setArgAttr(arg.getArgNumber(),
                        LLVM::LLVMDialect::getReadonlyAttrName(),
                        UnitAttr::get(context));
        ++numArgumentsMarked;
        any = true;
      }
      if (any)
        func->setAttr(kNoAliasReadOnlyAttr, UnitAttr::get(context));
      func.walk([](Operation *op) { op->removeAttr(kReadOnlyLoadAttr); });
    });
  }
};

//===----------------------------------------------------------------------===//
// threadbind-noalias-read-only-arguments
//===----------------------------------------------------------------------===//

struct NoAliasReadOnlyArgumentsPass
    : threadbind::impl::NoAliasReadOnlyArgumentsPassBase<
          NoAliasReadOnlyArgumentsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (!func->removeAttr(kNoAliasReadOnlyAttr))
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<LLVM::LLVMPointerType>(func.getArgument(i).getType()) &&
            func.getArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName()))
          func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                          UnitAttr::get(context));
    });
  }
};
} // namespace
