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

/// Whether `op` synchronises the threads of a block.
static bool isSynchronizing(Operation *op) {
  return isa<gpu::AllReduceOp, gpu::BarrierOp>(op);
}

/// Whether `block` holds an all-reduce or barrier directly, or in the body
/// of an scf.for it holds (at any depth of such loops).
static bool holdsPhases(Block &block) {
  return llvm::any_of(block, [](Operation &op) {
    if (isSynchronizing(&op))
      return true;
    auto loop = dyn_cast<scf::ForOp>(op);
    return loop && holdsPhases(*loop.getBody());
  });
}

/// Whether `op` is a loop of phases: an scf.for whose body holds
/// all-reduces or barriers, directly or in loops of phases.
static bool isPhaseLoop(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op);
  return loop && holdsPhases(*loop.getBody());
}

/// Whether `block` is a level of phases: a launch body, or the body of a
/// loop of phases that lies at a level.
static bool isPhaseLevel(Block *block) {
  Operation *parent = block->getParentOp();
  if (isa<gpu::LaunchOp>(parent))
    return true;
  return isPhaseLoop(parent) && isPhaseLevel(parent->getBlock());
}

/// Whether `op` ends a phase of the emulation: a block-wide gpu.all_reduce
/// (with a named operation or a region) or a gpu.barrier at a level of
/// phases.
static bool isPhaseBoundary(Operation *op) {
  return isSynchronizing(op) && isPhaseLevel(op->getBlock());
}

/// Threads run one after another on the host, so ops through which threads
/// observe each other, or which only exist on a device, cannot be emulated;
/// all-reduces and barriers at a level of phases are the exception (see
/// PhasedLaunch).
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

namespace {
/// A launch whose threads synchronise, cut into segments: a segment is a
/// run of ops at a level of phases (the launch body, or the body of a loop
/// of phases) between all-reduces, barriers and loops of phases. The host
/// runs a segment for every thread of the block before any thread starts
/// the next. A value that one segment computes and another uses waits in a
/// buffer of one element a thread, unless it can be computed again (ids,
/// sizes, pure ops of them); so do the values a loop of phases carries.
/// A loop of phases runs on the host once for the whole block, so its
/// bounds must be the same for every thread.
class PhasedLaunch {
public:
  explicit PhasedLaunch(gpu::LaunchOp launch);

  /// Emits an error at the offending op and fails where the phases cannot
  /// keep the launch's semantics.
  LogicalResult verify();

  /// Replaces the launch by host loops. verify() must have succeeded.
  void emulate(RewriterBase &rewriter);

private:
  /// What a segment's thread loop gives its epilogue: a value for the
  /// current thread (from the segment, a buffer, or computed again), and
  /// the thread's linear id.
  using ValueGetter = function_ref<Value(Value)>;
  using Epilogue = function_ref<void(ValueGetter get, Value linear)>;

  void numberLevel(Block &block);
  void collectCrossing(Block &block);
  /// The segment of the op at a level that is or holds `op`.
  unsigned segmentOf(Operation *op);
  /// The segment that computes `value`; none where the host provides it
  /// (values from outside, the launch's arguments, a loop of phases'
  /// induction variable, carried values and results).
  std::optional<unsigned> definingSegment(Value value);
  bool isInside(Value value) {
    return launch.getBody().isAncestor(value.getParentRegion());
  }
  /// Whether `value` can be computed again in a later segment rather than
  /// kept in a buffer.
  bool isRematerializable(Value value);
  /// Whether `value` is the same for every thread of a block and can be
  /// computed on the host outside the threads' loops.
  bool isUniform(Value value);
  /// Whether `arg` is the induction variable of a loop of phases: the host
  /// loop's, the same for every thread.
  bool isPhaseLoopIV(BlockArgument arg);

  // Emission.
  void emitLevel(Block &block, IRMapping &uniform);
  void emitLoop(scf::ForOp loop, IRMapping &uniform);
  void emitSegment(ArrayRef<Operation *> ops, std::optional<unsigned> segment,
                   IRMapping &uniform, Epilogue epilogue = nullptr);
  Value getInThread(Value value, IRMapping &mapping, Value linear,
                    SmallVectorImpl<Operation *> &created);
  Value getOnHost(Value value, IRMapping &uniform);

