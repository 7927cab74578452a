//===- ParallelizeLoopReductions.cpp - scf.for accumulations to reductions ===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// People and front ends write reductions as sequential loops: an scf.for
// that carries a sum in iter_args, or (what linalg lowers to) one that
// loads, updates and stores an accumulator in memory on every iteration.
// Both say the same as an scf.parallel reduction when the loop only reads
// memory and combines with an associative, commutative operation; in that
// form the reduction mappings (a grid for a whole reduction, a block or a
// warp for each row of one) take them.
//
// Three rewrites, innermost loops first:
//  1. An accumulator in memory (a load and a store of one element at
//     indices fixed in the loop, nothing else touching that memref, no
//     other write) becomes an iter_args value: loaded before the loop,
//     stored after it.
//  2. An scf.for whose body writes nothing, and each of whose iter_args is
//     used only by one combining op whose result is yielded, becomes an
//     scf.parallel with one scf.reduce.
//  3. An scf.for in the body of a parallel loop whose iterations touch
//     disjoint elements (each store indexed by the induction variable
//     itself, reads of stored memrefs only of the element the iteration
//     stores) becomes an scf.parallel: the elementwise loops of a softmax
//     or layernorm row, which a block's threads can then share.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_PARALLELIZELOOPREDUCTIONSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Effects
//===----------------------------------------------------------------------===//

/// The memref a view is made from, through any chain of views.
static Value getRootMemRef(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewSource() == memref)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

/// What the ops nested in a loop body do to memory.
struct BodyEffects {
  /// Every op that writes, or may write, memory.
  SmallVector<Operation *> writes;
  /// The memrefs read (the values loads name).
  SmallVector<std::pair<Operation *, Value>> reads;
  /// An op whose effects are unknown, or that reads memory other than
  /// through a named memref.
  bool unknown = false;
};

static BodyEffects getBodyEffects(Block &body) {
  BodyEffects result;
  body.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      result.unknown = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &instance : instances) {
      if (isa<MemoryEffects::Read>(instance.getEffect())) {
        Value value = instance.getValue();
        if (!value || !isa<BaseMemRefType>(value.getType()))
          result.unknown = true;
        else
          result.reads.push_back({op, value});
      } else if (!isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                     instance.getEffect())) {
        result.writes.push_back(op);
      }
    }
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Accumulators in memory
//===----------------------------------------------------------------------===//

/// A load and store of one element that a loop uses as its accumulator.
struct MemoryAccumulator {
  memref::LoadOp load;
  memref::StoreOp store;
};

/// The accumulators of `loop`: every write in its body must be a store
/// directly in it, to indices defined outside the loop, of a memref that
/// the body otherwise only loads from once, at the same indices and before
/// the store. Reads of other memrefs must come from other roots (distinct
/// arguments are taken not to alias, as everywhere in ThreadBind).
static std::optional<SmallVector<MemoryAccumulator>>
findMemoryAccumulators(scf::ForOp loop) {
  Block *body = loop.getBody();
  BodyEffects effects = getBodyEffects(*body);
  if (effects.unknown || effects.writes.empty())
    return std::nullopt;
  SmallVector<MemoryAccumulator> accumulators;
  for (Operation *write : effects.writes) {
    auto store = dyn_cast<memref::StoreOp>(write);
    if (!store || store->getBlock() != body ||
        !llvm::all_of(store.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }) ||
        !loop.isDefinedOutsideOfLoop(store.getMemRef()))
      return std::nullopt;
    Value root = getRootMemRef(store.getMemRef());
    memref::LoadOp load;
    for (auto [reader, memref] : effects.reads) {
      if (getRootMemRef(memref) != root)
        continue;
      auto candidate = dyn_cast<memref::LoadOp>(reader);
      if (load || !candidate || candidate->getBlock() != body ||
          candidate.getMemRef() != store.getMemRef() ||
          candidate.getIndices() != store.getIndices() ||
          !candidate->isBeforeInBlock(store))
        return std::nullopt;
      load = candidate;
    }
    if (!load)
      return std::nullopt;
    accumulators.push_back({load, store});
  }
  // Two stores to one root would be two accumulators that may be one.
  for (auto [i, a] : llvm::enumerate(accumulators))
    for (MemoryAccumulator b :
         MutableArrayRef(accumulators).drop_front(i + 1))
      if (getRootMemRef(a.store.getMemRef()) ==
          getRootMemRef(b.store.getMemRef()))
        return std::nullopt;
  return accumulators;
}

