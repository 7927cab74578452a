//===- ScopeLoopStack.cpp - Loop iterations give their stack back ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// LLVM frees a stack allocation only when its function returns. One made in
// a loop body (a memref.alloca, the descriptors of a memref.copy or an
// unranked memref, the argument arrays of a kernel launch) is made again on
// every iteration, and a host loop that launches kernels tens of thousands
// of times overflows the stack. This pass brackets each such loop body with
// llvm.intr.stacksave and llvm.intr.stackrestore.
//
// It works bottom-up: a loop whose body allocates, or holds a loop that
// allocates and could not be bracketed, is bracketed unless a memref made
// in its body leaves the iteration through the body's terminator.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_SCOPELOOPSTACKPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

/// Whether `op` itself takes stack each time it runs once lowered to LLVM.
static bool takesStack(Operation *op) {
  if (isa<memref::AllocaOp, memref::CopyOp, gpu::LaunchFuncOp, gpu::LaunchOp>(
          op))
    return true;
  auto isUnranked = [](Type type) { return isa<UnrankedMemRefType>(type); };
  return llvm::any_of(op->getOperandTypes(), isUnranked) ||
         llvm::any_of(op->getResultTypes(), isUnranked);
}

/// Whether the terminator of `block` passes on a memref made in `block`,
/// which may live on the iteration's stack.
static bool passesOnLocalMemref(Block &block) {
  return llvm::any_of(block.getTerminator()->getOperands(), [&](Value value) {
    return isa<BaseMemRefType>(value.getType()) &&
           block.getParent()->isAncestor(value.getParentRegion());
  });
}

namespace {
struct ScopeLoopStackPass
    : threadbind::impl::ScopeLoopStackPassBase<ScopeLoopStackPass> {
  void runOnOperation() override {
    // Loops whose iterations still grow the stack when this walk has
    // passed them (their enclosing loop must then take it back).
    llvm::SmallPtrSet<Operation *, 8> leaking;
    // Whether running `region` once takes stack that nothing gives back.
    auto regionTakesStack = [&](Region &region) {
      WalkResult result = region.walk<WalkOrder::PreOrder>(
          [&](Operation *op) {
            if (takesStack(op) || leaking.contains(op))
              return WalkResult::interrupt();
            // Loops inside answered for themselves (post-order walk).
            if (isa<LoopLikeOpInterface>(op))
              return WalkResult::skip();
            return WalkResult::advance();
          });
      return result.wasInterrupted();
    };

    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      auto loop = dyn_cast<LoopLikeOpInterface>(op);
      if (!loop || op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<gpu::GPUModuleOp>())
        return;
      SmallVector<Region *> regions = loop.getLoopRegions();
      bool takes = llvm::any_of(
          regions, [&](Region *region) { return regionTakesStack(*region); });
      if (!takes)
        return;
      if (llvm::any_of(regions, [](Region *region) {
            return !region->hasOneBlock() ||
                   passesOnLocalMemref(region->front());
          })) {
        leaking.insert(op);
        return;
      }
      OpBuilder builder(op->getContext());
      auto pointer = LLVM::LLVMPointerType::get(op->getContext());
      for (Region *region : regions) {
        Block &body = region->front();
        builder.setInsertionPointToStart(&body);
        Value saved = LLVM::StackSaveOp::create(builder, op->getLoc(), pointer);
        builder.setInsertionPoint(body.getTerminator());
        LLVM::StackRestoreOp::create(builder, op->getLoc(), saved);
      }
      ++numLoopsScoped;
    });
  }
};
} // namespace
