//===- StagedTranspose.cpp - Transposes through shared memory -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A parallel nest whose stores walk memory contiguously along one loop
// dimension S while some loads walk it along another, L (a transpose, a
// permutation, a layout change), cannot coalesce both with one thread
// mapping. This mapping gives each block a tile of (L, S), square but for
// the one below:
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
//    back to one element at a time. Workgroup memory is accessed 4 bytes
//    at a time too: in phase 1 a thread loads `pack` consecutive rows,
//    transposes that pack x pack block in registers and stores it as
//    `pack` vectors along S, which phase 2 reads back one a store. The
//    tile is kept as tile[l][s] with each row's vectors XOR-swizzled by
//    l / pack: phase 1's warp writes 32 rows l = pack * tx + k and phase 2's
//    reads 32 vectors of one row, and both meet 32 distinct banks.
//
// A 2-D nest of one staged load of 4-byte elements (an f32 transpose)
// gets two launches: 64x64 tiles of two elements a thread an access, which
// the host runs where every row starts on 8 bytes, and otherwise a tile
// 128 positions long along S and 32 along L, in which phase 2 has each
// thread store 4 elements 32 apart in each of its rows, so a block writes
// 512-byte runs of each output row (Triton picks the same shape for such
// transposes); 4-6% faster than a 32x32 tile where rows are off 8 bytes.
//
// A nest whose elements all have one width (1, 2 bytes, or 4 in a nest
// deeper than 2-D) also gets a wide launch, which the host picks where its
// rows allow: each thread moves 16 bytes an access on both sides. In
// phase 1 the 256 threads of a block each load `pack` rows of a 16-byte
// chunk of L (8 threads a 128-byte tile row), transpose them in registers
// into one word a position of L, and store those; phase 2 moves one 16-byte
// chunk of S a row. The tile's 16-byte groups are swizzled by the row's
// chunk of L. A hand kernel of this shape ran i8 NCHW<->NHWC at 0.96 of a
// copy where the 4-byte one ran at 0.79 (bench/permutations/hand-nchw-i8.cu).
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

#include <array>

using namespace mlir;
using namespace mlir::threadbind;

/// The tile edge of one element a thread: a warp's width, so a row of the
/// tile is one coalesced access.
static constexpr int64_t kTile = 32;
/// At most this many loads are staged (a 32x33 tile of 8-byte elements is
/// 8.4 KB of workgroup memory).
static constexpr unsigned kMaxStagedLoads = 4;
/// Rows of the tile a thread moves in each phase, which sets the rows of
/// threads a block has (at most threads-per-block / 32). Measured on an
/// H200 (2026-11-26, bench/results/2026-11-26-session9-h200.md), in ms:
///
///   blocks (rows a thread)      32x2 (16)  32x4 (8)  32x8 (4)
///   f32 NCHW->NHWC 64x32x112^2    0.062     0.077     0.095   (copy 0.060)
///   transpose 8192^2              0.142     0.141     0.155
///   transpose 8191^2              0.225     0.210     0.167
///   transpose 12289^2             0.509     0.467     0.376
///
/// A nest of three or more dimensions spends more of each thread on where
/// its tile and rows are, which many rows share; a 2-D transpose of rows
/// off 128-byte alignment runs far better in 32x8 blocks (why was not
/// found: it holds with a thread's rows loaded before they are stored and
/// without).
static constexpr int64_t kRowsPerThread = 4;
static constexpr int64_t kRowsPerThreadDeepNest = 16;
/// Packed i8 tiles ran best in 32x4 blocks (32 rows a thread): 0.087 ms at
/// 64x128x112^2 against 0.094 in 32x2 and 32x8.
static constexpr int64_t kPackedRowsPerThread = 32;
/// Rows of the tile a thread loads before it stores any into the tile,
/// where it has this many or more (f32 NCHW->NHWC ran 8% to 22% faster,
/// packed i8 35%).
static constexpr int64_t kRowGroup = 8;
/// Bytes a thread moves with one global access in a packed tile.
static constexpr int64_t kPackedBytes = 4;
/// Workgroup memory a packed plan may use; more keeps one element a thread
/// (a 128x129 tile of bytes is 16.5 KB).
static constexpr int64_t kMaxPackedTileBytes = 40 * 1024;
/// 4-byte elements of a 2-D nest move two a thread an access (64x65
/// tiles, 32x8 blocks: 8 rows a thread) where the host finds every row
/// aligned to 8 bytes, one otherwise. Measured on an H200
/// (bench/results/2026-11-27-f32-pack-h200.md): an aligned 8192^2
/// transpose 9% faster; rows off 8 bytes 13-17% slower packed (each
/// access falls back to one element), hence the host's choice; deeper
/// nests' larger tiles left too few blocks (up to 60% slower), hence 2-D.
static constexpr unsigned kAlignedPack = 2;
static constexpr int64_t kAlignedPackBytes = 8;
static constexpr int64_t kAlignedRowsPerThread = 8;
/// The plan's own launch of a 2-D nest of one staged 4-byte load spans
/// this many times 32 positions of S (storeSpread): 128x32 tiles, each
/// thread storing 4 elements 32 apart in phase 2. Measured on an H200
/// (bench/results/2026-11-28-transpose-tiles-h200.md), f32 transposes with
/// rows off 8 bytes, where the host does not pick the aligned launch:
/// 8191^2 0.157 ms against 0.163 for 32x32 tiles, 12289^2 0.350 against
/// 0.367, 4-6% on every large shape and even on small ones; 64x64 and
/// 32x64 (S x L) tiles ran 5-40% slower, 128x32 in 32x4 blocks 17% slower.
static constexpr unsigned kStoreSpread = 4;
/// Bytes a thread moves with one global access in a wide launch (see
/// chooseWide), and the threads of its blocks (256: each thread moves one
/// pack x 16-byte block of a 128-byte tile in phase 1).
static constexpr int64_t kWideBytes = 16;
static constexpr int64_t kWideThreads = 256;

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

/// The elements of `plan`'s staged loads and of the loop's stores; none
/// when a packed body could not be built: a store's indices need more than
/// pure ops of the body (they are computed before the body, to check
/// them), or a load follows a store (a packed body stores after all its
/// elements' loads), or an element cannot travel in a vector.
static std::optional<SmallVector<Type>>
getPackableElements(scf::ParallelOp loop, const StagedTransposePlan &plan) {
  Block &body = *loop.getBody();
  SmallVector<Type> elements;
  for (memref::LoadOp load : plan.stagedLoads)
    elements.push_back(load.getType());
  bool stored = false;
  for (Operation &op : body.without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      SetVector<Operation *> slice;
      if (!getPureSlice(body, store.getIndices(), slice))
        return std::nullopt;
      elements.push_back(store.getValue().getType());
      stored = true;
    } else if (stored && isa<memref::LoadOp>(op)) {
      return std::nullopt;
    }
  }
  if (!llvm::all_of(elements, isVectorElementType))
    return std::nullopt;
  return elements;
}

/// Whether both sides' inner loop dimensions step by one, as a thread's
/// elements of one access must.
static bool hasUnitInnerSteps(scf::ParallelOp loop,
                              const StagedTransposePlan &plan) {
  return llvm::all_of(std::array{plan.storeDim, plan.loadDim}, [&](unsigned d) {
    return getConstantIntValue(loop.getStep()[d]) == 1;
  });
}

