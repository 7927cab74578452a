//===- EmulateGPULaunch.cpp - Run gpu.launch bodies as host loops ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/EmulateGPULaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace mlir::threadbind {

/// The ops the emulator rewrites into host values or control flow: thread
/// geometry queries and the launch terminator.
static bool isReplacedOnHost(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
             gpu::GlobalIdOp, gpu::LaneIdOp, gpu::TerminatorOp>(op);
}

/// Whether `op` is a block-wide gpu.all_reduce the emulator runs in phases:
/// one directly in the launch body, with a named operation or a region.
static bool isPhasedAllReduce(Operation *op) {
  auto reduce = dyn_cast<gpu::AllReduceOp>(op);
  return reduce && isa<gpu::LaunchOp>(reduce->getParentOp());
}

/// Threads run one after another on the host, so ops through which threads
/// observe each other, or which only exist on a device, cannot be emulated;
/// a top-level all-reduce is the exception (see emulateLaunchOnHost).
static LogicalResult verifyBodyOp(Operation *op) {
  if (isReplacedOnHost(op) || isPhasedAllReduce(op))
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
  // A phased all-reduce's region is cloned into the host fold, so its ops
  // (and its gpu.yield) are not the kernel's.
  WalkResult result =
      launch.getBody().walk<WalkOrder::PreOrder>([](Operation *op) {
        if (failed(verifyBodyOp(op)))
          return WalkResult::interrupt();
        return isPhasedAllReduce(op) ? WalkResult::skip()
                                     : WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();

  // All-reduces run as a phase of their own: everything before the last
  // one runs for every thread of the block first, so it must not write
  // memory (it runs again after the reduction) or use a reduced value.
  Block &body = launch.getBody().front();
  Operation *lastReduce = nullptr;
  for (Operation &op : body)
    if (isa<gpu::AllReduceOp>(op))
      lastReduce = &op;
  if (!lastReduce)
    return success();
  if (!launch.getBody().hasOneBlock())
    return launch.emitOpError("cannot be emulated on the host: an all-reduce "
                              "in a body of several blocks");
  for (Operation &op : body) {
    if (&op == lastReduce)
      break;
    if (isa<gpu::AllReduceOp>(op))
      continue;
    WalkResult writes = op.walk([](Operation *nested) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
      if (effects ? effects.hasEffect<MemoryEffects::Write>()
                  : !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                        !isReplacedOnHost(nested) &&
                        !isa<scf::YieldOp>(nested))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (writes.wasInterrupted())
      return op.emitError("cannot emulate on the host: it may write memory "
                          "before an all-reduce, and the code before an "
                          "all-reduce runs twice there");
    for (Value operand : op.getOperands())
      if (operand.getDefiningOp<gpu::AllReduceOp>())
        return op.emitError("cannot emulate on the host: it uses an "
                            "all-reduce's result before the last all-reduce");
  }
  return success();
}

static unsigned dimIndex(gpu::Dimension dim) {
  return static_cast<unsigned>(dim);
}

/// Replaces the id and dimension queries among `ops` by host values.
static void replaceQueries(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                           ArrayRef<Value> blockIds, ArrayRef<Value> threadIds,
                           ArrayRef<Value> gridSize, ArrayRef<Value> blockSize);

/// `lhs` combined with `rhs` as `reduce` does: by its named operation, or
/// by a copy of its region.
static Value combine(OpBuilder &b, Location loc, gpu::AllReduceOp reduce,
                     Value lhs, Value rhs) {
  if (std::optional<gpu::AllReduceOperation> kind = reduce.getOp())
    return vector::makeArithReduction(b, loc, gpu::convertReductionKind(*kind),
                                      lhs, rhs);
  Block &body = reduce.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), lhs);
  mapping.map(body.getArgument(1), rhs);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
}

/// What an emulation reads off a launch before it replaces it: the grid
/// and block sizes, and the constants its loops start and step with,
/// created before the launch (where the rewriter is left).
struct LaunchSizes {
  LaunchSizes(RewriterBase &rewriter, gpu::LaunchOp launch)
      : grid(launch.getGridSizeOperandValues()),
        block(launch.getBlockSizeOperandValues()) {
    rewriter.setInsertionPoint(launch);
    zero = arith::ConstantIndexOp::create(rewriter, launch.getLoc(), 0);
    one = arith::ConstantIndexOp::create(rewriter, launch.getLoc(), 1);
    gridSize = {grid.x, grid.y, grid.z};
    blockSize = {block.x, block.y, block.z};
  }

  gpu::KernelDim3 grid, block;
  Value zero, one;
  /// The sizes as x, y, z.
  SmallVector<Value, 3> gridSize, blockSize;
};

/// Builds three nested loops over ids from 0 to `sizes`, z outermost so
/// that x varies fastest, as consecutive ids do on the device. Returns the
/// ids as x, y, z and leaves the insertion point in the innermost body.
static SmallVector<Value, 3> buildIdLoops(RewriterBase &rewriter, Location loc,
                                          const gpu::KernelDim3 &sizes,
                                          Value zero, Value one) {
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, SmallVector<Value>(3, zero), {sizes.z, sizes.y, sizes.x},
      SmallVector<Value>(3, one));
  rewriter.setInsertionPoint(nest.loops.back().getBody()->getTerminator());
  return {nest.loops[2].getInductionVar(), nest.loops[1].getInductionVar(),
          nest.loops[0].getInductionVar()};
}

