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
  /// The scf.reduce region's block: two arguments, pure ops, the return.
  Block *combiner;
  /// The all-reduce operation the combiner is, where it is a single named
  /// op of its two arguments.
  std::optional<gpu::AllReduceOperation> kind;
  /// The value that leaves any operand unchanged, known for named
  /// combiners only. Without it every partial result carries a flag saying
  /// whether it holds anything yet.
  TypedAttr identity;
  /// The host's stores of the loop's result, which the final kernel makes.
  SmallVector<memref::StoreOp> stores;

  Type getType() const { return combiner->getArgument(0).getType(); }
};

/// A partial result of one reduction: a value and, for a combiner without
/// an identity, an i1 that is false while the value holds nothing (null
/// for a combiner with one).
struct Partial {
  Value value;
  Value valid;
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
    if (!type.isF16() && !type.isF32() && !type.isF64() &&
        !type.isInteger(32) && !type.isInteger(64))
      return reduce.emitOpError("reduces a value of type ")
             << type << "; threadbind-map-reductions takes f16, f32, f64, "
                        "i32 and i64";
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
    if (!kind) {
      // Any other region of pure ops combines too, with a flag beside each
      // partial value in place of an identity. A shuffle moves 64 bits, so
      // the flag fits beside values of 32 bits at most.
      for (Operation &op : body.without_terminator())
        if (!isPure(&op))
          return op.emitOpError("is in the combiner of a reduction; "
                                "threadbind-map-reductions evaluates "
                                "combiners speculatively, so they must be "
                                "pure ops");
      if (type.getIntOrFloatBitWidth() > 32)
        return reduce.emitOpError("combiner ")
               << index
               << " is a region on " << type
               << " values; threadbind-map-reductions maps combiner regions "
                  "on values of up to 32 bits (a flag rides beside the value "
                  "in a 64-bit shuffle), and addf, mulf, maxnumf, minnumf, "
                  "maximumf, minimumf, addi, muli, andi, ori, xori, maxsi, "
                  "minsi, maxui or minui of its two arguments on any type";
    }

    Reduction reduction{&body, std::nullopt, nullptr, {}};
    if (kind) {
      reduction.kind = kind->first;
      reduction.identity = kind->second;
    }
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

/// A 1-D launch of `grid` blocks of `threads` threads, the insertion point
/// in its body.
gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc, Value grid,
                           Value threads) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  return createLaunchWithTerminator(rewriter, loc, {grid, one, one},
                                    {threads, one, one});
}

/// `lhs` combined with `rhs` by a copy of `reduction`'s combiner.
Value combine(OpBuilder &builder, const Reduction &reduction, Value lhs,
              Value rhs) {
  IRMapping mapping;
  Block *body = reduction.combiner;
  mapping.map(body->getArgument(0), lhs);
  mapping.map(body->getArgument(1), rhs);
  for (Operation &op : body->without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// `lhs` and `rhs` combined; where one holds nothing, the other. The
/// combiner is pure, so it runs on whatever an empty side holds and a
/// select drops that.
Partial merge(OpBuilder &builder, Location loc, const Reduction &reduction,
              Partial lhs, Partial rhs) {
  Value both = combine(builder, reduction, lhs.value, rhs.value);
  if (!lhs.valid)
    return {both, nullptr};
  Value all = arith::AndIOp::create(builder, loc, lhs.valid, rhs.valid);
  Value either =
      arith::SelectOp::create(builder, loc, lhs.valid, lhs.value, rhs.value);
  return {arith::SelectOp::create(builder, loc, all, both, either),
          arith::OrIOp::create(builder, loc, lhs.valid, rhs.valid)};
}

/// A partial result that holds nothing: the identity, or any value flagged
/// empty.
Partial createEmpty(OpBuilder &builder, Location loc,
                    const Reduction &reduction) {
  if (reduction.identity)
    return {arith::ConstantOp::create(builder, loc, reduction.identity),
            nullptr};
  auto zero = cast<TypedAttr>(builder.getZeroAttr(reduction.getType()));
  return {arith::ConstantOp::create(builder, loc, zero),
          arith::ConstantIntOp::create(builder, loc, 0, 1)};
}

/// `value` as a partial result that holds it.
Partial createFull(OpBuilder &builder, Location loc,
                   const Reduction &reduction, Value value) {
  if (reduction.identity)
    return {value, nullptr};
  return {value, arith::ConstantIntOp::create(builder, loc, 1, 1)};
}

/// The SSA values of `partials`, as loop-carried values: each value, then
/// its flag where it has one.
SmallVector<Value> flatten(ArrayRef<Partial> partials) {
  SmallVector<Value> values;
  for (const Partial &partial : partials) {
    values.push_back(partial.value);
    if (partial.valid)
      values.push_back(partial.valid);
  }
  return values;
}

/// The inverse of flatten for `groups` consecutive sets of `reductions`'
/// partial results.
SmallVector<Partial> unflatten(ArrayRef<Reduction> reductions,
                               ValueRange values, unsigned groups = 1) {
  SmallVector<Partial> partials;
  auto it = values.begin();
  for (unsigned g = 0; g < groups; ++g) {
    for (const Reduction &reduction : reductions) {
      Partial partial{*it++, nullptr};
      if (!reduction.identity)
        partial.valid = *it++;
      partials.push_back(partial);
    }
  }
  return partials;
}

/// A loop from `lb` to `ub` by `step` that carries one partial result a
/// reduction, starting from `initial`; `fold` makes an iteration's new
/// partials from its induction variable and the carried ones. Returns the
/// loop's results.
SmallVector<Partial>
foldLoop(RewriterBase &rewriter, Location loc, ArrayRef<Reduction> reductions,
         Value lb, Value ub, Value step, ArrayRef<Partial> initial,
         function_ref<SmallVector<Partial>(Value, ArrayRef<Partial>)> fold) {
  auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step, flatten(initial));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(loop.getBody());
    scf::YieldOp::create(
        rewriter, loc,
        flatten(fold(loop.getInductionVar(),
                     unflatten(reductions, loop.getRegionIterArgs()))));
  }
  return unflatten(reductions, loop.getResults());
}

