//===- Pipelines.cpp - ThreadBind pass pipelines --------------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Pipelines/Pipelines.h"

#include "threadbind/Pipelines/OptionsBinding.h"
#include "threadbind/Target/Target.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

void threadbind::buildNormalizePipeline(OpPassManager &pm, bool loopReductions,
                                        bool remarks) {
  pm.addPass(createStripInternalMarksPass());
  // Tensors to memrefs, and entry results to out-parameters: what front ends
  // emit, in the bundle's calling convention.
  pm.addPass(createBufferizeEntriesPass());
  // Reshapes with several dynamic sizes in a group, which MLIR 22's
  // expand-strided-metadata (host and device lowering) crashes on, become
  // the views it would have made.
  pm.addPass(createExpandShapesToViewsPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertLinalgToParallelLoopsPass());
  // ThreadBind's own: upstream's fails silently on a forall over tensors.
  funcPm.addPass(createForallToParallelPass());
  // affine.parallel becomes scf.parallel; affine.load/store become memref
  // accesses whose indices the access analysis still follows.
  pm.addPass(createLowerAffinePass());
  // Helpers called from loop bodies: a kernel cannot call the host. After
  // lowering affine, whose regions take no inlined calls.
  pm.addPass(createInlineLoopCallsPass());
  // Reductions written as sequential loops (iter_args, or linalg's
  // accumulator in memory) become scf.parallel ones, before nests merge.
  if (loopReductions) {
    ParallelizeLoopReductionsPassOptions reductions;
    reductions.emitRemarks = remarks;
    pm.addPass(createParallelizeLoopReductionsPass(reductions));
  }
  // Merges perfectly nested scf.parallel loops with invariant inner bounds.
  // Upstream's folding of trivial dimensions would inline a loop that runs
  // once into the host function; ThreadBind's own keeps it a loop.
  pm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig(),
      {"(anonymous namespace)::ParallelOpSingleOrZeroIterationDimsFolder"}));
  pm.addPass(createFoldTrivialParallelDimsPass());
}

/// Threads a block of a reduction's kernels: the block the loops get (the
/// block shape's threads, where one is given) in whole warps, which the
/// warp shuffles need: rounded down to a multiple of 32, at least 32.
static int64_t getReductionThreads(const MappingOptions &mapping) {
  int64_t threads = mapping.threadsPerBlock.count;
  if (!mapping.blockShape.empty()) {
    threads = 1;
    for (int64_t extent : mapping.blockShape)
      threads *= extent;
  }
  if (threads <= 0 || threads > GpuLimits::kMaxThreadsPerBlock)
    return threads;
  return std::max<int64_t>(GpuLimits::kWarpSize,
                           threads - threads % GpuLimits::kWarpSize);
}

