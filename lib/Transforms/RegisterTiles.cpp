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
// A tile a thread divides the threads by 8: where the tiles are fewer than
// the device holds blocks (gemm at 512: 128 tiles on 132 SMs), a thread an
// output runs faster, so the host chooses at run time.
//
// Where the tiles are many (a block for every multiprocessor at 8x8 a
// thread, or else at 4x4 or 2x2), the k loop runs through workgroup
// memory instead: every kStageDepth steps of k, the block reads the rows
// of its tile of each load that depends on the row alone, and the columns
// of each that depends on the column alone, into workgroup memory (each
// element once, along whichever of k and the row or column walks memory
// contiguously), waits at a barrier, and runs those steps from there; the
// steps left over read memory as above. Each output still sees its k
// values in order, so the result is the same to the bit.
//
// Triangular nests (syrk's columns up to the row, covariance's from it)
// run over the rectangle around the triangle: the column bounds are linear
// in the row, so the rectangle's come from the first and last rows. A
// thread skips the k loop where none of its outputs lies inside, and
// stores only those that do; since each index of the loads depends on the
// row or the column alone, every load outside still reads within what the
// nest reads.
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
/// Rows of a thread's tile when the k loop runs through workgroup memory;
/// columns are 8 for values of 4 bytes a carried value, 4 for 8.
static constexpr int64_t kSharedRows = 8;
/// Steps of k a block stages in workgroup memory at a time.
static constexpr int64_t kStageDepth = 8;
/// The most outputs a thread for which a shared tile reads the next stage
/// ahead (see emitSharedKLoop).
static constexpr int64_t kReadAheadOutputs = 16;
/// Shared tiles are taken where they give a block for every this many the
/// device holds (one a multiprocessor at 256 threads a block).
static constexpr int64_t kSharedTileShare = 8;
/// Static workgroup memory the staged tiles may take.
static constexpr int64_t kMaxStagedBytes = 48 * 1024;

namespace {
/// The parts of a matmul-shaped body, in order.
struct NestParts {
  SmallVector<Operation *> prologue;
  Operation *kLoop = nullptr;
  SmallVector<Operation *> epilogue;
};

/// The loops of a matmul-shaped nest.
struct TileNest {
  /// The loop the mapping replaces.
  scf::ParallelOp outer;
  /// The loop whose body holds the k loop: `outer` for a 2-D nest.
  scf::ParallelOp inner;
  /// Dimensions of `outer` (rows) and `inner` (columns).
  unsigned rowDim = 0, colDim = 1;

  bool isTriangular() { return inner != outer; }
  Value rowIV() { return outer.getInductionVars()[rowDim]; }
  Value colIV() { return inner.getInductionVars()[colDim]; }
};
} // namespace

/// The k loop's body, its induction variable and the values it carries
/// (iter_args, or the values an scf.parallel reduces).
static Block *getKBody(Operation *kLoop) {
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop))
    return forOp.getBody();
  return cast<scf::ParallelOp>(kLoop).getBody();
}

