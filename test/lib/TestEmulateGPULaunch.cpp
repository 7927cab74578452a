//===- TestEmulateGPULaunch.cpp - CPU emulation of gpu.launch -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/EmulateGPULaunch.h"
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
    replaceDeviceAllocationsOnHost(rewriter, getOperation());
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
