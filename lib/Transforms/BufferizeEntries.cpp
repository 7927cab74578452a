//===- BufferizeEntries.cpp - Front-end calling conventions to the bundle's ===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Front ends emit linalg on tensors and functions that return what they
// compute. A bundle entry takes identity-layout memrefs and scalars and
// returns nothing. This pass bridges the two before anything is mapped:
//
//  1. Tensors become memrefs through upstream's One-Shot Bufferize, over the
//     whole module and across function boundaries, with identity layouts
//     everywhere (a strided view is copied where it must cross a boundary).
//  2. Results of entry functions (public, with a body, other than `main`)
//     become out-parameters:
//     - a result that is one of the function's own arguments (destination
//       passing style: the tensor written in place) is dropped, since the
//       caller already holds that buffer;
//     - a scalar result goes through a 0-d memref;
//     - memref results are appended as arguments by upstream's
//       buffer-results-to-out-params, the allocation that produced one
//       replaced by the argument where it can be (static or argument-sized
//       shapes), copied into it otherwise. Calls in the module to a function
//       with a dynamically shaped result are inlined first: a caller cannot
//       allocate a buffer whose size only the callee computes.
//     Each out-parameter carries `threadbind.result`, the index of the
//     result it holds, which the manifest reports.
//  3. Buffers allocated at the top of a one-block function that nothing
//     frees, returns or keeps are freed at its end, as the buffers of
//     temporary tensors need (only in a module the first two steps
//     changed).
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_BUFFERIZEENTRIESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// The most bytes a tensor made in a parallel loop's body may take to be
/// placed on a thread's stack, counting every element as the widest scalar.
static constexpr int64_t kMaxScratchBytes = 1024;
static constexpr int64_t kMaxScalarBytes = 8;

/// Whether any host op, or any function signature, holds a tensor.
static bool holdsTensors(ModuleOp module) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto func = dyn_cast<FunctionOpInterface>(op);
        func && (llvm::any_of(func.getArgumentTypes(), isTensor) ||
                 llvm::any_of(func.getResultTypes(), isTensor)))
      return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The functions a bundle makes entries of, whose results become
/// arguments. Functions named `threadbind_*` are hooks the runtime answers
/// and a module may define (the grid-size queries), a function that the
/// module calls other than from `main` is a helper (perhaps called in a
/// loop body, where it is inlined, or recursive), and one that touches no
/// memory is host arithmetic; they keep their signatures.
static bool isEntry(ModuleOp module, func::FuncOp func) {
  if (!func.isPublic() || func.isDeclaration() || func.getName() == "main" ||
      func.getName().starts_with("threadbind_"))
    return false;
  // Scalar arithmetic alone has nothing to run on the device.
  auto isMemRef = [](Type type) { return isa<BaseMemRefType>(type); };
  bool touchesMemory =
      llvm::any_of(func.getArgumentTypes(), isMemRef) ||
      llvm::any_of(func.getResultTypes(), isMemRef) ||
      func.walk([&](Operation *op) {
            return llvm::any_of(op->getResultTypes(), isMemRef)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted();
  if (!touchesMemory)
    return false;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  return !uses || llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
    auto caller = use.getUser()->getParentOfType<func::FuncOp>();
    return caller && caller.getName() == "main";
  });
}

/// The calls in `module` to `func`.
static SmallVector<func::CallOp> callsTo(ModuleOp module, func::FuncOp func) {
  SmallVector<func::CallOp> calls;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (auto call = dyn_cast<func::CallOp>(use.getUser()))
        calls.push_back(call);
  return calls;
}

/// Replaces `call` by one with `resultTypes`; `remap` gives, for each old
/// result, the value that takes its uses.
static void rebuildCall(IRRewriter &rewriter, func::CallOp call,
                        ArrayRef<Type> resultTypes,
                        function_ref<Value(unsigned, func::CallOp)> remap) {
  rewriter.setInsertionPoint(call);
  auto rebuilt = func::CallOp::create(rewriter, call.getLoc(),
                                      call.getCalleeAttr(), resultTypes,
                                      call.getOperands());
  rebuilt->setAttrs(call->getAttrs());
  for (auto [i, result] : llvm::enumerate(call.getResults()))
    result.replaceAllUsesWith(remap(i, rebuilt));
  rewriter.eraseOp(call);
}

