//===- RowReductions.cpp - A loop of reductions, a block a row ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// An scf.parallel each of whose iterations reduces a row (a 1-D reduction
// nested in it) becomes one launch with one block a row: the block's
// threads fold strided shares of the row and combine them as a full
// reduction's blocks do, and thread 0 adds the init value and stores.
// Rows the host can tell are short get one-warp blocks instead.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

/// Whether a thread a row (what the loop mapping gives) reads memory better
/// than a block a row: the reduction's loads that would be strided across
/// a block's threads, each walking its row, outweigh those that would be
/// strided across threads each taking a row (a column sum, or the
/// transposed halves of atax and bicg, gemm's sums over k). A load that
/// does not vary along a mapping's thread index is a broadcast there, which
/// costs nothing. With several row dimensions, the loop mapping would take
/// the best of them for threadIdx.x.
LoadsAlong reductions::summarizeLoadsAlong(scf::ParallelOp inner, Value iv) {
  IndexCoefficients along(iv);
  LoadsAlong loads;
  inner.getBody()->walk([&](memref::LoadOp load) {
    bool varies = llvm::any_of(
        load.getIndices(), [&](Value index) { return along.get(index) != 0; });
    if (!varies)
      return;
    MemRefType type = load.getMemRefType();
    std::optional<unsigned> unit = getUnitStrideDim(type);
    Type element = type.getElementType();
    if (unit && along.get(load.getIndices()[*unit]) == 1)
      ++loads.contiguous;
    else if (unit && element.isIntOrFloat())
      loads.stridedBytes +=
          llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
    else
      ++loads.unclassified;
  });
  return loads;
}

bool reductions::walksAcrossRows(scf::ParallelOp outer, scf::ParallelOp inner) {
  // The loop mapping puts the best of the row dimensions on threadIdx.x.
  int64_t threadStrided = std::numeric_limits<int64_t>::max();
  for (Value iv : outer.getInductionVars())
    threadStrided =
        std::min(threadStrided, summarizeLoadsAlong(inner, iv).stridedBytes);
  return summarizeLoadsAlong(inner, inner.getInductionVars().front())
             .stridedBytes > threadStrided;
}

scf::ParallelOp
reductions::findReductionShape(scf::ParallelOp outer,
                               SmallVectorImpl<Operation *> &epilogue,
                               scf::ParallelOp *update) {
  if (!outer.getInitVals().empty())
    return nullptr;
  scf::ParallelOp trailing;
  if (update) {
    *update = nullptr;
    trailing = dyn_cast_or_null<scf::ParallelOp>(
        outer.getBody()->getTerminator()->getPrevNode());
    if (trailing && !trailing.getInitVals().empty())
      trailing = nullptr;
  }
  scf::ParallelOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == trailing.getOperation()) {
      if (!inner)
        return nullptr;
      continue;
    }
    auto nested = dyn_cast<scf::ParallelOp>(op);
    if (!nested) {
      // Before the reduction loop, pure operations and loads (each thread
      // of the row's block makes them, before the all-reduce that comes
      // before any store); after it, pure operations and stores, which
      // must be its epilogue.
      // Every thread runs the code before the reduction once, as the loop
      // ran it once a row, so it need not be speculatable (a division of
      // the row index by an extent, say).
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      bool readsOnly = effects && op.getNumRegions() == 0 &&
                       (effects.onlyHasEffect<MemoryEffects::Read>() ||
                        isMemoryEffectFree(&op));
      if (!isPure(&op) && !(inner ? isa<memref::StoreOp>(op) : readsOnly))
        return nullptr;
      continue;
    }
    if (inner || nested.getInitVals().empty())
      return nullptr;
    inner = nested;
  }
  if (!inner)
    return nullptr;
  // Every store after the reduction stores what is computed from it.
  if (failed(collectEpilogue(inner, epilogue, /*report=*/false, trailing)))
    return nullptr;
  for (Operation *op = inner->getNextNode(); op; op = op->getNextNode())
    if (isa<memref::StoreOp>(op) && !llvm::is_contained(epilogue, op))
      return nullptr;
  if (update)
    *update = trailing;
  return inner;
}

/// The reduction loop of `outer` if `outer`, of any number of dimensions,
/// has the shape of a row reduction; `epilogue` gets what follows it.
static scf::ParallelOp findRowShape(scf::ParallelOp outer,
                                    SmallVectorImpl<Operation *> &epilogue) {
  scf::ParallelOp inner = findReductionShape(outer, epilogue);
  return inner && !walksAcrossRows(outer, inner) ? inner : nullptr;
}

