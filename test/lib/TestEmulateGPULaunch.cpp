//===- TestEmulateGPULaunch.cpp - CPU emulation of gpu.launch -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "EmulateGPULaunch.h"
#include "TestPasses.h"

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind::test {
#define GEN_PASS_DEF_TESTEMULATEGPULAUNCHPASS
#include "TestPasses.h.inc"

namespace {
struct TestEmulateGPULaunchPass
    : impl::TestEmulateGPULaunchPassBase<TestEmulateGPULaunchPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp op) { launches.push_back(op); });

    // Check every launch before touching any, so a failure leaves the IR as
    // it was and reports all offending ops at once.
    bool allEmulatable = true;
    for (gpu::LaunchOp launch : launches)
      allEmulatable &= succeeded(verifyEmulatable(launch));
    if (!allEmulatable)
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches) {
      emulateLaunchOnHost(rewriter, launch);
      ++numLaunchesEmulated;
    }
    defineResidentBlocksQuery(rewriter);
    replaceDeviceAllocations(rewriter);
  }

  /// Device scratch (gpu.alloc, gpu.memset and gpu.dealloc, with the
  /// gpu.wait ops that order them) becomes host memory, as every launch now
  /// runs on the host.
  void replaceDeviceAllocations(RewriterBase &rewriter) {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemsetOp, gpu::WaitOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      if (auto alloc = dyn_cast<gpu::AllocOp>(op))
        rewriter.replaceAllUsesWith(
            alloc.getMemref(),
            memref::AllocOp::create(rewriter, op->getLoc(), alloc.getType(),
                                    alloc.getDynamicSizes(),
                                    alloc.getSymbolOperands()));
      else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op))
        memref::DeallocOp::create(rewriter, op->getLoc(),
                                  dealloc.getMemref());
      else if (auto memset = dyn_cast<gpu::MemsetOp>(op))
        fillOnHost(rewriter, memset);
    }
    // Tokens only order these ops among themselves: drop them, then the
    // ops.
    for (Operation *op : ops)
      for (Value result : op->getResults())
        if (isa<gpu::AsyncTokenType>(result.getType()))
          result.dropAllUses();
    for (Operation *op : ops)
      rewriter.eraseOp(op);
  }

  /// A gpu.memset of a 1-D memref as a host loop of stores.
  void fillOnHost(RewriterBase &rewriter, gpu::MemsetOp memset) {
    Location loc = memset.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value size = memref::DimOp::create(rewriter, loc, memset.getDst(), zero);
    auto loop = scf::ForOp::create(rewriter, loc, zero, size, one);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    memref::StoreOp::create(rewriter, loc, memset.getValue(), memset.getDst(),
                            loop.getInductionVar());
  }

  /// Gives a declared-only grid-size query a body returning a fixed count,
  /// as the runtime library would answer on a device.
  void defineResidentBlocksQuery(RewriterBase &rewriter) {
    auto module = dyn_cast<ModuleOp>(getOperation());
    if (!module)
      return;
    auto query = module.lookupSymbol<func::FuncOp>(kMaxResidentBlocksFn);
    if (!query || !query.isDeclaration() ||
        query.getFunctionType().getNumInputs() != 1 ||
        query.getFunctionType().getNumResults() != 1)
      return;
    Block *entry = query.addEntryBlock();
    rewriter.setInsertionPointToStart(entry);
    Value count = arith::ConstantIndexOp::create(rewriter, query.getLoc(),
                                                 residentBlocks);
    func::ReturnOp::create(rewriter, query.getLoc(), count);
    query.setPrivate();
  }
};
} // namespace
} // namespace mlir::threadbind::test
