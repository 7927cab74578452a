//===- SequentialKernels.cpp - One-thread kernels for what was left -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The fallback that keeps a program whole: after the mapping passes, every
// scf.parallel they left (a loop the device can run, but not in parallel)
// and every stretch of host code that reads or writes memref data (which
// lives on the device) becomes a gpu.launch of one thread. Scalars the host
// needs from such a kernel come back through device scratch, and host
// buffers that kernels use are allocated on the device.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_SEQUENTIALKERNELSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// What must run on the device
//===----------------------------------------------------------------------===//

/// Whether `op` is, or holds, an op of one of the kinds `OpTys`.
template <typename... OpTys> static bool holds(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<OpTys...>(nested) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` is a kernel launch or holds one: host control flow around
/// kernels stays on the host, and only its parts are looked at.
static bool holdsLaunch(Operation *op) { return holds<gpu::LaunchOp>(op); }

/// Whether `op`, or an op nested in it, reads or writes the data of a
/// memref in device memory (allocating and freeing one do not count, nor
/// reading a value read back to the host).
static bool touchesMemrefData(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
        if (!effects)
          return WalkResult::advance();
        SmallVector<MemoryEffects::EffectInstance> instances;
        effects.getEffects(instances);
        for (MemoryEffects::EffectInstance &instance : instances) {
          if (!isa<MemoryEffects::Read, MemoryEffects::Write>(
                  instance.getEffect()))
            continue;
          Value value = instance.getValue();
          // A value read back from the device lives in host memory.
          if (value && value.getDefiningOp() &&
              isHostReadback(value.getDefiningOp()))
            continue;
          bool onMemref =
              value ? isa<BaseMemRefType>(value.getType())
                    : llvm::any_of(nested->getOperandTypes(),
                                   llvm::IsaPred<BaseMemRefType>);
          if (onMemref)
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` is a parallel loop or holds one.
static bool holdsParallelLoop(Operation *op) {
  return holds<scf::ParallelOp>(op);
}

/// Whether `op` must run in a kernel: a parallel loop no mapping took, or
/// host code that touches memref data. The host's own ops on device memory
/// (gpu.alloc, gpu.memset, gpu.memcpy, ...) stay where they are.
static bool needsDevice(Operation *op) {
  if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) || holdsLaunch(op))
    return false;
  return holdsParallelLoop(op) || touchesMemrefData(op);
}

/// Whether `op` can run in a kernel, checked without a word.
static bool canRunOnDevice(Operation *op) {
  return !catchRefusal(op->getContext(), [&] {
    return verifyRunsOnDevice(ArrayRef<Operation *>(op));
  });
}

/// Gathers, from `block` and the blocks of host ops that hold launches,
/// the runs of consecutive ops that must run in a kernel, with the pure ops
/// between them. Host control flow that must run in a kernel but cannot
/// (it prints, say) is looked into instead: its parts that can, run in
/// kernels of their own, and the host keeps the rest.
static void collectIslands(Block &block,
                           SmallVectorImpl<SmallVector<Operation *>> &islands) {
  SmallVector<Operation *> island, pending;
  auto close = [&] {
    if (!island.empty())
      islands.push_back(std::move(island));
    island.clear();
    pending.clear();
  };
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    bool mustSplit = needsDevice(&op) && !isa<scf::ParallelOp>(op) &&
                     op.getNumRegions() != 0 && !canRunOnDevice(&op);
    if (holdsLaunch(&op) || mustSplit) {
      close();
      if (!isa<gpu::LaunchOp>(op))
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            collectIslands(nested, islands);
      continue;
    }
    if (needsDevice(&op)) {
      llvm::append_range(island, pending);
      pending.clear();
      island.push_back(&op);
      continue;
    }
    if (!island.empty() && isPure(&op) && op.getNumRegions() == 0) {
      pending.push_back(&op);
      continue;
    }
    close();
  }
  close();
}

