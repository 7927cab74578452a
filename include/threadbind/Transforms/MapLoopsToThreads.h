//===- MapLoopsToThreads.h - Bind parallel loops to the GPU -----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Planning and rewriting behind threadbind-map-loops-to-threads: choose
// which loop dimension goes to threadIdx.x (the one that walks memory
// contiguously), a block shape and a grid policy, then turn the scf.parallel
// into a gpu.launch with strip-mined, grid-stride loops.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_MAPLOOPSTOTHREADS_H
#define THREADBIND_TRANSFORMS_MAPLOOPSTOTHREADS_H

#include "threadbind/Target/Target.h"
#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/PassEnums.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class ModuleOp;
class OpBuilder;
class RewriterBase;
namespace gpu {
class LaunchOp;
} // namespace gpu
} // namespace mlir

namespace mlir::threadbind {

/// Name of the host function that a grid-stride launch asks for the number of
/// blocks that can be resident on the device at once, when no static cap is
/// given. The runtime library provides it (occupancy x SM count); any module
/// may define it instead.
inline constexpr llvm::StringLiteral kMaxResidentBlocksFn =
    "threadbind_max_resident_blocks";

/// The same query once kernels are outlined: `(threads per block, kernel
/// name as a NUL-terminated string) -> blocks`; see BindGridQueriesPass.
inline constexpr llvm::StringLiteral kKernelResidentBlocksFn =
    "threadbind_kernel_resident_blocks";

/// Iterations of a loop from `lb` to `ub` by `step` (positive, as in
/// scf.parallel): ceildiv(ub - lb, step) when ub > lb, else 0. The span is
/// taken as an unsigned number, so it is exact for any bounds of the index
/// type, however far apart.
Value createTripCount(OpBuilder &builder, Location loc, Value lb, Value ub,
                      Value step);

/// The trip count of dimension `dim` of `loop`.
Value createTripCount(OpBuilder &builder, Location loc, scf::ParallelOp loop,
                      unsigned dim);

/// The trip count of dimension `d` of `loop`, if its bounds and step are
/// constants and the count fits in int64_t. The span `ub - lb` is taken as
/// an unsigned number, so bounds of opposite signs near the limits of the
/// index type count right.
std::optional<int64_t> getStaticTripCount(scf::ParallelOp loop, unsigned d);

/// The most blocks a grid-stride launch of `threadsPerBlock`-thread blocks
/// should use: `maxBlocks` when positive, otherwise a call to
/// kMaxResidentBlocksFn, answered by the host at run time (the caller then
/// declares it with declareMaxResidentBlocks).
Value createGridCap(OpBuilder &builder, Location loc, int64_t threadsPerBlock,
                    int64_t maxBlocks);

/// Checks that a kMaxResidentBlocksFn the module defines or declares has the
/// type grid-stride launches call it with; an error at it otherwise.
LogicalResult verifyMaxResidentBlocksDecl(ModuleOp module);

/// Declares kMaxResidentBlocksFn in `module` unless it is already there.
void declareMaxResidentBlocks(ModuleOp module);

/// The user's choices, as the pass's options declare them in Passes.td
/// (threads a block, block shape and dimension order overriding the
/// analysis, grid policy, a static block cap where 0 asks the host at run
/// time through kMaxResidentBlocksFn); zero or empty means "decide".
using LoopMappingOptions = MapLoopsToThreadsPassOptions;

/// Checks `options` against the hardware limits; returns a message naming
/// the first bad value, or an empty string.
std::string verifyLoopMappingOptions(const LoopMappingOptions &options);

/// The launches a planned loop becomes. A cover
/// grid gives each iteration a thread of its own only where it fits the
/// grid's limits (65,535 blocks along y and z); a launch looping along y
/// and z runs any size, at the price of its loops' set-up in every thread
/// (PolyBench conv3d's kernel on an H200: 47% more instructions, 7% more
/// time; bench/results/2026-11-29-exact-cover-h200.md).
enum class CoverCopies {
  /// One launch, as the policy maps the loop: grid-stride, a row a block,
  /// or a cover launch of a guarded iteration a thread along every
  /// dimension (a 1-D loop, or static sizes that fit).
  Single,
  /// One launch looping along y and z: a static size does not fit.
  Looping,
  /// Both, the host choosing between them at run time.
  Both,
};

/// How one scf.parallel is bound.
struct LoopMappingPlan {
  /// Set when the loop is a nest that runs one outer iteration per block
  /// (grid-stride over blocks) and this nested loop over the block's
  /// threads; `groups` then describe the nested loop's dimensions. Unset
  /// when every dimension of the loop itself goes to threads.
  scf::ParallelOp innerLoop;
  /// Loop dimensions bound to each hardware dimension (x, y, z). A group of
  /// several dimensions is linearised, outermost first, so the last one
  /// varies fastest. At most three groups; no group is empty.
  SmallVector<SmallVector<unsigned, 2>, 3> groups;
  /// Threads per block along x, y, z (1 for unused dimensions).
  SmallVector<int64_t, 3> blockShape;
  /// The explicit block-shape option, where blockShape differs from it:
  /// block dimensions beyond the bound ones are folded into the last bound
  /// one, so no thread repeats another's iterations.
  SmallVector<int64_t, 3> fittedFrom;
  /// Why groups[0] is on x, for remarks.
  std::string reason;
  /// The launches the loop becomes.
  CoverCopies coverCopies = CoverCopies::Single;
  /// Under the grid-stride policy, for a nest that reads rows at shifted
  /// offsets along x (a stencil's, which threadbind-widen-accesses widens
  /// in cover launches only): the elements a vector of `vector-bytes`
  /// holds. The loop then also becomes a cover launch, which the host runs
  /// where every outer stride of the memrefs it accesses is a whole number
  /// of vectors and the grid fits, and widening keeps where it widens it.
  /// 0 for the policy's launch alone.
  int64_t stencilCoverWidth = 0;
  /// The block of that cover launch where it differs from blockShape: in
  /// 3-D, 16 threads along x, a row of blocks 64 elements wide once
  /// widened, so that a row's vectors leave few lanes idle.
  SmallVector<int64_t, 3> stencilCoverBlock;
};

/// Returns success if `loop` can become a kernel: its body has no calls,
/// allocations, gpu ops other than gpu.printf, ops that lower to host
/// runtime calls or ops with unknown effects; it uses no captured value a
/// kernel cannot take, no value the device cannot hold (tensors, memrefs
/// whose layout is not strided) and no arithmetic on floats other than
/// f16, bf16, f32 and f64; and it has no reductions. Otherwise emits an
/// error at the offending op and returns failure. Never modifies the IR.
LogicalResult verifyMappable(scf::ParallelOp loop);

/// The checks of verifyMappable on `loop`'s body alone, for passes that map
/// loops with reductions: verifyRunsOnDevice, then verifyNoUnknownEffects.
LogicalResult verifyMappableBody(scf::ParallelOp loop);

/// Returns success if `ops`, consecutive ops of one block, can become the
/// body of a kernel: the device half of verifyMappable (everything but
/// unknown effects and reductions). Values they use from before them are
/// "defined outside `whole`" in the error. Never modifies the IR.
LogicalResult verifyRunsOnDevice(ArrayRef<Operation *> ops,
                                 StringRef whole = "the loop");

/// Returns success if no op nested in `root` has unknown side effects,
/// which a kernel can run, but not on many threads at once. Otherwise
/// emits an error at the op.
LogicalResult verifyNoUnknownEffects(Operation *root);

/// Warns at a store in `loop`'s body when a load in the body reads, in
/// another iteration, the element it writes (`A[i] = A[i - 1] + ...`): the
/// program then depends on an order of iterations that scf.parallel does
/// not have. Only accesses run in every iteration, to one memref value,
/// whose indices are the loop's induction variables, values the same in
/// every iteration, or inner loops' induction variables, each plus a
/// constant, are compared; at most one warning a loop.
void warnIterationConflicts(scf::ParallelOp loop);

/// An error caught rather than reported: where it was and what it said.
struct Refusal {
  Location loc;
  std::string message;
};

/// Runs `check` with the errors it emits caught instead of reported, and
/// returns the first of them; none if `check` succeeded.
std::optional<Refusal> catchRefusal(MLIRContext *context,
                                    function_ref<LogicalResult()> check);

/// Runs `check`, a mapping pass's checks of `loop`. Without `fallback`
/// its errors are reported, and a failure is failure(). With it they are
/// caught: if `loop` cannot run on the device at all, verifyRunsOnDevice
/// reports why and the result is failure(); otherwise the first error is
/// returned as the refusal that leaves `loop` to one thread. None when
/// `check` succeeds.
FailureOr<std::optional<Refusal>>
checkWithFallback(Operation *loop, bool fallback,
                  function_ref<LogicalResult()> check);

/// Leaves `loop`, which can run on the device but not in parallel, to
/// threadbind-sequential-kernels: marks it, and warns at it naming `why`.
void leaveToOneThread(Operation *loop, const Refusal &why);

/// Plans the binding of `loop`. Fails, with an error at `loop`, only when
/// `options.dimOrder` does not fit the loop, or when a cover grid cannot
/// give each of its static x iterations a thread. With
/// `dimOrderFitsOthers` (the order names dimensions other loops of the
/// program have), a loop of fewer dimensions than it names is ranked by
/// the analysis instead, and its remark says so.
FailureOr<LoopMappingPlan> planLoopMapping(scf::ParallelOp loop,
                                           const LoopMappingOptions &options,
                                           bool dimOrderFitsOthers = false);

/// The rank of `loop` as written (before normalisation folded one-trip
/// dimensions), as dim-order names its dimensions; for a nest run a row a
/// block, the nested loop's.
int64_t getDimOrderRank(scf::ParallelOp loop);

/// A nest whose stores walk memory contiguously along loop dimension
/// `storeDim`, and `stagedLoads` along `loadDim`: a transpose or a
/// permutation, which runs through tiles of workgroup memory.
struct StagedTransposePlan {
  unsigned storeDim = 0;
  unsigned loadDim = 0;
  /// The loop dimensions each side of the tile walks, outermost first and
  /// ending in storeDim / loadDim: a dimension that walks the next memref
  /// dimension out is walked with it as one (NCHW's h and w), so a short
  /// contiguous dimension still fills the tile.
  SmallVector<unsigned, 2> storeAxis, loadAxis;
  /// Threads along y (at most threads-per-block / 32); each covers
  /// 32 * pack / blockRows rows of the tile.
  int64_t blockRows = 8;
  /// Elements each thread moves with one global access along its side of
  /// the tile: 1, or 4 bytes' worth for elements of 1 or 2 bytes, whose
  /// tile is then (32 * pack)^2.
  unsigned pack = 1;
  /// With `pack` > 1: each thread loads `pack` rows of the tile in phase 1,
  /// transposes the pack x pack block in registers and stores it as `pack`
  /// vectors along S, so each phase accesses workgroup memory a vector at a
  /// time (the tile is then edge x edge, XOR-swizzled against bank
  /// conflicts, not padded).
  bool transposeInRegisters = false;
  /// Where more than one (4-byte elements of a 2-D nest, `pack` 1): the
  /// elements a thread moves in a second launch, run instead where the
  /// host finds every access's rows aligned to them, in blocks of
  /// `alignedBlockRows` rows of threads.
  unsigned alignedPack = 1;
  int64_t alignedBlockRows = 8;
  /// Where more than one (elements of 1 or 2 bytes, `pack` > 1): the
  /// elements a thread moves with one 16-byte access along either side in
  /// a second launch, run instead where the host finds every access's rows
  /// aligned to them and its chunks contiguous, in blocks of
  /// `wideBlockRows` rows of threads. Its tile is the plan's, and each
  /// thread transposes `pack` rows of `widePack` elements in registers.
  unsigned widePack = 1;
  int64_t wideBlockRows = 8;
  /// Where more than one (a 2-D nest of one staged load of 4-byte
  /// elements, `pack` 1): the plan's own launch's tile spans
  /// 32 * storeSpread positions of S by 32 of L, and in phase 2 each thread
  /// stores storeSpread elements 32 positions apart, so a block writes
  /// runs of each row that many times longer.
  unsigned storeSpread = 1;
  SmallVector<memref::LoadOp> stagedLoads;

