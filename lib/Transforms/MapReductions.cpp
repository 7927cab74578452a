//===- MapReductions.cpp - scf.parallel reductions onto the GPU -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A 1-D scf.parallel with scf.reduce becomes two launches. The first runs a
// grid-stride loop in which each thread folds its elements into registers,
// starting from the combiner's identity; gpu.all_reduce combines a block's
// threads (warp shuffles, then the warps' results through shared memory),
// and thread 0 writes the block's partial result. The second, one block,
// folds the partials the same way and combines the init value once, then
// performs the stores the host made of the result. Nothing depends on the
// order in which blocks finish, so a sum is the same from run to run.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

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

namespace mlir::threadbind {
#define GEN_PASS_DEF_MAPREDUCTIONSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// One reduced value: how its combiner folds and where the result goes.
struct Reduction {
  /// The combiner, the single op of the scf.reduce region.
  Operation *combiner;
  gpu::AllReduceOperation kind;
  /// The value the combiner leaves any operand unchanged with.
  TypedAttr identity;
  /// The host's stores of the loop's result, which the final kernel makes.
  SmallVector<memref::StoreOp> stores;
};

/// The all-reduce kind and identity of a combiner of `type`, or nullopt.
std::optional<std::pair<gpu::AllReduceOperation, TypedAttr>>
classifyCombiner(Operation *op, Type type) {
  using Kind = gpu::AllReduceOperation;
  Builder b(op->getContext());
  auto floatOf = [&](const APFloat &value) -> TypedAttr {
    return b.getFloatAttr(type, value);
  };
  auto intOf = [&](const APInt &value) -> TypedAttr {
    return b.getIntegerAttr(type, value);
  };
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    return TypeSwitch<Operation *,
                      std::optional<std::pair<Kind, TypedAttr>>>(op)
        // x + -0 is x for every x, -0 included; +0 would turn -0 into +0.
        .Case([&](arith::AddFOp) {
          return std::make_pair(Kind::ADD, floatOf(APFloat::getZero(sem, true)));
        })
        .Case([&](arith::MulFOp) {
          return std::make_pair(Kind::MUL, floatOf(APFloat::getOne(sem)));
        })
        // maxnum and minnum return the other operand for a quiet NaN.
        .Case([&](arith::MaxNumFOp) {
          return std::make_pair(Kind::MAXNUMF, floatOf(APFloat::getQNaN(sem)));
        })
        .Case([&](arith::MinNumFOp) {
          return std::make_pair(Kind::MINNUMF, floatOf(APFloat::getQNaN(sem)));
        })
        .Case([&](arith::MaximumFOp) {
          return std::make_pair(Kind::MAXIMUMF,
                                floatOf(APFloat::getInf(sem, true)));
        })
        .Case([&](arith::MinimumFOp) {
          return std::make_pair(Kind::MINIMUMF,
                                floatOf(APFloat::getInf(sem, false)));
        })
        .Default(std::nullopt);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  return TypeSwitch<Operation *, std::optional<std::pair<Kind, TypedAttr>>>(op)
      .Case([&](arith::AddIOp) {
        return std::make_pair(Kind::ADD, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MulIOp) {
        return std::make_pair(Kind::MUL, intOf(APInt(width, 1)));
      })
      .Case([&](arith::AndIOp) {
        return std::make_pair(Kind::AND, intOf(APInt::getAllOnes(width)));
      })
      .Case([&](arith::OrIOp) {
        return std::make_pair(Kind::OR, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::XOrIOp) {
        return std::make_pair(Kind::XOR, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MaxSIOp) {
        return std::make_pair(Kind::MAXSI,
                              intOf(APInt::getSignedMinValue(width)));
      })
      .Case([&](arith::MinSIOp) {
        return std::make_pair(Kind::MINSI,
                              intOf(APInt::getSignedMaxValue(width)));
      })
      .Case([&](arith::MaxUIOp) {
        return std::make_pair(Kind::MAXUI, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MinUIOp) {
        return std::make_pair(Kind::MINUI, intOf(APInt::getAllOnes(width)));
      })
      .Default(std::nullopt);
}

/// Checks that `loop` is a reduction this pass maps and describes each of
/// its results. Errors at the offending op otherwise; never changes the IR.
FailureOr<SmallVector<Reduction>> analyzeReduction(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1)
    return loop.emitOpError("reduces over ")
           << loop.getNumLoops()
           << " dimensions; threadbind-map-reductions maps 1-D reductions "
              "so far";
  if (failed(verifyMappableBody(loop)))
    return failure();
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  SmallVector<Reduction> reductions;
  for (auto [index, region] : llvm::enumerate(reduce.getReductions())) {
    Type type = loop.getResult(index).getType();
    if (!type.isF32() && !type.isF64() && !type.isInteger(32) &&
        !type.isInteger(64))
      return reduce.emitOpError("reduces a value of type ")
             << type << "; threadbind-map-reductions takes f32, f64, i32 "
                        "and i64";
    Block &body = region.front();
    Operation *combiner = &body.front();
    auto yield = dyn_cast_or_null<scf::ReduceReturnOp>(combiner->getNextNode());
    std::optional<std::pair<gpu::AllReduceOperation, TypedAttr>> kind;
    if (yield && combiner->getNumOperands() == 2 &&
        combiner->getNumResults() == 1 &&
        yield.getResult() == combiner->getResult(0) &&
        ((combiner->getOperand(0) == body.getArgument(0) &&
          combiner->getOperand(1) == body.getArgument(1)) ||
         (combiner->getOperand(0) == body.getArgument(1) &&
          combiner->getOperand(1) == body.getArgument(0))))
      kind = classifyCombiner(combiner, type);
    if (!kind)
      return reduce.emitOpError("combiner ")
             << index
             << " is not one of addf, mulf, maxnumf, minnumf, maximumf, "
                "minimumf, addi, muli, andi, ori, xori, maxsi, minsi, "
                "maxui or minui of its two arguments";

    Reduction reduction{combiner, kind->first, kind->second, {}};
    // Every use of the result must be a store of it, after the loop in the
    // same block, with nothing between that touches memory.
    Value result = loop.getResult(index);
    for (OpOperand &use : result.getUses()) {
      auto store = dyn_cast<memref::StoreOp>(use.getOwner());
      if (!store || use.getOperandNumber() != 0 ||
          store->getBlock() != loop->getBlock())
        return use.getOwner()->emitOpError(
            "uses a reduction result; threadbind-map-reductions needs every "
            "use to be a memref.store of it after the loop");
      reduction.stores.push_back(store);
    }
    // Uses come newest first; the final kernel stores in program order.
    llvm::sort(reduction.stores, [](memref::StoreOp a, memref::StoreOp b) {
      return a->isBeforeInBlock(b);
    });
    reductions.push_back(std::move(reduction));
  }
  // The final kernel makes the stores where the loop was, so nothing
  // between the loop and the last of them may read or write memory.
  Operation *last = loop;
  for (Reduction &reduction : reductions)
    for (memref::StoreOp store : reduction.stores)
      if (last->isBeforeInBlock(store))
        last = store;
  for (Operation *op = loop->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    if (isa<memref::StoreOp>(op) && op->getOperand(0).getDefiningOp() == loop)
      continue;
    if (!isMemoryEffectFree(op))
      return op->emitOpError("touches memory between a reduction and the "
                             "store of its result, which the reduction's "
                             "kernel makes");
  }
  for (Reduction &reduction : reductions)
    for (memref::StoreOp store : reduction.stores)
      for (Value operand : store->getOperands().drop_front())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == loop->getBlock() &&
            loop->isBeforeInBlock(def))
          return store.emitOpError("stores a reduction result at a place "
                                   "computed after the loop");
  return reductions;
}

/// Loads a thread keeps in flight, by default, in a reduction's main loop:
/// on an H200 an f32 sum reached CUB's speed with 8, and a dot product
/// (two loads an element) was fastest with 4 elements an iteration.
constexpr int64_t kLoadsInFlight = 8;

/// The elements a thread folds per main-loop iteration when the user did
/// not say: kLoadsInFlight over the loads of one iteration, at least 1.
int64_t chooseUnroll(scf::ParallelOp loop) {
  int64_t loads = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      ++loads;
  });
  return std::max<int64_t>(1, kLoadsInFlight / std::max<int64_t>(1, loads));
}

/// `lhs` combined with `rhs` by a copy of `combiner`.
Value combine(OpBuilder &builder, Operation *combiner, Value lhs, Value rhs) {
  IRMapping mapping;
  Block *body = combiner->getBlock();
  mapping.map(body->getArgument(0), lhs);
  mapping.map(body->getArgument(1), rhs);
  return builder.clone(*combiner, mapping)->getResult(0);
}

/// A 1-D launch of `grid` blocks of `threads` threads, the insertion point
/// in its body.
gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc, Value grid,
                           Value threads) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  return createLaunchWithTerminator(rewriter, loc, {grid, one, one},
                                    {threads, one, one});
}

