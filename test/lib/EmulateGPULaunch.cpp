//===- EmulateGPULaunch.cpp - Run gpu.launch bodies as host loops ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "EmulateGPULaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace mlir::threadbind::test {

/// The ops the emulator rewrites into host values or control flow: thread
/// geometry queries and the launch terminator.
static bool isReplacedOnHost(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
             gpu::GlobalIdOp, gpu::LaneIdOp, gpu::TerminatorOp>(op);
}

/// Threads run one after another on the host, so ops through which threads
/// observe each other, or which only exist on a device, cannot be emulated.
static LogicalResult verifyBodyOp(Operation *op) {
  if (isReplacedOnHost(op))
    return success();
  if (isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::SubgroupReduceOp,
          gpu::AllReduceOp>(op))
    return op->emitError("cannot emulate '")
           << op->getName()
           << "' on the host: threads run one after another there, so "
              "operations that synchronise or exchange values between threads "
              "have no sequential equivalent";
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (ns == "gpu" || ns == "nvvm" || ns == "rocdl" || ns == "nvgpu" ||
      ns == "amdgpu")
    return op->emitError("cannot emulate '")
           << op->getName() << "' on the host: it has no CPU lowering";
  return success();
}

LogicalResult verifyEmulatable(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError(
        "cannot be emulated on the host: asynchronous launches are not "
        "supported");
  if (launch.hasClusterSize())
    return launch.emitOpError(
        "cannot be emulated on the host: thread block clusters are not "
        "supported");
  if (launch.getNumWorkgroupAttributions() != 0 ||
      launch.getNumPrivateAttributions() != 0)
    return launch.emitOpError(
        "cannot be emulated on the host: memory attributions are not "
        "supported");
  WalkResult result = launch.getBody().walk([](Operation *op) {
    return failed(verifyBodyOp(op)) ? WalkResult::interrupt()
                                    : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static unsigned dimIndex(gpu::Dimension dim) {
  return static_cast<unsigned>(dim);
}

void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch) {
  Location loc = launch.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(launch);

  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // Blocks outermost, then threads; z outermost within each so x varies
  // fastest, as consecutive thread ids do on the device.
  SmallVector<Value> ubs = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loc, SmallVector<Value>(6, zero), ubs,
                         SmallVector<Value>(6, one));
  auto iv = [&](unsigned i) { return nest.loops[i].getInductionVar(); };
  SmallVector<Value, 3> blockIds = {iv(2), iv(1), iv(0)};
  SmallVector<Value, 3> threadIds = {iv(5), iv(4), iv(3)};
  SmallVector<Value, 3> gridSize = {grid.x, grid.y, grid.z};
  SmallVector<Value, 3> blockSize = {block.x, block.y, block.z};

  rewriter.setInsertionPoint(nest.loops.back().getBody()->getTerminator());
  auto region = scf::ExecuteRegionOp::create(rewriter, loc, TypeRange{});

  // The launch region's leading block arguments are, in order, the block
  // ids, thread ids, grid size and block size; verifyEmulatable guarantees
  // there are no cluster or attribution arguments after them.
  Block &entry = launch.getBody().front();
  SmallVector<Value> configValues;
  llvm::append_range(configValues, blockIds);
  llvm::append_range(configValues, threadIds);
  llvm::append_range(configValues, gridSize);
  llvm::append_range(configValues, blockSize);
  for (auto [arg, value] : llvm::zip_equal(entry.getArguments(), configValues))
    rewriter.replaceAllUsesWith(arg, value);
  entry.eraseArguments(0, entry.getNumArguments());
  rewriter.inlineRegionBefore(launch.getBody(), region.getRegion(),
                              region.getRegion().end());

  SmallVector<Operation *> deviceOps;
  region.walk([&](Operation *op) {
    if (isReplacedOnHost(op))
      deviceOps.push_back(op);
  });
  for (Operation *op : deviceOps) {
    rewriter.setInsertionPoint(op);
    Location opLoc = op->getLoc();
    Value replacement;
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
      replacement = threadIds[dimIndex(tid.getDimension())];
    } else if (auto bid = dyn_cast<gpu::BlockIdOp>(op)) {
      replacement = blockIds[dimIndex(bid.getDimension())];
    } else if (auto gdim = dyn_cast<gpu::GridDimOp>(op)) {
      replacement = gridSize[dimIndex(gdim.getDimension())];
    } else if (auto bdim = dyn_cast<gpu::BlockDimOp>(op)) {
      replacement = blockSize[dimIndex(bdim.getDimension())];
    } else if (auto gid = dyn_cast<gpu::GlobalIdOp>(op)) {
      unsigned d = dimIndex(gid.getDimension());
      Value base =
          arith::MulIOp::create(rewriter, opLoc, blockIds[d], blockSize[d]);
      replacement = arith::AddIOp::create(rewriter, opLoc, base, threadIds[d]);
    } else if (isa<gpu::LaneIdOp>(op)) {
      // Linear thread id modulo the warp size, as on NVIDIA hardware.
      Value yz = arith::AddIOp::create(
          rewriter, opLoc, threadIds[1],
          arith::MulIOp::create(rewriter, opLoc, threadIds[2], blockSize[1]));
      Value linear = arith::AddIOp::create(
          rewriter, opLoc, threadIds[0],
          arith::MulIOp::create(rewriter, opLoc, yz, blockSize[0]));
      Value warp = arith::ConstantIndexOp::create(rewriter, opLoc, 32);
      replacement = arith::RemUIOp::create(rewriter, opLoc, linear, warp);
    } else {
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op);
      continue;
    }
    rewriter.replaceOp(op, replacement);
  }
  rewriter.eraseOp(launch);
}

} // namespace mlir::threadbind::test