  gpu::LaunchOp launch;
  Block &body;
  unsigned segments = 0;
  /// The segment of every op at a level. A barrier or all-reduce has the
  /// segment it closes (an all-reduce uses its operand at its end); a loop
  /// of phases and the terminator of its body have segments of their own.
  DenseMap<Operation *, unsigned> segmentAt;
  /// The loops of phases at a level, outermost first: numberLevel finds
  /// them once, the rest asks this set rather than walking their bodies.
  SetVector<Operation *> loops;
  bool isLevelLoop(Operation *op) { return loops.contains(op); }
  /// The values computed in one segment and used in another, in order.
  SmallVector<Value> crossing;

  // Set while emulating.
  RewriterBase *rewriter = nullptr;
  Location loc;
  gpu::KernelDim3 blockSizes;
  Value zero, one, threads;
  SmallVector<Value, 3> blockIds, gridSize, blockSize;
  /// A buffer of one element a thread for each crossing value, and for
  /// each carried value and result of a loop of phases (one for both).
  DenseMap<Value, Value> buffers;
  DenseMap<Operation *, Value> reduceBuffers;
};
} // namespace

PhasedLaunch::PhasedLaunch(gpu::LaunchOp launch)
    : launch(launch), body(launch.getBody().front()), loc(launch.getLoc()) {
  numberLevel(body);
  collectCrossing(body);
}

void PhasedLaunch::numberLevel(Block &block) {
  unsigned current = segments++;
  for (Operation &op : block) {
    if (isSynchronizing(&op)) {
      segmentAt[&op] = current;
      current = segments++;
      continue;
    }
    if (isPhaseLoop(&op)) {
      segmentAt[&op] = segments++;
      loops.insert(&op);
      numberLevel(*cast<scf::ForOp>(op).getBody());
      current = segments++;
      continue;
    }
    if (isa<scf::YieldOp>(op) && &block != &body) {
      segmentAt[&op] = segments++;
      continue;
    }
    segmentAt[&op] = current;
  }
}

unsigned PhasedLaunch::segmentOf(Operation *op) {
  while (!segmentAt.count(op))
    op = op->getParentOp();
  return segmentAt.lookup(op);
}

std::optional<unsigned> PhasedLaunch::definingSegment(Value value) {
  if (!isInside(value))
    return std::nullopt;
  Operation *owner = value.getDefiningOp();
  if (!owner)
    owner = cast<BlockArgument>(value).getOwner()->getParentOp();
  if (owner == launch.getOperation() ||
      isLevelLoop(owner))
    return std::nullopt;
  return segmentOf(owner);
}

bool PhasedLaunch::isPhaseLoopIV(BlockArgument arg) {
  Operation *owner = arg.getOwner()->getParentOp();
  return isLevelLoop(owner) &&
         arg == cast<scf::ForOp>(owner).getInductionVar();
}

bool PhasedLaunch::isRematerializable(Value value) {
  if (!isInside(value))
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->getParentOp() == launch.getOperation() ||
           isPhaseLoopIV(arg);
  Operation *def = value.getDefiningOp();
  // An all-reduce's result is the same for every thread, a host value.
  if (isReplacedOnHost(def) || (segmentAt.count(def) && isSynchronizing(def)))
    return true;
  // Free of memory effects suffices, speculatable or not (a division by a
  // value): the host computes it again where the launch computed it
  // already, from the same operands.
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return isRematerializable(operand); });
}

bool PhasedLaunch::isUniform(Value value) {
  if (!isInside(value))
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner()->getParentOp() == launch.getOperation())
      return arg != launch.getThreadIds().x && arg != launch.getThreadIds().y &&
             arg != launch.getThreadIds().z;
    return isPhaseLoopIV(arg);
  }
  Operation *def = value.getDefiningOp();
  if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp>(def) ||
      (segmentAt.count(def) && isSynchronizing(def)))
    return true;
  if (isReplacedOnHost(def) || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return isUniform(operand); });
}