/// The k loop's lower bound, upper bound and step.
static std::array<Value, 3> getKBounds(Operation *kLoop) {
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop))
    return {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()};
  auto parallel = cast<scf::ParallelOp>(kLoop);
  return {parallel.getLowerBound()[0], parallel.getUpperBound()[0],
          parallel.getStep()[0]};
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
/// body of pure ops and loads that uses nothing of the nest's bodies but
/// the nest's induction variables.
static bool isTileableKLoop(TileNest nest, Operation *kLoop) {
  Block *body = getKBody(kLoop);
  if (kLoop->getNumResults() == 0)
    return false;
  if (auto parallel = dyn_cast<scf::ParallelOp>(kLoop);
      parallel && parallel.getNumLoops() != 1)
    return false;
  if (!llvm::all_of(getKBounds(kLoop), [&](Value v) {
        return nest.outer.isDefinedOutsideOfLoop(v);
      }))
    return false;
  for (Value init : getKInits(kLoop))
    if (!init.getType().isIntOrIndexOrFloat())
      return false;
  Block *outerBody = nest.outer.getBody(), *innerBody = nest.inner.getBody();
  WalkResult walk = body->walk([&](Operation *op) {
    if (op->getBlock() == body && !isa<scf::YieldOp, scf::ReduceOp>(op)) {
      if (op->getNumRegions() != 0 ||
          !(isPure(op) || isa<memref::LoadOp>(op)))
        return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && (def->getBlock() == innerBody || def->getBlock() == outerBody))
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

/// Whether `value` depends on `iv`, following operands within `scope`.
static bool dependsOn(Value value, Value iv, Region *scope) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == iv)
      return true;
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !scope->isAncestor(def->getParentRegion()))
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The ops of `body` that `values` are computed from, in order.
static SmallVector<Operation *> getSlice(Block *body, ValueRange values) {
  SetVector<Operation *> slice;
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !slice.insert(def))
      continue;
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// The triangular form of `outer`: a 1-D loop over rows whose body is pure
/// code used only by the bounds of a single 1-D loop over columns, whose
/// lower and upper bounds are linear in the row, and whose step the rows
/// do not vary (1 where the lower bound moves, so that every row's columns
/// lie on the rectangle's grid). Each index of every load depends on the
/// row or the column, not both.
/// Ops of `outer`'s body in `ignored` are left out of the match (those a
/// split moves to a loop of their own, see splitTriangleEffects).
static std::optional<TileNest>
matchTriangle(scf::ParallelOp outer,
              const DenseSet<Operation *> &ignored = {}) {
  if (outer.getNumLoops() != 1)
    return std::nullopt;
  Block *body = outer.getBody();
  scf::ParallelOp inner;
  for (Operation &op : body->without_terminator()) {
    if (ignored.contains(&op))
      continue;
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (inner)
        return std::nullopt;
      inner = loop;
      continue;
    }
    if (op.getNumRegions() != 0 || !isPure(&op))
      return std::nullopt;
    for (Operation *user : op.getUsers())
      if (user->getBlock() != body)
        return std::nullopt;
  }
  if (!inner || inner.getNumLoops() != 1 || inner.getNumResults() != 0)
    return std::nullopt;
  TileNest nest{outer, inner, 0, 0};
  Value row = nest.rowIV();
  IndexCoefficients along(row);
  Value lb = inner.getLowerBound()[0], ub = inner.getUpperBound()[0];
  if (!along.get(lb) || !along.get(ub) ||
      !outer.isDefinedOutsideOfLoop(inner.getStep()[0]))
    return std::nullopt;
  if (*along.get(lb) != 0 && getConstantIntValue(inner.getStep()[0]) != 1)
    return std::nullopt;
  Value col = nest.colIV();
  Region *scope = &outer.getRegion();
  WalkResult walk = inner.getBody()->walk([&](memref::LoadOp load) {
    for (Value index : load.getIndices())
      if (dependsOn(index, row, scope) && dependsOn(index, col, scope))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return nest;
}

static int64_t getByteWidth(Type type) {
  return type.isIndex() ? 8 : llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

namespace {
/// A load of the k loop that a block stages in workgroup memory: one that
/// depends on the row alone or on the column alone.
struct StagedLoad {
  memref::LoadOp load;
  /// Along the tile's rows (else its columns).
  bool alongRow;
  /// k walks its last index with stride one: the block reads k fastest,
  /// and the tile keeps k innermost.
  bool kFastest;
};
} // namespace

/// The loads of `body` (the k loop's) a block stages, in order.
static SmallVector<StagedLoad>
getStagedLoads(Block *body,
               const DenseMap<Operation *, std::pair<bool, bool>> &deps) {
  SmallVector<StagedLoad> staged;
  IndexCoefficients alongK(body->getArgument(0));
  for (auto load : body->getOps<memref::LoadOp>()) {
    auto [row, col] = deps.lookup(load);
    if (row == col)
      continue;
    bool kFastest = !load.getIndices().empty() &&
                    alongK.get(load.getIndices().back()) == 1;
    staged.push_back({load, row, kFastest});
  }
  return staged;
}

/// The tile edge a staged load's elements lie along: the block's rows or
/// columns.
static int64_t getStagedEdge(const StagedLoad &staged, int64_t threadsY,
                             int64_t rows, int64_t cols) {
  return staged.alongRow ? threadsY * rows : kThreadsX * cols;
}

/// The workgroup memory type of a staged load's tile: edge x depth with k
/// innermost, or depth x edge; a column tile with k innermost is padded by
/// an element a row, so that a warp reading one k across 32 columns hits
/// 32 banks.
static MemRefType getStagedTileType(StagedLoad staged, int64_t edge) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      staged.load.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<int64_t, 2> shape =
      staged.kFastest
          ? SmallVector<int64_t, 2>{edge, kStageDepth + !staged.alongRow}
          : SmallVector<int64_t, 2>{kStageDepth, edge};
  return MemRefType::get(shape, staged.load.getType(),
                         MemRefLayoutAttrInterface(), workgroup);
}

/// The indices into a staged load's tile of the element at `along` its
/// edge and step `trip` of the stage (see getStagedTileType).
static SmallVector<Value, 2> getTileIndices(const StagedLoad &staged,
                                            Value along, Value trip) {
  if (staged.kFastest)
    return {along, trip};
  return {trip, along};
}

/// Sets `plan`'s shared tiles where the k loop can run through workgroup
/// memory: an scf.for of signed bounds or an scf.parallel, carried values
/// of at most 8 bytes an output, staged loads of scalars; each shape whose
/// tiles fit in static workgroup memory.
static void planSharedTiles(RegisterTilePlan &plan, Operation *kLoop,
                            const DenseMap<Operation *, std::pair<bool, bool>>
                                &deps,
                            int64_t threads) {
  if (auto forOp = dyn_cast<scf::ForOp>(kLoop); forOp && forOp.getUnsignedCmp())
    return;
  int64_t carriedBytes = 0;
  for (Value init : getKInits(kLoop))
    carriedBytes += getByteWidth(init.getType());
  int64_t cols = carriedBytes <= 4 ? 8 : carriedBytes <= 8 ? 4 : 0;
  if (cols == 0)
    return;
  SmallVector<StagedLoad> stagedLoads = getStagedLoads(getKBody(kLoop), deps);
  for (StagedLoad staged : stagedLoads)
    if (!staged.load.getType().isIntOrIndexOrFloat())
      return;
  auto fits = [&](int64_t rows, int64_t cols) {
    int64_t bytes = 0;
    for (StagedLoad staged : stagedLoads) {
      int64_t edge = getStagedEdge(staged, plan.threadsY, rows, cols);
      MemRefType type = getStagedTileType(staged, edge);
      bytes += type.getNumElements() * getByteWidth(type.getElementType());
    }
    return bytes <= kMaxStagedBytes;
  };
  for (auto [rows, cols] : {std::pair{kSharedRows, cols},
                            std::pair{kSharedRows / 2, cols / 2},
                            std::pair{kSharedRows / 4, cols / 4}})
    if (cols > 0 && fits(rows, cols))
      plan.sharedShapes.push_back({rows, cols});
}

bool threadbind::allowsRegisterTiles(const LoopMappingOptions &options) {
  int64_t threads = options.threadsPerBlock;
  return options.registerTiles && options.blockShape.empty() &&
         options.dimOrder.empty() && threads >= 2 * kThreadsX &&
         threads % kThreadsX == 0;
}

static std::optional<RegisterTilePlan>
matchRegisterTilesIgnoring(scf::ParallelOp loop,
                           const LoopMappingOptions &options,
                           const DenseSet<Operation *> &ignored);

std::optional<RegisterTilePlan>
threadbind::matchRegisterTiles(scf::ParallelOp loop,
                               const LoopMappingOptions &options) {
  return matchRegisterTilesIgnoring(loop, options, {});
}

/// The ops of a 1-D loop's body that a split would move out (see
/// splitTriangleEffects): all but its one nested scf.parallel and the pure
/// ops that loop uses; empty where there are none with side effects, or
/// where one is not a load or store of no regions.
static DenseSet<Operation *> getSplittableEffects(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1 || loop.getNumResults() != 0)
    return {};
  Block *body = loop.getBody();
  scf::ParallelOp inner;
  for (Operation &op : body->without_terminator())
    if (auto nested = dyn_cast<scf::ParallelOp>(op)) {
      if (inner)
        return {};
      inner = nested;
    }
  if (!inner)
    return {};
  // What the nested loop uses of the body stays with it.
  SmallVector<Value> used;
  inner->walk([&](Operation *op) { llvm::append_range(used, op->getOperands()); });
  DenseSet<Operation *> kept = {inner};
  for (Operation *op : getSlice(body, used)) {
    if (!isPure(op) || op->getNumRegions() != 0)
      return {};
    kept.insert(op);
  }
  DenseSet<Operation *> moved;
  bool anyEffect = false;
  for (Operation &op : body->without_terminator()) {
    if (kept.contains(&op))
      continue;
    if (op.getNumRegions() != 0 ||
        !(isPure(&op) || isa<memref::LoadOp, memref::StoreOp>(op)))
      return {};
    anyEffect |= !isPure(&op);
    moved.insert(&op);
  }
  if (!anyEffect)
    return {};
  return moved;
}

/// The ops a split of `loop` moves out, where the split makes it a
/// register-tiled nest and it is not one already; empty otherwise.
static DenseSet<Operation *>
getEffectsToSplit(scf::ParallelOp loop, const LoopMappingOptions &options) {
  DenseSet<Operation *> moved = getSplittableEffects(loop);
  if (moved.empty() || matchRegisterTiles(loop, options) ||
      !matchRegisterTilesIgnoring(loop, options, moved))
    return {};
  return moved;
}

bool threadbind::isRegisterTiledAfterSplit(scf::ParallelOp loop,
                                           const LoopMappingOptions &options) {
  return !getEffectsToSplit(loop, options).empty();
}

std::optional<scf::ParallelOp>
threadbind::splitTriangleEffects(RewriterBase &rewriter, scf::ParallelOp loop,
                                 const LoopMappingOptions &options) {
  DenseSet<Operation *> moved = getEffectsToSplit(loop, options);
  if (moved.empty())
    return std::nullopt;
  // The moved ops and the pure ops they use, in order, in a loop over the
  // same range before `loop`.
  Block *body = loop.getBody();
  SmallVector<Value> used;
  for (Operation *op : moved)
    llvm::append_range(used, op->getOperands());
  DenseSet<Operation *> cloned(moved.begin(), moved.end());
  for (Operation *op : getSlice(body, used))
    cloned.insert(op);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  auto first = scf::ParallelOp::create(rewriter, loop.getLoc(),
                                       loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep());
  IRMapping mapping;
  mapping.map(loop.getInductionVars(), first.getInductionVars());
  rewriter.setInsertionPoint(first.getBody()->getTerminator());
  for (Operation &op : body->without_terminator())
    if (cloned.contains(&op))
      rewriter.clone(op, mapping);
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(body->without_terminator())))
    if (moved.contains(&op) && op.use_empty())
      rewriter.eraseOp(&op);
  return first;
}