bool reductions::hasRowReductionShape(scf::ParallelOp outer) {
  SmallVector<Operation *> epilogue;
  return findRowShape(outer, epilogue) != nullptr;
}

/// Whether `outer` has the shape of a row reduction. Not a match is not an
/// error (the loop mapping takes the loop); a match whose reduction cannot
/// be mapped is, reported by analyzeReduction.
FailureOr<std::optional<RowReduction>>
reductions::matchRowReduction(scf::ParallelOp outer) {
  if (outer.getNumLoops() != 1)
    return std::optional<RowReduction>();
  SmallVector<Operation *> epilogue;
  scf::ParallelOp inner = findRowShape(outer, epilogue);
  if (!inner)
    return std::optional<RowReduction>();
  if (failed(verifyMappableBody(outer)))
    return failure();
  FailureOr<SmallVector<Reduction>> reductions = analyzeReduction(inner);
  if (failed(reductions))
    return failure();
  return std::optional<RowReduction>(RowReduction{
      outer, inner, std::move(*reductions), std::move(epilogue)});
}

/// One block a row: block b takes iteration b of the outer loop, its
/// threads fold the row's reduction as foldShare does, gpu.all_reduce
/// combines them, and thread 0 combines the init value and stores. The host
/// launches it only for a non-empty outer loop.
static void emitRowKernel(RewriterBase &rewriter, const RowReduction &row,
                          Value threads, int64_t unroll, int64_t vectorBytes) {
  scf::ParallelOp outer = row.outer, inner = row.inner;
  Location loc = outer.getLoc();
  Value rows = createTripCount(rewriter, loc, outer, 0);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, rows, threads);

  IRMapping mapping;
  Value rowIndex = arith::AddIOp::create(
      rewriter, loc, outer.getLowerBound().front(),
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            outer.getStep().front()));
  mapping.map(outer.getInductionVars().front(), rowIndex);
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == inner.getOperation())
      break;
    rewriter.clone(op, mapping);
  }
  SmallVector<Partial> accs =
      foldShare(rewriter, loc, inner, row.reductions, launch.getThreadIds().x,
                launch.getBlockSize().x, unroll, vectorBytes, mapping);
  SmallVector<Partial> totals =
      reduceBlockForLeader(rewriter, loc, launch, row.reductions, accs);
  for (auto [reduction, init, total, result] : llvm::zip_equal(
           row.reductions, inner.getInitVals(), totals, inner.getResults()))
    mapping.map(result, combineInit(rewriter, loc, reduction,
                                    mapping.lookupOrDefault(init), total));
  replayEpilogue(rewriter, inner, row.epilogue, mapping);
  guardOnPositive(rewriter, launch, rows);
}

void reductions::mapRowReduction(RewriterBase &rewriter, RowReduction &row,
                                 const MapReductionsPassOptions &options) {
  int64_t elements = chooseUnroll(row.inner, options.unroll);
  Location loc = row.outer.getLoc();
  rewriter.setInsertionPoint(row.outer);
  Value threads =
      arith::ConstantIndexOp::create(rewriter, loc, options.threadsPerBlock);
  // Short rows would leave most of a block idle: where the host can
  // tell a row's length (its bounds do not depend on the row), rows of
  // up to kMaxWarpRow elements get one-warp blocks instead. The init
  // values may be the row's own (an accumulator loaded from memory).
  auto hostKnown = [&](ValueRange values) {
    return llvm::all_of(values, [&](Value v) {
      return row.outer.isDefinedOutsideOfLoop(v);
    });
  };
  bool warpRows = options.warpRows &&
                  options.threadsPerBlock > GpuLimits::kWarpSize &&
                  hostKnown(row.inner.getLowerBound()) &&
                  hostKnown(row.inner.getUpperBound()) &&
                  hostKnown(row.inner.getStep());
  if (options.emitRemarks) {
    InFlightDiagnostic remark = row.outer.emitRemark("row reduction mapped: ");
    if (warpRows)
      remark << "one warp a row (a block of 32 threads) where a row has "
             << "at most " << kMaxWarpRow << " elements, else ";
    remark << "one block a row, "
           << static_cast<int64_t>(options.threadsPerBlock)
           << " threads fold a strided share of it each (" << elements
           << " elements an iteration), warp shuffles and shared memory "
              "combine them, and thread 0 adds the init value and stores";
  }
  if (warpRows) {
    Value length = createTripCount(rewriter, loc, row.inner, 0);
    Value isShort = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ule, length,
        arith::ConstantIndexOp::create(rewriter, loc, kMaxWarpRow));
    auto ifOp = scf::IfOp::create(rewriter, loc, isShort, /*withElse=*/true);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitRowKernel(
        rewriter, row,
        arith::ConstantIndexOp::create(rewriter, loc, GpuLimits::kWarpSize),
        elements, options.vectorBytes);
    rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  }
  emitRowKernel(rewriter, row, threads, elements, options.vectorBytes);
  rewriter.eraseOp(row.outer);
}