/// Combines each of `accs` across the block with gpu.all_reduce, then opens
/// an `scf.if` on thread 0 of the block and leaves the insertion point in
/// it. Returns the block-wide values.
SmallVector<Value> reduceBlockForLeader(RewriterBase &rewriter, Location loc,
                                        gpu::LaunchOp launch,
                                        ArrayRef<Reduction> reductions,
                                        ValueRange accs) {
  SmallVector<Value> results;
  for (auto [reduction, acc] : llvm::zip_equal(reductions, accs))
    results.push_back(
        gpu::AllReduceOp::create(
            rewriter, loc, acc,
            gpu::AllReduceOperationAttr::get(rewriter.getContext(),
                                             reduction.kind),
            /*uniform=*/true)
            .getResult());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       launch.getThreadIds().x, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  return results;
}

/// Folds this thread's share of `loop`'s iterations, from `start` to the
/// loop's bound every `stride`, into registers: `unroll` elements an
/// iteration into accumulators of their own (each load still coalesced
/// across the warp, many in flight), the accumulators into one, then the
/// rest an element at a time. The loop body is cloned, with `mapping` for
/// the values it uses from around it. Returns one value a reduction.
SmallVector<Value> foldShare(RewriterBase &rewriter, Location loc,
                             scf::ParallelOp loop,
                             ArrayRef<Reduction> reductions, Value start,
                             Value stride, int64_t unroll,
                             const IRMapping &mapping) {
  Block *body = loop.getBody();
  auto reduce = cast<scf::ReduceOp>(body->getTerminator());
  unsigned numReductions = reductions.size();
  Value ub = mapping.lookupOrDefault(loop.getUpperBound().front());
  SmallVector<Value> identities;
  for (const Reduction &reduction : reductions)
    identities.push_back(
        arith::ConstantOp::create(rewriter, loc, reduction.identity));

  // One copy of the body at `iv` per element, each folded into its
  // accumulator; returns the new accumulators.
  auto foldAt = [&](ArrayRef<Value> ivs, ValueRange accs) {
    SmallVector<Value> next;
    for (auto [u, iv] : llvm::enumerate(ivs)) {
      IRMapping copy = mapping;
      copy.map(body->getArgument(0), iv);
      for (Operation &op : body->without_terminator())
        rewriter.clone(op, copy);
      for (auto [k, reduction] : llvm::enumerate(reductions))
        next.push_back(combine(
            rewriter, reduction.combiner, accs[u * numReductions + k],
            copy.lookupOrDefault(reduce.getOperands()[k])));
    }
    return next;
  };

  SmallVector<Value> accumulated = identities;
  if (unroll > 1) {
    Value unrollValue = arith::ConstantIndexOp::create(rewriter, loc, unroll);
    Value lastOffset = arith::MulIOp::create(
        rewriter, loc, stride,
        arith::ConstantIndexOp::create(rewriter, loc, unroll - 1));
    // j + (unroll - 1) * stride < ub; the bound may be negative, and
    // scf.for compares signed, so the loop then runs no iteration.
    Value mainEnd = arith::SubIOp::create(rewriter, loc, ub, lastOffset);
    Value mainStep = arith::MulIOp::create(rewriter, loc, stride, unrollValue);
    SmallVector<Value> inits;
    for (int64_t u = 0; u < unroll; ++u)
      llvm::append_range(inits, identities);
    inits.push_back(start);
    auto mainLoop =
        scf::ForOp::create(rewriter, loc, start, mainEnd, mainStep, inits);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(mainLoop.getBody());
      Value j = mainLoop.getInductionVar();
      SmallVector<Value> ivs;
      for (int64_t u = 0; u < unroll; ++u)
        ivs.push_back(arith::AddIOp::create(
            rewriter, loc, j,
            arith::MulIOp::create(
                rewriter, loc, stride,
                arith::ConstantIndexOp::create(rewriter, loc, u))));
      SmallVector<Value> next = foldAt(ivs, mainLoop.getRegionIterArgs());
      next.push_back(arith::AddIOp::create(rewriter, loc, j, mainStep));
      scf::YieldOp::create(rewriter, loc, next);
    }
    for (unsigned k = 0; k < numReductions; ++k) {
      Value acc = mainLoop.getResult(k);
      for (int64_t u = 1; u < unroll; ++u)
        acc = combine(rewriter, reductions[k].combiner, acc,
                      mainLoop.getResult(u * numReductions + k));
      accumulated[k] = acc;
    }
    start = mainLoop.getResults().back();
  }

  auto rest = scf::ForOp::create(rewriter, loc, start, ub, stride,
                                 accumulated);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(rest.getBody());
    scf::YieldOp::create(
        rewriter, loc,
        foldAt({rest.getInductionVar()}, rest.getRegionIterArgs()));
  }
  return rest.getResults();
}

