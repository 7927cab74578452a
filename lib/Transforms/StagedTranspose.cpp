//===- StagedTranspose.cpp - Transposes through shared memory -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A parallel nest whose stores walk memory contiguously along one loop
// dimension S while some loads walk it along another, L (a transpose, a
// permutation, a layout change), cannot coalesce both with one thread
// mapping. This mapping gives each block a square tile of (L, S):
//
//   phase 1: threadIdx.x walks L; each staged load is read coalesced and
//            kept in workgroup memory, tile[s][l] (rows padded by one
//            element, so the column reads below meet no bank conflict);
//   gpu.barrier
//   phase 2: threadIdx.x walks S; the body runs with each staged load
//            replaced by tile[s][l], and its stores are coalesced.
//
// Each thread covers edge / blockDim.y rows of the tile in each phase. The
// tiles of (L, S), and every other loop dimension, are linearised onto
// blockIdx.x, S's tiles fastest; both phases check the tile against the
// loop's bounds, so ragged edges and empty loops need nothing else.
//
// Two refinements keep the memory system busy where the plain 32x32 tile
// of one element a thread would not:
//
//  - An axis of the tile may walk two loop dimensions as one position
//    (NCHW's h and w, when the load reads in[n][c][h][w]): a 56-wide row
//    fills a 32-wide tile to 88% and a 128-wide one to 44%, while h*w
//    positions fill either.
//  - Elements of 1 or 2 bytes are packed: each thread moves 4 bytes of
//    contiguous elements with one global access (a warp, 128 bytes), so
//    the tile's edge is 32 * pack. Whether a thread's elements are inside
//    the loop, contiguous in memory (an axis of two dimensions crosses rows)
//    and aligned is only known at run time: each access checks, and falls
//    back to one element at a time. Workgroup memory is still accessed an
//    element at a time, which the odd row pitch keeps free of conflicts.
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
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::threadbind;

/// The tile edge of one element a thread: a warp's width, so a row of the
/// tile is one coalesced access.
static constexpr int64_t kTile = 32;
/// At most this many loads are staged (a 32x33 tile of 8-byte elements is
/// 8.4 KB of workgroup memory).
static constexpr unsigned kMaxStagedLoads = 4;
/// Bytes a thread moves with one global access in a packed tile.
static constexpr int64_t kPackedBytes = 4;
/// Workgroup memory a packed plan may use; more keeps one element a thread
/// (a 128x129 tile of bytes is 16.5 KB).
static constexpr int64_t kMaxPackedTileBytes = 40 * 1024;

static unsigned getElementBytes(Type type) {
  return type.getIntOrFloatBitWidth() / 8;
}