/// Whether each thread of `plan` may move `pack` of `elements` an access:
/// each access's vector is a PTX width within `vectorBytes`, both sides'
/// inner dimensions step by one, and the tiles (rows `padded` by an
/// element or not) fit workgroup memory.
static bool canPack(scf::ParallelOp loop, const StagedTransposePlan &plan,
                    ArrayRef<Type> elements, unsigned pack,
                    int64_t vectorBytes, bool padded) {
  for (Type element : elements) {
    int64_t bytes = pack * getElementBytes(element);
    if (bytes > vectorBytes || !isSupportedVectorBytes(bytes))
      return false;
  }
  if (!hasUnitInnerSteps(loop, plan))
    return false;
  int64_t edge = kTile * pack, tileBytes = 0;
  int64_t pitch = padded ? edge + 1 : edge;
  for (memref::LoadOp load : plan.stagedLoads)
    tileBytes += edge * pitch * getElementBytes(load.getType());
  return tileBytes <= kMaxPackedTileBytes;
}

/// Sets `plan`'s wide launch (see StagedTransposePlan::widePack) where its
/// tile is packed (or of 4-byte elements, not packed on the host) and
/// every staged and stored element (`elements`) has the same width:
/// 16 bytes' worth a thread an access on both sides, the stores' vectors
/// no wider than the loads'. A hand kernel of that shape ran i8 NCHW<->NHWC
/// at 0.96 of a copy where 4-byte accesses ran at 0.79 (H200, 2026-11-27).
static void chooseWide(scf::ParallelOp loop, StagedTransposePlan &plan,
                       ArrayRef<Type> elements, int64_t vectorBytes) {
  if (vectorBytes < kWideBytes || plan.alignedPack > 1 ||
      !hasUnitInnerSteps(loop, plan))
    return;
  unsigned bytes = getElementBytes(elements.front());
  if (bytes * plan.pack != kPackedBytes ||
      llvm::any_of(elements, [&](Type element) {
        return getElementBytes(element) != bytes;
      }))
    return;
  plan.widePack = kWideBytes / bytes;
}

/// Sets `plan`'s packing (see the file comment): 4 bytes' worth of the
/// narrowest staged or stored element a thread an access when it is
/// narrower than 4 bytes; for a 2-D nest of 4-byte elements, two a thread
/// in a launch the host runs where every row is aligned to 8 bytes; then
/// the wide launch (chooseWide).
static void choosePack(scf::ParallelOp loop, StagedTransposePlan &plan,
                       int64_t vectorBytes) {
  std::optional<SmallVector<Type>> elements =
      getPackableElements(loop, plan);
  if (!elements)
    return;
  auto bytesOf = [](Type a, Type b) {
    return getElementBytes(a) < getElementBytes(b);
  };
  unsigned narrowest = getElementBytes(*llvm::min_element(*elements, bytesOf));
  unsigned widest = getElementBytes(*llvm::max_element(*elements, bytesOf));
  if (narrowest < kPackedBytes) {
    unsigned pack = kPackedBytes / narrowest;
    if (canPack(loop, plan, *elements, pack, vectorBytes, /*padded=*/false)) {
      plan.pack = pack;
      plan.transposeInRegisters = true;
    }
  } else if (narrowest == kAlignedPackBytes / kAlignedPack &&
             widest == narrowest && loop.getNumLoops() == 2 &&
             canPack(loop, plan, *elements, kAlignedPack, vectorBytes,
                     /*padded=*/true)) {
    plan.alignedPack = kAlignedPack;
  }
  chooseWide(loop, plan, *elements, vectorBytes);
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
  choosePack(loop, plan, options.vectorBytes);
  if (plan.pack == 1 && loop.getNumLoops() == 2 &&
      plan.stagedLoads.size() == 1 &&
      getElementBytes(plan.stagedLoads.front().getType()) == 4)
    plan.storeSpread = kStoreSpread;
  // Blocks of few rows of threads, each thread many rows of the tile: see
  // kRowsPerThread.
  int64_t rowsPerThread = plan.pack > 1 ? kPackedRowsPerThread
                          : loop.getNumLoops() > 2 ? kRowsPerThreadDeepNest
                                                   : kRowsPerThread;
  int64_t maxRows = plan.blockRows;
  plan.blockRows =
      std::clamp<int64_t>(plan.getTileEdge() / rowsPerThread, 1, maxRows);
  plan.alignedBlockRows = std::clamp<int64_t>(
      kTile * plan.alignedPack / kAlignedRowsPerThread, 1, maxRows);
  plan.wideBlockRows = std::min(kWideThreads / kTile, maxRows);
  return plan;
}

namespace {

/// A position along a tile axis and, for an axis of two loop dimensions,
/// its outer and inner dimensions' positions.
struct AxisPoint {
  Value pos, outer, inner;
};

/// Builds the launch of mapStagedTranspose: one block a tile, the staged
/// loads read into workgroup memory along L, a barrier, the body run along
/// S.
class StagedTransposeBuilder {
public:
  /// With `wide`, the plan's wide launch (plan.widePack elements a thread
  /// an access, plan.wideBlockRows rows of threads).
  StagedTransposeBuilder(RewriterBase &rewriter, scf::ParallelOp loop,
                         const StagedTransposePlan &plan, bool wide = false)
      : rewriter(rewriter), loop(loop), plan(plan), loc(loop.getLoc()),
        body(*loop.getBody()), pack(plan.pack), edge(plan.getTileEdge()),
        widePack(wide ? plan.widePack : 1),
        spreadS(wide ? 1 : plan.storeSpread), edgeS(edge * spreadS),
        blockRows(wide ? plan.wideBlockRows : plan.blockRows) {}