/// Folds each thread's share of `loop`'s iterations into registers, the
/// block's threads together with gpu.all_reduce, and stores block b's
/// result at partials[k][b].
void emitPartialKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                       ArrayRef<Reduction> reductions, Value grid,
                       Value threads, ArrayRef<Value> partials,
                       int64_t unroll) {
  Location loc = loop.getLoc();
  gpu::LaunchOp launch = createLaunch(rewriter, loc, grid, threads);
  Value first = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            launch.getBlockSize().x),
      launch.getThreadIds().x);
  Value jump = arith::MulIOp::create(rewriter, loc, launch.getGridSize().x,
                                     launch.getBlockSize().x);
  Value lb = loop.getLowerBound().front(), step = loop.getStep().front();
  Value start = arith::AddIOp::create(
      rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, first, step));
  Value stride = arith::MulIOp::create(rewriter, loc, jump, step);
  SmallVector<Value> accs = foldShare(rewriter, loc, loop, reductions, start,
                                      stride, unroll, IRMapping());
  SmallVector<Value> blockResults =
      reduceBlockForLeader(rewriter, loc, launch, reductions, accs);
  for (auto [partial, value] : llvm::zip_equal(partials, blockResults))
    memref::StoreOp::create(rewriter, loc, value, partial,
                            launch.getBlockIds().x);
  rewriter.setInsertionPointAfter(launch);
}