//===----------------------------------------------------------------------===//
// A block an outer iteration
//===----------------------------------------------------------------------===//

namespace {
/// What one op of a block-per-row body does to memory.
struct PhaseEffects {
  bool reads = false;
  bool writes = false;
};
} // namespace

/// The memory effects of `op` and what it holds; none for an op whose
/// effects are unknown.
static std::optional<PhaseEffects> getPhaseEffects(Operation *op) {
  PhaseEffects result;
  WalkResult walk = op->walk([&](Operation *nested) {
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &instance : instances) {
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        result.reads = true;
      else if (isa<MemoryEffects::Write>(instance.getEffect()))
        result.writes = true;
      else
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return result;
}

/// Rows shorter than this leave most of a block idle: a thread a row serves
/// them better.
static constexpr int64_t kMinBlockRow = 32;

FailureOr<std::optional<BlockRows>>
reductions::matchBlockRows(scf::ParallelOp outer) {
  if (!outer.getInitVals().empty())
    return std::optional<BlockRows>();
  int loops = 0, writers = 0;
  bool anyLong = false;
  SmallVector<scf::ParallelOp> reductionLoopOps;
  for (Operation &op : outer.getBody()->without_terminator()) {
    std::optional<PhaseEffects> effects = getPhaseEffects(&op);
    if (!effects)
      return std::optional<BlockRows>();
    if (auto inner = dyn_cast<scf::ParallelOp>(op)) {
      // A loop whose loads walk along the rows coalesces with a thread a
      // row; the block's threads would each read strided.
      if (walksAcrossRows(outer, inner))
        return std::optional<BlockRows>();
      if (!inner.getInitVals().empty()) {
        if (inner.getNumLoops() != 1 || effects->writes)
          return std::optional<BlockRows>();
        reductionLoopOps.push_back(inner);
      }
      ++loops;
      for (unsigned d = 0; d < inner.getNumLoops(); ++d) {
        std::optional<int64_t> trips = getStaticTripCount(inner, d);
        anyLong |= !trips || *trips >= kMinBlockRow;
      }
      continue;
    }
    // Code between the loops runs on every thread, or, where it writes
    // memory, on thread 0 while the others wait: only plain stores (what
    // thread 0 computed would stay its own, and a loop or branch that
    // writes is better a thread's own, as the loop mapping runs it).
    if (effects->writes) {
      if (op.getNumResults() != 0 || op.getNumRegions() != 0)
        return std::optional<BlockRows>();
      ++writers;
    }
  }
  // One loop and pure code around it is the loop mapping's row-per-block
  // nest, one reduction and its stores matchRowReduction's.
  if (loops == 0 || !anyLong ||
      (reductionLoopOps.empty() && loops == 1 && writers == 0))
    return std::optional<BlockRows>();
  if (failed(verifyMappableBody(outer)))
    return failure();
  BlockRows rows{outer, {}};
  for (scf::ParallelOp inner : reductionLoopOps) {
    FailureOr<SmallVector<Reduction>> analysed = analyzeReduction(inner);
    if (failed(analysed))
      return failure();
    rows.reductions.push_back({inner, std::move(*analysed)});
  }
  return std::optional<BlockRows>(std::move(rows));
}

/// The iterations of `loop`, numbered in row-major order, shared among the
/// block's threads: thread t runs t, t + blockDim, ...; its body is cloned
/// with `mapping`.
static void emitSharedLoop(RewriterBase &rewriter, gpu::LaunchOp launch,
                           scf::ParallelOp loop, IRMapping &mapping) {
  Location loc = loop.getLoc();
  SmallVector<Value> trips;
  Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    trips.push_back(createTripCount(
        rewriter, loc, mapping.lookupOrDefault(loop.getLowerBound()[d]),
        mapping.lookupOrDefault(loop.getUpperBound()[d]),
        mapping.lookupOrDefault(loop.getStep()[d])));
    total = arith::MulIOp::create(rewriter, loc, total, trips.back());
  }
  auto forOp = scf::ForOp::create(rewriter, loc, launch.getThreadIds().x,
                                  total, launch.getBlockSize().x);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forOp.getBody()->getTerminator());
  Value linear = forOp.getInductionVar();
  for (int d = loop.getNumLoops() - 1; d >= 0; --d) {
    Value index = linear;
    if (d != 0) {
      index = arith::RemUIOp::create(rewriter, loc, linear, trips[d]);
      linear = arith::DivUIOp::create(rewriter, loc, linear, trips[d]);
    }
    Value iv = arith::AddIOp::create(
        rewriter, loc, mapping.lookupOrDefault(loop.getLowerBound()[d]),
        arith::MulIOp::create(rewriter, loc, index,
                              mapping.lookupOrDefault(loop.getStep()[d])));
    mapping.map(loop.getInductionVars()[d], iv);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    rewriter.clone(op, mapping);
}

void reductions::mapBlockRows(RewriterBase &rewriter, BlockRows &rows,
                              const MapReductionsPassOptions &options) {
  scf::ParallelOp outer = rows.outer;
  Location loc = outer.getLoc();
  rewriter.setInsertionPoint(outer);
  // One block an outer iteration, numbered in row-major order.
  SmallVector<Value> trips;
  Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned d = 0; d < outer.getNumLoops(); ++d) {
    trips.push_back(createTripCount(rewriter, loc, outer, d));
    count = arith::MulIOp::create(rewriter, loc, count, trips.back());
  }
  Value threads =
      arith::ConstantIndexOp::create(rewriter, loc, options.threadsPerBlock);
  if (options.emitRemarks) {
    int64_t loops =
        llvm::range_size(outer.getBody()->getOps<scf::ParallelOp>());
    outer.emitRemark("one block per outer iteration: ")
        << static_cast<int64_t>(options.threadsPerBlock)
        << " threads share each of its " << rows.reductions.size()
        << " reductions and " << loops - rows.reductions.size()
        << " other nested loops, each reduced value reaches every thread "
           "through warp shuffles and shared memory, thread 0 alone runs "
           "the stores between the loops, and a barrier separates phases "
           "that share memory";
  }
  gpu::LaunchOp launch = createLaunch(rewriter, loc, count, threads);
  IRMapping mapping;
  Value linear = launch.getBlockIds().x;
  for (int d = outer.getNumLoops() - 1; d >= 0; --d) {
    Value index = linear;
    if (d != 0) {
      index = arith::RemUIOp::create(rewriter, loc, linear, trips[d]);
      linear = arith::DivUIOp::create(rewriter, loc, linear, trips[d]);
    }
    mapping.map(outer.getInductionVars()[d],
                arith::AddIOp::create(
                    rewriter, loc, outer.getLowerBound()[d],
                    arith::MulIOp::create(rewriter, loc, index,
                                          outer.getStep()[d])));
  }
  // Whether a thread may have written, or read, memory that another thread
  // touches next, since the last barrier.
  bool pendingWrite = false, pendingRead = false;
  auto barrier = [&] {
    gpu::BarrierOp::create(rewriter, loc);
    pendingWrite = pendingRead = false;
  };
  int64_t unroll = options.unroll;
  for (Operation &op : outer.getBody()->without_terminator()) {
    PhaseEffects effects = *getPhaseEffects(&op);
    auto inner = dyn_cast<scf::ParallelOp>(op);
    if (inner && !inner.getInitVals().empty()) {
      if (pendingWrite)
        barrier();
      ArrayRef<Reduction> reductions =
          llvm::find_if(rows.reductions, [&](const auto &entry) {
            return entry.first == inner;
          })->second;
      SmallVector<Partial> accs = foldShare(
          rewriter, loc, inner, reductions, launch.getThreadIds().x,
          launch.getBlockSize().x, chooseUnroll(inner, unroll),
          options.vectorBytes, mapping);
      SmallVector<Partial> totals = reduceBlock(rewriter, loc, reductions, accs);
      for (auto [reduction, init, total, result] : llvm::zip_equal(
               reductions, inner.getInitVals(), totals, inner.getResults()))
        mapping.map(result, combineInit(rewriter, loc, reduction,
                                        mapping.lookupOrDefault(init), total));
      // The all-reduce waits for every thread's share: what they read is
      // done, and what was written before is seen.
      pendingWrite = pendingRead = false;
      continue;
    }
    if ((pendingWrite && (effects.reads || effects.writes)) ||
        (pendingRead && effects.writes))
      barrier();
    if (inner) {
      emitSharedLoop(rewriter, launch, inner, mapping);
    } else if (effects.writes) {
      Value leader = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, launch.getThreadIds().x,
          arith::ConstantIndexOp::create(rewriter, loc, 0));
      auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      rewriter.clone(op, mapping);
    } else {
      rewriter.clone(op, mapping);
    }
    pendingWrite |= effects.writes;
    pendingRead |= effects.reads;
  }
  guardOnPositive(rewriter, launch, count);
  rewriter.eraseOp(outer);
}