  /// Builds the launch at the rewriter's insertion point; the loop stays.
  gpu::LaunchOp build();

private:
  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }
  /// The tile's positions along `axis` (S or L).
  int64_t getEdge(ArrayRef<unsigned> axis) const {
    return llvm::equal(axis, plan.storeAxis) ? edgeS : edge;
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
  /// The point at position `pos` of `axis`, split by `innerTrip` (the
  /// inner dimension's trip, at least one) where the axis has two
  /// dimensions: a division, done once a thread.
  AxisPoint splitAxis(ArrayRef<unsigned> axis, Value innerTrip, Value pos);
  /// A thread's points along `axis`: `pack` packed elements, or spreadS
  /// along S.
  unsigned getLaneCount(ArrayRef<unsigned> axis) const {
    return pack > 1 ? pack : llvm::equal(axis, plan.storeAxis) ? spreadS : 1;
  }
  /// The tile position of a thread's lane `k` past its first: packed
  /// elements are consecutive, spread ones a warp's width apart.
  int64_t getLaneOffset(unsigned k) const { return pack > 1 ? k : kTile * k; }
  /// This thread's points along `axis` from `first`: one, one a packed
  /// element, or spreadS along S (getLaneOffset apart).
  SmallVector<AxisPoint> getLanePoints(ArrayRef<unsigned> axis,
                                       Value innerTrip, Value first);
  /// Maps the loop's induction variables to the point at `l` and `s` of
  /// the two axes (and this block's other dimensions), and returns whether
  /// the point lies inside the loop.
  Value mapPoint(const AxisPoint &l, const AxisPoint &s, IRMapping &mapping);
  /// `point` moved `delta` positions on along `axis`, for an axis of two
  /// dimensions with the inner wrapping into the outer: a compare and a
  /// subtraction while the inner trip is at least `delta`, a division
  /// otherwise.
  AxisPoint advance(ArrayRef<unsigned> axis, Value innerTrip,
                    const AxisPoint &point, int64_t delta);
  /// Runs `build` on each group of this thread's rows of the tile (groups
  /// of up to kRowGroup rows), with the rows and their points along `axis`
  /// from `first`: a loop over the groups, each built straight-line, so
  /// phase 1 can issue a group's loads before it stores any of them. A
  /// thread's rows come in runs of `run` consecutive rows, blockDim.y runs
  /// apart (runs of one for a tile not transposed in registers). An axis of
  /// two dimensions carries its split from row to row rather than dividing.
  void forEachRowGroup(
      ArrayRef<unsigned> axis, Value innerTrip, Value first, int64_t run,
      function_ref<void(ArrayRef<Value> rows, ArrayRef<AxisPoint>)> build);
  /// A loop over tile rows from `firstRow` to the tile's edge by `step`,
  /// running `build` on each row and its point along `axis` (position
  /// `first` + row). On an axis of two dimensions the point is carried
  /// from row to row: `build` returns the point `step` rows on.
  void forEachRow(
      ArrayRef<unsigned> axis, Value innerTrip, Value first, Value firstRow,
      int64_t step,
      function_ref<AxisPoint(Value row, const AxisPoint &point)> build);
  /// Clones the ops of `slice` in body order through `mapping`.
  void cloneSlice(const SetVector<Operation *> &slice, IRMapping &mapping);
  /// Whether `memref`'s elements at `indices` as `first` and `last` map them
  /// (the first and last of a thread's packed elements, along `axis`) are
  /// contiguous in memory and start aligned to the vector. Along an axis
  /// of one dimension they are contiguous by construction: the dimension
  /// steps by one and moves only the last index, by one (the plan's
  /// contiguous dimension), so only alignment is checked.
  Value isContiguousVector(ArrayRef<unsigned> axis, Value memref,
                           ValueRange indices, Type element, IRMapping &first,
                           IRMapping &last);
  /// Phase 1 for the tile row at S point `point`: the values of every
  /// staged load at this thread's L points `lanes`, one vector of `pack`
  /// elements a load (a scalar when `pack` is 1); elements outside the loop
  /// are zero.
  SmallVector<Value> emitRowLoads(const AxisPoint &point,
                                  ArrayRef<AxisPoint> lanes);
  /// Phase 2 for the tile row `row` (L point `point`): the body at this
  /// thread's S points `lanes`, staged loads read from the tile.
  void emitStoreRow(Value row, const AxisPoint &point,
                    ArrayRef<AxisPoint> lanes);
  /// Both phases for the tile at firstL, firstS: phase 2 at this thread's
  /// S points `lanesS`.
  void emitTile(ArrayRef<AxisPoint> lanesS);
  /// One copy of the body at the point `mapping` holds, staged loads read
  /// from the tile at (localS, localL), or taken from `staged` (one value a
  /// staged load) where given; stores are left out and their values
  /// appended to `stored` when `stored` is given.
  void cloneBody(Value localS, Value localL, IRMapping &mapping,
                 SmallVectorImpl<SmallVector<Value>> *stored,
                 ArrayRef<Value> staged = {});
  /// Each staged load's `count` elements of its tile at (`row`, `column`),
  /// read as one vector: element k of the result holds the loads' values
  /// at the k-th of the S points they stand for.
  SmallVector<SmallVector<Value>> readTileVectors(Value row, Value column,
                                                  unsigned count);
  /// Each staged load's `count` elements from its indices under `first`,
  /// one vector load each (their index computations already cloned).
  SmallVector<Value> loadStagedVectors(IRMapping &first, unsigned count);
  /// Stores each store's values in `stored` (at `count` consecutive S
  /// points) as one vector, at the store's indices under `first`.
  void emitVectorStores(ArrayRef<SmallVector<Value>> stored,
                        IRMapping &first, unsigned count);
  /// Transposes `rows` (`pack` rows of a tile, one vector a staged load
  /// each) into words: word k holds the rows' k-th elements, S-consecutive
  /// at L point `firstL` + k, and goes to tile row `firstL` + k, `column`.
  void storeTransposed(ArrayRef<SmallVector<Value>> rows, Value firstL,
                       Value column);
  /// For a tile transposed in registers: the column of the tile where
  /// the vector of S positions `word` * pack of tile row `row` (along L)
  /// lies.
  Value getSwizzledColumn(Value row, Value word);

  /// The wide launch's phases (see chooseWide): in phase 1 each thread
  /// loads `pack` rows of `widePack` elements, transposes them into
  /// `widePack` vectors of `pack` and stores those into the tile; in phase
  /// 2 each reads `widePack` S-consecutive elements of one tile row and
  /// runs the body on them. A thread's chunk along L (phase 1) and along S
  /// (phase 2) is the same for all its rows: where it is whole (inside the
  /// loop) and the pointers aligned, the thread takes a loop of vector
  /// accesses, else one of an element at a time, so neither path's values
  /// stay live in the other's. The host has checked the rest of what makes
  /// the chunks contiguous and aligned.
  void emitWideTile();
  /// Phase 1 of the wide launch at S point `s` and the whole chunk of L
  /// points from `l`: one vector of `widePack` elements a staged load,
  /// zeros outside the loop.
  SmallVector<Value> emitWideRowLoads(const AxisPoint &s, const AxisPoint &l);
  /// Phase 2 of the wide launch for tile row `row` (L point `l`) at the
  /// whole chunk of S points from `s`, the tile's words from `word`: the
  /// body on each point, its stores one vector each.
  void emitWideStoreRow(Value row, const AxisPoint &l, const AxisPoint &s,
                        Value word);
  /// Phase 2 of the wide launch, one element at a time: the body at each
  /// point of the chunk from `s` inside the loop (its edges, unaligned
  /// pointers), the staged values read from the tile.
  void emitWideElements(Value row, const AxisPoint &l, const AxisPoint &s,
                        Value word);
  /// A loop over the first `widePack` positions from `first` along an axis
  /// of trip `trip` that are inside it, calling `build` with each one's
  /// offset from `first`: the wide launch's path of one element at a time,
  /// a loop (not unrolled: its trip is not a constant) so that few of its
  /// values are live at once.
  void forEachInsideElement(Value first, Value trip,
                            function_ref<void(Value)> build);
  /// Whether every memref the staged loads and the stores access has an
  /// aligned pointer at a multiple of 16 bytes.
  Value arePointersAligned();
  /// The column of the wide launch's tile where the 16 bytes from element
  /// `word` * pack of tile row `row` lie: whole 16-byte groups swizzled by
  /// the row's chunk, so that phase 1's warp (8 chunks of 4 rows' words)
  /// and phase 2's quarter warps (8 chunks of a row) meet distinct banks.
  Value getWideColumn(Value row, Value word);

  RewriterBase &rewriter;
  scf::ParallelOp loop;
  const StagedTransposePlan &plan;
  Location loc;
  Block &body;
  unsigned pack;
  int64_t edge;
  /// Elements a thread moves an access in the wide launch; 1 otherwise.
  unsigned widePack;
  /// This launch's S points a thread stores in a phase 2 row, 32 apart
  /// (plan.storeSpread), and its tile's positions along S: edge * spreadS
  /// (along L, edge).
  unsigned spreadS;
  int64_t edgeS;
  int64_t blockRows;

  gpu::LaunchOp launch;
  SmallVector<Value> trips;
  /// Positions along each axis: the product of its dimensions' trips.
  Value tripL, tripS;
  /// Tiles along each axis.
  Value tilesL, tilesS;
  /// In the kernel, the inner dimension's trip (at least one) of each axis
  /// of two dimensions; null for an axis of one.
  Value innerTripL, innerTripS;
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
  tilesS = arith::CeilDivUIOp::create(rewriter, loc, tripS, cst(edgeS));
  tilesL = arith::CeilDivUIOp::create(rewriter, loc, tripL, cst(edge));
  Value blocks = arith::MulIOp::create(rewriter, loc, tilesS, tilesL);
  for (unsigned d = 0; d < numDims; ++d)
    if (!llvm::is_contained(plan.loadAxis, d) &&
        !llvm::is_contained(plan.storeAxis, d)) {
      rest.push_back(d);
      blocks = arith::MulIOp::create(rewriter, loc, blocks, trips[d]);
    }
  return arith::MaxUIOp::create(rewriter, loc, blocks, cst(1));
}

AxisPoint StagedTransposeBuilder::splitAxis(ArrayRef<unsigned> axis,
                                            Value innerTrip, Value pos) {
  if (axis.size() == 1)
    return {pos, nullptr, nullptr};
  return {pos, arith::DivUIOp::create(rewriter, loc, pos, innerTrip),
          arith::RemUIOp::create(rewriter, loc, pos, innerTrip)};
}

SmallVector<AxisPoint>
StagedTransposeBuilder::getLanePoints(ArrayRef<unsigned> axis, Value innerTrip,
                                      Value first) {
  SmallVector<AxisPoint> lanes;
  Value lane = pack == 1 ? tx : mul(tx, cst(pack));
  for (unsigned k = 0, e = getLaneCount(axis); k < e; ++k)
    lanes.push_back(splitAxis(axis, innerTrip,
                              add(first, add(lane, cst(getLaneOffset(k))))));
  return lanes;
}

Value StagedTransposeBuilder::mapPoint(const AxisPoint &l, const AxisPoint &s,
                                       IRMapping &mapping) {
  SmallVector<Value> position(loop.getNumLoops());
  for (auto [d, p] : llvm::zip_equal(rest, restPosition))
    position[d] = p;
  for (auto [axis, point] : {std::make_pair(ArrayRef(plan.loadAxis), &l),
                             std::make_pair(ArrayRef(plan.storeAxis), &s)}) {
    if (axis.size() == 1) {
      position[axis[0]] = point->pos;
    } else {
      position[axis[0]] = point->outer;
      position[axis[1]] = point->inner;
    }
  }
  Value inside;
  if (plan.loadAxis.size() == 1 && plan.storeAxis.size() == 1) {
    for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d)
      inside = both(inside, below(position[d], trips[d]));
  } else {
    // An axis's position below its trip puts both its dimensions inside.
    inside = both(below(l.pos, tripL), below(s.pos, tripS));
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

AxisPoint StagedTransposeBuilder::advance(ArrayRef<unsigned> axis,
                                          Value innerTrip,
                                          const AxisPoint &point,
                                          int64_t delta) {
  Value pos = add(point.pos, cst(delta));
  if (axis.size() == 1)
    return {pos, nullptr, nullptr};
  Value inner = add(point.inner, cst(delta));
  Value wraps = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                      inner, innerTrip);
  inner = arith::SelectOp::create(
      rewriter, loc, wraps,
      arith::SubIOp::create(rewriter, loc, inner, innerTrip), inner);
  Value outer = arith::SelectOp::create(rewriter, loc, wraps,
                                        add(point.outer, cst(1)), point.outer);
  Value again = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                      inner, innerTrip);
  Type index = rewriter.getIndexType();
  auto ifAgain = scf::IfOp::create(rewriter, loc, TypeRange{index, index},
                                   again, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifAgain.thenBlock());
  Value carry = arith::DivUIOp::create(rewriter, loc, inner, innerTrip);
  scf::YieldOp::create(
      rewriter, loc,
      ValueRange{add(outer, carry),
                 arith::RemUIOp::create(rewriter, loc, inner, innerTrip)});
  rewriter.setInsertionPointToStart(ifAgain.elseBlock());
  scf::YieldOp::create(rewriter, loc, ValueRange{outer, inner});
  return {pos, ifAgain.getResult(0), ifAgain.getResult(1)};
}