void PhasedLaunch::collectCrossing(Block &block) {
  for (Operation &op : block) {
    if (isLevelLoop(&op)) {
      collectCrossing(*cast<scf::ForOp>(op).getBody());
      continue;
    }
    if (isSynchronizing(&op))
      continue;
    for (Value value : op.getResults())
      if (!isRematerializable(value) &&
          llvm::any_of(value.getUsers(), [&](Operation *user) {
            return segmentOf(user) != segmentAt.lookup(&op);
          }))
        crossing.push_back(value);
  }
}

LogicalResult PhasedLaunch::verify() {
  for (Operation *op : loops) {
    auto loop = cast<scf::ForOp>(op);
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (!isUniform(bound))
        return loop.emitError(
            "cannot emulate on the host: this loop holds an all-reduce or "
            "barrier, so all threads of a block must run it alike, but its "
            "bounds are not computed from block ids, sizes and values from "
            "outside the launch alone");
    for (Value carried : loop.getRegionIterArgs())
      if (!carried.getType().isIntOrIndexOrFloat())
        return loop.emitError("cannot emulate on the host: this loop holds "
                              "an all-reduce or barrier and carries a value "
                              "of type ")
               << carried.getType()
               << ", and only scalars can wait for the other threads there";
  }
  for (Value value : crossing)
    if (!value.getType().isIntOrIndexOrFloat())
      return value.getDefiningOp()->emitError(
                 "cannot emulate on the host: a value of type ")
             << value.getType()
             << " crosses an all-reduce or barrier, and only scalars can "
                "wait for the other threads there";
  return success();
}

Value PhasedLaunch::getInThread(Value value, IRMapping &mapping, Value linear,
                                SmallVectorImpl<Operation *> &created) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (!isInside(value))
    return value;
  if (Value buffer = buffers.lookup(value)) {
    Value loaded = memref::LoadOp::create(*rewriter, loc, buffer, linear);
    mapping.map(value, loaded);
    return loaded;
  }
  // Computed again from what this thread has.
  Operation *def = value.getDefiningOp();
  assert(def && isRematerializable(value) && "value neither kept nor pure");
  for (Value operand : def->getOperands())
    (void)getInThread(operand, mapping, linear, created);
  created.push_back(rewriter->clone(*def, mapping));
  return mapping.lookup(value);
}

Value PhasedLaunch::getOnHost(Value value, IRMapping &uniform) {
  if (Value mapped = uniform.lookupOrNull(value))
    return mapped;
  if (!isInside(value))
    return value;
  Operation *def = value.getDefiningOp();
  assert(def && isUniform(value) && "value differs between threads");
  Value host;
  if (auto id = dyn_cast<gpu::BlockIdOp>(def))
    host = blockIds[dimIndex(id.getDimension())];
  else if (auto dim = dyn_cast<gpu::GridDimOp>(def))
    host = gridSize[dimIndex(dim.getDimension())];
  else if (auto dim = dyn_cast<gpu::BlockDimOp>(def))
    host = blockSize[dimIndex(dim.getDimension())];
  if (host) {
    uniform.map(value, host);
    return host;
  }
  for (Value operand : def->getOperands())
    (void)getOnHost(operand, uniform);
  rewriter->clone(*def, uniform);
  return uniform.lookup(value);
}