static std::optional<RegisterTilePlan>
matchRegisterTilesIgnoring(scf::ParallelOp loop,
                           const LoopMappingOptions &options,
                           const DenseSet<Operation *> &ignored) {
  if (!allowsRegisterTiles(options) || loop.getNumResults() != 0)
    return std::nullopt;
  int64_t threads = options.threadsPerBlock;
  TileNest nest;
  if (loop.getNumLoops() == 2) {
    nest = {loop, loop, 0, 1};
  } else if (std::optional<TileNest> triangle =
                 matchTriangle(loop, ignored)) {
    nest = *triangle;
  } else {
    return std::nullopt;
  }
  std::optional<NestParts> parts = splitBody(nest.inner);
  if (!parts || !isTileableKLoop(nest, parts->kLoop))
    return std::nullopt;
  std::optional<unsigned> colDim =
      getStoreColumnDim(nest.inner, parts->epilogue);
  if (!colDim)
    return std::nullopt;
  RegisterTilePlan plan;
  if (nest.isTriangular()) {
    // The columns must be the inner loop's: its bounds are what vary.
    plan.columnLoop = nest.inner;
    plan.rowDim = plan.colDim = 0;
  } else {
    plan.colDim = nest.colDim = *colDim;
    plan.rowDim = nest.rowDim = 1 - *colDim;
  }
  plan.kLoop = parts->kLoop;
  // Worth it only where some loads are shared: one along the row and one
  // along the column (matmul-shaped), each depending on k.
  Block *body = getKBody(parts->kLoop);
  DenseMap<Operation *, std::pair<bool, bool>> deps =
      classifyDependences(body, nest.rowIV(), nest.colIV());
  bool rowShared = false, colShared = false;
  for (auto load : body->getOps<memref::LoadOp>()) {
    auto [row, col] = deps.lookup(load);
    rowShared |= row && !col;
    colShared |= col && !row;
  }
  if (!rowShared || !colShared)
    return std::nullopt;
  plan.threadsY = threads / kThreadsX;
  if (options.sharedTiles)
    planSharedTiles(plan, parts->kLoop, deps, threads);
  return plan;
}