void StagedTransposeBuilder::forEachRow(
    ArrayRef<unsigned> axis, Value innerTrip, Value first, Value firstRow,
    int64_t step,
    function_ref<AxisPoint(Value row, const AxisPoint &point)> build) {
  AxisPoint start = splitAxis(axis, innerTrip, add(first, firstRow));
  SmallVector<Value> carried;
  if (axis.size() == 2)
    carried = {start.outer, start.inner};
  auto loop = scf::ForOp::create(rewriter, loc, cst(0), cst(getEdge(axis)),
                                 cst(step), carried);
  OpBuilder::InsertionGuard guard(rewriter);
  // Without carried values the loop comes with its yield.
  if (carried.empty())
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  else
    rewriter.setInsertionPointToEnd(loop.getBody());
  Value row =
      arith::AddIOp::create(rewriter, loc, loop.getInductionVar(), firstRow);
  AxisPoint point = carried.empty()
                        ? AxisPoint{add(first, row), nullptr, nullptr}
                        : AxisPoint{add(first, row), loop.getRegionIterArg(0),
                                    loop.getRegionIterArg(1)};
  AxisPoint next = build(row, point);
  if (!carried.empty())
    scf::YieldOp::create(rewriter, loc, ValueRange{next.outer, next.inner});
}

void StagedTransposeBuilder::forEachRowGroup(
    ArrayRef<unsigned> axis, Value innerTrip, Value first, int64_t run,
    function_ref<void(ArrayRef<Value> rows, ArrayRef<AxisPoint>)> build) {
  int64_t rowsPerThread = getEdge(axis) / blockRows;
  // Four rows a thread (2-D nests) ran 4% faster stored as they come.
  int64_t group = rowsPerThread >= kRowGroup ? kRowGroup : 1;
  assert(group % run == 0 && "a group holds whole runs");
  int64_t groupStep = group * blockRows;
  // Row i of a group, past the group's first row.
  auto offset = [&](int64_t i) {
    return i / run * run * blockRows + i % run;
  };
  Value threadRow = run == 1 ? ty : mul(ty, cst(run));
  // A static trip count: rowsPerThread / group groups.
  forEachRow(axis, innerTrip, first, threadRow, groupStep,
             [&](Value base, const AxisPoint &point) {
               SmallVector<Value> rows = {base};
               SmallVector<AxisPoint> points = {point};
               for (int64_t i = 1; i < group; ++i) {
                 rows.push_back(add(base, cst(offset(i))));
                 points.push_back(advance(axis, innerTrip, points.back(),
                                          offset(i) - offset(i - 1)));
               }
               build(rows, points);
               if (axis.size() == 1)
                 return AxisPoint();
               return advance(axis, innerTrip, points.back(),
                              groupStep - offset(group - 1));
             });
}

