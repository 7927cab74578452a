//===- LinearizeReductions.cpp - Reductions over several dimensions -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A reduction over several dimensions folds every iteration into one value
// per result, in no particular order: the same as a 1-D reduction over the
// iterations numbered in row-major order. Rewriting it so lets the 1-D
// mappings (full reductions and rows) take it, with the last dimension
// varying fastest, so a row-major walk of memory stays coalesced.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

scf::ParallelOp reductions::linearizeReduction(RewriterBase &rewriter,
                                               scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // Trip counts from unsigned spans, exact for any bounds; their product
  // is the number of iterations, which a loop that finishes cannot have
  // more of than the index type holds.
  SmallVector<Value> trips;
  Value total = one;
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d) {
    trips.push_back(createTripCount(rewriter, loc, loop, d));
    total = rewriter.createOrFold<arith::MulIOp>(loc, total, trips.back());
  }
  SmallVector<Value> lbs(loop.getLowerBound()), steps(loop.getStep());
  auto linear = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{total}, ValueRange{one},
                                        loop.getInitVals());
  rewriter.eraseBlock(linear.getBody());
  rewriter.inlineRegionBefore(loop.getRegion(), linear.getRegion(),
                              linear.getRegion().end());

  // Iteration k of the new loop is, from the last dimension out, the
  // digits of k in the mixed radix of the trip counts. Every digit is
  // below its trip count, so lb + digit * step stays within the bounds.
  Block *body = linear.getBody();
  Value k = body->insertArgument(0u, rewriter.getIndexType(), loc);
  rewriter.setInsertionPointToStart(body);
  Value rest = k;
  SmallVector<Value> ivs(trips.size());
  for (int d = static_cast<int>(trips.size()) - 1; d >= 0; --d) {
    Value digit =
        d == 0 ? rest : arith::RemUIOp::create(rewriter, loc, rest, trips[d]);
    if (d > 0)
      rest = arith::DivUIOp::create(rewriter, loc, rest, trips[d]);
    ivs[d] = rewriter.createOrFold<arith::AddIOp>(
        loc, lbs[d],
        rewriter.createOrFold<arith::MulIOp>(loc, digit, steps[d]));
  }
  for (auto [d, iv] : llvm::enumerate(ivs))
    rewriter.replaceAllUsesWith(body->getArgument(d + 1), iv);
  body->eraseArguments(1, ivs.size());
  rewriter.replaceOp(loop, linear.getResults());
  return linear;
}
