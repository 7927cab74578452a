//===- Pipelines.h - ThreadBind pass pipelines ------------------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Pipelines are C++ functions, one builder per stage, so threadbind-opt,
// the plugin and threadbind-compile build exactly the same pass managers.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_PIPELINES_PIPELINES_H
#define THREADBIND_PIPELINES_PIPELINES_H

#include "threadbind/Target/Target.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <optional>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::threadbind {

/// The options of every pipeline that binds loops; they mirror
/// threadbind-map-loops-to-threads.
template <typename Derived>
struct MapPipelineOptions : public PassPipelineOptions<Derived> {
  using Base = PassPipelineOptions<Derived>;

  typename Base::template Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads per block (see threadbind-map-loops-to-threads)"),
      llvm::cl::init(256)};
  typename Base::template ListOption<int64_t> blockShape{
      *this, "block-shape", llvm::cl::desc("Explicit block shape x,y,z")};
  typename Base::template ListOption<int64_t> dimOrder{
      *this, "dim-order",
      llvm::cl::desc("Loop dimensions to bind to x, y, z in that order")};
  typename Base::template Option<GridPolicy> gridPolicy{
      *this, "grid-policy", llvm::cl::desc("How the grid covers the loop"),
      llvm::cl::init(GridPolicy::GridStride),
      llvm::cl::values(
          clEnumValN(GridPolicy::GridStride, "grid-stride",
                     "occupancy-sized grid, every thread loops"),
          clEnumValN(GridPolicy::Cover, "cover",
                     "ceil-div grid, one guarded iteration per thread"))};
  typename Base::template Option<int64_t> maxBlocks{
      *this, "max-blocks",
      llvm::cl::desc("Static cap on a grid-stride grid; 0 asks the host"),
      llvm::cl::init(0)};
  typename Base::template Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Emit a remark per loop stating the binding and why"),
      llvm::cl::init(false)};

  /// The same choices as threadbind-map-loops-to-threads takes them.
  MapLoopsToThreadsPassOptions toPassOptions() const {
    MapLoopsToThreadsPassOptions options;
    options.threadsPerBlock = threadsPerBlock;
    options.blockShape.assign(blockShape.begin(), blockShape.end());
    options.dimOrder.assign(dimOrder.begin(), dimOrder.end());
    options.gridPolicy = gridPolicy;
    options.maxBlocks = maxBlocks;
    options.emitRemarks = remarks;
    return options;
  }
};

/// Options of `threadbind-map-to-gpu`.
struct MapToGPUPipelineOptions : MapPipelineOptions<MapToGPUPipelineOptions> {
};

/// What the kernel optimisation stage runs.
struct KernelOptimizationOptions {
  /// What to do with a cover launch's bounds check that is not provably
  /// dead.
  TailStrategy tail = TailStrategy::Pad;
  /// Hoist uniform, loop-invariant conditions out of GPU loops.
  bool unswitch = true;
  /// Turn small divergent branches into selects and min/max.
  bool predicate = true;
  /// Report every decision of both as a remark.
  bool remarks = false;
  /// Bytes of the widest vector access thread loops are widened to; 0
  /// leaves them scalar.
  unsigned vectorBytes = 16;
  /// Vectors a thread handles an iteration in widened loops.
  unsigned widenUnroll = 1;
  /// Also widen thread loops nested in other loops (2-D rows): on an H200
  /// that ran an 8192x8192 add 1.12 times and an 8191x8191 one 1.03 times
  /// faster than scalar rows (bench/results/2026-11-23-widen-h200.md).
  bool widenNested = true;
};