namespace {
/// Builds the launches of one nest: the bounds of its rows and of the
/// rectangle of its columns, computed once on the host.
class TileEmitter {
public:
  TileEmitter(RewriterBase &rewriter, TileNest nest,
              const RegisterTilePlan &plan)
      : rewriter(rewriter), nest(nest), plan(plan), loc(nest.outer.getLoc()),
        parts(*splitBody(nest.inner)) {
    Block *body = getKBody(parts.kLoop);
    deps = classifyDependences(body, nest.rowIV(), nest.colIV());
    stagedLoads = getStagedLoads(body, deps);
  }

  /// The trip counts and bounds, at the rewriter's insertion point.
  void computeBounds();

  /// The tiles of `rows` x `cols` outputs a thread across the columns,
  /// and in all.
  struct TileCounts {
    Value colTiles, tiles;
  };
  TileCounts countTiles(int64_t rows, int64_t cols);

  /// A launch whose threads each compute `rows` x `cols` outputs, at the
  /// rewriter's insertion point; with `shared`, its k loop staged through
  /// workgroup memory.
  void emitLaunch(int64_t rows, int64_t cols, bool shared);

private:
  /// Where the value of staged load `index` (of stagedLoads) for the tile's
  /// row `r` (a load along the rows) or column `c` comes from.
  using StagedValue = function_ref<Value(unsigned index, int64_t r, int64_t c)>;

  /// The k loop's body for every output of a `rows` x `cols` tile, at the
  /// insertion point: k is `k`, the outputs' carried values `carried` (each
  /// output's in turn). Staged loads take their values from `stagedValue`
  /// where it is given. Returns the values to carry on.
  SmallVector<Value> emitKBody(Value k, ValueRange carried,
                               ArrayRef<Value> rowIVs, ArrayRef<Value> colIVs,
                               int64_t rows, int64_t cols,
                               StagedValue stagedValue);
  /// A loop from `lb` to `ub` by `step` (with `byTrips`, over trip indices
  /// in that range, k = the k loop's lb + index * step) running emitKBody
  /// from `inits`; returns its results.
  SmallVector<Value> emitKLoop(Value lb, Value ub, Value step,
                               ValueRange inits, ArrayRef<Value> rowIVs,
                               ArrayRef<Value> colIVs, int64_t rows,
                               int64_t cols, StagedValue stagedValue,
                               bool byTrips);
  /// The k loop through workgroup memory: kStageDepth steps at a time, the
  /// staged loads read by the block into its tiles, then the steps left
  /// over from memory. Returns the final carried values.
  /// Where `active` is given, a block for which it is false runs no step.
  SmallVector<Value> emitSharedKLoop(gpu::LaunchOp launch,
                                     ArrayRef<Value> rowIVs,
                                     ArrayRef<Value> colIVs, int64_t rows,
                                     int64_t cols, Value firstRow,
                                     Value firstCol, ValueRange inits,
                                     Value active);
  /// The k loop's bounds.
  Value lb() { return getKBounds(parts.kLoop)[0]; }
  Value ub() { return getKBounds(parts.kLoop)[1]; }
  Value step() { return getKBounds(parts.kLoop)[2]; }

  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }
  /// A triangular nest's column bounds, lower and upper, for row induction
  /// variable `row`.
  std::pair<Value, Value> columnBoundsAt(Value row);
  /// Whether the tile of `tileRows` x `tileCols` at row and column indices
  /// `firstRow`, `firstCol` may hold an output of a triangular nest: its
  /// columns meet the range the column bounds span over its rows (at its
  /// first or last row, as they are linear in the row). True for every
  /// tile that does hold one.
  Value tileMeetsTriangle(Value firstRow, Value firstCol, int64_t tileRows,
                          int64_t tileCols);

  RewriterBase &rewriter;
  TileNest nest;
  const RegisterTilePlan &plan;
  Location loc;
  NestParts parts;
  DenseMap<Operation *, std::pair<bool, bool>> deps;
  SmallVector<StagedLoad> stagedLoads;
  Value rowLb, rowStep, rowTrips, colLb, colStep, colTrips;
};
} // namespace

std::pair<Value, Value> TileEmitter::columnBoundsAt(Value row) {
  Value lb = nest.inner.getLowerBound()[0], ub = nest.inner.getUpperBound()[0];
  if (nest.outer.isDefinedOutsideOfLoop(lb) &&
      nest.outer.isDefinedOutsideOfLoop(ub))
    return {lb, ub};
  // The outer body before the column loop computes its bounds.
  IRMapping mapping;
  mapping.map(nest.rowIV(), row);
  for (Operation &op : nest.outer.getBody()->without_terminator()) {
    if (&op == nest.inner.getOperation())
      break;
    rewriter.clone(op, mapping);
  }
  return {mapping.lookupOrDefault(lb), mapping.lookupOrDefault(ub)};
}

Value TileEmitter::tileMeetsTriangle(Value firstRow, Value firstCol,
                                     int64_t tileRows, int64_t tileCols) {
  Value one = cst(1);
  auto at = [&](Value first, int64_t extent, Value trips, Value lb,
                Value step) -> std::pair<Value, Value> {
    Value last = arith::MinUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, first, cst(extent - 1)),
        arith::SubIOp::create(rewriter, loc, trips, one));
    auto iv = [&](Value index) {
      return arith::AddIOp::create(
          rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, index, step));
    };
    return {iv(first), iv(last)};
  };
  auto [row0, row1] = at(firstRow, tileRows, rowTrips, rowLb, rowStep);
  auto [col0, col1] = at(firstCol, tileCols, colTrips, colLb, colStep);
  auto [lb0, ub0] = columnBoundsAt(row0);
  auto [lb1, ub1] = columnBoundsAt(row1);
  Value lo = arith::MinSIOp::create(rewriter, loc, lb0, lb1);
  Value hi = arith::MaxSIOp::create(rewriter, loc, ub0, ub1);
  return arith::AndIOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, col0,
                            hi),
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, col1,
                            lo));
}