void PhasedLaunch::emitSegment(ArrayRef<Operation *> ops,
                               std::optional<unsigned> segment,
                               IRMapping &uniform, Epilogue epilogue) {
  OpBuilder::InsertionGuard guard(*rewriter);
  SmallVector<Value, 3> threadIds =
      buildIdLoops(*rewriter, loc, blockSizes, zero, one);
  Value linear = arith::AddIOp::create(
      *rewriter, loc, threadIds[0],
      arith::MulIOp::create(
          *rewriter, loc, blockSizes.x,
          arith::AddIOp::create(*rewriter, loc, threadIds[1],
                                arith::MulIOp::create(*rewriter, loc,
                                                      blockSizes.y,
                                                      threadIds[2]))));
  IRMapping mapping = uniform;
  gpu::KernelDim3 ids = launch.getThreadIds();
  mapping.map(ids.x, threadIds[0]);
  mapping.map(ids.y, threadIds[1]);
  mapping.map(ids.z, threadIds[2]);
  SmallVector<Operation *> created;
  // What other segments computed: loaded, or computed again.
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (definingSegment(operand) != segment)
          (void)getInThread(operand, mapping, linear, created);
    });
  for (Operation *op : ops)
    created.push_back(rewriter->clone(*op, mapping));
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (Value buffer = buffers.lookup(result))
        memref::StoreOp::create(*rewriter, loc, mapping.lookup(result), buffer,
                                linear);
  if (epilogue)
    epilogue(
        [&](Value value) {
          return getInThread(value, mapping, linear, created);
        },
        linear);
  SmallVector<Operation *> queries;
  for (Operation *op : created)
    op->walk([&](Operation *nested) {
      if (isReplacedOnHost(nested))
        queries.push_back(nested);
    });
  replaceQueries(*rewriter, queries, blockIds, threadIds, gridSize, blockSize);
}

void PhasedLaunch::emitLevel(Block &block, IRMapping &uniform) {
  SmallVector<Operation *> ops;
  std::optional<unsigned> segment;
  auto flush = [&] {
    if (!ops.empty())
      emitSegment(ops, segment, uniform);
    ops.clear();
  };
  for (Operation &op : block.without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      flush();
      continue;
    }
    if (isLevelLoop(&op)) {
      flush();
      emitLoop(cast<scf::ForOp>(op), uniform);
      continue;
    }
    segment = segmentAt.lookup(&op);
    auto reduce = dyn_cast<gpu::AllReduceOp>(op);
    if (!reduce) {
      ops.push_back(&op);
      continue;
    }
    // Every thread's operand, then the fold in thread order; every thread
    // gets the result.
    Value buffer = reduceBuffers.lookup(reduce);
    emitSegment(ops, segment, uniform, [&](ValueGetter get, Value linear) {
      memref::StoreOp::create(*rewriter, loc, get(reduce.getValue()), buffer,
                              linear);
    });
    ops.clear();
    Value first = memref::LoadOp::create(*rewriter, loc, buffer, zero);
    auto fold = scf::ForOp::create(*rewriter, loc, one, threads, one,
                                   ValueRange{first});
    {
      OpBuilder::InsertionGuard inner(*rewriter);
      rewriter->setInsertionPointToEnd(fold.getBody());
      Value next = memref::LoadOp::create(*rewriter, loc, buffer,
                                          fold.getInductionVar());
      scf::YieldOp::create(*rewriter, loc,
                           combine(*rewriter, loc, reduce,
                                   fold.getRegionIterArgs().front(), next));
    }
    uniform.map(reduce.getResult(), fold.getResult(0));
  }
  flush();
}

void PhasedLaunch::emitLoop(scf::ForOp loop, IRMapping &uniform) {
  // Every thread's carried values start as its initial ones.
  if (!loop.getInitArgs().empty())
    emitSegment({}, std::nullopt, uniform, [&](ValueGetter get, Value linear) {
      SmallVector<Value> inits = llvm::map_to_vector(loop.getInitArgs(), get);
      for (auto [init, carried] : llvm::zip(inits, loop.getRegionIterArgs()))
        memref::StoreOp::create(*rewriter, loc, init, buffers.lookup(carried),
                                linear);
    });
  Value lb = getOnHost(loop.getLowerBound(), uniform);
  Value ub = getOnHost(loop.getUpperBound(), uniform);
  Value step = getOnHost(loop.getStep(), uniform);
  auto host = scf::ForOp::create(*rewriter, loc, lb, ub, step);
  host.setUnsignedCmp(loop.getUnsignedCmp());
  OpBuilder::InsertionGuard guard(*rewriter);
  rewriter->setInsertionPoint(host.getBody()->getTerminator());
  IRMapping inner = uniform;
  inner.map(loop.getInductionVar(), host.getInductionVar());
  emitLevel(*loop.getBody(), inner);
  // Each thread's next carried values, all read before any is replaced.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (yield.getNumOperands() != 0)
    emitSegment({}, segmentAt.lookup(yield), inner,
                [&](ValueGetter get, Value linear) {
                  SmallVector<Value> next =
                      llvm::map_to_vector(yield.getOperands(), get);
                  for (auto [value, carried] :
                       llvm::zip(next, loop.getRegionIterArgs()))
                    memref::StoreOp::create(*rewriter, loc, value,
                                            buffers.lookup(carried), linear);
                });
}