/// Moves the pure ops of `island` that use nothing the island makes before
/// it, out of it: the host computes them, and later host code may use them.
static void hoistHostValues(SmallVector<Operation *> &island) {
  llvm::SmallPtrSet<Operation *, 16> members(island.begin(), island.end());
  SmallVector<Operation *> kept;
  for (Operation *op : island) {
    bool hostComputable =
        isPure(op) && op->getNumRegions() == 0 &&
        llvm::none_of(op->getOperands(), [&](Value operand) {
          return members.contains(operand.getDefiningOp());
        });
    if (!hostComputable) {
      kept.push_back(op);
      continue;
    }
    members.erase(op);
    if (!kept.empty())
      op->moveBefore(kept.front());
  }
  island = std::move(kept);
}

/// Whether the memrefs `func` touches live on the device: it launches
/// kernels or has loops left to one thread (`parallel`), or takes memrefs (a
/// bundle entry takes device memory). A host function of none of these,
/// such as a test harness that fills buffers and calls entries, is left
/// alone.
static bool isDeviceProgram(FunctionOpInterface func, bool parallel) {
  return parallel || llvm::any_of(func.getArgumentTypes(),
                                  llvm::IsaPred<BaseMemRefType>);
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

/// "N iterations" of `loop`, or how many are unknown until run time.
static std::string describeTrips(scf::ParallelOp loop) {
  std::optional<int64_t> total = 1;
  for (unsigned d = 0; d < loop.getNumLoops() && total; ++d) {
    std::optional<int64_t> trips = getStaticTripCount(loop, d);
    total = trips ? llvm::checkedMul(*total, *trips) : std::nullopt;
  }
  if (!total)
    return "all its iterations (a number known at run time)";
  return std::to_string(*total) + " iteration" + (*total == 1 ? "" : "s");
}

/// Whether upstream's lowering of dimension `d` of `loop` (iv from lb,
/// adding step while iv < ub, signed) is known to stop: the bounds and step
/// are constants and the value after the last iteration fits the index
/// type.
static bool stepsSafely(scf::ParallelOp loop, unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  std::optional<int64_t> trips = getStaticTripCount(loop, d);
  if (!lb || !step || !trips)
    return false;
  std::optional<int64_t> advance = llvm::checkedMul(*trips, *step);
  return advance && llvm::checkedAdd(*lb, *advance);
}

/// Rewrites the dimensions of `loop` that upstream's lowering could step
/// past the end of the index type (bounds near its limits, or not known
/// until run time) to count iterations j from 0 to the trip count, with
/// iv = lb + j * step, which wraps back into range. ThreadBind's mapped
/// loops take the trip count this way, so a loop left to one thread must
/// too: upstream's iv + step would wrap negative and never reach ub.
static void countFromZero(IRRewriter &rewriter, scf::ParallelOp loop) {
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d)
    if (!isConstantIntValue(loop.getLowerBound()[d], 0) ||
        !isConstantIntValue(loop.getStep()[d], 1))
      if (!stepsSafely(loop, d))
        dims.push_back(d);
  if (dims.empty())
    return;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> lbs(loop.getLowerBound()), ubs(loop.getUpperBound()),
      steps(loop.getStep());
  SmallVector<Value> newLbs(lbs), newUbs(ubs), newSteps(steps);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned d : dims) {
    newUbs[d] = createTripCount(rewriter, loc, lbs[d], ubs[d], steps[d]);
    newLbs[d] = zero;
    newSteps[d] = one;
  }
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(newLbs);
    loop.getUpperBoundMutable().assign(newUbs);
    loop.getStepMutable().assign(newSteps);
  });
  rewriter.setInsertionPointToStart(loop.getBody());
  for (unsigned d : dims) {
    Value j = loop.getInductionVars()[d];
    auto offset = arith::MulIOp::create(rewriter, loc, j, steps[d]);
    Value iv = arith::AddIOp::create(rewriter, loc, lbs[d], offset);
    rewriter.replaceAllUsesExcept(j, iv, offset);
  }
}

namespace {
struct SequentialKernelsPass
    : threadbind::impl::SequentialKernelsPassBase<SequentialKernelsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Checks `island` can become a kernel and finds what of it the host
  /// reads afterwards (`escaping`). Host code that cannot fails quietly and
  /// stays on the host (a bundle refuses it, naming the op); an island that
  /// holds a loop left by the mappers is an error at the op.
  LogicalResult check(ArrayRef<Operation *> island,
                      SmallVectorImpl<Value> &escaping);
  /// Moves `island` into a one-thread launch and reads `escaping` back.
  void wrap(IRRewriter &rewriter, ArrayRef<Operation *> island,
            ArrayRef<Value> escaping);
  /// Allocates on the device the host buffers that kernels of `func` use.
  void allocateOnDevice(IRRewriter &rewriter, FunctionOpInterface func);
};
} // namespace