void TileEmitter::computeBounds() {
  rowLb = nest.outer.getLowerBound()[nest.rowDim];
  rowStep = nest.outer.getStep()[nest.rowDim];
  rowTrips = createTripCount(rewriter, loc, nest.outer, nest.rowDim);
  colStep = nest.inner.getStep()[nest.colDim];
  if (!nest.isTriangular()) {
    colLb = nest.outer.getLowerBound()[nest.colDim];
    colTrips = createTripCount(rewriter, loc, nest.outer, nest.colDim);
    return;
  }
  // Bounds linear in the row are extreme at the first and the last row
  // (the first again where there are none: nothing then runs).
  Value lastIndex = arith::SubIOp::create(
      rewriter, loc, arith::MaxUIOp::create(rewriter, loc, rowTrips, cst(1)),
      cst(1));
  Value lastRow = arith::AddIOp::create(
      rewriter, loc, rowLb,
      arith::MulIOp::create(rewriter, loc, lastIndex, rowStep));
  auto [firstLb, firstUb] = columnBoundsAt(rowLb);
  auto [lastLb, lastUb] = columnBoundsAt(lastRow);
  colLb = arith::MinSIOp::create(rewriter, loc, firstLb, lastLb);
  Value colUb = arith::MaxSIOp::create(rewriter, loc, firstUb, lastUb);
  colTrips = createTripCount(rewriter, loc, colLb, colUb, colStep);
}

TileEmitter::TileCounts TileEmitter::countTiles(int64_t rows, int64_t cols) {
  Value rowTiles = arith::CeilDivUIOp::create(
      rewriter, loc, rowTrips, cst(plan.threadsY * rows));
  Value colTiles =
      arith::CeilDivUIOp::create(rewriter, loc, colTrips, cst(kThreadsX * cols));
  return {colTiles, arith::MulIOp::create(rewriter, loc, rowTiles, colTiles)};
}

void TileEmitter::emitLaunch(int64_t rows, int64_t cols, bool shared) {
  OpBuilder::InsertionGuard guard(rewriter);
  Value rowIV = nest.rowIV(), colIV = nest.colIV();
  int64_t tileRows = plan.threadsY * rows, tileCols = kThreadsX * cols;
  auto [colTiles, tiles] = countTiles(rows, cols);
  Value grid = arith::MinUIOp::create(rewriter, loc, tiles,
                                      cst(GpuLimits::kMaxGridDim[0]));
  Value one = cst(1);
  // An empty row or column range launches nothing.
  Value smaller = arith::MinUIOp::create(rewriter, loc, rowTrips, colTrips);
  // A shared tile's workgroup memory: a tile a staged load.
  SmallVector<Type> tileTypes;
  if (shared)
    for (const StagedLoad &staged : stagedLoads)
      tileTypes.push_back(getStagedTileType(
          staged, getStagedEdge(staged, plan.threadsY, rows, cols)));
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, grid, one, one, cst(kThreadsX), cst(plan.threadsY), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tileTypes);
  rewriter.setInsertionPointToEnd(&launch.getBody().front());
  rewriter.setInsertionPoint(gpu::TerminatorOp::create(rewriter, loc));
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

  // Each row and column of the thread's tile: its position in the
  // rectangle, and its induction variable (past the end, the last one's).
  auto indexAt = [&](Value first, Value thread, int64_t spacing, int64_t e) {
    return arith::AddIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, first, thread),
        cst(e * spacing));
  };
  // Clamped to the last index where `trips` is given.
  auto ivsAt = [&](Value first, Value thread, int64_t spacing, int64_t n,
                   Value lb, Value step, Value trips) {
    Value last =
        trips ? arith::SubIOp::create(rewriter, loc, trips, one).getResult()
              : Value();
    SmallVector<Value> ivs;
    for (int64_t e = 0; e < n; ++e) {
      Value index = indexAt(first, thread, spacing, e);
      if (last)
        index = arith::MinUIOp::create(rewriter, loc, index, last);
      ivs.push_back(arith::AddIOp::create(
          rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, index, step)));
    }
    return ivs;
  };
  SmallVector<Value> rowIVs =
      ivsAt(firstRow, ty, plan.threadsY, rows, rowLb, rowStep, rowTrips);
  SmallVector<Value> colIVs =
      ivsAt(firstCol, tx, kThreadsX, cols, colLb, colStep, colTrips);

  // Which outputs of the tile the nest has, at the insertion point; in a
  // triangle, also whether any does. A rectangle's are computed after the
  // k loop, so they do not take registers through it.
  int64_t outputs = rows * cols;
  Value anyInside;
  auto computeInside = [&] {
    auto isInside = [&](Value first, Value thread, int64_t spacing, int64_t n,
                        Value trips) {
      SmallVector<Value> inside;
      for (int64_t e = 0; e < n; ++e)
        inside.push_back(arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult,
            indexAt(first, thread, spacing, e), trips));
      return inside;
    };
    SmallVector<Value> rowInside =
        isInside(firstRow, ty, plan.threadsY, rows, rowTrips);
    SmallVector<Value> colInside =
        isInside(firstCol, tx, kThreadsX, cols, colTrips);
    SmallVector<Value> inside(outputs);
    for (int64_t r = 0; r < rows; ++r) {
      Value lb, ub;
      if (nest.isTriangular())
        std::tie(lb, ub) = columnBoundsAt(rowIVs[r]);
      for (int64_t c = 0; c < cols; ++c) {
        Value in = arith::AndIOp::create(rewriter, loc, rowInside[r],
                                         colInside[c]);
        if (nest.isTriangular()) {
          Value above = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::sge, colIVs[c], lb);
          Value below = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::slt, colIVs[c], ub);
          in = arith::AndIOp::create(
              rewriter, loc, in,
              arith::AndIOp::create(rewriter, loc, above, below));
          anyInside = anyInside
                          ? arith::OrIOp::create(rewriter, loc, anyInside, in)
                                .getResult()
                          : in;
        }
        inside[r * cols + c] = in;
      }
    }
    return inside;
  };
  // A thread of a triangle with no output inside skips the k loop. With
  // shared tiles, whose barriers every thread of the block must reach, a
  // block whose tile does not meet the triangle runs no step of it instead.
  SmallVector<Value> inside;
  Value meets;
  if (nest.isTriangular() && shared) {
    meets = tileMeetsTriangle(firstRow, firstCol, tileRows, tileCols);
  } else if (nest.isTriangular()) {
    inside = computeInside();
    auto ifAny = scf::IfOp::create(rewriter, loc, anyInside);
    rewriter.setInsertionPoint(ifAny.thenBlock()->getTerminator());
  }

  // The prologue for every output of the tile.
  unsigned carried = getKInits(parts.kLoop).size();
  SmallVector<IRMapping> perOutput;
  SmallVector<Value> inits;
  ValueRange kInits = getKInits(parts.kLoop);
  for (int64_t o = 0; o < outputs; ++o) {
    IRMapping mapping;
    mapping.map(rowIV, rowIVs[o / cols]);
    mapping.map(colIV, colIVs[o % cols]);
    for (Operation *op : parts.prologue)
      rewriter.clone(*op, mapping);
    for (Value init : kInits)
      inits.push_back(mapping.lookupOrDefault(init));
    perOutput.push_back(std::move(mapping));
  }

  // The k loop, carrying every output's values.
  SmallVector<Value> results =
      shared ? emitSharedKLoop(launch, rowIVs, colIVs, rows, cols, firstRow,
                               firstCol, inits, meets)
             : emitKLoop(lb(), ub(), step(), inits, rowIVs, colIVs, rows,
                         cols, /*stagedValue=*/nullptr, /*byTrips=*/false);

  // The epilogue of each output the nest has. It runs only inside the
  // rectangle, where the induction variables need no clamping: unclamped,
  // they are affine in the tile's row and column, so the stores' addresses
  // are a few registers and constant offsets, not one an output kept from
  // the prologue through the k loop.
  if (inside.empty())
    inside = computeInside();
  SmallVector<Value> storeRows =
      ivsAt(firstRow, ty, plan.threadsY, rows, rowLb, rowStep, nullptr);
  SmallVector<Value> storeCols =
      ivsAt(firstCol, tx, kThreadsX, cols, colLb, colStep, nullptr);
  for (int64_t o = 0; o < outputs; ++o) {
    auto ifInside = scf::IfOp::create(rewriter, loc, inside[o]);
    OpBuilder::InsertionGuard inner(rewriter);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    IRMapping &mapping = perOutput[o];
    mapping.map(rowIV, storeRows[o / cols]);
    mapping.map(colIV, storeCols[o % cols]);
    for (unsigned v = 0; v < carried; ++v)
      mapping.map(parts.kLoop->getResult(v), results[o * carried + v]);
    for (Operation *op : parts.epilogue)
      rewriter.clone(*op, mapping);
  }
  guardOnPositive(rewriter, launch, smaller);
}