void StagedTransposeBuilder::cloneSlice(const SetVector<Operation *> &slice,
                                        IRMapping &mapping) {
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op))
      rewriter.clone(op, mapping);
}

Value StagedTransposeBuilder::isContiguousVector(ArrayRef<unsigned> axis,
                                                 Value memref,
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
  Value misalignment =
      arith::RemUIOp::create(rewriter, loc, start, cst(pack * bytes));
  Value aligned = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, misalignment, cst(0));
  if (axis.size() == 1)
    return aligned;
  Value span = arith::SubIOp::create(rewriter, loc, addressAt(last), start);
  Value contiguous =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, span,
                            cst((pack - 1) * bytes));
  return both(contiguous, aligned);
}

SmallVector<Value>
StagedTransposeBuilder::emitRowLoads(const AxisPoint &point,
                                     ArrayRef<AxisPoint> lanes) {
  // One element a load: the staged loads at the k-th of this thread's L
  // points, zero outside the loop.
  auto emitElement = [&](unsigned k) {
    IRMapping mapping;
    Value inside = mapPoint(lanes[k], point, mapping);
    SmallVector<Type> types;
    for (memref::LoadOp load : plan.stagedLoads)
      types.push_back(load.getType());
    return createIfElseZeros(rewriter, loc, inside, types, [&] {
      cloneSlice(loadIndexOps, mapping);
      SmallVector<Value> values;
      for (memref::LoadOp load : plan.stagedLoads)
        values.push_back(rewriter.clone(*load, mapping)->getResult(0));
      return values;
    });
  };
  if (pack == 1)
    return emitElement(0);

  IRMapping first, last;
  (void)mapPoint(lanes.front(), point, first);
  Value ok = mapPoint(lanes.back(), point, last);
  cloneSlice(loadIndexOps, first);
  if (plan.loadAxis.size() == 2)
    cloneSlice(loadIndexOps, last);
  SmallVector<Type> types;
  for (memref::LoadOp load : plan.stagedLoads) {
    ok = both(ok, isContiguousVector(plan.loadAxis, load.getMemRef(),
                                     load.getIndices(), load.getType(),
                                     first, last));
    types.push_back(VectorType::get({pack}, load.getType()));
  }
  auto ifVector = scf::IfOp::create(rewriter, loc, types, ok,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifVector.thenBlock());
  scf::YieldOp::create(rewriter, loc, loadStagedVectors(first, pack));
  // One element at a time, gathered into the same vectors.
  rewriter.setInsertionPointToStart(ifVector.elseBlock());
  SmallVector<SmallVector<Value>> elements(plan.stagedLoads.size());
  for (unsigned k = 0; k < pack; ++k)
    for (auto [i, value] : llvm::enumerate(emitElement(k)))
      elements[i].push_back(value);
  SmallVector<Value> gathered;
  for (auto [type, values] : llvm::zip_equal(types, elements))
    gathered.push_back(vector::FromElementsOp::create(
        rewriter, loc, cast<VectorType>(type), values));
  scf::YieldOp::create(rewriter, loc, gathered);
  return SmallVector<Value>(ifVector.getResults());
}

SmallVector<SmallVector<Value>>
StagedTransposeBuilder::readTileVectors(Value row, Value column,
                                        unsigned count) {
  SmallVector<SmallVector<Value>> values(count);
  for (auto [stagedLoad, tile] :
       llvm::zip_equal(plan.stagedLoads, launch.getWorkgroupAttributions())) {
    Type element = memref::LoadOp(stagedLoad).getType();
    Value vector = vector::LoadOp::create(
        rewriter, loc, VectorType::get({count}, element), tile,
        ValueRange{row, column}, /*nontemporal=*/false,
        llvm::MaybeAlign(count * getElementBytes(element)));
    for (unsigned k = 0; k < count; ++k)
      values[k].push_back(vector::ExtractOp::create(
          rewriter, loc, vector, ArrayRef<int64_t>{k}));
  }
  return values;
}

void StagedTransposeBuilder::emitVectorStores(
    ArrayRef<SmallVector<Value>> stored, IRMapping &first, unsigned count) {
  for (auto [store, values] : llvm::zip_equal(stores, stored)) {
    Type element = store.getValue().getType();
    Value vector = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({count}, element), values);
    SmallVector<Value> indices;
    for (Value index : store.getIndices())
      indices.push_back(first.lookupOrDefault(index));
    vector::StoreOp::create(
        rewriter, loc, vector, store.getMemRef(), indices,
        /*nontemporal=*/false,
        llvm::MaybeAlign(count * getElementBytes(element)));
  }
}

void StagedTransposeBuilder::storeTransposed(
    ArrayRef<SmallVector<Value>> rows, Value firstL, Value column) {
  for (auto [i, tile] : llvm::enumerate(launch.getWorkgroupAttributions())) {
    auto type = cast<VectorType>(rows.front()[i].getType());
    Type element = type.getElementType();
    for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
      SmallVector<Value> elements;
      for (const SmallVector<Value> &row : rows)
        elements.push_back(vector::ExtractOp::create(rewriter, loc, row[i],
                                                     ArrayRef<int64_t>{k}));
      Value word = vector::FromElementsOp::create(
          rewriter, loc, VectorType::get({pack}, element), elements);
      vector::StoreOp::create(
          rewriter, loc, word, tile, ValueRange{add(firstL, cst(k)), column},
          /*nontemporal=*/false,
          llvm::MaybeAlign(pack * getElementBytes(element)));
    }
  }
}

Value StagedTransposeBuilder::getSwizzledColumn(Value row, Value word) {
  Value swizzle = arith::DivUIOp::create(rewriter, loc, row, cst(pack));
  return mul(arith::XOrIOp::create(rewriter, loc, word, swizzle), cst(pack));
}

void StagedTransposeBuilder::cloneBody(
    Value localS, Value localL, IRMapping &mapping,
    SmallVectorImpl<SmallVector<Value>> *stored, ArrayRef<Value> staged) {
  auto tiles = launch.getWorkgroupAttributions();
  unsigned storeIndex = 0;
  for (Operation &op : body.without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op); store && stored) {
      (*stored)[storeIndex++].push_back(
          mapping.lookupOrDefault(store.getValue()));
      continue;
    }
    auto load = dyn_cast<memref::LoadOp>(op);
    const auto *stagedLoad =
        load ? llvm::find(plan.stagedLoads, load) : plan.stagedLoads.end();
    if (stagedLoad == plan.stagedLoads.end()) {
      rewriter.clone(op, mapping);
      continue;
    }
    size_t i = stagedLoad - plan.stagedLoads.begin();
    mapping.map(load.getResult(),
                !staged.empty()
                    ? staged[i]
                    : memref::LoadOp::create(rewriter, loc, tiles[i],
                                             ValueRange{localS, localL})
                          .getResult());
  }
}