/// The argument every return of `func` gives as result `index`, if there is
/// one.
static BlockArgument getReturnedArgument(func::FuncOp func, unsigned index) {
  BlockArgument returned;
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    auto arg = dyn_cast<BlockArgument>(ret.getOperand(index));
    if (!arg || arg.getOwner() != &func.getBody().front() ||
        (returned && returned != arg))
      return nullptr;
    returned = arg;
  }
  return returned;
}

namespace {
struct BufferizeEntriesPass
    : threadbind::impl::BufferizeEntriesPassBase<BufferizeEntriesPass> {
  void runOnOperation() override;

private:
  LogicalResult bufferizeTensors(ModuleOp module);
  /// Drops the results that are arguments, turns scalar results into 0-d
  /// memrefs; `resultIndex` gets, per memref result left, the result it
  /// was as written.
  void dropReturnedArguments(IRRewriter &rewriter, ModuleOp module,
                             func::FuncOp func,
                             SmallVectorImpl<unsigned> &resultIndex);
  void scalarsThroughMemory(IRRewriter &rewriter, ModuleOp module,
                            func::FuncOp func);
  LogicalResult inlineDynamicCalls(ModuleOp module, func::FuncOp func);
  void freeTemporaries(ModuleOp module);
};
} // namespace

/// Whether `a` and `b` name the same memory: one value, or two views made
/// alike from the same operands.
static bool isSameView(Value a, Value b) {
  if (a == b)
    return true;
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  return defA && defB && isa<ViewLikeOpInterface>(defA) &&
         isMemoryEffectFree(defA) &&
         OperationEquivalence::isEquivalentTo(
             defA, defB, OperationEquivalence::IgnoreLocations);
}

/// A tensor.insert_slice of a value computed in place leaves a copy of a
/// view onto an identical view of the same memory, which would be host
/// code touching device memory; it copies nothing.
static void eraseSelfCopies(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (isSameView(copy.getSource(), copy.getTarget()))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies)
    copy.erase();
}

LogicalResult BufferizeEntriesPass::bufferizeTensors(ModuleOp module) {
  IRRewriter rewriter(&getContext());
  // tensor.empty used only as a destination takes the buffer of what it is
  // inserted into, rather than a new one.
  if (failed(bufferization::eliminateEmptyTensors(rewriter, module)))
    return failure();
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  options.unknownTypeConverterFn =
      [](TensorType type, Attribute memorySpace,
         const bufferization::BufferizationOptions &) {
        return bufferization::getMemRefTypeWithStaticIdentityLayout(
            type, memorySpace);
      };
  // A loop over tensors that yields a new tensor each trip.
  options.allowReturnAllocsFromLoops = true;
  // A small tensor made in a parallel loop's body is per-iteration scratch,
  // which a kernel holds on its stack; it cannot allocate heap memory.
  options.allocationFn = [](OpBuilder &builder, Location loc, MemRefType type,
                            ValueRange dynamicSizes,
                            unsigned alignment) -> FailureOr<Value> {
    IntegerAttr align =
        alignment ? builder.getI64IntegerAttr(alignment) : IntegerAttr();
    if (isInParallelLoop(builder.getInsertionBlock()) &&
        type.hasStaticShape() &&
        type.getNumElements() * kMaxScalarBytes <= kMaxScratchBytes)
      return memref::AllocaOp::create(builder, loc, type, dynamicSizes,
                                      ValueRange(), align)
          .getResult();
    return memref::AllocOp::create(builder, loc, type, dynamicSizes,
                                   ValueRange(), align)
        .getResult();
  };
  // Kernels a module already holds are left alone.
  options.opFilter.denyOperation([](Operation *op) {
    return op->getParentOfType<gpu::GPUModuleOp>() ||
           op->getParentOfType<gpu::LaunchOp>();
  });
  bufferization::BufferizationState state;
  if (failed(bufferization::runOneShotModuleBufferize(module, options,
                                                       state)))
    return failure();
  bufferization::removeBufferizationAttributesInModule(module);
  eraseSelfCopies(module);
  return success();
}