SmallVector<Value> TileEmitter::emitKBody(Value k, ValueRange carried,
                                          ArrayRef<Value> rowIVs,
                                          ArrayRef<Value> colIVs, int64_t rows,
                                          int64_t cols,
                                          StagedValue stagedValue) {
  Value rowIV = nest.rowIV(), colIV = nest.colIV();
  Block *body = getKBody(parts.kLoop);
  int64_t outputs = rows * cols;
  unsigned perOutput = getKInits(parts.kLoop).size();
  DenseMap<Operation *, unsigned> staged;
  if (stagedValue)
    for (auto [index, load] : llvm::enumerate(stagedLoads))
      staged[load.load] = index;
  // One mapping an output; an op that depends on neither the row nor the
  // column is made once, on the row alone once a row, and so on: each
  // output's mapping then finds the copy its row and column share.
  SmallVector<IRMapping> at(outputs);
  for (int64_t o = 0; o < outputs; ++o) {
    at[o].map(rowIV, rowIVs[o / cols]);
    at[o].map(colIV, colIVs[o % cols]);
    at[o].map(body->getArgument(0), k);
    if (isa<scf::ForOp>(parts.kLoop))
      for (unsigned v = 0; v < perOutput; ++v)
        at[o].map(body->getArgument(1 + v), carried[o * perOutput + v]);
  }
  for (Operation &op : body->without_terminator()) {
    auto [row, col] = deps.lookup(&op);
    for (int64_t o = 0; o < outputs; ++o) {
      int64_t r = o / cols, c = o % cols;
      // The first output of the group that shares this op makes it.
      int64_t owner = (row ? r : 0) * cols + (col ? c : 0);
      if (owner != o) {
        for (Value result : op.getResults())
          at[o].map(result, at[owner].lookup(result));
        continue;
      }
      if (auto it = staged.find(&op); it != staged.end()) {
        at[o].map(op.getResult(0), stagedValue(it->second, r, c));
        continue;
      }
      rewriter.clone(op, at[o]);
    }
  }
  SmallVector<Value> next;
  for (int64_t o = 0; o < outputs; ++o) {
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
      combine.map(combiner.getArgument(0), carried[o * perOutput + v]);
      combine.map(combiner.getArgument(1), at[o].lookupOrDefault(operand));
      for (Operation &op : combiner.without_terminator())
        rewriter.clone(op, combine);
      auto ret = cast<scf::ReduceReturnOp>(combiner.getTerminator());
      next.push_back(combine.lookupOrDefault(ret.getResult()));
    }
  }
  return next;
}