LogicalResult SequentialKernelsPass::check(ArrayRef<Operation *> island,
                                           SmallVectorImpl<Value> &escaping) {
  Operation *first = island.front();
  Block *block = first->getBlock();
  bool report = llvm::any_of(island, holdsParallelLoop);
  llvm::SmallPtrSet<Operation *, 16> members(island.begin(), island.end());
  for (Operation *op : island)
    for (Value result : op->getResults()) {
      bool usedAfter = llvm::any_of(result.getUsers(), [&](Operation *user) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        return !ancestor || !members.contains(ancestor);
      });
      if (!usedAfter)
        continue;
      if (isa<IntegerType, IndexType, FloatType>(result.getType())) {
        escaping.push_back(result);
        continue;
      }
      if (!report)
        return failure();
      return op->emitError("'")
               << op->getName() << "' must run on the GPU, where memory "
               << "lives, but host code after it uses its result of type "
               << result.getType()
               << "; only integers, indices and floats come back";
    }
  std::optional<Refusal> refusal = catchRefusal(&getContext(), [&] {
    return verifyRunsOnDevice(island, "the code that must run on the GPU");
  });
  if (!refusal)
    return success();
  if (!report)
    return failure();
  Operation *loop = *llvm::find_if(island, holdsParallelLoop);
  emitError(refusal->loc, refusal->message).attachNote(loop->getLoc())
      << "in code with a loop that no mapping bound in parallel, which must "
         "run on one GPU thread";
  return failure();
}

void SequentialKernelsPass::wrap(IRRewriter &rewriter,
                                 ArrayRef<Operation *> island,
                                 ArrayRef<Value> escaping) {
  Operation *first = island.front();
  Location loc = first->getLoc();
  rewriter.setInsertionPoint(first);
  SmallVector<Value> scratch;
  for (Value value : escaping)
    scratch.push_back(createDeviceAlloc(
        rewriter, loc, MemRefType::get({1}, value.getType())));
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::LaunchOp launch =
      createLaunchWithTerminator(rewriter, loc, {one, one, one}, {one, one, one});
  Operation *terminator = rewriter.getInsertionBlock()->getTerminator();
  for (Operation *op : island)
    rewriter.moveOpBefore(op, terminator);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (auto [value, buffer] : llvm::zip_equal(escaping, scratch))
    memref::StoreOp::create(rewriter, loc, value, buffer, zero);

  rewriter.setInsertionPointAfter(launch);
  for (auto [value, buffer] : llvm::zip_equal(escaping, scratch)) {
    Value read = createHostReadback(rewriter, loc, buffer);
    rewriter.replaceUsesWithIf(value, read, [&](OpOperand &use) {
      return !launch->isAncestor(use.getOwner());
    });
  }
}

/// Whether a copy between memrefs of these types is one block of bytes, as
/// gpu.memcpy moves it.
static bool isContiguousCopy(memref::CopyOp copy) {
  auto identity = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && memref.getLayout().isIdentity() &&
           !memref.getMemorySpace();
  };
  return identity(copy.getSource().getType()) &&
         identity(copy.getTarget().getType());
}

/// Host copies between device buffers become gpu.memcpy, which the copy
/// engines do, rather than a kernel of one thread.
static void copyOnDevice(IRRewriter &rewriter, FunctionOpInterface func) {
  SmallVector<memref::CopyOp> copies;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    if (auto copy = dyn_cast<memref::CopyOp>(op);
        copy && isContiguousCopy(copy))
      copies.push_back(copy);
    return WalkResult::advance();
  });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    createDeviceCopy(rewriter, copy.getLoc(), copy.getTarget(),
                     copy.getSource());
    rewriter.eraseOp(copy);
  }
}

/// Whether `memref` reaches a kernel, itself or through views of it.
static bool reachesKernel(Value memref) {
  for (Operation *user : memref.getUsers()) {
    if (user->getParentOfType<gpu::LaunchOp>())
      return true;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == memref &&
        llvm::any_of(user->getResults(), reachesKernel))
      return true;
  }
  return false;
}