/// One block folds the `count` partials, combines the init values, and
/// makes the host's stores of the results.
void emitFinalKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                     ArrayRef<Reduction> reductions, Value count,
                     Value threads, ArrayRef<Value> partials) {
  Location loc = loop.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, one, threads);
  SmallVector<Value> identities;
  for (const Reduction &reduction : reductions)
    identities.push_back(
        arith::ConstantOp::create(rewriter, loc, reduction.identity));
  auto forOp =
      scf::ForOp::create(rewriter, loc, launch.getThreadIds().x, count,
                         launch.getBlockSize().x, identities);
  rewriter.setInsertionPointToEnd(forOp.getBody());
  SmallVector<Value> folded;
  for (auto [reduction, partial, acc] :
       llvm::zip_equal(reductions, partials, forOp.getRegionIterArgs())) {
    Value value = memref::LoadOp::create(rewriter, loc, partial,
                                         forOp.getInductionVar());
    folded.push_back(combine(rewriter, reduction.combiner, acc, value));
  }
  scf::YieldOp::create(rewriter, loc, folded);
  rewriter.setInsertionPointAfter(forOp);
  SmallVector<Value> totals = reduceBlockForLeader(rewriter, loc, launch,
                                                   reductions,
                                                   forOp.getResults());
  for (auto [reduction, init, total] :
       llvm::zip_equal(reductions, loop.getInitVals(), totals)) {
    // The init value joins exactly once, here.
    Value result = combine(rewriter, reduction.combiner, init, total);
    for (memref::StoreOp store : reduction.stores)
      memref::StoreOp::create(rewriter, store.getLoc(), result,
                              store.getMemRef(), store.getIndices());
  }
  rewriter.setInsertionPointAfter(launch);
}

/// A parallel loop each of whose iterations reduces a row: its body is pure
/// operations, then one 1-D reduction loop, then the stores of its results.
struct RowReduction {
  scf::ParallelOp outer;
  scf::ParallelOp inner;
  SmallVector<Reduction> reductions;
};