SmallVector<Value> TileEmitter::emitKLoop(Value from, Value to, Value by,
                                          ValueRange inits,
                                          ArrayRef<Value> rowIVs,
                                          ArrayRef<Value> colIVs, int64_t rows,
                                          int64_t cols, StagedValue stagedValue,
                                          bool byTrips) {
  auto loop = scf::ForOp::create(rewriter, loc, from, to, by, inits);
  // Trip indices run up to an unsigned trip count.
  if (byTrips)
    loop.setUnsignedCmp(true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  if (byTrips)
    k = arith::AddIOp::create(rewriter, loc, lb(),
                              arith::MulIOp::create(rewriter, loc, k, step()));
  scf::YieldOp::create(rewriter, loc,
                       emitKBody(k, loop.getRegionIterArgs(), rowIVs, colIVs,
                                 rows, cols, stagedValue));
  return loop.getResults();
}

SmallVector<Value> TileEmitter::emitSharedKLoop(
    gpu::LaunchOp launch, ArrayRef<Value> rowIVs, ArrayRef<Value> colIVs,
    int64_t rows, int64_t cols, Value firstRow, Value firstCol,
    ValueRange inits, Value active) {
  Value zero = cst(0), one = cst(1), depth = cst(kStageDepth);
  Value kTrips = createTripCount(rewriter, loc, lb(), ub(), step());
  if (active)
    kTrips = arith::SelectOp::create(rewriter, loc, active, kTrips, zero);
  Value stages = arith::DivUIOp::create(rewriter, loc, kTrips, depth);
  gpu::KernelDim3 ids = launch.getThreadIds();
  Value threads = cst(kThreadsX * plan.threadsY);
  Value linear = arith::AddIOp::create(
      rewriter, loc, ids.x,
      arith::MulIOp::create(rewriter, loc, ids.y, cst(kThreadsX)));
  Block *body = getKBody(parts.kLoop);
  auto tiles = launch.getWorkgroupAttributions();

  // Each thread's share of the block's reads: of every staged load, the
  // elements linear + threads m, consecutive threads along memory; each
  // with its place in the tile, the same at every stage.
  // Where the elements are not a multiple of the threads, the last share
  // is a test: threads past the end read the last element (any address
  // in the tile's range would do) and store nothing.
  struct Share {
    unsigned index;
    Value along, trip, valid;
  };
  SmallVector<Share> shares;
  int64_t threadCount = kThreadsX * plan.threadsY;
  for (auto [index, staged] : llvm::enumerate(stagedLoads)) {
    int64_t edge = getStagedEdge(staged, plan.threadsY, rows, cols);
    int64_t total = edge * kStageDepth;
    Value edgeValue = cst(edge);
    for (int64_t m = 0, e = llvm::divideCeil(total, threadCount); m < e; ++m) {
      Value element = arith::AddIOp::create(
          rewriter, loc, linear,
          arith::MulIOp::create(rewriter, loc, threads, cst(m)));
      Share share{static_cast<unsigned>(index), nullptr, nullptr, nullptr};
      if ((m + 1) * threadCount > total) {
        share.valid = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult, element, cst(total));
        element = arith::MinUIOp::create(rewriter, loc, element,
                                         cst(total - 1));
      }
      if (staged.kFastest) {
        share.trip = arith::RemUIOp::create(rewriter, loc, element, depth);
        share.along = arith::DivUIOp::create(rewriter, loc, element, depth);
      } else {
        share.along = arith::RemUIOp::create(rewriter, loc, element, edgeValue);
        share.trip = arith::DivUIOp::create(rewriter, loc, element, edgeValue);
      }
      shares.push_back(share);
    }
  }
  // The k value of step `trip` of stage `stage`.
  auto kAt = [&](Value stage, Value trip) {
    Value index = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, stage, depth),
        trip);
    return arith::AddIOp::create(
        rewriter, loc, lb(), arith::MulIOp::create(rewriter, loc, index, step()));
  };
  // Each staged load with the ops of the k body its indices come from, in
  // order: what a thread clones to read an element of it.
  SmallVector<SmallVector<Operation *>> loadSlices;
  for (StagedLoad staged : stagedLoads) {
    loadSlices.push_back(
        getSlice(body, staged.load.getOperation()->getOperands()));
    loadSlices.back().push_back(staged.load);
  }
  // This thread's share of stage `stage`, read from memory. Rows or
  // columns past the end read the last one, as the threads' own do.
  auto loadStage = [&](Value stage) {
    SmallVector<Value> values;
    for (const Share &share : shares) {
      StagedLoad staged = stagedLoads[share.index];
      Value iv = staged.alongRow ? nest.rowIV() : nest.colIV();
      Value first = staged.alongRow ? firstRow : firstCol;
      Value ivLb = staged.alongRow ? rowLb : colLb;
      Value ivStep = staged.alongRow ? rowStep : colStep;
      Value trips = staged.alongRow ? rowTrips : colTrips;
      Value clamped = arith::MinUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, first, share.along),
          arith::SubIOp::create(rewriter, loc, trips, one));
      IRMapping mapping;
      mapping.map(iv, arith::AddIOp::create(
                          rewriter, loc, ivLb,
                          arith::MulIOp::create(rewriter, loc, clamped,
                                                ivStep)));
      mapping.map(body->getArgument(0), kAt(stage, share.trip));
      for (Operation *op : loadSlices[share.index])
        rewriter.clone(*op, mapping);
      values.push_back(mapping.lookup(staged.load.getResult()));
    }
    return values;
  };

  // With few outputs a thread, the first stage is read before the loop
  // (where there is one), and each stage reads the next before it
  // computes: the loads are in flight while the block multiplies. With 8x8
  // outputs the registers that takes cost a block a multiprocessor: on an
  // H200, gemm at 2048 took 0.668 ms reading ahead (172 registers, one
  // block) against 0.612 without (122, two), while at 1024 the 4x4 tiles
  // took 0.125 against 0.148.
  bool readAhead = rows * cols <= kReadAheadOutputs;
  SmallVector<Value> carried(inits.begin(), inits.end());
  if (readAhead) {
    SmallVector<Type> shareTypes =
        llvm::map_to_vector(shares, [&](const Share &share) {
          StagedLoad staged = stagedLoads[share.index];
          return staged.load.getType();
        });
    Value anyStage = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, stages, zero);
    llvm::append_range(carried,
                       createIfElseZeros(rewriter, loc, anyStage, shareTypes,
                                         [&] { return loadStage(zero); }));
  }
  auto stageLoop =
      scf::ForOp::create(rewriter, loc, zero, stages, one, carried);
  stageLoop.setUnsignedCmp(true);
  unsigned accumulators = inits.size();
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(stageLoop.getBody());
    Value stage = stageLoop.getInductionVar();
    SmallVector<Value> loaded =
        readAhead ? SmallVector<Value>(
                        stageLoop.getRegionIterArgs().drop_front(accumulators))
                  : loadStage(stage);
    for (auto [share, value] : llvm::zip_equal(shares, loaded)) {
      OpBuilder::InsertionGuard inner(rewriter);
      if (share.valid)
        rewriter.setInsertionPoint(
            scf::IfOp::create(rewriter, loc, share.valid)
                .thenBlock()
                ->getTerminator());
      memref::StoreOp::create(
          rewriter, loc, value, tiles[share.index],
          getTileIndices(stagedLoads[share.index], share.along, share.trip));
    }
    gpu::BarrierOp::create(rewriter, loc);
    // The next stage (the last again at the last: the same reads, unused).
    SmallVector<Value> nextValues;
    if (readAhead)
      nextValues = loadStage(arith::MinUIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, stage, one),
          arith::SubIOp::create(rewriter, loc, stages, one)));

    // The steps from the tiles: row r of a thread's tile is the block's row
    // ty + threadsY r, column c its column tx + 32 c.
    Value stepTrip;
    auto fromTile = [&](unsigned index, int64_t r, int64_t c) {
      const StagedLoad &staged = stagedLoads[index];
      Value along =
          staged.alongRow
              ? arith::AddIOp::create(rewriter, loc, ids.y,
                                      cst(r * plan.threadsY))
              : arith::AddIOp::create(rewriter, loc, ids.x,
                                      cst(c * kThreadsX));
      return memref::LoadOp::create(rewriter, loc, tiles[index],
                                    getTileIndices(staged, along, stepTrip))
          .getResult();
    };
    auto stepLoop = scf::ForOp::create(
        rewriter, loc, zero, depth, one,
        stageLoop.getRegionIterArgs().take_front(accumulators));
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPointToStart(stepLoop.getBody());
      stepTrip = stepLoop.getInductionVar();
      scf::YieldOp::create(rewriter, loc,
                           emitKBody(kAt(stage, stepTrip),
                                     stepLoop.getRegionIterArgs(), rowIVs,
                                     colIVs, rows, cols, fromTile));
    }
    // The tiles are read before the next stage writes them.
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> yielded(stepLoop.getResults());
    llvm::append_range(yielded, nextValues);
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  // The steps left over, from memory.
  Value done = arith::MulIOp::create(rewriter, loc, stages, depth);
  return emitKLoop(done, kTrips, one,
                   stageLoop.getResults().take_front(accumulators), rowIVs,
                   colIVs, rows, cols, /*stagedValue=*/nullptr,
                   /*byTrips=*/true);
}