void PhasedLaunch::emulate(RewriterBase &rewriterRef) {
  rewriter = &rewriterRef;
  OpBuilder::InsertionGuard guard(*rewriter);
  LaunchSizes sizes(*rewriter, launch);
  blockSizes = sizes.block;
  zero = sizes.zero;
  one = sizes.one;
  gridSize = sizes.gridSize;
  blockSize = sizes.blockSize;
  threads = arith::MulIOp::create(
      *rewriter, loc, blockSizes.x,
      arith::MulIOp::create(*rewriter, loc, blockSizes.y, blockSizes.z));

  SmallVector<Value> allocated;
  auto allocate = [&](Type type) -> Value {
    Value buffer = memref::AllocOp::create(
        *rewriter, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{threads});
    allocated.push_back(buffer);
    return buffer;
  };
  for (Value value : crossing)
    buffers[value] = allocate(value.getType());
  for (Operation *op : loops)
    for (auto [carried, result] : llvm::zip_equal(
             cast<scf::ForOp>(op).getRegionIterArgs(), op->getResults())) {
      // One buffer for both; two statements, since inserting one key may
      // move the other's slot.
      Value buffer = allocate(carried.getType());
      buffers[carried] = buffer;
      buffers[result] = buffer;
    }
  launch.getBody().walk([&](gpu::AllReduceOp reduce) {
    if (segmentAt.count(reduce))
      reduceBuffers[reduce] = allocate(reduce.getType());
  });
  // Workgroup memory, in host memory (its loads and stores keep their
  // form; only the memory space goes): one buffer, as blocks run one after
  // another.
  IRMapping uniform;
  for (BlockArgument buffer : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    Value host = memref::AllocOp::create(
        *rewriter, loc,
        MemRefType::get(type.getShape(), type.getElementType(),
                        type.getLayout()));
    allocated.push_back(host);
    uniform.map(buffer, host);
  }

  blockIds = buildIdLoops(*rewriter, loc, sizes.grid, zero, one);
  gpu::KernelDim3 ids = launch.getBlockIds(), grid = launch.getGridSize(),
                  block = launch.getBlockSize();
  for (auto [arg, host] :
       llvm::zip_equal(SmallVector<Value>{ids.x, ids.y, ids.z, grid.x, grid.y,
                                          grid.z, block.x, block.y, block.z},
                       llvm::concat<Value>(blockIds, gridSize, blockSize)))
    uniform.map(arg, host);
  emitLevel(body, uniform);

  rewriter->setInsertionPoint(launch);
  for (Value buffer : allocated)
    memref::DeallocOp::create(*rewriter, loc, buffer);
  rewriter->eraseOp(launch);
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
  bool phased = holdsPhases(launch.getBody().front());
  if ((launch.getNumWorkgroupAttributions() != 0 && !phased) ||
      launch.getNumPrivateAttributions() != 0)
    return launch.emitOpError(
        "cannot be emulated on the host: memory attributions are supported "
        "only as workgroup memory of a launch with barriers");
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

  if (!phased)
    return success();
  if (!launch.getBody().hasOneBlock())
    return launch.emitOpError("cannot be emulated on the host: an all-reduce "
                              "or barrier in a body of several blocks");
  return PhasedLaunch(launch).verify();
}

void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (holdsPhases(launch.getBody().front()))
    return PhasedLaunch(launch).emulate(rewriter);
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