/// Whether `outer` has the shape of a row reduction. Not a match is not an
/// error (the loop mapping takes the loop); a match whose reduction cannot
/// be mapped is, reported by analyzeReduction.
FailureOr<std::optional<RowReduction>> matchRowReduction(scf::ParallelOp outer) {
  if (outer.getNumLoops() != 1 || !outer.getInitVals().empty())
    return std::optional<RowReduction>();
  scf::ParallelOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    auto nested = dyn_cast<scf::ParallelOp>(op);
    if (!nested) {
      // Before the reduction loop, pure operations; after it, its stores.
      if (inner ? !isa<memref::StoreOp>(op) : !isPure(&op))
        return std::optional<RowReduction>();
      continue;
    }
    if (inner || nested.getInitVals().empty())
      return std::optional<RowReduction>();
    inner = nested;
  }
  if (!inner)
    return std::optional<RowReduction>();
  for (Operation &op : outer.getBody()->without_terminator())
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && store.getValueToStore().getDefiningOp() != inner)
      return std::optional<RowReduction>();
  if (failed(verifyMappableBody(outer)))
    return failure();
  FailureOr<SmallVector<Reduction>> reductions = analyzeReduction(inner);
  if (failed(reductions))
    return failure();
  return std::optional<RowReduction>(
      RowReduction{outer, inner, std::move(*reductions)});
}

/// One block a row: block b takes iteration b of the outer loop, its
/// threads fold the row's reduction as foldShare does, gpu.all_reduce
/// combines them, and thread 0 combines the init value and stores. The host
/// launches it only for a non-empty outer loop.
void emitRowKernel(RewriterBase &rewriter, const RowReduction &row,
                   Value threads, int64_t unroll) {
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
  Value step = mapping.lookupOrDefault(inner.getStep().front());
  Value start = arith::AddIOp::create(
      rewriter, loc, mapping.lookupOrDefault(inner.getLowerBound().front()),
      arith::MulIOp::create(rewriter, loc, launch.getThreadIds().x, step));
  Value stride =
      arith::MulIOp::create(rewriter, loc, launch.getBlockSize().x, step);
  SmallVector<Value> accs = foldShare(rewriter, loc, inner, row.reductions,
                                      start, stride, unroll, mapping);
  SmallVector<Value> totals =
      reduceBlockForLeader(rewriter, loc, launch, row.reductions, accs);
  for (auto [reduction, init, total] :
       llvm::zip_equal(row.reductions, inner.getInitVals(), totals)) {
    Value result = combine(rewriter, reduction.combiner,
                           mapping.lookupOrDefault(init), total);
    for (memref::StoreOp store : reduction.stores) {
      SmallVector<Value> indices;
      for (Value index : store.getIndices())
        indices.push_back(mapping.lookupOrDefault(index));
      memref::StoreOp::create(rewriter, store.getLoc(), result,
                              mapping.lookupOrDefault(store.getMemRef()),
                              indices);
    }
  }
  guardOnPositive(rewriter, launch, rows);
}

struct MapReductionsPass
    : threadbind::impl::MapReductionsPassBase<MapReductionsPass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