void BufferizeEntriesPass::dropReturnedArguments(
    IRRewriter &rewriter, ModuleOp module, func::FuncOp func,
    SmallVectorImpl<unsigned> &resultIndex) {
  SmallVector<Value> returned(func.getNumResults());
  llvm::BitVector drop(func.getNumResults());
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (BlockArgument arg = getReturnedArgument(func, i)) {
      drop.set(i);
      returned[i] = arg;
    }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (!drop.test(i))
      resultIndex.push_back(i);
  if (drop.none())
    return;
  for (Block &block : func.getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
      ret->eraseOperands(drop);
  SmallVector<Type> kept;
  for (unsigned i : resultIndex)
    kept.push_back(func.getResultTypes()[i]);
  if (failed(func.eraseResults(drop)))
    llvm_unreachable("a function's results can always be erased");
  for (func::CallOp call : callsTo(module, func))
    rebuildCall(rewriter, call, kept, [&](unsigned i, func::CallOp rebuilt) {
      if (drop.test(i))
        return call.getOperand(
            cast<BlockArgument>(returned[i]).getArgNumber());
      return rebuilt.getResult(llvm::find(resultIndex, i) -
                               resultIndex.begin());
    });
}

void BufferizeEntriesPass::scalarsThroughMemory(IRRewriter &rewriter,
                                                ModuleOp module,
                                                func::FuncOp func) {
  SmallVector<Type> types = llvm::to_vector(func.getResultTypes());
  llvm::BitVector scalar(types.size());
  for (auto [i, type] : llvm::enumerate(types))
    if (type.isIntOrIndexOrFloat()) {
      scalar.set(i);
      type = MemRefType::get({}, type);
    }
  if (scalar.none())
    return;
  // One buffer per result, stored to before each return.
  Block &entry = func.getBody().front();
  rewriter.setInsertionPointToStart(&entry);
  SmallVector<Value> buffers(types.size());
  for (unsigned i : scalar.set_bits())
    buffers[i] = memref::AllocOp::create(rewriter, func.getLoc(),
                                         cast<MemRefType>(types[i]));
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    rewriter.setInsertionPoint(ret);
    for (unsigned i : scalar.set_bits()) {
      memref::StoreOp::create(rewriter, ret.getLoc(), ret.getOperand(i),
                              buffers[i]);
      ret->setOperand(i, buffers[i]);
    }
  }
  func.setFunctionType(
      FunctionType::get(&getContext(), func.getArgumentTypes(), types));
  for (func::CallOp call : callsTo(module, func))
    rebuildCall(rewriter, call, types, [&](unsigned i, func::CallOp rebuilt) {
      Value result = rebuilt.getResult(i);
      if (!scalar.test(i))
        return result;
      rewriter.setInsertionPointAfter(rebuilt);
      return memref::LoadOp::create(rewriter, rebuilt.getLoc(), result)
          .getResult();
    });
}

LogicalResult BufferizeEntriesPass::inlineDynamicCalls(ModuleOp module,
                                                       func::FuncOp func) {
  bool dynamic = llvm::any_of(func.getResultTypes(), [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && !memref.hasStaticShape();
  });
  if (!dynamic)
    return success();
  InlinerInterface interface(&getContext());
  InlinerConfig config;
  bool ok = true;
  for (func::CallOp call : callsTo(module, func)) {
    if (failed(inlineCall(interface, config.getCloneCallback(), call, func,
                          &func.getBody(),
                          /*shouldCloneInlinedRegion=*/true))) {
      call.emitOpError("calls '")
          << func.getName()
          << "', whose result's size only the callee knows, and the call "
             "cannot be inlined to allocate it here; return the result "
             "through an argument instead";
      ok = false;
      continue;
    }
    call->erase();
  }
  return success(ok);
}