/// The loop dimension that alone walks `index`, with a coefficient of one;
/// none when another dimension moves it too or none does.
static std::optional<unsigned>
getUnitDim(Value index, MutableArrayRef<IndexCoefficients> coefficients) {
  std::optional<unsigned> found;
  for (auto [d, ivCoefficients] : llvm::enumerate(coefficients)) {
    std::optional<int64_t> c = ivCoefficients.get(index);
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
  return getUnitDim(indices.back(), coefficients);
}

/// The axis of a tile side whose accesses (`indices` of a memref that loop
/// dimension `inner` walks contiguously) go on along the next memref
/// dimension out: [outer, inner] where loop dimension `outer`, not in
/// `taken`, alone walks that index; [inner] otherwise.
static SmallVector<unsigned, 2>
getTileAxis(ValueRange indices, unsigned inner, ArrayRef<unsigned> taken,
            MutableArrayRef<IndexCoefficients> coefficients) {
  if (indices.size() >= 2)
    if (std::optional<unsigned> outer =
            getUnitDim(indices[indices.size() - 2], coefficients))
      if (*outer != inner && !llvm::is_contained(taken, *outer))
        return {*outer, inner};
  return {inner};
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

/// Elements a thread moves an access for `plan` (see the file comment): 4
/// bytes' worth of the narrowest staged or stored element when it is
/// narrower than 4 bytes, each access's vector is a PTX width within
/// `vectorBytes`, both sides' inner dimensions step by one, the tiles fit
/// workgroup memory, the stores' indices can be computed before the body
/// (to check them), and no load follows a store (a packed body stores
/// after all its elements' loads); 1 otherwise.
static unsigned choosePack(scf::ParallelOp loop,
                           const StagedTransposePlan &plan,
                           int64_t vectorBytes) {
  Block &body = *loop.getBody();
  SmallVector<Type> elements;
  for (memref::LoadOp load : plan.stagedLoads)
    elements.push_back(load.getType());
  bool stored = false;
  for (Operation &op : body.without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      SetVector<Operation *> slice;
      if (!getPureSlice(body, store.getIndices(), slice))
        return 1;
      elements.push_back(store.getValue().getType());
      stored = true;
    } else if (stored && isa<memref::LoadOp>(op)) {
      return 1;
    }
  }
  if (!llvm::all_of(elements, isVectorElementType))
    return 1;
  unsigned narrowest = getElementBytes(*llvm::min_element(
      elements, [](Type a, Type b) {
        return getElementBytes(a) < getElementBytes(b);
      }));
  if (narrowest >= kPackedBytes)
    return 1;
  unsigned pack = kPackedBytes / narrowest;
  for (Type element : elements) {
    int64_t bytes = pack * getElementBytes(element);
    if (bytes > vectorBytes || !isSupportedVectorBytes(bytes))
      return 1;
  }
  for (unsigned d : {plan.storeDim, plan.loadDim})
    if (getConstantIntValue(loop.getStep()[d]) != 1)
      return 1;
  int64_t edge = kTile * pack, tileBytes = 0;
  for (memref::LoadOp load : plan.stagedLoads)
    tileBytes += edge * (edge + 1) * getElementBytes(load.getType());
  return tileBytes <= kMaxPackedTileBytes ? pack : 1;
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

  memref::LoadOp firstLoad = plan.stagedLoads.front();
  plan.loadAxis = getTileAxis(firstLoad.getIndices(), loadDim, {*storeDim},
                              coefficients);
  auto firstStore = *body.getOps<memref::StoreOp>().begin();
  plan.storeAxis = getTileAxis(firstStore.getIndices(), *storeDim,
                               plan.loadAxis, coefficients);
  plan.pack = choosePack(loop, plan, options.vectorBytes);
  return plan;
}

namespace {

/// Builds the launch of mapStagedTranspose: one block a tile, the staged
/// loads read into workgroup memory along L, a barrier, the body run along
/// S.
class StagedTransposeBuilder {
public:
  StagedTransposeBuilder(RewriterBase &rewriter, scf::ParallelOp loop,
                         const StagedTransposePlan &plan)
      : rewriter(rewriter), loop(loop), plan(plan), loc(loop.getLoc()),
        body(*loop.getBody()), pack(plan.pack), edge(plan.getTileEdge()) {}

  gpu::LaunchOp build();

private:
  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }
  Value add(Value a, Value b) {
    return rewriter.createOrFold<arith::AddIOp>(loc, a, b);
  }
  Value mul(Value a, Value b) {
    return rewriter.createOrFold<arith::MulIOp>(loc, a, b);
  }
  Value both(Value a, Value b) {
    return a ? arith::AndIOp::create(rewriter, loc, a, b).getResult() : b;
  }
  Value below(Value a, Value b) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a,
                                 b);
  }

  /// Host: the trip counts, the axes' extents and the grid.
  Value buildHostSizes();
  /// Maps the loop's induction variables to the point at positions `posL`
  /// and `posS` of the two axes (and this block's other dimensions), and
  /// returns whether the point lies inside the loop.
  Value mapPoint(Value posL, Value posS, IRMapping &mapping);
  /// Runs `build` for each of this thread's rows of the tile.
  void forEachRow(function_ref<void(Value row)> build);
  /// Clones the ops of `slice` in body order through `mapping`.
  void cloneSlice(const SetVector<Operation *> &slice, IRMapping &mapping);
  /// Whether `memref`'s elements at `indices` as `first` and `last` map them
  /// (the first and last of a thread's packed elements) are contiguous in
  /// memory and start aligned to the vector.
  Value isContiguousVector(Value memref, ValueRange indices, Type element,
                           IRMapping &first, IRMapping &last);
  /// Phase 1 for the tile row `row` (an S position): this thread's L
  /// positions of every staged load into the tile.
  void emitLoadRow(Value row);
  /// Phase 2 for the tile row `row` (an L position): the body at this
  /// thread's S positions, staged loads read from the tile.
  void emitStoreRow(Value row);
  /// One copy of the body at the point `mapping` holds, staged loads read
  /// from the tile at (localS, localL); stores are left out and their
  /// values appended to `stored` when `stored` is given.
  void cloneBody(Value localS, Value localL, IRMapping &mapping,
                 SmallVectorImpl<SmallVector<Value>> *stored);

  RewriterBase &rewriter;
  scf::ParallelOp loop;
  const StagedTransposePlan &plan;
  Location loc;
  Block &body;
  unsigned pack;
  int64_t edge;

  gpu::LaunchOp launch;
  SmallVector<Value> trips;
  /// Positions along each axis: the product of its dimensions' trips.
  Value tripL, tripS;
  /// Tiles along each axis.
  Value tilesL, tilesS;
  /// This block's positions along the dimensions of neither axis.
  SmallVector<Value> restPosition;
  SmallVector<unsigned> rest;
  Value firstL, firstS, tx, ty;
  /// The staged loads' index computations, and the stores'.
  SetVector<Operation *> loadIndexOps, storeIndexOps;
  SmallVector<memref::StoreOp> stores;
};

} // namespace