void MapReductionsPass::runOnOperation() {
  ModuleOp module = getOperation();

  // Outermost reductions outside kernels; decide all before changing any.
  SmallVector<std::pair<scf::ParallelOp, SmallVector<Reduction>>> work;
  SmallVector<RowReduction> rowWork;
  bool anyFailed = false;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop)
      return WalkResult::advance();
    if (loop.getInitVals().empty()) {
      FailureOr<std::optional<RowReduction>> row = matchRowReduction(loop);
      if (failed(row))
        anyFailed = true;
      else if (*row)
        rowWork.push_back(std::move(**row));
      return WalkResult::skip();
    }
    FailureOr<SmallVector<Reduction>> reductions = analyzeReduction(loop);
    if (failed(reductions))
      anyFailed = true;
    else
      work.push_back({loop, std::move(*reductions)});
    return WalkResult::skip();
  });
  if (anyFailed)
    return signalPassFailure();
  if (work.empty() && rowWork.empty())
    return;
  Operation *first = !work.empty() ? work.front().first.getOperation()
                                   : rowWork.front().outer.getOperation();
  if (unroll < 0 || unroll > 16) {
    first->emitOpError("cannot be mapped with unroll = ")
        << static_cast<int64_t>(unroll) << ": it must be 1 to 16, or 0 to "
        << "choose";
    return signalPassFailure();
  }
  if (threadsPerBlock <= 0 || threadsPerBlock > GpuLimits::kMaxThreadsPerBlock ||
      threadsPerBlock % GpuLimits::kWarpSize != 0) {
    first->emitOpError("cannot be mapped with ")
        << static_cast<int64_t>(threadsPerBlock)
        << " threads a block: a reduction's blocks must be whole warps, a "
           "multiple of 32 up to 1024";
    return signalPassFailure();
  }
  // Only full reductions size their grid from the resident blocks.
  bool asksHost = maxBlocks == 0 && !work.empty();
  if (asksHost && failed(verifyMaxResidentBlocksDecl(module)))
    return signalPassFailure();

  IRRewriter rewriter(&getContext());
  for (auto &[loop, reductions] : work) {
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    // Host side: as many blocks as the extent needs, up to the resident
    // ones, and at least one, so an empty loop still yields its init value.
    Value threads = arith::ConstantIndexOp::create(rewriter, loc,
                                                   threadsPerBlock);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value trips = createTripCount(rewriter, loc, loop, 0);
    Value needed = arith::CeilDivUIOp::create(rewriter, loc, trips, threads);
    Value cap = createGridCap(rewriter, loc, threadsPerBlock, maxBlocks);
    Value grid = arith::MaxUIOp::create(
        rewriter, loc, arith::MinUIOp::create(rewriter, loc, needed, cap), one);
    // Device scratch for the blocks' results. The GPU-to-LLVM lowering
    // takes device allocations in their async form only: each is waited
    // for at once.
    auto tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
    SmallVector<Value> partials;
    for (const Reduction &reduction : reductions) {
      auto type = MemRefType::get({ShapedType::kDynamic},
                                  reduction.identity.getType());
      Value ready =
          gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
              .getAsyncToken();
      auto alloc = gpu::AllocOp::create(
          rewriter, loc, type, tokenType, ValueRange{ready}, ValueRange{grid},
          /*symbolOperands=*/ValueRange(), /*hostShared=*/UnitAttr());
      gpu::WaitOp::create(rewriter, loc, Type(),
                          ValueRange{alloc.getAsyncToken()});
      partials.push_back(alloc.getMemref());
    }
    int64_t elements = unroll > 0 ? int64_t(unroll) : chooseUnroll(loop);
    if (emitRemarks)
      loop.emitRemark("reduction mapped: ")
          << reductions.size() << " value(s), "
          << static_cast<int64_t>(threadsPerBlock)
          << " threads a block fold a grid-stride share each (" << elements
          << " elements an iteration"
          << (unroll > 0 ? "" : ", to keep 8 loads in flight")
          << "), warp shuffles and shared memory combine each block, and a "
             "second one-block kernel combines the blocks and the init value";

    emitPartialKernel(rewriter, loop, reductions, grid, threads, partials,
                      elements);
    rewriter.setInsertionPoint(loop);
    emitFinalKernel(rewriter, loop, reductions, grid, threads, partials);
    rewriter.setInsertionPoint(loop);
    for (Value partial : partials) {
      Value ready =
          gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
              .getAsyncToken();
      Value freed = gpu::DeallocOp::create(rewriter, loc, tokenType,
                                           ValueRange{ready}, partial)
                        .getAsyncToken();
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{freed});
    }
    for (Reduction &reduction : reductions)
      for (memref::StoreOp store : reduction.stores)
        rewriter.eraseOp(store);
    rewriter.eraseOp(loop);
    ++numReductionsMapped;
  }
  for (RowReduction &row : rowWork) {
    int64_t elements = unroll > 0 ? int64_t(unroll) : chooseUnroll(row.inner);
    if (emitRemarks)
      row.outer.emitRemark("row reduction mapped: one block a row, ")
          << static_cast<int64_t>(threadsPerBlock)
          << " threads fold a strided share of it each (" << elements
          << " elements an iteration), warp shuffles and shared memory "
             "combine them, and thread 0 adds the init value and stores";
    rewriter.setInsertionPoint(row.outer);
    Value threads = arith::ConstantIndexOp::create(
        rewriter, row.outer.getLoc(), threadsPerBlock);
    emitRowKernel(rewriter, row, threads, elements);
    rewriter.eraseOp(row.outer);
    ++numRowReductionsMapped;
  }
  if (asksHost)
    declareMaxResidentBlocks(module);
}