/// Whether `memref`, or a view of it, may be freed already or outlive its
/// function: returned, deallocated, stored as a value, or given to an op
/// that hands back a memref other than a view of it.
static bool escapes(Value memref) {
  auto isMemRef = [](Type type) { return isa<BaseMemRefType>(type); };
  for (OpOperand &use : memref.getUses()) {
    Operation *user = use.getOwner();
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == memref) {
      if (llvm::any_of(user->getResults(), escapes))
        return true;
      continue;
    }
    if (isa<func::ReturnOp, memref::DeallocOp>(user) ||
        llvm::any_of(user->getResultTypes(), isMemRef))
      return true;
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && store.getValueToStore() == memref)
      return true;
  }
  return false;
}

void BufferizeEntriesPass::freeTemporaries(ModuleOp module) {
  OpBuilder builder(&getContext());
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration() || !func.getBody().hasOneBlock())
      continue;
    Block &body = func.getBody().front();
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      if (escapes(alloc))
        continue;
      builder.setInsertionPoint(body.getTerminator());
      memref::DeallocOp::create(builder, alloc.getLoc(), alloc);
      ++numBuffersFreed;
    }
  }
}

void BufferizeEntriesPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool changed = false;
  if (holdsTensors(module)) {
    changed = true;
    if (failed(bufferizeTensors(module)))
      return signalPassFailure();
    ++numModulesBufferized;
  }

  // The entries with results, decided once: rewriting one changes calls
  // in main only, which does not make another an entry or not.
  SmallVector<func::FuncOp> withResults;
  bool ok = true;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.getNumResults() == 0 || !isEntry(module, func))
      continue;
    withResults.push_back(func);
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (!isa<MemRefType>(type) && !type.isIntOrIndexOrFloat()) {
        func.emitOpError("cannot return result ")
            << i << " of type " << type
            << " through an argument; return memrefs, tensors or scalars";
        ok = false;
      }
  }
  if (!ok)
    return signalPassFailure();

  // What is left for upstream's out-parameters: each entry with the index
  // as written of each result it still returns, and where its
  // out-parameters will start.
  struct OutParams {
    func::FuncOp func;
    SmallVector<unsigned> resultIndex;
    unsigned first;
  };
  SmallVector<OutParams> entries;
  IRRewriter rewriter(&getContext());
  for (func::FuncOp func : withResults) {
    changed = true;
    SmallVector<unsigned> resultIndex;
    dropReturnedArguments(rewriter, module, func, resultIndex);
    scalarsThroughMemory(rewriter, module, func);
    if (failed(inlineDynamicCalls(module, func)))
      ok = false;
    if (func.getNumResults() != 0)
      entries.push_back({func, std::move(resultIndex), func.getNumArguments()});
  }
  if (!ok)
    return signalPassFailure();

  if (!entries.empty()) {
    llvm::SmallPtrSet<Operation *, 8> selected;
    for (OutParams &entry : entries)
      selected.insert(entry.func);
    bufferization::BufferResultsToOutParamsOpts options;
    options.filterFn = [&](func::FuncOp *func) {
      return selected.contains(*func);
    };
    options.hoistStaticAllocs = true;
    options.hoistDynamicAllocs = true;
    options.modifyPublicFunctions = true;
    if (failed(bufferization::promoteBufferResultsToOutParams(module,
                                                              options)))
      return signalPassFailure();
    for (OutParams &entry : entries) {
      for (unsigned i = entry.first, e = entry.func.getNumArguments(); i < e;
           ++i)
        setResultIndex(entry.func, i, entry.resultIndex[i - entry.first]);
      numResultsPassedOut += entry.func.getNumArguments() - entry.first;
    }
  }

  // What bufferization and the calls' out-parameters allocated; buffers a
  // program allocated itself and left to leak go too, which is as safe.
  if (changed)
    freeTemporaries(module);
}