Value StagedTransposeBuilder::buildHostSizes() {
  unsigned numDims = loop.getNumLoops();
  for (unsigned d = 0; d < numDims; ++d)
    trips.push_back(createTripCount(rewriter, loc, loop.getLowerBound()[d],
                                    loop.getUpperBound()[d],
                                    loop.getStep()[d]));
  auto axisTrip = [&](ArrayRef<unsigned> axis) {
    Value trip = trips[axis.front()];
    for (unsigned d : axis.drop_front())
      trip = mul(trip, trips[d]);
    return trip;
  };
  tripL = axisTrip(plan.loadAxis);
  tripS = axisTrip(plan.storeAxis);
  Value tile = cst(edge);
  tilesS = arith::CeilDivUIOp::create(rewriter, loc, tripS, tile);
  tilesL = arith::CeilDivUIOp::create(rewriter, loc, tripL, tile);
  Value blocks = arith::MulIOp::create(rewriter, loc, tilesS, tilesL);
  for (unsigned d = 0; d < numDims; ++d)
    if (!llvm::is_contained(plan.loadAxis, d) &&
        !llvm::is_contained(plan.storeAxis, d)) {
      rest.push_back(d);
      blocks = arith::MulIOp::create(rewriter, loc, blocks, trips[d]);
    }
  return arith::MaxUIOp::create(rewriter, loc, blocks, cst(1));
}

Value StagedTransposeBuilder::mapPoint(Value posL, Value posS,
                                       IRMapping &mapping) {
  SmallVector<Value> position(loop.getNumLoops());
  for (auto [d, p] : llvm::zip_equal(rest, restPosition))
    position[d] = p;
  // An axis of two dimensions: the inner one's position is the remainder
  // (by a trip of at least one: an empty axis has no point inside).
  auto split = [&](ArrayRef<unsigned> axis, Value pos) {
    if (axis.size() == 2) {
      Value innerTrip =
          arith::MaxUIOp::create(rewriter, loc, trips[axis[1]], cst(1));
      position[axis[1]] =
          arith::RemUIOp::create(rewriter, loc, pos, innerTrip);
      pos = arith::DivUIOp::create(rewriter, loc, pos, innerTrip);
    }
    position[axis[0]] = pos;
  };
  split(plan.loadAxis, posL);
  split(plan.storeAxis, posS);
  Value inside;
  if (plan.loadAxis.size() == 1 && plan.storeAxis.size() == 1) {
    for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d)
      inside = both(inside, below(position[d], trips[d]));
  } else {
    inside = both(below(posL, tripL), below(posS, tripS));
    for (auto [d, p] : llvm::zip_equal(rest, restPosition))
      inside = both(inside, below(p, trips[d]));
  }
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d) {
    // iv = lb + position * step
    Value scaled = arith::MulIOp::create(rewriter, loc, position[d],
                                         loop.getStep()[d]);
    mapping.map(loop.getInductionVars()[d],
                arith::AddIOp::create(rewriter, loc, loop.getLowerBound()[d],
                                      scaled));
  }
  return inside;
}

void StagedTransposeBuilder::forEachRow(function_ref<void(Value row)> build) {
  // A static trip count, which LLVM unrolls: row = k + threadIdx.y.
  auto rows =
      scf::ForOp::create(rewriter, loc, cst(0), cst(edge), cst(plan.blockRows));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(rows.getBody()->getTerminator());
  build(arith::AddIOp::create(rewriter, loc, rows.getInductionVar(), ty));
}

void StagedTransposeBuilder::cloneSlice(const SetVector<Operation *> &slice,
                                        IRMapping &mapping) {
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op))
      rewriter.clone(op, mapping);
}

