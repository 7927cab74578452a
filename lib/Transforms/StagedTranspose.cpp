//===- StagedTranspose.cpp - Transposes through shared memory -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A parallel nest whose stores walk memory contiguously along one loop
// dimension S while some loads walk it along another, L (a transpose, a
// permutation, a layout change), cannot coalesce both with one thread
// mapping. This mapping gives each block a 32x32 tile of (L, S):
//
//   phase 1: threadIdx.x walks L; each staged load is read coalesced and
//            kept in workgroup memory, tile[s][l] (rows padded to 33
//            elements, so the column reads below meet no bank conflict);
//   gpu.barrier
//   phase 2: threadIdx.x walks S; the body runs with each staged load
//            replaced by tile[s][l], and its stores are coalesced.
//
// Each thread covers 32 / blockDim.y rows of the tile in each phase. The
// tiles of (L, S), and every other loop dimension, are linearised onto
// blockIdx.x, S's tiles fastest; both phases check the tile against the
// loop's bounds, so ragged edges and empty loops need nothing else.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/KernelRewriting.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::threadbind;

/// The tile edge: a warp's width, so a row of the tile is one coalesced
/// access.
static constexpr int64_t kTile = 32;
/// At most this many loads are staged (a 32x33 tile of 8-byte elements is
/// 8.4 KB of workgroup memory).
static constexpr unsigned kMaxStagedLoads = 4;

/// The loop dimension that walks the last (unit-stride) dimension of the
/// memref `op` accesses at `indices` with stride one element, every other
/// dimension leaving that index alone; none otherwise.
static std::optional<unsigned>
getContiguousDim(Value memref, ValueRange indices,
                 MutableArrayRef<IndexCoefficients> coefficients) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() == 0 ||
      getUnitStrideDim(type) != static_cast<unsigned>(type.getRank() - 1))
    return std::nullopt;
  std::optional<unsigned> found;
  for (auto [d, ivCoefficients] : llvm::enumerate(coefficients)) {
    std::optional<int64_t> c = ivCoefficients.get(indices.back());
    if (!c)
      return std::nullopt;
    if (*c == 0)
      continue;
    if (*c != 1 || found)
      return std::nullopt;
    found = d;
  }
  return found;
}

/// The ops of `body` that compute `values`, in body order; false when one
/// of them reads memory or has regions (it could not run early in phase 1).
static bool getPureSlice(Block &body, ValueRange values,
                         SetVector<Operation *> &slice) {
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Value value = work.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &body || slice.contains(def))
      continue;
    if (def->getNumRegions() != 0 || !isPure(def))
      return false;
    slice.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