void StagedTransposeBuilder::emitStoreRow(Value row, const AxisPoint &point,
                                          ArrayRef<AxisPoint> lanes) {
  Value lane = pack == 1 ? tx : mul(tx, cst(pack));
  // A tile transposed in registers holds this thread's elements as one
  // vector a staged load: element k of each is the staged loads' values at
  // the k-th S point.
  SmallVector<SmallVector<Value>> stagedAt(lanes.size());
  if (plan.transposeInRegisters)
    stagedAt = readTileVectors(row, getSwizzledColumn(row, tx), pack);
  // One element: the body at the k-th of this thread's S points.
  auto emitElement = [&](unsigned k) {
    IRMapping mapping;
    Value inside = mapPoint(point, lanes[k], mapping);
    auto ifInside = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    cloneBody(add(lane, cst(getLaneOffset(k))), row, mapping,
              /*stored=*/nullptr, stagedAt[k]);
  };
  if (pack == 1) {
    for (unsigned k = 0, e = lanes.size(); k < e; ++k)
      emitElement(k);
    return;
  }

  IRMapping first, last;
  (void)mapPoint(point, lanes.front(), first);
  Value ok = mapPoint(point, lanes.back(), last);
  cloneSlice(storeIndexOps, first);
  if (plan.storeAxis.size() == 2)
    cloneSlice(storeIndexOps, last);
  for (memref::StoreOp store : stores)
    ok = both(ok, isContiguousVector(plan.storeAxis, store.getMemRef(),
                                     store.getIndices(),
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
    (void)mapPoint(point, lanes[k], mapping);
    cloneBody(add(lane, cst(k)), row, mapping, &stored, stagedAt[k]);
  }
  emitVectorStores(stored, first, pack);
  rewriter.setInsertionPoint(ifVector.elseBlock()->getTerminator());
  for (unsigned k = 0; k < pack; ++k)
    emitElement(k);
}

gpu::LaunchOp StagedTransposeBuilder::build() {
  OpBuilder::InsertionGuard guard(rewriter);
  MLIRContext *context = loop.getContext();
  Value blocks = buildHostSizes();

  SmallVector<Type> tileTypes;
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  // tile[s][l], rows padded by an element; or tile[l][s], swizzled.
  int64_t pitch = plan.transposeInRegisters || widePack > 1 ? edge : edge + 1;
  for (memref::LoadOp load : plan.stagedLoads)
    tileTypes.push_back(MemRefType::get({edgeS, pitch}, load.getType(),
                                        MemRefLayoutAttrInterface(),
                                        workgroup));
  Value one = cst(1);
  launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, cst(kTile), cst(blockRows), one,
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
  firstS = arith::MulIOp::create(rewriter, loc, next(tilesS), cst(edgeS));
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

  auto innerTrip = [&](ArrayRef<unsigned> axis) -> Value {
    if (axis.size() == 1)
      return nullptr;
    return arith::MaxUIOp::create(rewriter, loc, trips[axis[1]], one);
  };
  innerTripL = innerTrip(plan.loadAxis);
  innerTripS = innerTrip(plan.storeAxis);

  if (widePack > 1) {
    emitWideTile();
    return launch;
  }
  SmallVector<AxisPoint> lanesS =
      getLanePoints(plan.storeAxis, innerTripS, firstS);
  emitTile(lanesS);
  return launch;
}

Value StagedTransposeBuilder::arePointersAligned() {
  SetVector<Value> memrefs;
  for (memref::LoadOp load : plan.stagedLoads)
    memrefs.insert(load.getMemRef());
  for (memref::StoreOp store : stores)
    memrefs.insert(store.getMemRef());
  Value aligned;
  for (Value memref : memrefs) {
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
    Value misalignment =
        arith::RemUIOp::create(rewriter, loc, pointer, cst(kWideBytes));
    aligned = both(aligned, arith::CmpIOp::create(rewriter, loc,
                                                  arith::CmpIPredicate::eq,
                                                  misalignment, cst(0)));
  }
  return aligned;
}

Value StagedTransposeBuilder::getWideColumn(Value row, Value word) {
  // A row holds 32 words of `pack` elements, 8 groups of 4 words (16
  // bytes); group g of row l lies at g ^ (l / widePack), so a whole group
  // stays contiguous and aligned.
  Value chunk = arith::DivUIOp::create(rewriter, loc, row, cst(widePack));
  Value swizzle = arith::ShLIOp::create(rewriter, loc, chunk, cst(2));
  return mul(arith::XOrIOp::create(rewriter, loc, word, swizzle), cst(pack));
}

SmallVector<Value>
StagedTransposeBuilder::emitWideRowLoads(const AxisPoint &s,
                                         const AxisPoint &l) {
  SmallVector<Type> types;
  for (memref::LoadOp load : plan.stagedLoads)
    types.push_back(VectorType::get({widePack}, load.getType()));
  IRMapping first;
  Value inside = mapPoint(l, s, first);
  return createIfElseZeros(rewriter, loc, inside, types, [&] {
    cloneSlice(loadIndexOps, first);
    return loadStagedVectors(first, widePack);
  });
}

SmallVector<Value> StagedTransposeBuilder::loadStagedVectors(IRMapping &first,
                                                             unsigned count) {
  SmallVector<Value> vectors;
  for (memref::LoadOp load : plan.stagedLoads) {
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(first.lookupOrDefault(index));
    Type element = load.getType();
    vectors.push_back(vector::LoadOp::create(
        rewriter, loc, VectorType::get({count}, element), load.getMemRef(),
        indices, /*nontemporal=*/false,
        llvm::MaybeAlign(count * getElementBytes(element))));
  }
  return vectors;
}

void StagedTransposeBuilder::emitWideStoreRow(Value row, const AxisPoint &l,
                                              const AxisPoint &s,
                                              Value word) {
  // This thread's chunk of the tile row: element k of each staged load's
  // vector is its value at S point k of the chunk.
  Value column = getWideColumn(row, word);
  SmallVector<SmallVector<Value>> stagedAt =
      readTileVectors(row, column, widePack);
  IRMapping first;
  auto ifInside = scf::IfOp::create(rewriter, loc, mapPoint(l, s, first));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
  cloneSlice(storeIndexOps, first);
  SmallVector<SmallVector<Value>> stored(stores.size());
  for (unsigned k = 0; k < widePack; ++k) {
    // The body's ops that use point k's dimensions need its split (they
    // are erased where none do).
    AxisPoint point = k == 0 ? s
                             : splitAxis(plan.storeAxis, innerTripS,
                                         add(s.pos, cst(k)));
    IRMapping mapping;
    (void)mapPoint(l, point, mapping);
    cloneBody(Value(), Value(), mapping, &stored, stagedAt[k]);
  }
  emitVectorStores(stored, first, widePack);
}

void StagedTransposeBuilder::forEachInsideElement(
    Value first, Value trip, function_ref<void(Value)> build) {
  // min(widePack, trip - first), zero where first is past the trip.
  Value left = arith::SubIOp::create(
      rewriter, loc, arith::MaxUIOp::create(rewriter, loc, trip, first),
      first);
  Value count = arith::MinUIOp::create(rewriter, loc, left, cst(widePack));
  auto loop = scf::ForOp::create(rewriter, loc, cst(0), count, cst(1));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  build(loop.getInductionVar());
}

void StagedTransposeBuilder::emitWideTile() {
  auto tiles = launch.getWorkgroupAttributions();
  int64_t threads = kTile * blockRows;
  // Chunks of 16 bytes a tile row (8), and threads in the order phase 1's
  // global loads and phase 2's stores want: a row's chunks fastest.
  int64_t chunks = edge / widePack;
  Value thread = add(mul(ty, cst(kTile)), tx);
  Value chunk = arith::RemUIOp::create(rewriter, loc, thread, cst(chunks));
  Value aligned = arePointersAligned();
  auto isWhole = [&](Value first, Value trip) {
    Value last = add(first, cst(widePack - 1));
    return both(aligned, below(last, trip));
  };
  // Runs `build(whole)` under an scf.if on `whole`, both ways.
  auto eitherWay = [&](Value whole, function_ref<void(bool)> build) {
    auto ifWhole = scf::IfOp::create(rewriter, loc, whole, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifWhole.thenBlock()->getTerminator());
    build(true);
    rewriter.setInsertionPoint(ifWhole.elseBlock()->getTerminator());
    build(false);
  };

  // Phase 1: item i (of `edge / pack` runs of rows times `chunks`) loads
  // rows pack * (i / chunks) + j of the L chunk i % chunks.
  AxisPoint l = splitAxis(plan.loadAxis, innerTripL,
                          add(firstL, mul(chunk, cst(widePack))));
  Value tileRowL = mul(chunk, cst(widePack));
  int64_t items = edge / pack * chunks;
  eitherWay(isWhole(l.pos, tripL), [&](bool whole) {
    auto loop1 = scf::ForOp::create(rewriter, loc, cst(0), cst(items),
                                    cst(threads));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop1.getBody()->getTerminator());
    Value item = add(loop1.getInductionVar(), thread);
    Value run = arith::DivUIOp::create(rewriter, loc, item, cst(chunks));
    SmallVector<AxisPoint> points = {splitAxis(
        plan.storeAxis, innerTripS, add(firstS, mul(run, cst(pack))))};
    for (unsigned j = 1; j < pack; ++j)
      points.push_back(advance(plan.storeAxis, innerTripS, points.back(), 1));
    Value column = getWideColumn(tileRowL, run);
    if (!whole) {
      // Each element inside the loop straight into the tile: byte j of
      // the word at tile row tileRowL + k.
      forEachInsideElement(l.pos, tripL, [&](Value k) {
        AxisPoint point =
            splitAxis(plan.loadAxis, innerTripL, add(l.pos, k));
        for (auto [j, rowPoint] : llvm::enumerate(points)) {
          IRMapping mapping;
          auto ifInside = scf::IfOp::create(rewriter, loc,
                                            mapPoint(point, rowPoint, mapping));
          OpBuilder::InsertionGuard elementGuard(rewriter);
          rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
          cloneSlice(loadIndexOps, mapping);
          for (auto [load, tile] : llvm::zip_equal(plan.stagedLoads, tiles))
            memref::StoreOp::create(
                rewriter, loc, rewriter.clone(*load, mapping)->getResult(0),
                tile, ValueRange{add(tileRowL, k), add(column, cst(j))});
        }
      });
      return;
    }
    SmallVector<SmallVector<Value>> loaded;
    for (const AxisPoint &point : points)
      loaded.push_back(emitWideRowLoads(point, l));
    storeTransposed(loaded, tileRowL, column);
  });
  gpu::BarrierOp::create(rewriter, loc);

  // Phase 2: item i (of `edge` rows times `chunks`) runs the body at tile
  // row i / chunks and the S chunk i % chunks; a thread's rows are
  // threads / chunks apart.
  Value firstChunkS = add(firstS, mul(chunk, cst(widePack)));
  AxisPoint chunkS = splitAxis(plan.storeAxis, innerTripS, firstChunkS);
  int64_t rowStep = threads / chunks;
  Value firstRow =
      arith::DivUIOp::create(rewriter, loc, thread, cst(chunks));
  Value word = mul(chunk, cst(kWideBytes / 4));
  eitherWay(isWhole(firstChunkS, tripS), [&](bool whole) {
    forEachRow(plan.loadAxis, innerTripL, firstL, firstRow, rowStep,
               [&](Value row, const AxisPoint &point) {
                 if (whole) {
                   emitWideStoreRow(row, point, chunkS, word);
                 } else {
                   emitWideElements(row, point, chunkS, word);
                 }
                 if (plan.loadAxis.size() == 1)
                   return AxisPoint();
                 return advance(plan.loadAxis, innerTripL, point, rowStep);
               });
  });
}