/// Folds this thread's share of `loop`'s iterations into registers: the
/// iterations numbered `start`, `start + stride`, ... below `end` (counted
/// from the lower bound, in steps, so no index arithmetic wraps), `unroll`
/// an iteration into accumulators of their own (each load still coalesced
/// across the warp, many in flight), the accumulators into one, then the
/// rest an element at a time. The loop body is cloned, with `mapping` for
/// the values it uses from around it. Returns one partial a reduction.
SmallVector<Partial> foldScalars(RewriterBase &rewriter, Location loc,
                                 scf::ParallelOp loop,
                                 ArrayRef<Reduction> reductions, Value start,
                                 Value stride, Value end, int64_t unroll,
                                 const IRMapping &mapping,
                                 ArrayRef<Partial> initial = {}) {
  Block *body = loop.getBody();
  auto reduce = cast<scf::ReduceOp>(body->getTerminator());
  unsigned numReductions = reductions.size();
  Value lb = mapping.lookupOrDefault(loop.getLowerBound().front());
  Value step = mapping.lookupOrDefault(loop.getStep().front());
  SmallVector<Partial> empty;
  for (const Reduction &reduction : reductions)
    empty.push_back(createEmpty(rewriter, loc, reduction));

  // One copy of the body at each iteration of `iterations`, each folded
  // into its accumulator; returns the new accumulators.
  auto foldAt = [&](ArrayRef<Value> iterations, ArrayRef<Partial> accs) {
    SmallVector<Partial> next;
    for (auto [u, k] : llvm::enumerate(iterations)) {
      IRMapping copy = mapping;
      copy.map(body->getArgument(0),
               rewriter.createOrFold<arith::AddIOp>(
                   loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, k, step)));
      for (Operation &op : body->without_terminator())
        rewriter.clone(op, copy);
      for (auto [r, reduction] : llvm::enumerate(reductions))
        next.push_back(merge(
            rewriter, loc, reduction, accs[u * numReductions + r],
            createFull(rewriter, loc, reduction,
                       copy.lookupOrDefault(reduce.getOperands()[r]))));
    }
    return next;
  };

  SmallVector<Partial> accumulated(initial.empty() ? ArrayRef(empty)
                                                   : initial);
  if (unroll > 1) {
    Value unrollValue = arith::ConstantIndexOp::create(rewriter, loc, unroll);
    Value lastOffset = arith::MulIOp::create(
        rewriter, loc, stride,
        arith::ConstantIndexOp::create(rewriter, loc, unroll - 1));
    // k + (unroll - 1) * stride < end; the bound may be negative, and
    // scf.for compares signed, so the loop then runs no iteration.
    Value mainEnd = arith::SubIOp::create(rewriter, loc, end, lastOffset);
    Value mainStep = arith::MulIOp::create(rewriter, loc, stride, unrollValue);
    SmallVector<Partial> inits;
    for (int64_t u = 0; u < unroll; ++u)
      llvm::append_range(inits, empty);
    SmallVector<Value> initValues = flatten(inits);
    initValues.push_back(start);
    auto mainLoop =
        scf::ForOp::create(rewriter, loc, start, mainEnd, mainStep, initValues);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(mainLoop.getBody());
      Value k = mainLoop.getInductionVar();
      SmallVector<Value> iterations;
      for (int64_t u = 0; u < unroll; ++u)
        iterations.push_back(arith::AddIOp::create(
            rewriter, loc, k,
            arith::MulIOp::create(
                rewriter, loc, stride,
                arith::ConstantIndexOp::create(rewriter, loc, u))));
      SmallVector<Value> next = flatten(
          foldAt(iterations, unflatten(reductions,
                                       mainLoop.getRegionIterArgs().drop_back(),
                                       unroll)));
      next.push_back(arith::AddIOp::create(rewriter, loc, k, mainStep));
      scf::YieldOp::create(rewriter, loc, next);
    }
    SmallVector<Partial> results = unflatten(
        reductions, mainLoop.getResults().drop_back(), unroll);
    for (unsigned r = 0; r < numReductions; ++r) {
      Partial acc = results[r];
      for (int64_t u = 1; u < unroll; ++u)
        acc = merge(rewriter, loc, reductions[r], acc,
                    results[u * numReductions + r]);
      accumulated[r] = initial.empty()
                           ? acc
                           : merge(rewriter, loc, reductions[r],
                                   accumulated[r], acc);
    }
    start = mainLoop.getResults().back();
  }

  return foldLoop(rewriter, loc, reductions, start, end, stride, accumulated,
                  [&](Value k, ArrayRef<Partial> accs) {
                    return foldAt({k}, accs);
                  });
}