std::optional<StagedTransposePlan>
threadbind::matchStagedTranspose(scf::ParallelOp loop,
                                 const LoopMappingOptions &options) {
  if (!options.stageTransposes || !options.blockShape.empty() ||
      !options.dimOrder.empty() || loop.getNumLoops() < 2 ||
      loop.getNumResults() != 0)
    return std::nullopt;
  int64_t threads = options.threadsPerBlock;
  if (threads < kTile || threads % kTile != 0 ||
      kTile % (threads / kTile) != 0)
    return std::nullopt;
  Block &body = *loop.getBody();
  SmallVector<IndexCoefficients> coefficients;
  for (Value iv : loop.getInductionVars())
    coefficients.emplace_back(iv);

  std::optional<unsigned> storeDim;
  SmallVector<std::pair<memref::LoadOp, unsigned>> candidates;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0)
      return std::nullopt;
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      std::optional<unsigned> d = getContiguousDim(
          store.getMemRef(), store.getIndices(), coefficients);
      if (!d || (storeDim && *storeDim != *d))
        return std::nullopt;
      storeDim = d;
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (std::optional<unsigned> d = getContiguousDim(
              load.getMemRef(), load.getIndices(), coefficients))
        candidates.push_back({load, *d});
      continue;
    }
    if (!isPure(&op))
      return std::nullopt;
  }
  if (!storeDim)
    return std::nullopt;

  // The loads to stage walk one other dimension: the one most of them walk.
  SmallVector<unsigned> votes(loop.getNumLoops(), 0);
  for (auto [load, d] : candidates)
    if (d != *storeDim && load.getMemRefType().getRank() > 1)
      ++votes[d];
  unsigned loadDim = std::max_element(votes.begin(), votes.end()) -
                     votes.begin();
  if (votes[loadDim] == 0)
    return std::nullopt;
  StagedTransposePlan plan;
  plan.storeDim = *storeDim;
  plan.loadDim = loadDim;
  plan.blockRows = threads / kTile;
  // A load that S does not move (u[i] beside A[i][j]) is one address a
  // warp, broadcast: only loads that S moves across rows gain from a tile.
  auto movesWithStores = [&](memref::LoadOp load) {
    return llvm::any_of(load.getIndices().drop_back(), [&](Value index) {
      std::optional<int64_t> c = coefficients[*storeDim].get(index);
      return !c || *c != 0;
    });
  };
  for (auto [load, d] : candidates) {
    SetVector<Operation *> slice;
    Type element = load.getType();
    if (d != loadDim || !element.isIntOrIndexOrFloat() ||
        !movesWithStores(load) ||
        !getPureSlice(body, load.getIndices(), slice))
      continue;
    if (plan.stagedLoads.size() == kMaxStagedLoads)
      break;
    plan.stagedLoads.push_back(load);
  }
  if (plan.stagedLoads.empty())
    return std::nullopt;
  return plan;
}