/// Carries the accumulators of `loop` in iter_args: loaded before the
/// loop, stored after it. Returns the new loop.
static scf::ForOp
promoteAccumulators(RewriterBase &rewriter, scf::ForOp loop,
                    MutableArrayRef<MemoryAccumulator> accumulators) {
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits;
  for (MemoryAccumulator &acc : accumulators)
    inits.push_back(memref::LoadOp::create(rewriter, acc.load.getLoc(),
                                           acc.load.getMemRef(),
                                           acc.load.getIndices()));
  SmallVector<Value> stored;
  for (MemoryAccumulator &acc : accumulators)
    stored.push_back(acc.store.getValueToStore());
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return stored;
              });
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  unsigned first = newLoop.getNumRegionIterArgs() - accumulators.size();
  rewriter.setInsertionPointAfter(newLoop);
  for (auto [i, acc] : llvm::enumerate(accumulators)) {
    rewriter.replaceAllUsesWith(acc.load.getResult(),
                                newLoop.getRegionIterArgs()[first + i]);
    memref::StoreOp::create(rewriter, acc.store.getLoc(),
                            newLoop.getResult(first + i),
                            acc.store.getMemRef(), acc.store.getIndices());
    rewriter.eraseOp(acc.store);
    rewriter.eraseOp(acc.load);
  }
  return newLoop;
}

//===----------------------------------------------------------------------===//
// Carried values to reductions
//===----------------------------------------------------------------------===//

/// Whether `op` combines two values associatively and commutatively;
/// `floats` admits the float sums and products, whose rounding then
/// follows the reduction's order.
static bool isReassociable(Operation *op, bool floats) {
  if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp, arith::AddIOp, arith::MulIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
          arith::MaxUIOp, arith::MinUIOp>(op))
    return true;
  return floats && isa<arith::AddFOp, arith::MulFOp>(op);
}

/// For each iter_arg of `loop`, the op that combines it with the
/// iteration's value, if `loop` is a reduction.
static std::optional<SmallVector<Operation *>>
findCombiners(scf::ForOp loop, bool floats) {
  if (loop.getNumRegionIterArgs() == 0 ||
      !loop.getInductionVar().getType().isIndex())
    return std::nullopt;
  BodyEffects effects = getBodyEffects(*loop.getBody());
  if (effects.unknown || !effects.writes.empty())
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Operation *> combiners;
  for (auto [i, acc] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!acc.hasOneUse())
      return std::nullopt;
    Operation *combiner = *acc.getUsers().begin();
    if (combiner->getBlock() != loop.getBody() ||
        combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
        !isReassociable(combiner, floats) ||
        !combiner->getResult(0).hasOneUse() ||
        yield.getOperand(i) != combiner->getResult(0))
      return std::nullopt;
    combiners.push_back(combiner);
  }
  // The values combined must not depend on what is carried: every use of
  // an iter_arg is its combiner, and a combiner's result only goes to the
  // yield, so nothing else in the body can see one.
  return combiners;
}

/// Rewrites `loop` into an scf.parallel with one reduction per iter_arg.
static void rewriteAsReduction(RewriterBase &rewriter, scf::ForOp loop,
                               ArrayRef<Operation *> combiners) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loc, ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()},
      loop.getInitArgs());
  Block *body = parallel.getBody();
  // With init values, the builder leaves the body without a terminator.
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    rewriter.eraseOp(&body->back());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), parallel.getInductionVars().front());
  rewriter.setInsertionPointToStart(body);
  llvm::SmallPtrSet<Operation *, 4> skip(combiners.begin(), combiners.end());
  for (Operation &op : loop.getBody()->without_terminator())
    if (!skip.contains(&op))
      rewriter.clone(op, mapping);
  SmallVector<Value> operands;
  for (auto [acc, combiner] :
       llvm::zip_equal(loop.getRegionIterArgs(), combiners)) {
    Value other = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                                 : combiner->getOperand(0);
    operands.push_back(mapping.lookupOrDefault(other));
  }
  auto reduce = scf::ReduceOp::create(rewriter, loc, operands);
  for (auto [region, combiner] :
       llvm::zip_equal(reduce.getReductions(), combiners)) {
    // The builder gives each region a block of two arguments.
    Block *block = &region.front();
    rewriter.setInsertionPointToEnd(block);
    IRMapping combine;
    combine.map(combiner->getOperand(0), block->getArgument(0));
    combine.map(combiner->getOperand(1), block->getArgument(1));
    Operation *clone = rewriter.clone(*combiner, combine);
    scf::ReduceReturnOp::create(rewriter, loc, clone->getResult(0));
  }
  rewriter.replaceOp(loop, parallel.getResults());
}

