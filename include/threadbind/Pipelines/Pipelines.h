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

#include "threadbind/Pipelines/Options.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::threadbind {

/// Brings every supported input form to scf.parallel over memrefs: strips
/// the marks ThreadBind's passes leave for each other from the input, then
/// linalg on memrefs, scf.forall and affine.parallel become scf.parallel,
/// and perfectly nested parallel loops are merged into one. With
/// `loopReductions`, scf.for loops that only accumulate become parallel
/// reductions (threadbind-parallelize-loop-reductions, which says so for
/// each with `remarks`); the CPU reference leaves them as written.
void buildNormalizePipeline(OpPassManager &pm, bool loopReductions = true,
                            bool remarks = false);

/// Binds every outermost reduction, then every other outermost parallel
/// loop, to gpu.launch ops and cleans up. Threads a block must be a count,
/// not auto. Stencil nests may get a cover launch beside the grid-stride
/// one (`stencil-cover`), which threadbind-widen-accesses settles.
void buildMapStage(OpPassManager &pm, const MapToGPUOptions &options);

/// Upstream MLIR's mapping, for comparison: `gpu-map-parallel-loops` then
/// `convert-parallel-loops-to-gpu`, after `scf-parallel-loop-tiling` with
/// `tileSizes` (and `no-min-max-bounds`) when any are given.
void buildUpstreamMapStage(OpPassManager &pm, ArrayRef<int64_t> tileSizes);

/// Divergence-aware clean-up of the bound kernels: bounds checks as
/// `kernels.tail` says, unswitching of uniform, loop-invariant conditions,
/// predication of small divergent branches, then widening to vectors of
/// `shared.vectorBytes`.
void buildKernelOptimizationStage(OpPassManager &pm,
                                  const KernelOptions &kernels,
                                  const SharedOptions &shared);

/// `threadbind-map-to-gpu`: normalise, then the map stage.
void buildMapToGPUPipeline(OpPassManager &pm, const MapToGPUOptions &options);

/// Moves the constants and index computations a launch uses into it, so
/// kernels see them (loop bounds known, fewer parameters); lets kernels fuse
/// multiply-add when `target.fpContract`; outlines every gpu.launch into one
/// gpu.module and attaches the NVVM target for `target.chip`, which must be
/// supported.
void buildOutlineStage(OpPassManager &pm, const TargetOptions &target);

/// Splits the gpu.module into groups of kernels that share nothing, then
/// lowers control flow everywhere and the gpu.modules to the NVVM and LLVM
/// dialects, the modules in parallel.
void buildDeviceLoweringStage(OpPassManager &pm);

/// Compiles every gpu.module into one gpu.binary in `format`, in parallel
/// (threadbind-serialize-kernels), linking libdevice from the CUDA toolkit
/// at `toolkitPath` (empty: none; calls into it stay unresolved).
void buildSerializeStage(OpPassManager &pm, KernelObjectFormat format,
                         StringRef toolkitPath);

/// The stages after mapping: outlining for `target` into `outline`;
/// lowering and serialising to `format`, with the libdevice of
/// `target.cudaPath` or the toolkit found, into `lower`.
void buildBackEndStages(OpPassManager &outline, OpPassManager &lower,
                        const TargetOptions &target,
                        KernelObjectFormat format);

/// Every stage of `threadbind-to-ptx`, as `options` choose them, into three
/// pass managers: normalise, map and optimise into `map`; outline into
/// `outline`; lower and serialise to `format` into `lower`. threadbind-compile
/// runs them apart, to read the kernels between stages; threadbind-to-ptx
/// passes one pass manager three times. `options` must verify, with threads
/// a block resolved.
void buildCompileStages(OpPassManager &map, OpPassManager &outline,
                        OpPassManager &lower, const CompileOptions &options,
                        KernelObjectFormat format);

/// `threadbind-to-ptx`: normalise, map, outline, lower and serialise to PTX.
/// Fails, through `errorHandler`, on options that do not verify.
LogicalResult
buildToPTXPipeline(OpPassManager &pm, const CompileOptions &options,
                   function_ref<LogicalResult(const Twine &)> errorHandler);

/// Registers `threadbind-normalize`, `threadbind-map-to-gpu` and
/// `threadbind-to-ptx`.
void registerPipelines();

} // namespace mlir::threadbind

#endif // THREADBIND_PIPELINES_PIPELINES_H