/// The trip count of `loop`'s one dimension, its bounds and step looked up
/// in `mapping`.
Value createMappedTripCount(OpBuilder &builder, Location loc,
                            scf::ParallelOp loop, const IRMapping &mapping) {
  return createTripCount(builder, loc,
                         mapping.lookupOrDefault(loop.getLowerBound().front()),
                         mapping.lookupOrDefault(loop.getUpperBound().front()),
                         mapping.lookupOrDefault(loop.getStep().front()));
}

/// A load of the reduced loop's body that vector loads can replace: at the
/// induction variable in the last, unit-stride dimension, its other
/// indices from outside the loop.
struct WideLoad {
  Operation *load;
  Value memref;
  SmallVector<Value> outerIndices;
  Type element;
};

/// The loads of `loop`'s body that vector loads of `width` elements can
/// replace, and that width, or nullopt if the loop does not qualify: step
/// 1, nothing in the body that writes, at least one such load, and an
/// element size that leaves at least 2 elements to a vector.
std::optional<std::pair<SmallVector<WideLoad>, int64_t>>
planWideLoads(scf::ParallelOp loop, const IRMapping &mapping,
              int64_t vectorBytes) {
  if (vectorBytes == 0 || !matchPattern(loop.getStep().front(), m_One()))
    return std::nullopt;
  Block *body = loop.getBody();
  Value iv = body->getArgument(0);
  SmallVector<WideLoad> loads;
  int64_t widest = 0;
  for (Operation &op : body->without_terminator()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || load.getIndices().empty() || load.getIndices().back() != iv)
      continue;
    MemRefType type = load.getMemRefType();
    Type element = type.getElementType();
    if (!type.isLastDimUnitStride() || !isVectorElementType(element))
      continue;
    unsigned bits = element.getIntOrFloatBitWidth();
    WideLoad wide{load, mapping.lookupOrDefault(load.getMemRef()), {},
                  element};
    bool invariant = loop.isDefinedOutsideOfLoop(load.getMemRef());
    for (Value index : load.getIndices().drop_back()) {
      invariant &= loop.isDefinedOutsideOfLoop(index);
      wide.outerIndices.push_back(mapping.lookupOrDefault(index));
    }
    if (!invariant)
      continue;
    widest = std::max<int64_t>(widest, bits / 8);
    loads.push_back(std::move(wide));
  }
  bool writes = false;
  body->walk([&](Operation *op) {
    if (!isMemoryEffectFree(op) &&
        !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
        !isa<memref::LoadOp, scf::ReduceOp, scf::ReduceReturnOp>(op))
      writes = true;
  });
  if (loads.empty() || writes || vectorBytes / widest < 2)
    return std::nullopt;
  return std::make_pair(std::move(loads), vectorBytes / widest);
}