void StagedTransposeBuilder::emitWideElements(Value row, const AxisPoint &l,
                                              const AxisPoint &s, Value word) {
  // Each element inside the loop, its staged values read from the tile one
  // at a time (the chunk's 16 bytes are contiguous there).
  Value column = getWideColumn(row, word);
  forEachInsideElement(s.pos, tripS, [&](Value k) {
    AxisPoint point = splitAxis(plan.storeAxis, innerTripS, add(s.pos, k));
    IRMapping mapping;
    auto ifInside =
        scf::IfOp::create(rewriter, loc, mapPoint(l, point, mapping));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    SmallVector<Value> staged;
    for (Value tile : launch.getWorkgroupAttributions())
      staged.push_back(memref::LoadOp::create(
          rewriter, loc, tile, ValueRange{row, add(column, k)}));
    cloneBody(Value(), Value(), mapping, /*stored=*/nullptr, staged);
  });
}

void StagedTransposeBuilder::emitTile(ArrayRef<AxisPoint> lanesS) {
  // Phase 1: threads along L read the staged loads coalesced.
  SmallVector<AxisPoint> lanesL =
      getLanePoints(plan.loadAxis, innerTripL, firstL);
  auto tiles = launch.getWorkgroupAttributions();
  Value laneL = pack == 1 ? tx : mul(tx, cst(pack));
  int64_t run = plan.transposeInRegisters ? pack : 1;
  forEachRowGroup(
      plan.storeAxis, innerTripS, firstS, run,
      [&](ArrayRef<Value> rows, ArrayRef<AxisPoint> points) {
        // Every row's loads first, so they are in flight together; then
        // the stores into the tile. Elements outside the loop store zeros
        // that phase 2 never reads.
        SmallVector<SmallVector<Value>> loaded;
        for (const AxisPoint &point : points)
          loaded.push_back(emitRowLoads(point, lanesL));
        if (plan.transposeInRegisters) {
          // Each run of `pack` rows (one vector a row a staged load) is
          // transposed: vector k holds the rows' k-th elements, which are
          // S-consecutive at L point laneL + k.
          for (size_t first = 0; first < rows.size(); first += pack) {
            Value column = getSwizzledColumn(
                laneL, arith::DivUIOp::create(rewriter, loc, rows[first],
                                              cst(pack)));
            storeTransposed(ArrayRef(loaded).slice(first, pack), laneL,
                            column);
          }
          return;
        }
        for (auto [row, values] : llvm::zip_equal(rows, loaded))
          for (auto [value, tile] : llvm::zip_equal(values, tiles)) {
            if (pack == 1) {
              memref::StoreOp::create(rewriter, loc, value, tile,
                                      ValueRange{row, laneL});
              continue;
            }
            for (unsigned k = 0; k < pack; ++k)
              memref::StoreOp::create(
                  rewriter, loc,
                  vector::ExtractOp::create(rewriter, loc, value,
                                            ArrayRef<int64_t>{k}),
                  tile, ValueRange{row, add(laneL, cst(k))});
          }
      });
  gpu::BarrierOp::create(rewriter, loc);
  // Phase 2: threads along S run the body on the tile, stores coalesced.
  forEachRowGroup(plan.loadAxis, innerTripL, firstL, /*run=*/1,
                  [&](ArrayRef<Value> rows, ArrayRef<AxisPoint> points) {
                    for (auto [row, point] : llvm::zip_equal(rows, points))
                      emitStoreRow(row, point, lanesS);
                  });
}