gpu::LaunchOp threadbind::mapStagedTranspose(RewriterBase &rewriter,
                                             scf::ParallelOp loop,
                                             const StagedTransposePlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  MLIRContext *context = loop.getContext();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  unsigned numDims = loop.getNumLoops();
  unsigned S = plan.storeDim, L = plan.loadDim;

  // Host: the trip counts, the tiles, and one block a tile.
  SmallVector<Value> trips;
  for (unsigned d = 0; d < numDims; ++d)
    trips.push_back(createTripCount(rewriter, loc, loop.getLowerBound()[d],
                                    loop.getUpperBound()[d],
                                    loop.getStep()[d]));
  Value tile = cst(kTile), one = cst(1);
  Value tilesS = arith::CeilDivUIOp::create(rewriter, loc, trips[S], tile);
  Value tilesL = arith::CeilDivUIOp::create(rewriter, loc, trips[L], tile);
  Value blocks = arith::MulIOp::create(rewriter, loc, tilesS, tilesL);
  SmallVector<unsigned> rest;
  for (unsigned d = 0; d < numDims; ++d)
    if (d != S && d != L) {
      rest.push_back(d);
      blocks = arith::MulIOp::create(rewriter, loc, blocks, trips[d]);
    }
  blocks = arith::MaxUIOp::create(rewriter, loc, blocks, one);

  SmallVector<Type> tiles;
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  for (memref::LoadOp load : plan.stagedLoads)
    tiles.push_back(MemRefType::get({kTile, kTile + 1}, load.getType(),
                                    MemRefLayoutAttrInterface(), workgroup));
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, tile, cst(plan.blockRows), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tiles);
  setGridPolicy(launch, GridPolicy::Cover);
  Block &kernel = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&kernel);
  Operation *terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  // The block's tile: S's tiles fastest, then L's, then the other
  // dimensions in loop order, the innermost fastest. (An empty dimension
  // counts as one for this; the bounds checks below stop its one block.)
  Value rem = launch.getBlockIds().x;
  auto next = [&](Value count) {
    count = arith::MaxUIOp::create(rewriter, loc, count, one);
    Value index = arith::RemUIOp::create(rewriter, loc, rem, count);
    rem = arith::DivUIOp::create(rewriter, loc, rem, count);
    return index;
  };
  Value firstS =
      arith::MulIOp::create(rewriter, loc, next(tilesS), tile).getResult();
  Value firstL =
      arith::MulIOp::create(rewriter, loc, next(tilesL), tile).getResult();
  SmallVector<Value> position(numDims);
  for (unsigned d : llvm::reverse(rest))
    position[d] = next(trips[d]);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;

  // Runs `build` for each of this thread's rows of the tile, under a check
  // that the (L, S) position it is given lies inside the loop.
  auto forEachRow = [&](bool threadsAlongL,
                        function_ref<void(Value, Value, IRMapping &)> build) {
    // A static trip count, which LLVM unrolls: row = k + threadIdx.y.
    auto rows = scf::ForOp::create(rewriter, loc, cst(0), tile,
                                   cst(plan.blockRows));
    OpBuilder::InsertionGuard inner(rewriter);
    rewriter.setInsertionPoint(rows.getBody()->getTerminator());
    Value row = arith::AddIOp::create(rewriter, loc, rows.getInductionVar(), ty);
    Value localL = threadsAlongL ? tx : row;
    Value localS = threadsAlongL ? row : tx;
    position[L] = arith::AddIOp::create(rewriter, loc, firstL, localL);
    position[S] = arith::AddIOp::create(rewriter, loc, firstS, localS);
    Value inside;
    for (unsigned d = 0; d < numDims; ++d) {
      Value in = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, position[d], trips[d]);
      inside = inside ? arith::AndIOp::create(rewriter, loc, inside, in)
                            .getResult()
                      : in;
    }
    auto ifInside = scf::IfOp::create(rewriter, loc, inside);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    IRMapping mapping;
    for (unsigned d = 0; d < numDims; ++d) {
      // iv = lb + position * step
      Value scaled = arith::MulIOp::create(rewriter, loc, position[d],
                                           loop.getStep()[d]);
      mapping.map(loop.getInductionVars()[d],
                  arith::AddIOp::create(rewriter, loc,
                                        loop.getLowerBound()[d], scaled));
    }
    build(localL, localS, mapping);
  };

  // Phase 1: threads along L read the staged loads coalesced.
  Block &body = *loop.getBody();
  SetVector<Operation *> indexOps;
  for (memref::LoadOp load : plan.stagedLoads)
    (void)getPureSlice(body, load.getIndices(), indexOps);
  forEachRow(/*threadsAlongL=*/true, [&](Value localL, Value localS,
                                         IRMapping &mapping) {
    for (Operation &op : body.without_terminator())
      if (indexOps.contains(&op))
        rewriter.clone(op, mapping);
    for (auto [load, buffer] :
         llvm::zip(plan.stagedLoads, launch.getWorkgroupAttributions())) {
      Value value = rewriter.clone(*load, mapping)->getResult(0);
      memref::StoreOp::create(rewriter, loc, value, buffer,
                              ValueRange{localS, localL});
    }
  });
  gpu::BarrierOp::create(rewriter, loc);
  // Phase 2: threads along S run the body on the tile, stores coalesced.
  forEachRow(/*threadsAlongL=*/false, [&](Value localL, Value localS,
                                          IRMapping &mapping) {
    for (Operation &op : body.without_terminator()) {
      auto load = dyn_cast<memref::LoadOp>(op);
      const auto *staged =
          load ? llvm::find(plan.stagedLoads, load) : plan.stagedLoads.end();
      if (staged == plan.stagedLoads.end()) {
        rewriter.clone(op, mapping);
        continue;
      }
      Value buffer = launch.getWorkgroupAttributions()[staged -
                                                       plan.stagedLoads.begin()];
      mapping.map(load.getResult(),
                  memref::LoadOp::create(rewriter, loc, buffer,
                                         ValueRange{localS, localL}));
    }
  });
  rewriter.eraseOp(loop);
  return launch;
}