/// Folds this thread's share as foldScalars does, where the loop has step 1
/// and its loads allow it, through vector loads: the thread is lane `lane`
/// of `lanes` sharing the loop, and takes vectors lane, lane + lanes, and
/// so on, of `width` elements each, `unroll` vectors an iteration into
/// accumulators of their own, then the elements after the last whole vector
/// one at a time. Vector loads must be aligned, which the memref types do
/// not promise: a run-time check, the same for every lane, picks this or
/// the scalar fold. Returns nullopt, having emitted nothing, where the
/// loop does not qualify.
std::optional<SmallVector<Partial>>
foldWide(RewriterBase &rewriter, Location loc, scf::ParallelOp loop,
         ArrayRef<Reduction> reductions, Value lane, Value lanes,
         int64_t elementsPerIteration, int64_t vectorBytes,
         const IRMapping &mapping) {
  std::optional<std::pair<SmallVector<WideLoad>, int64_t>> plan =
      planWideLoads(loop, mapping, vectorBytes);
  if (!plan)
    return std::nullopt;
  SmallVector<WideLoad> &loads = plan->first;
  int64_t width = plan->second;
  int64_t unroll = std::max<int64_t>(1, elementsPerIteration / width);
  Block *body = loop.getBody();
  auto reduce = cast<scf::ReduceOp>(body->getTerminator());
  unsigned numReductions = reductions.size();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  auto add = [&](Value a, Value b) -> Value {
    return rewriter.createOrFold<arith::AddIOp>(loc, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    return rewriter.createOrFold<arith::MulIOp>(loc, a, b);
  };
  Value lb = mapping.lookupOrDefault(loop.getLowerBound().front());
  // The step is 1: iteration k is element lb + k.
  Value count = createMappedTripCount(rewriter, loc, loop, mapping);
  Value vectors = arith::DivUIOp::create(rewriter, loc, count, cst(width));
  Value vectorEnd = mul(vectors, cst(width));

  // Every load's first element, for this loop instance, aligned to its
  // vector's size.
  Value aligned;
  for (const WideLoad &wide : loads) {
    int64_t bytes = wide.element.getIntOrFloatBitWidth() / 8;
    Value ok = createIsAligned(rewriter, loc, wide.memref, wide.outerIndices,
                               lb, bytes * width);
    aligned = aligned ? arith::AndIOp::create(rewriter, loc, aligned, ok) : ok;
  }

  SmallVector<Partial> empty;
  for (const Reduction &reduction : reductions)
    empty.push_back(createEmpty(rewriter, loc, reduction));
  SmallVector<Type> types;
  for (Value v : flatten(empty))
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(rewriter, loc, types, aligned,
                                /*withElseRegion=*/true);

  // Folds vector `vector` into `accs`, element by element.
  auto foldVector = [&](Value vector, ArrayRef<Partial> accs) {
    Value first = add(lb, mul(vector, cst(width)));
    DenseMap<Operation *, Value> loaded;
    for (const WideLoad &wide : loads) {
      SmallVector<Value> indices(wide.outerIndices);
      indices.push_back(first);
      int64_t bytes = wide.element.getIntOrFloatBitWidth() / 8;
      auto vectorLoad = vector::LoadOp::create(
          rewriter, loc, VectorType::get({width}, wide.element), wide.memref,
          indices, /*nontemporal=*/false, llvm::MaybeAlign(bytes * width));
      loaded[wide.load] = vectorLoad.getResult();
    }
    SmallVector<Partial> next(accs);
    for (int64_t k = 0; k < width; ++k) {
      IRMapping copy = mapping;
      cloneVectorLane(rewriter, loc, body, body->getArgument(0), first, k,
                      loaded, copy);
      for (auto [r, reduction] : llvm::enumerate(reductions))
        next[r] = merge(rewriter, loc, reduction, next[r],
                        createFull(rewriter, loc, reduction,
                                   copy.lookupOrDefault(
                                       reduce.getOperands()[r])));
    }
    return next;
  };

  // The vector side.
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  SmallVector<Partial> accumulated = empty;
  Value rest = lane;
  if (unroll > 1) {
    // Whole chunks of `unroll` strides: each thread runs as many, each
    // vector one stride from the last, so the warp's loads stay adjacent.
    Value chunk = mul(lanes, cst(unroll));
    Value chunked =
        mul(arith::DivUIOp::create(rewriter, loc, vectors, chunk), chunk);
    SmallVector<Partial> inits;
    for (int64_t u = 0; u < unroll; ++u)
      llvm::append_range(inits, empty);
    auto mainLoop = scf::ForOp::create(rewriter, loc, lane, chunked, chunk,
                                       flatten(inits));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(mainLoop.getBody());
      SmallVector<Partial> accs = unflatten(
          reductions, mainLoop.getRegionIterArgs(), unroll);
      SmallVector<Partial> next;
      for (int64_t u = 0; u < unroll; ++u) {
        Value v = add(mainLoop.getInductionVar(), mul(lanes, cst(u)));
        llvm::append_range(
            next, foldVector(v, ArrayRef(accs).slice(u * numReductions,
                                                      numReductions)));
      }
      scf::YieldOp::create(rewriter, loc, flatten(next));
    }
    SmallVector<Partial> results =
        unflatten(reductions, mainLoop.getResults(), unroll);
    for (unsigned k = 0; k < numReductions; ++k) {
      Partial acc = results[k];
      for (int64_t u = 1; u < unroll; ++u)
        acc = merge(rewriter, loc, reductions[k], acc,
                    results[u * numReductions + k]);
      accumulated[k] = acc;
    }
    rest = add(chunked, lane);
  }
  SmallVector<Partial> single = foldLoop(
      rewriter, loc, reductions, rest, vectors, lanes, accumulated,
      [&](Value v, ArrayRef<Partial> accs) { return foldVector(v, accs); });
  SmallVector<Partial> wideAccs =
      foldScalars(rewriter, loc, loop, reductions, add(vectorEnd, lane), lanes,
                  count, /*unroll=*/1, mapping, single);
  scf::YieldOp::create(rewriter, loc, flatten(wideAccs));

  // The scalar side, for memory that is not aligned.
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  SmallVector<Partial> scalarAccs =
      foldScalars(rewriter, loc, loop, reductions, lane, lanes, count,
                  elementsPerIteration, mapping);
  scf::YieldOp::create(rewriter, loc, flatten(scalarAccs));

  rewriter.setInsertionPointAfter(ifOp);
  return unflatten(reductions, ifOp.getResults());
}