void SequentialKernelsPass::allocateOnDevice(IRRewriter &rewriter,
                                             FunctionOpInterface func) {
  SmallVector<Operation *> buffers;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    if (isa<memref::AllocOp, memref::AllocaOp>(op) && !isHostReadback(op)) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (type.getLayout().isIdentity() && !type.getMemorySpace() &&
          reachesKernel(op->getResult(0)))
        buffers.push_back(op);
    }
    return WalkResult::advance();
  });
  for (Operation *op : buffers) {
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(op->getResult(0).getType());
    rewriter.setInsertionPoint(op);
    Value device;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      device = createDeviceAlloc(rewriter, loc, type, alloc.getDynamicSizes(),
                                 alloc.getSymbolOperands());
      for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
          rewriter.setInsertionPoint(dealloc);
          createDeviceDealloc(rewriter, dealloc.getLoc(), device);
          rewriter.eraseOp(dealloc);
        }
    } else {
      auto alloca = cast<memref::AllocaOp>(op);
      device = createDeviceAlloc(rewriter, loc, type, alloca.getDynamicSizes(),
                                 alloca.getSymbolOperands());
      // Stack memory lasts until its scope ends; the block's end is where
      // its last use can be.
      rewriter.setInsertionPoint(op->getBlock()->getTerminator());
      createDeviceDealloc(rewriter, loc, device);
    }
    rewriter.replaceOp(op, device);
  }
}

void SequentialKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  IRRewriter rewriter(&getContext());
  // Check everything before changing anything: a refused module is left as
  // it was.
  struct Work {
    FunctionOpInterface func;
    /// Whether it launched kernels or had loops left, before this pass.
    bool parallel;
    SmallVector<SmallVector<Operation *>> islands;
    SmallVector<SmallVector<Value>> escaping;
  };
  SmallVector<Work> work;
  bool anyFailed = false;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    bool parallel = holds<gpu::LaunchOp, scf::ParallelOp>(func);
    if (!isDeviceProgram(func, parallel))
      continue;
    Work item{func, parallel, {}, {}};
    // Like hoisting below, a rewrite that keeps the meaning whether or not
    // the module is refused.
    copyOnDevice(rewriter, func);
    for (Block &block : func.getFunctionBody())
      collectIslands(block, item.islands);
    SmallVector<SmallVector<Operation *>> islands;
    for (SmallVector<Operation *> &island : item.islands) {
      SmallVector<Value> escaping;
      // Hoisting only moves pure ops earlier, which keeps the meaning even
      // if the module is then refused.
      hoistHostValues(island);
      if (failed(check(island, escaping))) {
        anyFailed |= llvm::any_of(island, holdsParallelLoop);
        continue;
      }
      islands.push_back(std::move(island));
      item.escaping.push_back(std::move(escaping));
    }
    item.islands = std::move(islands);
    work.push_back(std::move(item));
  }
  if (anyFailed)
    return signalPassFailure();

  for (Work &item : work) {
    // Loops left to one thread were warned about by the mapping passes.
    if (!item.parallel && !item.islands.empty())
      item.func->emitWarning("has no parallel loop, so all of its code that "
                             "touches memory runs on one GPU thread");
    for (auto [island, escaping] : llvm::zip_equal(item.islands, item.escaping)) {
      bool holdsLoop = false;
      for (Operation *op : island)
        op->walk([&](scf::ParallelOp loop) {
          holdsLoop = true;
          ++numLoopsSerialised;
          if (!getSequentialReason(loop))
            loop.emitWarning("no ThreadBind mapping bound this loop, so it "
                             "runs on one GPU thread");
          else if (emitRemarks)
            loop.emitRemark()
                << "runs on one GPU thread: " << describeTrips(loop)
                << " one after another, where a mapped loop would run them "
                   "in parallel";
          clearSequentialReason(loop);
          countFromZero(rewriter, loop);
        });
      if (!holdsLoop) {
        ++numHostKernels;
        if (emitRemarks)
          (*llvm::find_if(island, needsDevice))
                  ->emitRemark()
              << "runs on one GPU thread: host code that reads or writes "
                 "memref data, which lives on the device";
      }
      wrap(rewriter, island, escaping);
    }
    allocateOnDevice(rewriter, item.func);
  }
}
