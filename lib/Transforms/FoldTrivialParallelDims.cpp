//===- FoldTrivialParallelDims.cpp - Zero- and one-trip loop dimensions ---===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// What upstream's canonicalization does to scf.parallel dimensions that run
// no iteration or one, but for two things: a loop whose every dimension
// runs once stays a loop, and so does a loop that runs no iteration and
// whose results are stored. Upstream inlines the first's body into the
// function and replaces the second by its init values, which leaves the stores on the
// host, where a bundle's memrefs are device pointers, and the program
// without the kernel the user wrote a loop for.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_FOLDTRIVIALPARALLELDIMSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// The static trip count of dimension `d` of `loop`, if it is 0 or 1.
static std::optional<int64_t> getTrivialTripCount(scf::ParallelOp loop,
                                                  unsigned d) {
  std::optional<int64_t> trips = getStaticTripCount(loop, d);
  if (trips && *trips <= 1)
    return trips;
  return std::nullopt;
}

/// Folds `loop`'s trivial dimensions; returns whether it changed anything.
static bool foldTrivialDims(RewriterBase &rewriter, scf::ParallelOp loop) {
  unsigned numDims = loop.getNumLoops();
  SmallVector<unsigned> kept, once;
  for (unsigned d = 0; d < numDims; ++d) {
    std::optional<int64_t> trips = getTrivialTripCount(loop, d);
    if (trips && *trips == 0) {
      // No iteration at all: the results are the init values. A loop
      // whose results are only stored stays, though: folded, the stores
      // would be host code, which a bundle cannot run on device memory;
      // the reduction mapping writes them from a kernel.
      if (loop.getNumResults() != 0 &&
          llvm::all_of(loop->getUsers(), llvm::IsaPred<memref::StoreOp>))
        return false;
      rewriter.replaceOp(loop, loop.getInitVals());
      return true;
    }
    (trips ? once : kept).push_back(d);
  }
  // Every dimension runs once: one stays, so the loop still runs on the
  // GPU.
  if (kept.empty())
    kept.push_back(once.pop_back_val());
  if (once.empty())
    return false;

  auto pick = [&](ValueRange values) {
    SmallVector<Value> picked;
    for (unsigned d : kept)
      picked.push_back(values[d]);
    return picked;
  };
  rewriter.setInsertionPoint(loop);
  auto folded = scf::ParallelOp::create(
      rewriter, loop.getLoc(), pick(loop.getLowerBound()),
      pick(loop.getUpperBound()), pick(loop.getStep()), loop.getInitVals(),
      /*bodyBuilderFn=*/nullptr);
  folded->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // Which dimensions as written the kept ones are, through any earlier
  // folding, for dim-order.
  std::optional<WrittenDims> before = getWrittenDims(loop);
  WrittenDims written{{}, before ? before->rank : int64_t(numDims)};
  for (unsigned d : kept)
    written.dims.push_back(before ? before->dims[d] : d);
  setWrittenDims(folded, written);
  Block *newBody = folded.getBody();
  // The builder's implicit terminator, if it made one (it makes none for a
  // loop with results), gives way to the moved body's.
  if (!newBody->empty())
    rewriter.eraseOp(&newBody->back());
  SmallVector<Value> ivs(numDims);
  for (unsigned d : once)
    ivs[d] = loop.getLowerBound()[d];
  for (auto [i, d] : llvm::enumerate(kept))
    ivs[d] = newBody->getArgument(i);
  rewriter.mergeBlocks(loop.getBody(), newBody, ivs);
  rewriter.replaceOp(loop, folded.getResults());
  return true;
}

namespace {
struct FoldTrivialParallelDimsPass
    : threadbind::impl::FoldTrivialParallelDimsPassBase<
          FoldTrivialParallelDimsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    // Innermost first: folding an outer loop moves, but never erases, the
    // loops inside it.
    for (scf::ParallelOp loop : loops)
      if (foldTrivialDims(rewriter, loop))
        ++numDimsFolded;
  }
};
} // namespace