/// The share of lane `lane` of the `lanes` threads that split `loop`'s
/// iterations (lane, lane + lanes, ... counted in steps from the lower
/// bound), folded: through vector loads where foldWide can, else as
/// foldScalars does.
SmallVector<Partial> foldShare(RewriterBase &rewriter, Location loc,
                               scf::ParallelOp loop,
                               ArrayRef<Reduction> reductions, Value lane,
                               Value lanes, int64_t unroll,
                               int64_t vectorBytes, const IRMapping &mapping) {
  if (std::optional<SmallVector<Partial>> wide =
          foldWide(rewriter, loc, loop, reductions, lane, lanes, unroll,
                   vectorBytes, mapping))
    return *wide;
  return foldScalars(rewriter, loc, loop, reductions, lane, lanes,
                     createMappedTripCount(rewriter, loc, loop, mapping),
                     unroll, mapping);
}

/// How a partial result crosses the block in gpu.all_reduce. A named
/// combiner on 32 or 64 bits reduces the value itself; otherwise the
/// all-reduce's region combines an integer that carries the value's bits
/// (shuffles move 32 or 64 bits), with the flag above them where there is
/// one.
struct BlockCarrier {
  const Reduction *reduction;
  /// The integer the value travels as; null where it travels as itself.
  IntegerType type;
  bool flagged;

  BlockCarrier(const Reduction &reduction, bool flagged)
      : reduction(&reduction), flagged(flagged) {
    unsigned width = reduction.getType().getIntOrFloatBitWidth();
    if (!reduction.kind || width < 32)
      type = IntegerType::get(reduction.getType().getContext(),
                              flagged ? 64 : 32);
  }

