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

/// Whether `op` ends a phase of the emulation: a block-wide gpu.all_reduce
/// (with a named operation or a region) or a gpu.barrier directly in the
/// launch body.
static bool isPhaseBoundary(Operation *op) {
  return isa<gpu::AllReduceOp, gpu::BarrierOp>(op) &&
         isa<gpu::LaunchOp>(op->getParentOp());
}

/// Whether `body` (a launch's) holds a phase boundary.
static bool hasPhaseBoundary(Block &body) {
  return llvm::any_of(body,
                      [](Operation &op) { return isPhaseBoundary(&op); });
}

/// Threads run one after another on the host, so ops through which threads
/// observe each other, or which only exist on a device, cannot be emulated;
/// top-level all-reduces and barriers are the exception (see
/// emulateLaunchInPhases).
static LogicalResult verifyBodyOp(Operation *op) {
  if (isReplacedOnHost(op) || isPhaseBoundary(op))
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

/// The values a launch body's leading arguments stand for, in their order:
/// block ids, thread ids, grid size and block size.
static SmallVector<Value> launchArguments(ArrayRef<Value> blockIds,
                                          ArrayRef<Value> threadIds,
                                          ArrayRef<Value> gridSize,
                                          ArrayRef<Value> blockSize) {
  SmallVector<Value> values;
  for (ArrayRef<Value> part : {blockIds, threadIds, gridSize, blockSize})
    llvm::append_range(values, part);
  return values;
}

/// Whether `value`, defined in `body`, can be computed again in a later
/// phase rather than kept: a thread or block id or size, or a pure op of
/// such values and values from outside.
static bool isRematerializable(Value value, Block &body) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &body)
    return true;
  if (isReplacedOnHost(def))
    return true;
  if (def->getNumRegions() != 0 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isRematerializable(operand, body);
  });
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
  // Workgroup memory is a buffer per block, which the phased emulation
  // (blocks outermost, every thread through a phase before the next) keeps.
  bool phased = hasPhaseBoundary(launch.getBody().front());
  if ((launch.getNumWorkgroupAttributions() != 0 && !phased) ||
      launch.getNumPrivateAttributions() != 0)
    return launch.emitOpError(
        "cannot be emulated on the host: memory attributions are supported "
        "only as workgroup memory of a launch with top-level barriers");
  // A phased all-reduce's region is cloned into the host fold, so its ops
  // (and its gpu.yield) are not the kernel's.
  WalkResult result =
      launch.getBody().walk<WalkOrder::PreOrder>([](Operation *op) {
        if (failed(verifyBodyOp(op)))
          return WalkResult::interrupt();
        return isa<gpu::AllReduceOp>(op) && isPhaseBoundary(op)
                   ? WalkResult::skip()
                   : WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();

  // Phases run one after another for every thread of the block; a value one
  // phase computes and a later one uses waits in a buffer of one element a
  // thread, so it must be a scalar.
  Block &body = launch.getBody().front();
  if (!phased)
    return success();
  if (!launch.getBody().hasOneBlock())
    return launch.emitOpError("cannot be emulated on the host: an all-reduce "
                              "or barrier in a body of several blocks");
  unsigned phase = 0;
  DenseMap<Operation *, unsigned> phaseOf;
  for (Operation &op : body) {
    // A boundary uses its operands at the end of the phase it closes.
    phaseOf[&op] = phase;
    if (isPhaseBoundary(&op))
      ++phase;
  }
  for (Operation &op : body) {
    if (isa<gpu::AllReduceOp>(op))
      continue;
    for (Value value : op.getResults())
      for (Operation *user : value.getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        if (top && phaseOf.lookup(top) != phaseOf.lookup(&op) &&
            !value.getType().isIntOrIndexOrFloat() &&
            !isRematerializable(value, body))
          return op.emitError("cannot emulate on the host: a value of type ")
                 << value.getType()
                 << " crosses an all-reduce or barrier, and only scalars can "
                    "wait for the other threads there";
      }
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

/// A launch with top-level all-reduces or barriers, per block, in phases
/// split at them: every thread runs a phase before any thread runs the
/// next, as a barrier demands. A scalar one phase computes and a later one
/// uses waits in a buffer of one element a thread; an all-reduce's operands
/// are folded in thread order and every thread gets the result.
static void emulateLaunchInPhases(RewriterBase &rewriter,
                                  gpu::LaunchOp launch) {
  Location loc = launch.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  LaunchSizes sizes(rewriter, launch);
  const gpu::KernelDim3 &grid = sizes.grid, &block = sizes.block;
  Value zero = sizes.zero, one = sizes.one;
  ArrayRef<Value> gridSize = sizes.gridSize, blockSize = sizes.blockSize;
  Value threads = arith::MulIOp::create(
      rewriter, loc, block.x,
      arith::MulIOp::create(rewriter, loc, block.y, block.z));

  Block &body = launch.getBody().front();
  SmallVector<SmallVector<Operation *>> phases(1);
  SmallVector<Operation *> boundaries;
  DenseMap<Operation *, unsigned> phaseOf;
  for (Operation &op : body.without_terminator()) {
    // A boundary uses its operands at the end of the phase it closes.
    phaseOf[&op] = phases.size() - 1;
    if (isPhaseBoundary(&op)) {
      boundaries.push_back(&op);
      phases.emplace_back();
      continue;
    }
    phases.back().push_back(&op);
  }
  // The values that cross a boundary, each with its buffer; the buffers of
  // the all-reduces' operands.
  auto allocate = [&](Type type) -> Value {
    return memref::AllocOp::create(
        rewriter, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{threads});
  };
  SmallVector<std::pair<Value, Value>> crossing;
  for (auto [p, phase] : llvm::enumerate(phases))
    for (Operation *op : phase)
      for (Value value : op->getResults())
        if (!isRematerializable(value, body) &&
            llvm::any_of(value.getUsers(), [&, p = p](Operation *user) {
              Operation *top = body.findAncestorOpInBlock(*user);
              return top && phaseOf.lookup(top) != p;
            }))
          crossing.push_back({value, allocate(value.getType())});
  DenseMap<Operation *, Value> reduceBuffers;
  for (Operation *boundary : boundaries)
    if (auto reduce = dyn_cast<gpu::AllReduceOp>(boundary))
      reduceBuffers[boundary] = allocate(reduce.getType());

  // Workgroup memory, in host memory (its loads and stores keep their
  // form; only the memory space goes): one buffer, as blocks run one after
  // another.
  SmallVector<Value> workgroup;
  for (BlockArgument buffer : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    workgroup.push_back(memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(type.getShape(), type.getElementType(),
                        type.getLayout())));
  }
  SmallVector<Value, 3> blockIds = buildIdLoops(rewriter, loc, grid, zero, one);
  // The all-reduces' results, the same for every thread of the block.
  SmallVector<std::pair<Value, Value>> uniform;
  for (auto [p, phase] : llvm::enumerate(phases)) {
    {
      OpBuilder::InsertionGuard inner(rewriter);
      SmallVector<Value, 3> threadIds =
          buildIdLoops(rewriter, loc, block, zero, one);
      Value linear = arith::AddIOp::create(
          rewriter, loc, threadIds[0],
          arith::MulIOp::create(
              rewriter, loc, block.x,
              arith::AddIOp::create(
                  rewriter, loc, threadIds[1],
                  arith::MulIOp::create(rewriter, loc, block.y,
                                        threadIds[2]))));
      IRMapping mapping;
      for (auto [arg, value] :
           llvm::zip(body.getArguments(),
                     launchArguments(blockIds, threadIds, gridSize, blockSize)))
        mapping.map(arg, value);
      for (auto [buffer, host] :
           llvm::zip_equal(launch.getWorkgroupAttributions(), workgroup))
        mapping.map(buffer, host);
      for (auto [value, replacement] : uniform)
        mapping.map(value, replacement);
      for (auto [value, buffer] : crossing)
        if (phaseOf.lookup(value.getDefiningOp()) < p)
          mapping.map(value,
                      memref::LoadOp::create(rewriter, loc, buffer, linear));
      SmallVector<Operation *> cloned;
      // What an earlier phase computed without touching memory or other
      // threads is computed again.
      std::function<void(Value)> rematerialize = [&](Value value) {
        Operation *def = value.getDefiningOp();
        if (mapping.contains(value) || !def || def->getBlock() != &body ||
            phaseOf.lookup(def) >= p)
          return;
        for (Value operand : def->getOperands())
          rematerialize(operand);
        cloned.push_back(rewriter.clone(*def, mapping));
      };
      SmallVector<Operation *> users(phase);
      if (p < boundaries.size())
        users.push_back(boundaries[p]);
      for (Operation *op : users)
        op->walk([&](Operation *nested) {
          for (Value operand : nested->getOperands())
            if (isRematerializable(operand, body))
              rematerialize(operand);
        });
      for (Operation *op : phase)
        cloned.push_back(rewriter.clone(*op, mapping));
      SmallVector<Operation *> queries;
      for (Operation *op : cloned)
        op->walk([&](Operation *nested) {
          if (isReplacedOnHost(nested))
            queries.push_back(nested);
        });
      replaceQueries(rewriter, queries, blockIds, threadIds, gridSize,
                     blockSize);
      for (auto [value, buffer] : crossing)
        if (phaseOf.lookup(value.getDefiningOp()) == p)
          memref::StoreOp::create(rewriter, loc, mapping.lookup(value), buffer,
                                  linear);
      if (p < boundaries.size())
        if (auto reduce = dyn_cast<gpu::AllReduceOp>(boundaries[p]))
          memref::StoreOp::create(rewriter, loc,
                                  mapping.lookupOrDefault(reduce.getValue()),
                                  reduceBuffers[reduce], linear);
    }
    if (p == boundaries.size())
      break;
    auto reduce = dyn_cast<gpu::AllReduceOp>(boundaries[p]);
    if (!reduce)
      continue;
    // The fold, in thread order.
    Value buffer = reduceBuffers[reduce];
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
    uniform.push_back({reduce.getResult(), fold.getResult(0)});
  }
  rewriter.setInsertionPoint(launch);
  for (auto [value, buffer] : crossing)
    memref::DeallocOp::create(rewriter, loc, buffer);
  for (auto [reduce, buffer] : reduceBuffers)
    memref::DeallocOp::create(rewriter, loc, buffer);
  for (Value buffer : workgroup)
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.eraseOp(launch);
}

void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (hasPhaseBoundary(launch.getBody().front()))
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
  for (auto [arg, value] :
       llvm::zip_equal(entry.getArguments(), launchArguments(blockIds, threadIds,
                                                             gridSize, blockSize)))
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