Value StagedTransposeBuilder::isContiguousVector(Value memref,
                                                 ValueRange indices,
                                                 Type element,
                                                 IRMapping &first,
                                                 IRMapping &last) {
  auto addressAt = [&](IRMapping &mapping) {
    SmallVector<Value> mapped;
    for (Value index : indices)
      mapped.push_back(mapping.lookupOrDefault(index));
    return createElementAddress(rewriter, loc, memref,
                                ArrayRef(mapped).drop_back(), mapped.back());
  };
  int64_t bytes = getElementBytes(element);
  Value start = addressAt(first);
  Value span = arith::SubIOp::create(rewriter, loc, addressAt(last), start);
  Value contiguous =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, span,
                            cst((pack - 1) * bytes));
  Value misalignment =
      arith::RemUIOp::create(rewriter, loc, start, cst(pack * bytes));
  Value aligned = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, misalignment, cst(0));
  return both(contiguous, aligned);
}

void StagedTransposeBuilder::emitLoadRow(Value row) {
  Value posS = add(firstS, row);
  auto tiles = launch.getWorkgroupAttributions();
  // One element: the staged loads at L position `lane` of the tile.
  auto emitElement = [&](Value lane) {
    IRMapping mapping;
    Value inside = mapPoint(add(firstL, lane), posS, mapping);
    auto ifInside = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    cloneSlice(loadIndexOps, mapping);
    for (auto [load, tile] : llvm::zip(plan.stagedLoads, tiles)) {
      Value value = rewriter.clone(*load, mapping)->getResult(0);
      memref::StoreOp::create(rewriter, loc, value, tile,
                              ValueRange{row, lane});
    }
  };
  if (pack == 1)
    return emitElement(tx);

  Value lane = mul(tx, cst(pack));
  IRMapping first, last;
  (void)mapPoint(add(firstL, lane), posS, first);
  Value ok = mapPoint(add(firstL, add(lane, cst(pack - 1))), posS, last);
  cloneSlice(loadIndexOps, first);
  cloneSlice(loadIndexOps, last);
  for (memref::LoadOp load : plan.stagedLoads)
    ok = both(ok, isContiguousVector(load.getMemRef(), load.getIndices(),
                                     load.getType(), first, last));
  auto ifVector = scf::IfOp::create(rewriter, loc, ok, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ifVector.thenBlock()->getTerminator());
  for (auto [stagedLoad, tile] : llvm::zip(plan.stagedLoads, tiles)) {
    memref::LoadOp load = stagedLoad;
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(first.lookupOrDefault(index));
    int64_t bytes = getElementBytes(load.getType());
    Value vector = vector::LoadOp::create(
        rewriter, loc, VectorType::get({pack}, load.getType()),
        load.getMemRef(), indices, /*nontemporal=*/false,
        llvm::MaybeAlign(pack * bytes));
    for (unsigned k = 0; k < pack; ++k)
      memref::StoreOp::create(
          rewriter, loc,
          vector::ExtractOp::create(rewriter, loc, vector,
                                    ArrayRef<int64_t>{k}),
          tile, ValueRange{row, add(lane, cst(k))});
  }
  rewriter.setInsertionPoint(ifVector.elseBlock()->getTerminator());
  for (unsigned k = 0; k < pack; ++k)
    emitElement(add(lane, cst(k)));
}

void StagedTransposeBuilder::cloneBody(
    Value localS, Value localL, IRMapping &mapping,
    SmallVectorImpl<SmallVector<Value>> *stored) {
  auto tiles = launch.getWorkgroupAttributions();
  unsigned storeIndex = 0;
  for (Operation &op : body.without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op); store && stored) {
      (*stored)[storeIndex++].push_back(
          mapping.lookupOrDefault(store.getValue()));
      continue;
    }
    auto load = dyn_cast<memref::LoadOp>(op);
    const auto *staged =
        load ? llvm::find(plan.stagedLoads, load) : plan.stagedLoads.end();
    if (staged == plan.stagedLoads.end()) {
      rewriter.clone(op, mapping);
      continue;
    }
    Value tile = tiles[staged - plan.stagedLoads.begin()];
    mapping.map(load.getResult(),
                memref::LoadOp::create(rewriter, loc, tile,
                                       ValueRange{localS, localL}));
  }
}