  Value pack(OpBuilder &b, Location loc, Partial p) const {
    if (!type)
      return p.value;
    Type valueType = reduction->getType();
    unsigned width = valueType.getIntOrFloatBitWidth();
    Value bits = p.value;
    if (isa<FloatType>(valueType))
      bits = arith::BitcastOp::create(b, loc, b.getIntegerType(width), bits);
    if (width < type.getWidth())
      bits = arith::ExtUIOp::create(b, loc, type, bits);
    if (!flagged)
      return bits;
    Value flag = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, type, p.valid),
        arith::ConstantIntOp::create(b, loc, type, 32));
    return arith::OrIOp::create(b, loc, bits, flag);
  }

  Partial unpack(OpBuilder &b, Location loc, Value packed) const {
    if (!type)
      return {packed, nullptr};
    Type valueType = reduction->getType();
    unsigned width = valueType.getIntOrFloatBitWidth();
    Value bits = packed;
    if (width < type.getWidth())
      bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), bits);
    if (isa<FloatType>(valueType))
      bits = arith::BitcastOp::create(b, loc, valueType, bits);
    if (!flagged)
      return {bits, nullptr};
    Value flag = arith::ShRUIOp::create(
        b, loc, packed, arith::ConstantIntOp::create(b, loc, type, 32));
    return {bits, arith::TruncIOp::create(b, loc, b.getI1Type(), flag)};
  }

  /// The all-reduce of `packed` over the block.
  gpu::AllReduceOp createAllReduce(RewriterBase &rewriter, Location loc,
                                   Value packed) const {
    if (!type)
      return gpu::AllReduceOp::create(
          rewriter, loc, packed,
          gpu::AllReduceOperationAttr::get(rewriter.getContext(),
                                           *reduction->kind),
          /*uniform=*/true);
    auto allReduce = gpu::AllReduceOp::create(
        rewriter, loc, packed, gpu::AllReduceOperationAttr(),
        /*uniform=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body =
        rewriter.createBlock(&allReduce.getBody(), allReduce.getBody().end(),
                             {type, type}, {loc, loc});
    Partial merged = merge(rewriter, loc, *reduction,
                           unpack(rewriter, loc, body->getArgument(0)),
                           unpack(rewriter, loc, body->getArgument(1)));
    gpu::YieldOp::create(rewriter, loc, pack(rewriter, loc, merged));
    return allReduce;
  }
};

/// Combines each of `accs` across the block, then opens an `scf.if` on
/// thread 0 of the block and leaves the insertion point in it. Returns the
/// block-wide partial results. The all-reduces come first, together: the
/// CPU emulation runs a kernel in phases split at its last one.
SmallVector<Partial> reduceBlockForLeader(RewriterBase &rewriter, Location loc,
                                          gpu::LaunchOp launch,
                                          ArrayRef<Reduction> reductions,
                                          ArrayRef<Partial> accs) {
  SmallVector<BlockCarrier> carriers;
  SmallVector<Value> packed;
  for (auto [reduction, acc] : llvm::zip_equal(reductions, accs)) {
    carriers.emplace_back(reduction, static_cast<bool>(acc.valid));
    packed.push_back(carriers.back().pack(rewriter, loc, acc));
  }
  SmallVector<Value> reduced;
  for (auto [carrier, value] : llvm::zip_equal(carriers, packed))
    reduced.push_back(carrier.createAllReduce(rewriter, loc, value));
  SmallVector<Partial> results;
  for (auto [carrier, value] : llvm::zip_equal(carriers, reduced))
    results.push_back(carrier.unpack(rewriter, loc, value));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       launch.getThreadIds().x, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  return results;
}

/// The init value combined with `total`, the loop's result: the init value
/// joins exactly once, and alone where the loop folded nothing.
Value combineInit(OpBuilder &builder, Location loc,
                  const Reduction &reduction, Value init, Partial total) {
  Value result = combine(builder, reduction, init, total.value);
  if (!total.valid)
    return result;
  return arith::SelectOp::create(builder, loc, total.valid, result, init);
}

/// Where the blocks of a full reduction leave their results for the final
/// kernel: one slot a block (and a byte flag a block for a combiner without
/// an identity), or one accumulator all blocks combine into atomically.
struct CrossBlock {
  Value values;
  Value flags;
  /// The atomic kind the blocks combine into `values`[0] with, if they do.
  std::optional<arith::AtomicRMWKind> atomic;
};

/// Folds each thread's share of `loop`'s iterations into registers, the
/// block's threads together with gpu.all_reduce, and leaves block b's
/// result at scratch[k][b], or combines it into scratch[k][0] atomically.
void emitPartialKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                       ArrayRef<Reduction> reductions, Value grid,
                       Value threads, ArrayRef<CrossBlock> scratch,
                       int64_t unroll, int64_t vectorBytes) {
  Location loc = loop.getLoc();
  gpu::LaunchOp launch = createLaunch(rewriter, loc, grid, threads);
  Value first = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            launch.getBlockSize().x),
      launch.getThreadIds().x);
  Value jump = arith::MulIOp::create(rewriter, loc, launch.getGridSize().x,
                                     launch.getBlockSize().x);
  SmallVector<Partial> accs = foldShare(rewriter, loc, loop, reductions,
                                        first, jump, unroll, vectorBytes,
                                        IRMapping());
  SmallVector<Partial> blockResults =
      reduceBlockForLeader(rewriter, loc, launch, reductions, accs);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (auto [cross, result] : llvm::zip_equal(scratch, blockResults)) {
    if (cross.atomic) {
      memref::AtomicRMWOp::create(rewriter, loc, *cross.atomic, result.value,
                                  cross.values, ValueRange{zero});
      continue;
    }
    memref::StoreOp::create(rewriter, loc, result.value, cross.values,
                            launch.getBlockIds().x);
    if (cross.flags)
      memref::StoreOp::create(
          rewriter, loc,
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI8Type(),
                                 result.valid),
          cross.flags, launch.getBlockIds().x);
  }
  rewriter.setInsertionPointAfter(launch);
}

/// One block folds the `count` block results (or reads the atomic
/// accumulator), combines the init values, and makes the host's stores of
/// the results.
void emitFinalKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                     ArrayRef<Reduction> reductions, Value count,
                     Value threads, ArrayRef<CrossBlock> scratch) {
  Location loc = loop.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, one, threads);
  // The block folds the per-block slots; atomic accumulators hold their
  // total already.
  SmallVector<Reduction> slotted;
  SmallVector<CrossBlock> slots;
  SmallVector<Partial> empty;
  for (auto [reduction, cross] : llvm::zip_equal(reductions, scratch)) {
    if (cross.atomic)
      continue;
    slotted.push_back(reduction);
    slots.push_back(cross);
    empty.push_back(createEmpty(rewriter, loc, reduction));
  }
  SmallVector<Partial> slotTotals;
  if (slotted.empty()) {
    // Only atomic accumulators: thread 0 reads them.
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, launch.getThreadIds().x,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  } else {
    auto forOp =
        scf::ForOp::create(rewriter, loc, launch.getThreadIds().x, count,
                           launch.getBlockSize().x, flatten(empty));
    rewriter.setInsertionPointToEnd(forOp.getBody());
    SmallVector<Partial> folded;
    for (auto [reduction, cross, acc] :
         llvm::zip_equal(slotted, slots,
                         unflatten(slotted, forOp.getRegionIterArgs()))) {
      Partial value{memref::LoadOp::create(rewriter, loc, cross.values,
                                           forOp.getInductionVar()),
                    nullptr};
      if (cross.flags)
        value.valid = arith::TruncIOp::create(
            rewriter, loc, rewriter.getI1Type(),
            memref::LoadOp::create(rewriter, loc, cross.flags,
                                   forOp.getInductionVar()));
      folded.push_back(merge(rewriter, loc, reduction, acc, value));
    }
    scf::YieldOp::create(rewriter, loc, flatten(folded));
    rewriter.setInsertionPointAfter(forOp);
    slotTotals = reduceBlockForLeader(rewriter, loc, launch, slotted,
                                      unflatten(slotted, forOp.getResults()));
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto nextSlotTotal = slotTotals.begin();
  for (auto [reduction, cross, init] :
       llvm::zip_equal(reductions, scratch, loop.getInitVals())) {
    Partial total =
        cross.atomic
            ? Partial{memref::LoadOp::create(rewriter, loc, cross.values, zero),
                      nullptr}
            : *nextSlotTotal++;
    Value result = combineInit(rewriter, loc, reduction, init, total);
    for (memref::StoreOp store : reduction.stores)
      memref::StoreOp::create(rewriter, store.getLoc(), result,
                              store.getMemRef(), store.getIndices());
  }
  rewriter.setInsertionPointAfter(launch);
}

/// The longest row a warp reduces alone: with 8 elements a lane an
/// iteration, two iterations; longer rows give a block's threads enough
/// to do.
constexpr int64_t kMaxWarpRow = 512;

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
  for (auto [reduction, init, total] :
       llvm::zip_equal(row.reductions, inner.getInitVals(), totals)) {
    Value result = combineInit(rewriter, loc, reduction,
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

/// The hardware atomic that combines `reduction`'s values in memory, where
/// the chip has one: integer add, and, or, xor, min and max, f32 and f64
/// add.
std::optional<arith::AtomicRMWKind>
getHardwareAtomic(const Reduction &reduction) {
  using Kind = gpu::AllReduceOperation;
  Type type = reduction.getType();
  if (!reduction.kind || type.isF16())
    return std::nullopt;
  switch (*reduction.kind) {
  case Kind::ADD:
    return isa<FloatType>(type) ? arith::AtomicRMWKind::addf
                                : arith::AtomicRMWKind::addi;
  case Kind::AND:
    return arith::AtomicRMWKind::andi;
  case Kind::OR:
    return arith::AtomicRMWKind::ori;
  case Kind::XOR:
    return arith::AtomicRMWKind::xori;
  case Kind::MAXSI:
    return arith::AtomicRMWKind::maxs;
  case Kind::MINSI:
    return arith::AtomicRMWKind::mins;
  case Kind::MAXUI:
    return arith::AtomicRMWKind::maxu;
  case Kind::MINUI:
    return arith::AtomicRMWKind::minu;
  default:
    return std::nullopt;
  }
}

/// A one-element device accumulator for `reduction` holding its identity:
/// bytes from `allocate`, set a 32-bit word at a time (the widest memset
/// the GPU runtime has), and viewed as the reduced type.
Value createAtomicAccumulator(
    RewriterBase &rewriter, Location loc, const Reduction &reduction,
    function_ref<Value(MemRefType, ValueRange)> allocate) {
  Type type = reduction.getType();
  unsigned bytes = type.getIntOrFloatBitWidth() / 8;
  Value raw = allocate(MemRefType::get({bytes}, rewriter.getI8Type()),
                       ValueRange());
  APInt identity = reduction.identity.getType().isIntOrIndex()
                       ? cast<IntegerAttr>(reduction.identity).getValue()
                       : cast<FloatAttr>(reduction.identity)
                             .getValue()
                             .bitcastToAPInt();
  auto tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  auto wordType = MemRefType::get({1}, rewriter.getI32Type());
  for (unsigned word = 0; word < bytes / 4; ++word) {
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 4 * word);
    Value view = memref::ViewOp::create(rewriter, loc, wordType, raw, offset,
                                        ValueRange());
    // Little-endian: word 0 holds the low bits.
    Value bits = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI32Type(), identity.extractBits(32, 32 * word));
    Value ready = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
                      .getAsyncToken();
    Value set = gpu::MemsetOp::create(rewriter, loc, tokenType,
                                      ValueRange{ready}, view, bits)
                    .getAsyncToken();
    gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{set});
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  return memref::ViewOp::create(rewriter, loc, MemRefType::get({1}, type), raw,
                                zero, ValueRange());
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
  if (vectorBytes != 0 && !isSupportedVectorBytes(vectorBytes)) {
    first->emitOpError("cannot be mapped with vector-bytes = ")
        << static_cast<int64_t>(vectorBytes) << ": it must be 4, 8, 16, or 0 "
        << "for scalar loads";
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
    // takes device allocations (and memsets) in their async form only:
    // each is waited for at once.
    auto tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
    SmallVector<Value> allocations;
    auto allocate = [&](MemRefType type, ValueRange sizes) {
      Value ready = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
                        .getAsyncToken();
      auto alloc = gpu::AllocOp::create(
          rewriter, loc, type, tokenType, ValueRange{ready}, sizes,
          /*symbolOperands=*/ValueRange(), /*hostShared=*/UnitAttr());
      gpu::WaitOp::create(rewriter, loc, Type(),
                          ValueRange{alloc.getAsyncToken()});
      allocations.push_back(alloc.getMemref());
      return alloc.getMemref();
    };
    SmallVector<CrossBlock> scratch;
    unsigned numAtomic = 0;
    for (const Reduction &reduction : reductions) {
      CrossBlock cross;
      if (crossBlock == CrossBlockCombine::Atomic)
        cross.atomic = getHardwareAtomic(reduction);
      if (cross.atomic) {
        cross.values = createAtomicAccumulator(rewriter, loc, reduction,
                                               allocate);
        ++numAtomic;
      } else {
        cross.values = allocate(
            MemRefType::get({ShapedType::kDynamic}, reduction.getType()),
            ValueRange{grid});
        if (!reduction.identity)
          cross.flags = allocate(MemRefType::get({ShapedType::kDynamic},
                                                 rewriter.getI8Type()),
                                 ValueRange{grid});
      }
      scratch.push_back(cross);
    }
    int64_t elements = unroll > 0 ? int64_t(unroll) : chooseUnroll(loop);
    if (emitRemarks) {
      InFlightDiagnostic remark = loop.emitRemark("reduction mapped: ");
      remark << reductions.size() << " value(s), "
             << static_cast<int64_t>(threadsPerBlock)
             << " threads a block fold a grid-stride share each (" << elements
             << " elements an iteration"
             << (unroll > 0 ? "" : ", to keep 8 loads in flight")
             << "), warp shuffles and shared memory combine each block, ";
      if (numAtomic == reductions.size())
        remark << "each block combines its result into an accumulator "
                  "with a hardware atomic, and a second one-block kernel "
                  "combines the init value";
      else if (numAtomic)
        remark << numAtomic << " value(s) combine across blocks with a "
               << "hardware atomic, and a second one-block kernel combines "
               << "the other blocks' results and the init values";
      else
        remark << "and a second one-block kernel combines the blocks and "
                  "the init value";
      if (crossBlock == CrossBlockCombine::Atomic &&
          numAtomic < reductions.size())
        remark << " (no hardware atomic for "
               << reductions.size() - numAtomic << " combiner(s))";
    }

    emitPartialKernel(rewriter, loop, reductions, grid, threads, scratch,
                      elements, vectorBytes);
    rewriter.setInsertionPoint(loop);
    emitFinalKernel(rewriter, loop, reductions, grid, threads, scratch);
    rewriter.setInsertionPoint(loop);
    for (Value allocation : allocations) {
      Value ready =
          gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
              .getAsyncToken();
      Value freed = gpu::DeallocOp::create(rewriter, loc, tokenType,
                                           ValueRange{ready}, allocation)
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
    Location loc = row.outer.getLoc();
    rewriter.setInsertionPoint(row.outer);
    Value threads = arith::ConstantIndexOp::create(rewriter, loc,
                                                   threadsPerBlock);
    // Short rows would leave most of a block idle: where the host can
    // tell a row's length (its bounds do not depend on the row), rows of
    // up to kMaxWarpRow elements get one-warp blocks instead.
    bool warpRows = this->warpRows &&
                    threadsPerBlock > GpuLimits::kWarpSize &&
                    llvm::all_of(row.inner->getOperands(), [&](Value v) {
                      return row.outer.isDefinedOutsideOfLoop(v);
                    });
    if (emitRemarks) {
      InFlightDiagnostic remark = row.outer.emitRemark("row reduction mapped: ");
      if (warpRows)
        remark << "one warp a row (a block of 32 threads) where a row has "
               << "at most " << kMaxWarpRow << " elements, else ";
      remark << "one block a row, " << static_cast<int64_t>(threadsPerBlock)
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
      emitRowKernel(rewriter, row,
                    arith::ConstantIndexOp::create(rewriter, loc,
                                                   GpuLimits::kWarpSize),
                    elements, vectorBytes);
      rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    }
    emitRowKernel(rewriter, row, threads, elements, vectorBytes);
    rewriter.eraseOp(row.outer);
    ++numRowReductionsMapped;
  }
  if (asksHost)
    declareMaxResidentBlocks(module);
}