  /// The square tile's edge (packed, aligned and wide launches).
  int64_t getTileEdge() const { return 32 * pack; }
  /// The plan's own launch's tile: positions along S, and along L.
  int64_t getStoreEdge() const { return getTileEdge() * storeSpread; }
  int64_t getLoadEdge() const { return getTileEdge(); }
};

/// The staged-transpose plan for `loop`, if its body is a straight line of
/// loads, pure ops and stores whose stores all walk one dimension with unit
/// stride and some loads (whose indices need no other load) another, and
/// the options leave the mapping to ThreadBind (stage-transposes on, no
/// block shape or dimension order, threads a block a multiple of 32 that
/// divides a 32-row tile into whole rows a thread).
std::optional<StagedTransposePlan>
matchStagedTranspose(scf::ParallelOp loop, const LoopMappingOptions &options);

/// Replaces `loop` by a launch of one block per tile of its (load, store)
/// axes, every other dimension linearised onto blockIdx.x: the staged loads
/// are read coalesced into workgroup memory, and after a barrier the body
/// runs with its stores coalesced. With `plan.alignedPack`, an scf.if on
/// the host chooses between a launch packed that way, where every access's
/// rows are aligned to it, and the plan's own; with `plan.widePack`
/// likewise for the launch of 16-byte accesses. Returns the plan's launch.
gpu::LaunchOp mapStagedTranspose(RewriterBase &rewriter, scf::ParallelOp loop,
                                 const StagedTransposePlan &plan);

/// A matmul-shaped nest: each output runs a loop over k (carrying values
/// through iter_args, or reducing them) whose body reads one array along
/// the row dimension and one along the column dimension, the column being
/// the one its stores walk contiguously. Either a 2-D scf.parallel, or a
/// triangular nest: a 1-D scf.parallel over rows holding one over columns
/// whose bounds are linear in the row (syrk's j <= i, covariance's j >= i).
struct RegisterTilePlan {
  unsigned rowDim = 0;
  unsigned colDim = 1;
  Operation *kLoop = nullptr;
  /// A triangular nest's loop over columns (colDim is then its dimension
  /// 0, rowDim the outer loop's); null for a 2-D nest.
  scf::ParallelOp columnLoop;
  /// Threads along y (x is a warp).
  int64_t threadsY = 8;
  /// The outputs a thread computes, rows by columns, when the k loop runs
  /// through workgroup memory, largest first: a shape for large nests and
  /// ones of a quarter and a sixteenth of the outputs for those with too
  /// few tiles; none where it cannot (values carried too wide, tiles too
  /// large, shared-tiles off).
  SmallVector<std::pair<int64_t, int64_t>, 2> sharedShapes;
};

/// The register-tile plan for `loop`, if its body is pure code and loads,
/// one k loop (bounds the nest does not vary, a body of pure code and loads
/// using nothing of the nest's body but its induction variables), then pure
/// code, loads and stores; the k body has a load that depends on the row
/// and not the column, and one the other way round; and the options leave
/// the mapping to ThreadBind (register-tiles on, no block shape or
/// dimension order, threads a block a multiple of 32, at least 64). A
/// triangular nest's outer body holds nothing but the column loop and pure
/// code for its bounds, and each index of its loads depends on the row or
/// the column, not both.
std::optional<RegisterTilePlan>
matchRegisterTiles(scf::ParallelOp loop, const LoopMappingOptions &options);

/// Whether `options` leave register tiles to ThreadBind: register-tiles on,
/// no block shape or dimension order, threads a block a multiple of 32, at
/// least 64. (The pipeline tells threadbind-map-reductions by it whether
/// the loop mapping will tile.)
bool allowsRegisterTiles(const LoopMappingOptions &options);

/// Where `loop` would be a triangular register-tiled nest but for ops of
/// its outer body beside the column loop that have side effects (loads,
/// stores: correlation's store of the diagonal), moves those ops, with the
/// pure ops they use, to a loop of their own over the same range before
/// it, and returns that loop. Legal for any scf.parallel: its iterations do
/// not depend on each other, and each iteration's moved ops still run
/// before the rest of it. Otherwise changes nothing.
std::optional<scf::ParallelOp>
splitTriangleEffects(RewriterBase &rewriter, scf::ParallelOp loop,
                     const LoopMappingOptions &options);

/// Whether splitTriangleEffects would split `loop` (threadbind-map-reductions
/// leaves such a loop to the loop mapping).
bool isRegisterTiledAfterSplit(scf::ParallelOp loop,
                               const LoopMappingOptions &options);

/// Maps `loop` with register tiles (RegisterTiles.cpp): where the plan
/// has shared tiles and they give a block for every 8 the device holds
/// (the largest shape that does), a launch that stages the k loop
/// through workgroup memory; else, while its 4x2
/// tiles are at least as many as the device holds blocks, a launch whose
/// threads each compute a tile of outputs; with fewer, a 2-D nest is left,
/// moved into the other side of that run-time choice, for the caller to
/// map a thread an output, and a triangular one becomes a launch of one
/// output a thread over 32 x threadsY blocks. Returns whether `loop` is
/// left to map.
bool mapRegisterTiles(RewriterBase &rewriter, scf::ParallelOp loop,
                      const RegisterTilePlan &plan,
                      const LoopMappingOptions &options);

/// Replaces `loop` by the gpu.launch ops that run it as planned (see
/// LoopMappingPlan::coverCopies). `loop` must have passed verifyMappable.
void mapLoopToLaunch(RewriterBase &rewriter, scf::ParallelOp loop,
                     const LoopMappingPlan &plan,
                     const LoopMappingOptions &options);

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_MAPLOOPSTOTHREADS_H
