//===- RegisterTiles.cpp - Several outputs a thread, matmul-shaped nests -===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A 2-D parallel nest whose iterations each run a loop over k (gemm's sum,
// the products of 2mm and 3mm) reads, at every k, elements that depend on
// the row and k only (A[i][k]) and elements that depend on k and the
// column only (B[k][j]). A thread an output loads both for every k: two
// loads a multiply-add. Here each thread computes a tile of kRows x kCols
// outputs: at each k, every op of the loop body that depends on the row
// alone runs once a row of the tile, every op that depends on the column
// alone once a column, and only what depends on both (the multiply-adds)
// once an output. The loop runs once, carrying every output's values.
//
// A block is 32 x (threads / 32) threads; thread (x, y) takes columns
// x + 32 c and rows y + (threads / 32) r of its block's tile, so each
// column load of a warp is one coalesced access and each row load one
// address. Rows and columns past the end are computed on the last row or
// column (so every load stays inside what the loop reads) and not stored.
// Tiles are linearised onto blockIdx.x, grid-stride.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::threadbind;

/// Rows and columns of the outputs a thread computes.
static constexpr int64_t kRows = 4, kCols = 2;
/// Threads along x: a warp, whose column loads are one access.
static constexpr int64_t kThreadsX = 32;

namespace {
/// The parts of a matmul-shaped body, in order.
struct NestParts {
  SmallVector<Operation *> prologue;
  Operation *kLoop = nullptr;
  SmallVector<Operation *> epilogue;
};
} // namespace

/// The k loop's body, its induction variable and the values it carries
/// (iter_args, or the values an scf.parallel reduces).
static Block *getKBody(Operation *kLoop) {
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop))
    return forOp.getBody();
  return cast<scf::ParallelOp>(kLoop).getBody();
}

static ValueRange getKInits(Operation *kLoop) {
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop))
    return forOp.getInitArgs();
  return cast<scf::ParallelOp>(kLoop).getInitVals();
}

/// Splits `loop`'s body into the ops before a single k loop, the loop, and
/// the ops after it; fails on any other shape.
static std::optional<NestParts> splitBody(scf::ParallelOp loop) {
  NestParts parts;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<scf::ForOp, scf::ParallelOp>(op)) {
      if (parts.kLoop)
        return std::nullopt;
      parts.kLoop = &op;
      continue;
    }
    if (op.getNumRegions() != 0)
      return std::nullopt;
    // Before the loop: pure code and loads; after it, stores too.
    bool allowed = isPure(&op) || isa<memref::LoadOp>(op) ||
                   (parts.kLoop && isa<memref::StoreOp>(op));
    if (!allowed)
      return std::nullopt;
    (parts.kLoop ? parts.epilogue : parts.prologue).push_back(&op);
  }
  if (!parts.kLoop)
    return std::nullopt;
  return parts;
}