/// A launch with top-level all-reduces, per block: every thread runs the
/// code before the last all-reduce and leaves its operands in a buffer;
/// the buffer is folded in thread order; every thread then runs the whole
/// body again with the reduced values in place of the all-reduces.
static void emulateLaunchInPhases(RewriterBase &rewriter,
                                  gpu::LaunchOp launch) {
  Location loc = launch.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  LaunchSizes sizes(rewriter, launch);
  const gpu::KernelDim3 &grid = sizes.grid, &block = sizes.block;
  Value zero = sizes.zero, one = sizes.one;
  ArrayRef<Value> gridSize = sizes.gridSize, blockSize = sizes.blockSize;
  SmallVector<Value, 3> blockIds = buildIdLoops(rewriter, loc, grid, zero, one);

  Block &body = launch.getBody().front();
  SmallVector<gpu::AllReduceOp> reduces;
  for (Operation &op : body)
    if (auto reduce = dyn_cast<gpu::AllReduceOp>(op))
      reduces.push_back(reduce);
  Value threads = arith::MulIOp::create(
      rewriter, loc, block.x,
      arith::MulIOp::create(rewriter, loc, block.y, block.z));
  SmallVector<Value> buffers;
  for (gpu::AllReduceOp reduce : reduces)
    buffers.push_back(memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, reduce.getType()),
        ValueRange{threads}));

  // Runs copies of `ops` for every thread of the block, with `values`
  // mapped to their replacements; `finish` is called in each thread with
  // the mapping and the thread's linear id.
  auto forEachThread = [&](ArrayRef<Operation *> ops,
                           ArrayRef<std::pair<Value, Value>> values,
                           function_ref<void(IRMapping &, Value)> finish) {
    OpBuilder::InsertionGuard inner(rewriter);
    SmallVector<Value, 3> threadIds =
        buildIdLoops(rewriter, loc, block, zero, one);
    IRMapping mapping;
    SmallVector<Value> config;
    llvm::append_range(config, blockIds);
    llvm::append_range(config, threadIds);
    llvm::append_range(config, gridSize);
    llvm::append_range(config, blockSize);
    for (auto [arg, value] : llvm::zip(body.getArguments(), config))
      mapping.map(arg, value);
    for (auto [value, replacement] : values)
      mapping.map(value, replacement);
    SmallVector<Operation *> cloned;
    for (Operation *op : ops)
      cloned.push_back(rewriter.clone(*op, mapping));
    SmallVector<Operation *> queries;
    for (Operation *op : cloned)
      op->walk([&](Operation *nested) {
        if (isReplacedOnHost(nested))
          queries.push_back(nested);
      });
    replaceQueries(rewriter, queries, blockIds, threadIds, gridSize,
                   blockSize);
    Value linear = arith::AddIOp::create(
        rewriter, loc, threadIds[0],
        arith::MulIOp::create(
            rewriter, loc, block.x,
            arith::AddIOp::create(
                rewriter, loc, threadIds[1],
                arith::MulIOp::create(rewriter, loc, block.y,
                                      threadIds[2]))));
    finish(mapping, linear);
  };

  // Phase 1: the code before the last all-reduce, operands to the buffers.
  SmallVector<Operation *> before;
  for (Operation &op : body) {
    if (&op == reduces.back().getOperation())
      break;
    if (!isa<gpu::AllReduceOp>(op))
      before.push_back(&op);
  }
  forEachThread(before, {}, [&](IRMapping &mapping, Value linear) {
    for (auto [reduce, buffer] : llvm::zip_equal(reduces, buffers))
      memref::StoreOp::create(rewriter, loc,
                              mapping.lookupOrDefault(reduce.getValue()),
                              buffer, linear);
  });

  // The fold, in thread order.
  SmallVector<Value> reduced;
  for (auto [reduce, buffer] : llvm::zip_equal(reduces, buffers)) {
    Value first = memref::LoadOp::create(rewriter, loc, buffer, zero);
    auto fold = scf::ForOp::create(rewriter, loc, one, threads, one,
                                   ValueRange{first});
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPointToEnd(fold.getBody());
      Value next = memref::LoadOp::create(rewriter, loc, buffer,
                                          fold.getInductionVar());
      scf::YieldOp::create(rewriter, loc,
                           combine(rewriter, loc, reduce,
                                   fold.getRegionIterArgs().front(), next));
    }
    reduced.push_back(fold.getResult(0));
  }

  // Phase 2: the whole body, each all-reduce replaced by its value.
  SmallVector<Operation *> all;
  for (Operation &op : body.without_terminator())
    if (!isa<gpu::AllReduceOp>(op))
      all.push_back(&op);
  SmallVector<std::pair<Value, Value>> results;
  for (auto [reduce, value] : llvm::zip_equal(reduces, reduced))
    results.push_back({reduce.getResult(), value});
  forEachThread(all, results, [](IRMapping &, Value) {});
  for (Value buffer : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.eraseOp(launch);
}

