//===- TestEmulateGPULaunch.cpp - CPU emulation of gpu.launch -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "EmulateGPULaunch.h"
#include "TestPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind::test {
#define GEN_PASS_DEF_TESTEMULATEGPULAUNCHPASS
#include "TestPasses.h.inc"

namespace {
struct TestEmulateGPULaunchPass
    : impl::TestEmulateGPULaunchPassBase<TestEmulateGPULaunchPass> {
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
  }
};
} // namespace
} // namespace mlir::threadbind::test