/// Whether the k loop is one this mapping runs: an scf.for carrying values,
/// or a 1-D scf.parallel reducing some; bounds the nest does not vary; a
/// body of pure ops and loads that uses nothing of the nest's body but the
/// nest's induction variables.
static bool isTileableKLoop(scf::ParallelOp nest, Operation *kLoop) {
  Block *body = getKBody(kLoop);
  SmallVector<Value> bounds;
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop)) {
    if (forOp.getNumResults() == 0)
      return false;
    bounds = {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()};
  } else {
    auto parallel = cast<scf::ParallelOp>(kLoop);
    if (parallel.getNumLoops() != 1 || parallel.getNumResults() == 0)
      return false;
    bounds = {parallel.getLowerBound()[0], parallel.getUpperBound()[0],
              parallel.getStep()[0]};
  }
  if (!llvm::all_of(bounds, [&](Value v) {
        return nest.isDefinedOutsideOfLoop(v);
      }))
    return false;
  for (Value init : getKInits(kLoop))
    if (!init.getType().isIntOrIndexOrFloat())
      return false;
  Block *nestBody = nest.getBody();
  WalkResult walk = body->walk([&](Operation *op) {
    if (op->getBlock() == body && !isa<scf::YieldOp, scf::ReduceOp>(op)) {
      if (op->getNumRegions() != 0 ||
          !(isPure(op) || isa<memref::LoadOp>(op)))
        return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == nestBody)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The loop dimension whose induction variable walks the last index of the
/// first store with stride one; none without such a store.
static std::optional<unsigned> getStoreColumnDim(scf::ParallelOp loop,
                                                 ArrayRef<Operation *> ops) {
  for (Operation *op : ops) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store || store.getIndices().empty())
      continue;
    for (auto [d, iv] : llvm::enumerate(loop.getInductionVars())) {
      IndexCoefficients along(iv);
      if (along.get(store.getIndices().back()) == 1)
        return d;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// For each op of `body` (the k loop's), whether it depends on the row
/// induction variable, the column one, or (through the carried values)
/// both.
static DenseMap<Operation *, std::pair<bool, bool>>
classifyDependences(Block *body, Value rowIV, Value colIV) {
  DenseMap<Value, std::pair<bool, bool>> of;
  of[rowIV] = {true, false};
  of[colIV] = {false, true};
  for (BlockArgument arg : body->getArguments().drop_front())
    of[arg] = {true, true};
  DenseMap<Operation *, std::pair<bool, bool>> ops;
  for (Operation &op : body->without_terminator()) {
    std::pair<bool, bool> dep{false, false};
    for (Value operand : op.getOperands()) {
      auto it = of.find(operand);
      if (it == of.end())
        continue;
      dep.first |= it->second.first;
      dep.second |= it->second.second;
    }
    ops[&op] = dep;
    for (Value result : op.getResults())
      of[result] = dep;
  }
  return ops;
}

std::optional<RegisterTilePlan>
threadbind::matchRegisterTiles(scf::ParallelOp loop,
                               const LoopMappingOptions &options) {
  if (!options.registerTiles || !options.blockShape.empty() ||
      !options.dimOrder.empty() || loop.getNumLoops() != 2 ||
      loop.getNumResults() != 0)
    return std::nullopt;
  int64_t threads = options.threadsPerBlock;
  if (threads < 2 * kThreadsX || threads % kThreadsX != 0)
    return std::nullopt;
  std::optional<NestParts> parts = splitBody(loop);
  if (!parts || !isTileableKLoop(loop, parts->kLoop))
    return std::nullopt;
  std::optional<unsigned> colDim = getStoreColumnDim(loop, parts->epilogue);
  if (!colDim)
    return std::nullopt;
  RegisterTilePlan plan;
  plan.colDim = *colDim;
  plan.rowDim = 1 - *colDim;
  plan.kLoop = parts->kLoop;
  // Worth it only where some loads are shared: one along the row and one
  // along the column (matmul-shaped), each depending on k.
  Block *body = getKBody(parts->kLoop);
  Value rowIV = loop.getInductionVars()[plan.rowDim];
  Value colIV = loop.getInductionVars()[plan.colDim];
  DenseMap<Operation *, std::pair<bool, bool>> deps =
      classifyDependences(body, rowIV, colIV);
  bool rowShared = false, colShared = false;
  for (auto load : body->getOps<memref::LoadOp>()) {
    auto [row, col] = deps.lookup(load);
    rowShared |= row && !col;
    colShared |= col && !row;
  }
  if (!rowShared || !colShared)
    return std::nullopt;
  plan.threadsY = threads / kThreadsX;
  return plan;
}

gpu::LaunchOp threadbind::mapRegisterTiles(RewriterBase &rewriter,
                                           scf::ParallelOp loop,
                                           const RegisterTilePlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  NestParts parts = *splitBody(loop);
  unsigned R = plan.rowDim, C = plan.colDim;
  Value rowIV = loop.getInductionVars()[R], colIV = loop.getInductionVars()[C];

  // Host: the tiles, a block each, grid-stride over them.
  Value rowTrips = createTripCount(rewriter, loc, loop, R);
  Value colTrips = createTripCount(rewriter, loc, loop, C);
  int64_t tileRows = plan.threadsY * kRows, tileCols = kThreadsX * kCols;
  Value rowTiles = arith::CeilDivUIOp::create(rewriter, loc, rowTrips,
                                              cst(tileRows));
  Value colTiles = arith::CeilDivUIOp::create(rewriter, loc, colTrips,
                                              cst(tileCols));
  Value tiles = arith::MulIOp::create(rewriter, loc, rowTiles, colTiles);
  Value grid = arith::MinUIOp::create(rewriter, loc, tiles,
                                      cst(GpuLimits::kMaxGridDim[0]));
  Value one = cst(1);
  // An empty row or column range launches nothing.
  Value smaller = arith::MinUIOp::create(rewriter, loc, rowTrips, colTrips);
  gpu::LaunchOp launch = createLaunchWithTerminator(
      rewriter, loc, {grid, one, one},
      {cst(kThreadsX), cst(plan.threadsY), one});
  setGridPolicy(launch, GridPolicy::GridStride);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  auto tileLoop = scf::ForOp::create(rewriter, loc, launch.getBlockIds().x,
                                     tiles, launch.getGridSize().x);
  rewriter.setInsertionPoint(tileLoop.getBody()->getTerminator());
  Value tile = tileLoop.getInductionVar();
  Value firstRow = arith::MulIOp::create(
      rewriter, loc, arith::DivUIOp::create(rewriter, loc, tile, colTiles),
      cst(tileRows));
  Value firstCol = arith::MulIOp::create(
      rewriter, loc, arith::RemUIOp::create(rewriter, loc, tile, colTiles),
      cst(tileCols));

  // Each row and column of the thread's tile: whether it lies inside the
  // loop, and its induction variable (past the end, the last one's).
  auto position = [&](Value first, Value thread, int64_t spacing, int64_t n,
                      Value trips, unsigned dim, SmallVector<Value> &ivs,
                      SmallVector<Value> &inside) {
    Value last = arith::SubIOp::create(rewriter, loc, trips, one);
    for (int64_t e = 0; e < n; ++e) {
      Value index = arith::AddIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, first, thread),
          cst(e * spacing));
      inside.push_back(arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, index, trips));
      Value clamped = arith::MinUIOp::create(rewriter, loc, index, last);
      ivs.push_back(arith::AddIOp::create(
          rewriter, loc, loop.getLowerBound()[dim],
          arith::MulIOp::create(rewriter, loc, clamped, loop.getStep()[dim])));
    }
  };
  SmallVector<Value> rowIVs, colIVs, rowInside, colInside;
  position(firstRow, ty, plan.threadsY, kRows, rowTrips, R, rowIVs, rowInside);
  position(firstCol, tx, kThreadsX, kCols, colTrips, C, colIVs, colInside);

  // The prologue for every output of the tile.
  auto outputMapping = [&](int64_t r, int64_t c) {
    IRMapping mapping;
    mapping.map(rowIV, rowIVs[r]);
    mapping.map(colIV, colIVs[c]);
    return mapping;
  };
  SmallVector<IRMapping> outputs;
  SmallVector<Value> inits;
  ValueRange kInits = getKInits(parts.kLoop);
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t c = 0; c < kCols; ++c) {
      IRMapping mapping = outputMapping(r, c);
      for (Operation *op : parts.prologue)
        rewriter.clone(*op, mapping);
      for (Value init : kInits)
        inits.push_back(mapping.lookupOrDefault(init));
      outputs.push_back(std::move(mapping));
    }

  // The k loop, once, carrying every output's values.
  Block *body = getKBody(parts.kLoop);
  Value lb, ub, step;
  if (auto forOp = dyn_cast<scf::ForOp>(parts.kLoop)) {
    lb = forOp.getLowerBound(), ub = forOp.getUpperBound();
    step = forOp.getStep();
  } else {
    auto parallel = cast<scf::ParallelOp>(parts.kLoop);
    lb = parallel.getLowerBound()[0], ub = parallel.getUpperBound()[0];
    step = parallel.getStep()[0];
  }
  unsigned carried = kInits.size();
  auto kLoop = scf::ForOp::create(rewriter, loc, lb, ub, step, inits);
  {
    OpBuilder::InsertionGuard inner(rewriter);
    rewriter.setInsertionPointToStart(kLoop.getBody());
    DenseMap<Operation *, std::pair<bool, bool>> deps =
        classifyDependences(body, rowIV, colIV);
    // One mapping an output; an op that depends on neither the row nor the
    // column is made once, on the row alone once a row, and so on: each
    // output's mapping then finds the copy its row and column share.
    SmallVector<IRMapping> at(kRows * kCols);
    for (int64_t o = 0; o < kRows * kCols; ++o) {
      at[o].map(rowIV, rowIVs[o / kCols]);
      at[o].map(colIV, colIVs[o % kCols]);
      at[o].map(body->getArgument(0), kLoop.getInductionVar());
      if (isa<scf::ForOp>(parts.kLoop))
        for (unsigned v = 0; v < carried; ++v)
          at[o].map(body->getArgument(1 + v),
                    kLoop.getRegionIterArgs()[o * carried + v]);
    }
    for (Operation &op : body->without_terminator()) {
      auto [row, col] = deps.lookup(&op);
      for (int64_t o = 0; o < kRows * kCols; ++o) {
        int64_t r = o / kCols, c = o % kCols;
        // The first output of the group that shares this op makes it.
        int64_t owner = (row ? r : 0) * kCols + (col ? c : 0);
        if (owner == o) {
          rewriter.clone(op, at[o]);
          continue;
        }
        for (Value result : op.getResults())
          at[o].map(result, at[owner].lookup(result));
      }
    }
    SmallVector<Value> next;
    for (int64_t o = 0; o < kRows * kCols; ++o) {
      if (auto yield = dyn_cast<scf::YieldOp>(body->getTerminator())) {
        for (Value v : yield.getOperands())
          next.push_back(at[o].lookupOrDefault(v));
        continue;
      }
      // scf.parallel: each reduced value joins its carried one through a
      // copy of its combiner, in k order.
      auto reduce = cast<scf::ReduceOp>(body->getTerminator());
      for (auto [v, operand] : llvm::enumerate(reduce.getOperands())) {
        Block &combiner = reduce.getReductions()[v].front();
        IRMapping combine;
        combine.map(combiner.getArgument(0),
                    kLoop.getRegionIterArgs()[o * carried + v]);
        combine.map(combiner.getArgument(1), at[o].lookupOrDefault(operand));
        for (Operation &op : combiner.without_terminator())
          rewriter.clone(op, combine);
        auto ret = cast<scf::ReduceReturnOp>(combiner.getTerminator());
        next.push_back(combine.lookupOrDefault(ret.getResult()));
      }
    }
    scf::YieldOp::create(rewriter, loc, next);
  }

  // The epilogue of each output inside the loop.
  for (int64_t o = 0; o < kRows * kCols; ++o) {
    int64_t r = o / kCols, c = o % kCols;
    Value inside = arith::AndIOp::create(rewriter, loc, rowInside[r],
                                         colInside[c]);
    auto ifInside = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard inner(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    IRMapping &mapping = outputs[o];
    for (unsigned v = 0; v < carried; ++v)
      mapping.map(parts.kLoop->getResult(v),
                  kLoop.getResult(o * carried + v));
    for (Operation *op : parts.epilogue)
      rewriter.clone(*op, mapping);
  }
  guardOnPositive(rewriter, launch, smaller);
  rewriter.eraseOp(loop);
  return launch;
}