/// Whether every access a launch of `plan` makes with `pack` elements a
/// thread an access is of `pack` contiguous elements starting on a
/// multiple of `pack` from its memref's aligned pointer, where the
/// elements are inside the loop. A thread's first element along a side is
/// a multiple of the pack past the lower bound (the sides step by one), so
/// for each staged load and store, with strides s and indices x at the
/// loop's lower bounds:
///
///  - every stride but the last two is a multiple of the pack, and
///    offset + x[r-2] * s[r-2] + x[r-1] is one;
///  - s[r-2] is a multiple of the pack too, and on an axis of two loop
///    dimensions (o, i) the inner trip is one, unless the access is linear
///    along the axis: its index r-2 moves with o alone, by one, and
///    s[r-2] * step(o) is the inner trip, so the axis' positions are
///    consecutive elements.
///
/// The pointers themselves are not tested (allocators align them far
/// more; the launches check them), so the condition stays one a launcher
/// header, the Python launcher and a cached native plan compute from
/// sizes, strides and offsets. Built before `loop`, with the index
/// computations cloned there.
static Value buildRowsAligned(RewriterBase &rewriter, scf::ParallelOp loop,
                              const StagedTransposePlan &plan, int64_t pack) {
  Location loc = loop.getLoc();
  Block &body = *loop.getBody();
  IRMapping atStart;
  for (auto [iv, lb] :
       llvm::zip_equal(loop.getInductionVars(), loop.getLowerBound()))
    atStart.map(iv, lb);
  struct Access {
    Value memref;
    OperandRange indices;
    ArrayRef<unsigned> axis;
  };
  SmallVector<Access> accesses;
  for (memref::LoadOp load : plan.stagedLoads)
    accesses.push_back({load.getMemRef(), load.getIndices(), plan.loadAxis});
  for (auto store : body.getOps<memref::StoreOp>())
    accesses.push_back(
        {store.getMemRef(), store.getIndices(), plan.storeAxis});
  SetVector<Operation *> slice;
  for (const Access &access : accesses)
    (void)getPureSlice(body, access.indices.take_back(2), slice);
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op))
      rewriter.clone(op, atStart);

  SmallVector<IndexCoefficients> coefficients;
  for (Value iv : loop.getInductionVars())
    coefficients.emplace_back(iv);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  auto eq = [&](Value a, Value b) -> Value {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a,
                                 b);
  };
  auto isMultiple = [&](Value elements) {
    return eq(arith::RemSIOp::create(rewriter, loc, elements, cst(pack)),
              cst(0));
  };
  SmallVector<Value> conditions;
  for (const Access &access : accesses) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, access.memref);
    ValueRange strides = metadata.getStrides();
    unsigned rank = strides.size();
    Value start = arith::AddIOp::create(
        rewriter, loc, metadata.getOffset(),
        atStart.lookupOrDefault(access.indices.back()));
    for (unsigned d = 0; d + 1 < rank; ++d)
      if (d + 2 != rank)
        conditions.push_back(isMultiple(strides[d]));
    if (rank < 2) {
      conditions.push_back(isMultiple(start));
      continue;
    }
    Value outerIndex = access.indices[rank - 2];
    start = arith::AddIOp::create(
        rewriter, loc, start,
        arith::MulIOp::create(rewriter, loc,
                              atStart.lookupOrDefault(outerIndex),
                              strides[rank - 2]));
    conditions.push_back(isMultiple(start));
    Value aligned = isMultiple(strides[rank - 2]);
    if (access.axis.size() == 2) {
      unsigned outer = access.axis[0], inner = access.axis[1];
      Value innerTrip = createTripCount(rewriter, loc,
                                        loop.getLowerBound()[inner],
                                        loop.getUpperBound()[inner],
                                        loop.getStep()[inner]);
      aligned = arith::AndIOp::create(rewriter, loc, aligned,
                                      isMultiple(innerTrip));
      if (getUnitDim(outerIndex, coefficients) == outer) {
        Value rowElements = arith::MulIOp::create(
            rewriter, loc, strides[rank - 2], loop.getStep()[outer]);
        aligned = arith::OrIOp::create(rewriter, loc, aligned,
                                       eq(rowElements, innerTrip));
      }
    }
    conditions.push_back(aligned);
  }
  // A balanced tree, so the expression stays shallow for the launchers.
  if (conditions.empty())
    return arith::ConstantIntOp::create(rewriter, loc, 1, /*width=*/1);
  for (size_t width = 1; width < conditions.size(); width *= 2)
    for (size_t i = 0; i + width < conditions.size(); i += 2 * width)
      conditions[i] = arith::AndIOp::create(rewriter, loc, conditions[i],
                                            conditions[i + width]);
  return conditions[0];
}

gpu::LaunchOp threadbind::mapStagedTranspose(RewriterBase &rewriter,
                                             scf::ParallelOp loop,
                                             const StagedTransposePlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  bool wide = plan.widePack > 1;
  if (plan.alignedPack > 1 || wide) {
    // The launch of wider accesses where every row is aligned to them; the
    // plan's own in the else branch.
    Value aligned = buildRowsAligned(rewriter, loop, plan,
                                     wide ? plan.widePack : plan.alignedPack);
    auto choice = scf::IfOp::create(rewriter, loop.getLoc(), aligned,
                                    /*withElseRegion=*/true);
    rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
    if (wide) {
      (void)StagedTransposeBuilder(rewriter, loop, plan, /*wide=*/true)
          .build();
    } else {
      StagedTransposePlan packed = plan;
      packed.pack = plan.alignedPack;
      packed.blockRows = plan.alignedBlockRows;
      packed.alignedPack = 1;
      packed.storeSpread = 1;
      (void)StagedTransposeBuilder(rewriter, loop, packed).build();
    }
    rewriter.setInsertionPoint(choice.elseBlock()->getTerminator());
  }
  gpu::LaunchOp launch = StagedTransposeBuilder(rewriter, loop, plan).build();
  rewriter.eraseOp(loop);
  return launch;
}