//===----------------------------------------------------------------------===//
// Loops of independent iterations
//===----------------------------------------------------------------------===//

/// Whether each iteration of `loop` touches elements of its own: every
/// write is a memref.store directly in the body whose indices are the
/// induction variable in one position and values defined outside the loop
/// in the others, and every read of a memref a store writes (same root) is
/// a load, directly in the body, of the element a store of that memref
/// writes. Other memrefs are only read; distinct roots are taken not to
/// alias. Only loops in the body of a parallel loop are taken: a host loop
/// has no threads to share it.
static bool hasIndependentIterations(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 0 ||
      !loop.getInductionVar().getType().isIndex() ||
      !loop->getParentOfType<scf::ParallelOp>())
    return false;
  Block *body = loop.getBody();
  BodyEffects effects = getBodyEffects(*body);
  if (effects.unknown || effects.writes.empty())
    return false;
  Value iv = loop.getInductionVar();
  SmallVector<memref::StoreOp> stores;
  for (Operation *write : effects.writes) {
    auto store = dyn_cast<memref::StoreOp>(write);
    if (!store || store->getBlock() != body ||
        !loop.isDefinedOutsideOfLoop(store.getMemRef()))
      return false;
    int ivs = 0;
    for (Value index : store.getIndices()) {
      if (index == iv)
        ++ivs;
      else if (!loop.isDefinedOutsideOfLoop(index))
        return false;
    }
    if (ivs != 1)
      return false;
    stores.push_back(store);
  }
  for (auto [reader, memref] : effects.reads) {
    Value root = getRootMemRef(memref);
    for (memref::StoreOp store : stores) {
      if (getRootMemRef(store.getMemRef()) != root)
        continue;
      auto load = dyn_cast<memref::LoadOp>(reader);
      if (!load || load->getBlock() != body ||
          load.getMemRef() != store.getMemRef() ||
          load.getIndices() != store.getIndices())
        return false;
    }
  }
  // Two stores to one root must write the same element.
  for (memref::StoreOp a : stores)
    for (memref::StoreOp b : stores)
      if (getRootMemRef(a.getMemRef()) == getRootMemRef(b.getMemRef()) &&
          (a.getMemRef() != b.getMemRef() ||
           a.getIndices() != b.getIndices()))
        return false;
  return true;
}

/// Rewrites `loop`, whose iterations are independent, into an scf.parallel.
static void rewriteAsParallel(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), parallel.getInductionVars().front());
  rewriter.setInsertionPoint(parallel.getBody()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(loop);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ParallelizeLoopReductionsPass
    : threadbind::impl::ParallelizeLoopReductionsPassBase<
          ParallelizeLoopReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Innermost first, so an outer loop sees its inner ones rewritten.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        if (!loop->getParentOfType<gpu::LaunchOp>() &&
            !loop->getParentOfType<gpu::GPUModuleOp>())
          loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      if (std::optional<SmallVector<MemoryAccumulator>> accumulators =
              findMemoryAccumulators(loop)) {
        loop = promoteAccumulators(rewriter, loop, *accumulators);
        ++numAccumulatorsPromoted;
      }
      if (hasIndependentIterations(loop)) {
        if (emitRemarks)
          loop.emitRemark("independent iterations: each stores elements "
                          "indexed by the induction variable and reads "
                          "only its own of them, so it runs as a parallel "
                          "loop");
        rewriteAsParallel(rewriter, loop);
        ++numLoopsMadeParallel;
        continue;
      }
      std::optional<SmallVector<Operation *>> combiners =
          findCombiners(loop, floats);
      if (!combiners)
        continue;
      if (emitRemarks) {
        InFlightDiagnostic remark = loop.emitRemark(
            "a reduction: the loop only reads memory and combines with ");
        llvm::interleaveComma(*combiners, remark, [&](Operation *op) {
          remark << "'" << op->getName() << "'";
        });
        remark << ", so it runs as a parallel reduction";
        if (llvm::any_of(*combiners, [](Operation *op) {
              return isa<FloatType>(op->getResult(0).getType());
            }))
          remark << "; its floats round in the reduction's order, not the "
                    "loop's (--loop-reductions=false keeps the loop)";
      }
      rewriteAsReduction(rewriter, loop, *combiners);
      ++numLoopsParallelized;
    }
  }
};
} // namespace