void StagedTransposeBuilder::emitStoreRow(Value row) {
  Value posL = add(firstL, row);
  // One element: the body at S position `lane` of the tile.
  auto emitElement = [&](Value lane) {
    IRMapping mapping;
    Value inside = mapPoint(posL, add(firstS, lane), mapping);
    auto ifInside = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    cloneBody(lane, row, mapping, /*stored=*/nullptr);
  };
  if (pack == 1)
    return emitElement(tx);

  Value lane = mul(tx, cst(pack));
  IRMapping first, last;
  (void)mapPoint(posL, add(firstS, lane), first);
  Value ok = mapPoint(posL, add(firstS, add(lane, cst(pack - 1))), last);
  cloneSlice(storeIndexOps, first);
  cloneSlice(storeIndexOps, last);
  for (memref::StoreOp store : stores)
    ok = both(ok, isContiguousVector(store.getMemRef(), store.getIndices(),
                                     store.getValue().getType(), first,
                                     last));
  auto ifVector = scf::IfOp::create(rewriter, loc, ok, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ifVector.thenBlock()->getTerminator());
  // Every element's body, the stores gathered into one vector each. Each
  // store's indices are those of the first element (`first`).
  SmallVector<SmallVector<Value>> stored(stores.size());
  for (unsigned k = 0; k < pack; ++k) {
    IRMapping mapping;
    Value localS = add(lane, cst(k));
    (void)mapPoint(posL, add(firstS, localS), mapping);
    cloneBody(localS, row, mapping, &stored);
  }
  for (auto [store, values] : llvm::zip_equal(stores, stored)) {
    Type element = store.getValue().getType();
    Value vector = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({pack}, element), values);
    SmallVector<Value> indices;
    for (Value index : store.getIndices())
      indices.push_back(first.lookupOrDefault(index));
    vector::StoreOp::create(rewriter, loc, vector, store.getMemRef(), indices,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(pack * getElementBytes(element)));
  }
  rewriter.setInsertionPoint(ifVector.elseBlock()->getTerminator());
  for (unsigned k = 0; k < pack; ++k)
    emitElement(add(lane, cst(k)));
}

gpu::LaunchOp StagedTransposeBuilder::build() {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  MLIRContext *context = loop.getContext();
  Value blocks = buildHostSizes();

  SmallVector<Type> tileTypes;
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  for (memref::LoadOp load : plan.stagedLoads)
    tileTypes.push_back(MemRefType::get({edge, edge + 1}, load.getType(),
                                        MemRefLayoutAttrInterface(),
                                        workgroup));
  Value one = cst(1);
  launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, cst(kTile), cst(plan.blockRows), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tileTypes);
  setGridPolicy(launch, GridPolicy::Cover);
  Block &kernel = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&kernel);
  Operation *terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  // The block's tile: S's tiles fastest, then L's, then the other
  // dimensions in loop order, the innermost fastest. (An empty dimension
  // counts as one for this; the bounds checks stop its one block.)
  Value remaining = launch.getBlockIds().x;
  auto next = [&](Value count) {
    count = arith::MaxUIOp::create(rewriter, loc, count, one);
    Value index = arith::RemUIOp::create(rewriter, loc, remaining, count);
    remaining = arith::DivUIOp::create(rewriter, loc, remaining, count);
    return index;
  };
  firstS = arith::MulIOp::create(rewriter, loc, next(tilesS), cst(edge));
  firstL = arith::MulIOp::create(rewriter, loc, next(tilesL), cst(edge));
  restPosition.resize(rest.size());
  for (unsigned i : llvm::reverse(llvm::seq<unsigned>(0, rest.size())))
    restPosition[i] = next(trips[rest[i]]);
  tx = launch.getThreadIds().x;
  ty = launch.getThreadIds().y;

  for (memref::LoadOp load : plan.stagedLoads)
    (void)getPureSlice(body, load.getIndices(), loadIndexOps);
  llvm::append_range(stores, body.getOps<memref::StoreOp>());
  for (memref::StoreOp store : stores)
    (void)getPureSlice(body, store.getIndices(), storeIndexOps);

  // Phase 1: threads along L read the staged loads coalesced.
  forEachRow([&](Value row) { emitLoadRow(row); });
  gpu::BarrierOp::create(rewriter, loc);
  // Phase 2: threads along S run the body on the tile, stores coalesced.
  forEachRow([&](Value row) { emitStoreRow(row); });
  rewriter.eraseOp(loop);
  return launch;
}

gpu::LaunchOp threadbind::mapStagedTranspose(RewriterBase &rewriter,
                                             scf::ParallelOp loop,
                                             const StagedTransposePlan &plan) {
  return StagedTransposeBuilder(rewriter, loop, plan).build();
}
