//===- ReductionFolds.cpp - Fold a thread's share of a reduction ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The inside of every reduction kernel: a thread folds its share of the
// iterations into registers, several accumulators at a time, through
// vector loads where the loop and the alignment of its memory allow; then
// gpu.all_reduce combines a block's threads for thread 0.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

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

/// Loads a thread keeps in flight, by default, in a reduction's main loop:
/// on an H200 an f32 sum reached CUB's speed with 8, and a dot product
/// (two loads an element) was fastest with 4 elements an iteration.
static constexpr int64_t kLoadsInFlight = 8;

/// The elements a thread folds per main-loop iteration: `requested` when
/// positive, else kLoadsInFlight over the loads of one iteration, at least 1.
int64_t reductions::chooseUnroll(scf::ParallelOp loop, int64_t requested) {
  if (requested > 0)
    return requested;
  int64_t loads = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      ++loads;
  });
  return std::max<int64_t>(1, kLoadsInFlight / std::max<int64_t>(1, loads));
}

/// A 1-D launch of `grid` blocks of `threads` threads, the insertion point
/// in its body.
gpu::LaunchOp reductions::createLaunch(RewriterBase &rewriter, Location loc,
                                       Value grid, Value threads) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  return createLaunchWithTerminator(rewriter, loc, {grid, one, one},
                                    {threads, one, one});
}

/// A loop from `lb` to `ub` by `step` that carries one partial result a
/// reduction, starting from `initial`; `fold` makes an iteration's new
/// partials from its induction variable and the carried ones. Returns the
/// loop's results.
static SmallVector<Partial>
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
static SmallVector<Partial>
foldScalars(RewriterBase &rewriter, Location loc, scf::ParallelOp loop,
            ArrayRef<Reduction> reductions, Value start, Value stride,
            Value end, int64_t unroll, const IRMapping &mapping,
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
      copy.map(
          body->getArgument(0),
          rewriter.createOrFold<arith::AddIOp>(
              loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, k, step)));
      for (Operation &op : body->without_terminator())
        rewriter.clone(op, copy);
      for (auto [r, reduction] : llvm::enumerate(reductions))
        next.push_back(
            merge(rewriter, loc, reduction, accs[u * numReductions + r],
                  createFull(rewriter, loc, reduction,
                             copy.lookupOrDefault(reduce.getOperands()[r]))));
    }
    return next;
  };

  SmallVector<Partial> accumulated(initial.empty() ? ArrayRef(empty) : initial);
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
          foldAt(iterations,
                 unflatten(reductions, mainLoop.getRegionIterArgs().drop_back(),
                           unroll)));
      next.push_back(arith::AddIOp::create(rewriter, loc, k, mainStep));
      scf::YieldOp::create(rewriter, loc, next);
    }
    SmallVector<Partial> results =
        unflatten(reductions, mainLoop.getResults().drop_back(), unroll);
    for (unsigned r = 0; r < numReductions; ++r) {
      Partial acc = results[r];
      for (int64_t u = 1; u < unroll; ++u)
        acc = merge(rewriter, loc, reductions[r], acc,
                    results[u * numReductions + r]);
      accumulated[r] = initial.empty() ? acc
                                       : merge(rewriter, loc, reductions[r],
                                               accumulated[r], acc);
    }
    start = mainLoop.getResults().back();
  }

  return foldLoop(
      rewriter, loc, reductions, start, end, stride, accumulated,
      [&](Value k, ArrayRef<Partial> accs) { return foldAt({k}, accs); });
}

/// The trip count of `loop`'s one dimension, its bounds and step looked up
/// in `mapping`.
static Value createMappedTripCount(OpBuilder &builder, Location loc,
                                   scf::ParallelOp loop,
                                   const IRMapping &mapping) {
  return createTripCount(builder, loc,
                         mapping.lookupOrDefault(loop.getLowerBound().front()),
                         mapping.lookupOrDefault(loop.getUpperBound().front()),
                         mapping.lookupOrDefault(loop.getStep().front()));
}

namespace {
/// A load of the reduced loop's body that vector loads can replace: at the
/// induction variable in the last, unit-stride dimension, its other
/// indices from outside the loop.
struct WideLoad {
  Operation *load;
  Value memref;
  SmallVector<Value> outerIndices;
  Type element;
};
} // namespace

/// The loads of `loop`'s body that vector loads of `width` elements can
/// replace, and that width, or nullopt if the loop does not qualify: step
/// 1, nothing in the body that writes, at least one such load, and an
/// element size that leaves at least 2 elements to a vector.
static std::optional<std::pair<SmallVector<WideLoad>, int64_t>>
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
    WideLoad wide{load, mapping.lookupOrDefault(load.getMemRef()), {}, element};
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
static std::optional<SmallVector<Partial>>
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
        next[r] =
            merge(rewriter, loc, reduction, next[r],
                  createFull(rewriter, loc, reduction,
                             copy.lookupOrDefault(reduce.getOperands()[r])));
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
    auto mainLoop =
        scf::ForOp::create(rewriter, loc, lane, chunked, chunk, flatten(inits));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(mainLoop.getBody());
      SmallVector<Partial> accs =
          unflatten(reductions, mainLoop.getRegionIterArgs(), unroll);
      SmallVector<Partial> next;
      for (int64_t u = 0; u < unroll; ++u) {
        Value v = add(mainLoop.getInductionVar(), mul(lanes, cst(u)));
        llvm::append_range(next,
                           foldVector(v, ArrayRef(accs).slice(u * numReductions,
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
SmallVector<Partial> reductions::foldShare(RewriterBase &rewriter, Location loc,
                                           scf::ParallelOp loop,
                                           ArrayRef<Reduction> reductions,
                                           Value lane, Value lanes,
                                           int64_t unroll, int64_t vectorBytes,
                                           const IRMapping &mapping) {
  if (std::optional<SmallVector<Partial>> wide =
          foldWide(rewriter, loc, loop, reductions, lane, lanes, unroll,
                   vectorBytes, mapping))
    return *wide;
  return foldScalars(rewriter, loc, loop, reductions, lane, lanes,
                     createMappedTripCount(rewriter, loc, loop, mapping),
                     unroll, mapping);
}

namespace {
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
      type =
          IntegerType::get(reduction.getType().getContext(), flagged ? 64 : 32);
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
    auto allReduce = gpu::AllReduceOp::create(rewriter, loc, packed,
                                              gpu::AllReduceOperationAttr(),
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
} // namespace

/// Combines each of `accs` across the block; every thread gets the
/// block-wide partial results. The all-reduces come together: the CPU
/// emulation runs a kernel in phases split at them.
SmallVector<Partial> reductions::reduceBlock(RewriterBase &rewriter,
                                             Location loc,
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
  return results;
}

/// Combines each of `accs` across the block, then opens an `scf.if` on
/// thread 0 of the block and leaves the insertion point in it. Returns the
/// block-wide partial results.
SmallVector<Partial> reductions::reduceBlockForLeader(
    RewriterBase &rewriter, Location loc, gpu::LaunchOp launch,
    ArrayRef<Reduction> reductions, ArrayRef<Partial> accs) {
  SmallVector<Partial> results = reduceBlock(rewriter, loc, reductions, accs);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       launch.getThreadIds().x, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  return results;
}