void threadbind::buildMapStage(OpPassManager &pm,
                               const MapToGPUOptions &options) {
  assert(!options.mapping.threadsPerBlock.isAuto() &&
         "threadbind-compile resolves auto threads a block before mapping");
  const MappingOptions &mapping = options.mapping;
  // Views with a dynamic innermost stride get a copy of their function for
  // the common unit stride, which maps and widens like a contiguous array.
  pm.addNestedPass<func::FuncOp>(createVersionUnitStridesPass());
  // A nest that walks its memrefs in their linear order becomes one loop,
  // where the user left the block shape and the dimension order open.
  if (mapping.collapseNests && mapping.blockShape.empty() &&
      mapping.dimOrder.empty())
    pm.addNestedPass<func::FuncOp>(createCollapseContiguousNestsPass());
  // Reductions first: the loop mapping leaves loops with scf.reduce alone.
  MapReductionsPassOptions reductions;
  reductions.threadsPerBlock = getReductionThreads(mapping);
  reductions.maxBlocks = mapping.maxBlocks;
  reductions.emitRemarks = options.shared.remarks;
  reductions.unroll = options.reductions.unroll;
  reductions.crossBlock = options.reductions.crossBlock;
  reductions.warpRows = options.reductions.warpRows;
  reductions.splitColumns = options.reductions.splitColumns;
  reductions.vectorBytes = options.shared.vectorBytes;
  reductions.sequentialFallback = mapping.sequentialFallback;
  MapLoopsToThreadsPassOptions loops;
  loops.threadsPerBlock = mapping.threadsPerBlock.count;
  loops.blockShape.assign(mapping.blockShape.begin(), mapping.blockShape.end());
  loops.dimOrder.assign(mapping.dimOrder.begin(), mapping.dimOrder.end());
  loops.gridPolicy = mapping.gridPolicy;
  loops.stencilCover = mapping.stencilCover;
  loops.maxBlocks = mapping.maxBlocks;
  loops.emitRemarks = options.shared.remarks;
  loops.sequentialFallback = mapping.sequentialFallback;
  loops.stageTransposes = mapping.stageTransposes;
  loops.vectorBytes = options.shared.vectorBytes;
  loops.registerTiles = mapping.registerTiles;
  loops.sharedTiles = mapping.sharedTiles;
  // The reductions leave to the loop mapping only what it will tile (a
  // block shape or dimension order turns the tiles off).
  reductions.registerTiles = allowsRegisterTiles(loops);
  pm.addPass(createMapReductionsPass(reductions));
  pm.addPass(createMapLoopsToThreadsPass(loops));
  if (mapping.sequentialFallback) {
    SequentialKernelsPassOptions sequential;
    sequential.emitRemarks = options.shared.remarks;
    pm.addPass(createSequentialKernelsPass(sequential));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void threadbind::buildUpstreamMapStage(OpPassManager &pm,
                                       ArrayRef<int64_t> tileSizes) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  if (!tileSizes.empty())
    funcPm.addPass(
        createParallelLoopTilingPass(tileSizes, /*noMinMaxBounds=*/true));
  funcPm.addPass(createGpuMapParallelLoopsPass());
  funcPm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void threadbind::buildKernelOptimizationStage(OpPassManager &pm,
                                              const KernelOptions &kernels,
                                              const SharedOptions &shared) {
  // Bounds checks first: splitting one adds a block-uniform branch that the
  // passes below leave alone, and the check left in the last block is a
  // guarded store that predication keeps.
  RemoveTailChecksPassOptions tail;
  tail.strategy = kernels.tail;
  tail.emitRemarks = shared.remarks;
  pm.addPass(createRemoveTailChecksPass(tail));
  // Unswitching first: it only moves uniform conditions, and predication
  // only touches divergent ones, but versioned loops give predication
  // straight-line bodies to work in.
  if (kernels.unswitch) {
    UnswitchUniformConditionsPassOptions unswitch;
    unswitch.emitRemarks = shared.remarks;
    pm.addPass(createUnswitchUniformConditionsPass(unswitch));
  }
  if (kernels.predicate) {
    PredicateDivergentBranchesPassOptions predicate;
    predicate.emitRemarks = shared.remarks;
    pm.addPass(createPredicateDivergentBranchesPass(predicate));
  }
  // Last: the loops it widens are then straight-line bodies, cloned once a
  // vector element, and the scalar versions it keeps are already optimised.
  if (shared.vectorBytes != 0) {
    WidenAccessesPassOptions widen;
    widen.vectorBytes = shared.vectorBytes;
    widen.unroll = kernels.widenUnroll;
    widen.nestedLoops = kernels.widenNested;
    widen.emitRemarks = shared.remarks;
    pm.addPass(createWidenAccessesPass(widen));
  }
}

void threadbind::buildMapToGPUPipeline(OpPassManager &pm,
                                       const MapToGPUOptions &options) {
  buildNormalizePipeline(pm, options.mapping.loopReductions,
                         options.shared.remarks);
  buildMapStage(pm, options);
}

void threadbind::buildOutlineStage(OpPassManager &pm,
                                   const TargetOptions &target) {
  std::optional<ChipInfo> chip = lookupChip(target.chip);
  assert(chip && "the chip is checked before the pipeline is built");
  // Kernels read globals from their own module, not the host's address.
  pm.addPass(createSinkGlobalsPass());
  // Without this, constants defined outside a launch (loop bounds of an
  // inner scf.for, say) become kernel parameters and LLVM cannot unroll.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  if (target.fpContract)
    pm.addPass(createAllowFPContractionPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createMergeGPUModulesPass());
  pm.addPass(createMarkReadOnlyArgumentsPass());
  // Kernel names are final now: grid queries can say whose grid they size.
  pm.addPass(createBindGridQueriesPass());
  AttachNVVMTargetPassOptions nvvm;
  nvvm.chip = chip->name.str();
  nvvm.features = chip->getFeatures();
  nvvm.optLevel = target.optLevel;
  pm.addPass(createAttachNVVMTargetPass(nvvm));
}

void threadbind::buildDeviceLoweringStage(OpPassManager &pm) {
  // Kernels that share nothing lower and compile in parallel from here on,
  // each group in a gpu.module of its own; serialisation joins them again.
  pm.addPass(createSplitKernelModulesPass());
  // Subviews, reshapes and transposes in kernels lower through their strided
  // metadata, as on the host: convert-gpu-to-nvvm does not lower them, and
  // they would reach LLVM translation as unrealized casts. First, so that
  // lower-affine takes the affine.apply ops it leaves.
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createExpandStridedMetadataPass());
  // Kernels may hold affine index arithmetic (upstream's mapping emits it).
  pm.addPass(createLowerAffinePass());
  // Host loops that launch kernels give back the stack each launch packs
  // its arguments on; the loops become branches next.
  pm.addPass(createScopeLoopStackPass());
  pm.addPass(createSCFToControlFlowPass());
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  // Complex arithmetic becomes arith and math on the parts (the NVVM
  // conversion lowers only complex.create, re and im, to LLVM structs).
  gpuPm.addPass(createConvertComplexToStandardPass());
  // Index stays 64-bit on the device: grid-stride loops over more than 2^31
  // iterations must not wrap.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpuPm.addPass(createNoAliasReadOnlyArgumentsPass());
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());
}