bool threadbind::mapRegisterTiles(RewriterBase &rewriter, scf::ParallelOp loop,
                                  const RegisterTilePlan &plan,
                                  const LoopMappingOptions &options) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  TileNest nest = plan.columnLoop
                      ? TileNest{loop, plan.columnLoop, 0, 0}
                      : TileNest{loop, loop, plan.rowDim, plan.colDim};
  TileEmitter emitter(rewriter, nest, plan);
  emitter.computeBounds();
  Value resident =
      createGridCap(rewriter, loc, options.threadsPerBlock, options.maxBlocks);
  // Shared tiles where they are a block for every kSharedTileShare the
  // device holds: the largest shape that gives that many. Fewer leave
  // multiprocessors idle: on an H200, gemm at 512 as 64 tiles of 4x4 took
  // 0.098 ms against 0.060 with a thread an output, and as 256 tiles of
  // 2x2 0.035.
  for (auto [rows, cols] : plan.sharedShapes) {
    Value sharedTiles = emitter.countTiles(rows, cols).tiles;
    Value enough = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::uge,
        arith::MulIOp::create(
            rewriter, loc, sharedTiles,
            arith::ConstantIndexOp::create(rewriter, loc, kSharedTileShare)),
        resident);
    auto ifShared = scf::IfOp::create(rewriter, loc, enough, /*withElse=*/true);
    rewriter.setInsertionPoint(ifShared.thenBlock()->getTerminator());
    emitter.emitLaunch(rows, cols, /*shared=*/true);
    rewriter.setInsertionPoint(ifShared.elseBlock()->getTerminator());
  }
  // Tiles while they fill the device: at least a block for every block it
  // holds at once.
  Value enough = arith::CmpIOp::create(rewriter, loc,
                                       arith::CmpIPredicate::uge,
                                       emitter.countTiles(kRows, kCols).tiles,
                                       resident);
  auto ifEnough = scf::IfOp::create(rewriter, loc, enough, /*withElse=*/true);
  rewriter.setInsertionPoint(ifEnough.thenBlock()->getTerminator());
  emitter.emitLaunch(kRows, kCols, /*shared=*/false);
  rewriter.setInsertionPoint(ifEnough.elseBlock()->getTerminator());
  if (!nest.isTriangular()) {
    rewriter.moveOpBefore(loop, ifEnough.elseBlock()->getTerminator());
    return true;
  }
  emitter.emitLaunch(1, 1, /*shared=*/false);
  rewriter.eraseOp(loop);
  return false;
}