void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (!launch.getBody().getOps<gpu::AllReduceOp>().empty())
    return emulateLaunchInPhases(rewriter, launch);
  Location loc = launch.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  LaunchSizes sizes(rewriter, launch);
  // Blocks outermost, then threads.
  SmallVector<Value, 3> blockIds =
      buildIdLoops(rewriter, loc, sizes.grid, sizes.zero, sizes.one);
  SmallVector<Value, 3> threadIds =
      buildIdLoops(rewriter, loc, sizes.block, sizes.zero, sizes.one);
  ArrayRef<Value> gridSize = sizes.gridSize, blockSize = sizes.blockSize;

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
  replaceQueries(rewriter, deviceOps, blockIds, threadIds, gridSize,
                 blockSize);
  rewriter.eraseOp(launch);
}

static void replaceQueries(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                           ArrayRef<Value> blockIds, ArrayRef<Value> threadIds,
                           ArrayRef<Value> gridSize,
                           ArrayRef<Value> blockSize) {
  OpBuilder::InsertionGuard guard(rewriter);
  for (Operation *op : ops) {
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
}

/// A gpu.memset of a 1-D memref as a host loop of stores.
static void fillOnHost(RewriterBase &rewriter, gpu::MemsetOp memset) {
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

void replaceDeviceAllocationsOnHost(RewriterBase &rewriter, Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemsetOp, gpu::MemcpyOp,
            gpu::WaitOp>(op))
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
      memref::DeallocOp::create(rewriter, op->getLoc(), dealloc.getMemref());
    else if (auto memset = dyn_cast<gpu::MemsetOp>(op))
      fillOnHost(rewriter, memset);
    else if (auto memcpy = dyn_cast<gpu::MemcpyOp>(op))
      memref::CopyOp::create(rewriter, op->getLoc(), memcpy.getSrc(),
                             memcpy.getDst());
  }
  // Tokens only order these ops among themselves: drop them, then the ops.
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (isa<gpu::AsyncTokenType>(result.getType()))
        result.dropAllUses();
  for (Operation *op : ops)
    rewriter.eraseOp(op);
}

} // namespace mlir::threadbind