void threadbind::buildSerializeStage(OpPassManager &pm,
                                     KernelObjectFormat format,
                                     StringRef toolkitPath) {
  SerializeKernelsPassOptions serialize;
  serialize.format = format;
  serialize.toolkitPath = toolkitPath.str();
  pm.addPass(createSerializeKernelsPass(serialize));
}

void threadbind::buildBackEndStages(OpPassManager &outline,
                                    OpPassManager &lower,
                                    const TargetOptions &target,
                                    KernelObjectFormat format) {
  buildOutlineStage(outline, target);
  buildDeviceLoweringStage(lower);
  // libdevice resolves the __nv_* calls some ops lower to; found here rather
  // than by MLIR from the environment, so output does not depend on whether
  // CUDA_HOME happens to be set.
  buildSerializeStage(lower, format,
                      findLibdeviceToolkit(target.cudaPath).value_or(""));
}

void threadbind::buildCompileStages(OpPassManager &map, OpPassManager &outline,
                                    OpPassManager &lower,
                                    const CompileOptions &options,
                                    KernelObjectFormat format) {
  buildNormalizePipeline(map, options.mapping.loopReductions,
                         options.shared.remarks);
  buildMapStage(map, options.getMapToGPUOptions());
  buildKernelOptimizationStage(map, options.kernels, options.shared);
  // After the kernel stage, whose loops and accesses it narrows; before the
  // read-only copies, which then copy both versions.
  if (options.kernels.narrowIndices) {
    NarrowIndicesPassOptions narrow;
    narrow.emitRemarks = options.shared.remarks;
    map.addPass(createNarrowIndicesPass(narrow));
  }
  // Last in the map stage: the copies are launches the manifest lists.
  if (options.target.readOnlyLoads)
    map.addPass(createVersionReadOnlyLaunchesPass());
  buildBackEndStages(outline, lower, options.target, format);
}

LogicalResult threadbind::buildToPTXPipeline(
    OpPassManager &pm, const CompileOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (std::string error = options.verify(); !error.empty())
    return errorHandler(error);
  buildCompileStages(pm, pm, pm, options, KernelObjectFormat::PTX);
  return success();
}

void threadbind::registerPipelines() {
  // By hand too: PassPipelineRegistration<> refuses options without a
  // word, and the tool would exit 1 saying nothing.
  registerPassPipeline(
      "threadbind-normalize",
      "Bring linalg, scf.forall and affine.parallel to scf.parallel",
      [](OpPassManager &pm, StringRef optionsString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        if (!optionsString.trim().empty())
          return errorHandler("threadbind-normalize takes no options, not '" +
                              optionsString + "'");
        buildNormalizePipeline(pm);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
  // Registered by hand rather than through PassPipelineRegistration so that
  // bad values are errors, not aborts; the options are those of
  // threadbind-compile, bound from the same structs.
  registerPassPipeline(
      "threadbind-map-to-gpu",
      "Normalise and bind every outermost parallel loop to a gpu.launch",
      [](OpPassManager &pm, StringRef optionsString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        BoundPipelineOptions<MapToGPUOptions> bound;
        if (failed(bound.parseFromString(optionsString)))
          return failure();
        MapToGPUOptions options = bound.get();
        if (std::string error = options.verify(); !error.empty())
          return errorHandler(error);
        buildMapToGPUPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(BoundPipelineOptions<MapToGPUOptions>());
      });
  registerPassPipeline(
      "threadbind-to-ptx",
      "Normalise, bind, outline and lower to PTX (one gpu.binary)",
      [](OpPassManager &pm, StringRef optionsString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        BoundPipelineOptions<CompileOptions> bound;
        if (failed(bound.parseFromString(optionsString)))
          return failure();
        return buildToPTXPipeline(pm, bound.get(), errorHandler);
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(BoundPipelineOptions<CompileOptions>());
      });
}