/// Options of `threadbind-to-ptx`: the mapping options plus the target.
struct ToPTXPipelineOptions : MapPipelineOptions<ToPTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip, e.g. sm_80 or sm_90"),
                           llvm::cl::init(kDefaultChip.str())};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimisation level (0-3)"),
                            llvm::cl::init(3)};
  Option<bool> unswitch{
      *this, "unswitch",
      llvm::cl::desc("Hoist uniform, loop-invariant conditions out of GPU "
                     "loops"),
      llvm::cl::init(true)};
  Option<TailStrategy> tail{
      *this, "tail",
      llvm::cl::desc("Bounds checks of cover launches not provably dead"),
      llvm::cl::init(TailStrategy::Pad),
      llvm::cl::values(
          clEnumValN(TailStrategy::Pad, "pad",
                     "threads past the end run on padding; else keep"),
          clEnumValN(TailStrategy::Split, "split",
                     "full blocks run without the check"),
          clEnumValN(TailStrategy::Keep, "keep", "the check stays"))};
  Option<bool> predicate{
      *this, "predicate",
      llvm::cl::desc("Turn small divergent branches in kernels into selects "
                     "and min/max"),
      llvm::cl::init(true)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose libdevice is linked into kernels "
                     "(default: found as threadbind-compile finds it)")};
  Option<unsigned> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Widen thread loops to vector accesses of up to this "
                     "many bytes (4, 8 or 16; 0 keeps them scalar)"),
      llvm::cl::init(16)};
  Option<unsigned> widenUnroll{
      *this, "widen-unroll",
      llvm::cl::desc("Vectors a thread handles an iteration in widened "
                     "loops"),
      llvm::cl::init(1)};
  Option<bool> widenNested{
      *this, "widen-nested-loops",
      llvm::cl::desc("Also widen thread loops nested in other loops (2-D "
                     "rows), rebalancing the grid where it can"),
      llvm::cl::init(true)};
  /// The kernel optimisation stage as these options choose it.
  KernelOptimizationOptions toKernelOptimizationOptions() const {
    return {tail,        unswitch,   predicate, remarks,
            vectorBytes, widenUnroll, widenNested};
  }
  Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Let kernels fuse float multiply-add into FMA, as nvcc "
                     "does by default"),
      llvm::cl::init(true)};
};

/// Brings every supported input form to scf.parallel over memrefs: strips
/// the marks ThreadBind's passes leave for each other from the input, then
/// linalg on memrefs, scf.forall and affine.parallel become scf.parallel,
/// and perfectly nested parallel loops are merged into one.
void buildNormalizePipeline(OpPassManager &pm);

/// The reduction mapping's own choices, beside the loop mapping's options
/// it shares (threads a block, grid cap, remarks).
struct ReductionChoices {
  /// Elements a thread folds an iteration (0: as many as keep 8 loads in
  /// flight).
  int64_t unroll = 0;
  CrossBlockCombine crossBlock = CrossBlockCombine::SecondKernel;
  /// Rows short enough for one warp get one-warp blocks.
  bool warpRows = true;
  /// Widest vector load a thread folds through (0: scalar loads).
  int64_t vectorBytes = 16;
};

/// Binds every outermost reduction, then every other outermost parallel
/// loop, to gpu.launch ops and cleans up.
void buildMapStage(OpPassManager &pm,
                   const MapLoopsToThreadsPassOptions &options,
                   const ReductionChoices &reductionChoices = {});

/// Upstream MLIR's mapping, for comparison: `gpu-map-parallel-loops` then
/// `convert-parallel-loops-to-gpu`, after `scf-parallel-loop-tiling` with
/// `tileSizes` (and `no-min-max-bounds`) when any are given.
void buildUpstreamMapStage(OpPassManager &pm, ArrayRef<int64_t> tileSizes);

/// Divergence-aware clean-up of the bound kernels: unswitching of uniform,
/// loop-invariant conditions, then predication of small divergent
/// branches, each as `options` says.
void buildKernelOptimizationStage(OpPassManager &pm,
                                  const KernelOptimizationOptions &options);

/// `threadbind-map-to-gpu`: normalise, then the map stage.
void buildMapToGPUPipeline(OpPassManager &pm,
                           const MapToGPUPipelineOptions &options);

/// Moves the constants and index computations a launch uses into it, so
/// kernels see them (loop bounds known, fewer parameters); lets kernels fuse
/// multiply-add when `fpContraction`; outlines every gpu.launch into one
/// gpu.module and attaches the NVVM target for `chip`.
void buildOutlineStage(OpPassManager &pm, const ChipInfo &chip,
                       unsigned optLevel, bool fpContraction);

/// Lowers control flow everywhere and the gpu.module to the NVVM and LLVM
/// dialects.
void buildDeviceLoweringStage(OpPassManager &pm);

/// Serialises every gpu.module to a gpu.binary in `format` ("isa" for PTX,
/// "llvm" for LLVM bitcode), linking libdevice from the CUDA toolkit at
/// `toolkitPath` (empty: wherever MLIR's NVVM target looks by itself).
void buildSerializeStage(OpPassManager &pm, StringRef format,
                         StringRef toolkitPath);

/// `threadbind-to-ptx`: normalise, map, outline, lower and serialise to PTX.
/// Fails, through `errorHandler`, on an unsupported chip.
LogicalResult
buildToPTXPipeline(OpPassManager &pm, const ToPTXPipelineOptions &options,
                   function_ref<LogicalResult(const Twine &)> errorHandler);

/// Registers `threadbind-normalize`, `threadbind-map-to-gpu` and
/// `threadbind-to-ptx`.
void registerPipelines();

} // namespace mlir::threadbind

#endif // THREADBIND_PIPELINES_PIPELINES_H
