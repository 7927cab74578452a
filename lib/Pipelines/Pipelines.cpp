//===- Pipelines.cpp - ThreadBind pass pipelines --------------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
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

void threadbind::buildNormalizePipeline(OpPassManager &pm) {
  pm.addPass(createStripInternalMarksPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertLinalgToParallelLoopsPass());
  // ThreadBind's own: upstream's fails silently on a forall over tensors.
  funcPm.addPass(createForallToParallelPass());
  // affine.parallel becomes scf.parallel; affine.load/store become memref
  // accesses whose indices the access analysis still follows.
  pm.addPass(createLowerAffinePass());
  // Merges perfectly nested scf.parallel loops with invariant inner bounds.
  // Upstream's folding of trivial dimensions would inline a loop that runs
  // once into the host function; ThreadBind's own keeps it a loop.
  pm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig(),
      {"(anonymous namespace)::ParallelOpSingleOrZeroIterationDimsFolder"}));
  pm.addPass(createFoldTrivialParallelDimsPass());
}

void threadbind::buildMapStage(OpPassManager &pm,
                               const MapLoopsToThreadsPassOptions &options,
                               const ReductionChoices &reductionChoices) {
  // Reductions first: the loop mapping leaves loops with scf.reduce alone.
  MapReductionsPassOptions reductions;
  reductions.threadsPerBlock = options.threadsPerBlock;
  reductions.maxBlocks = options.maxBlocks;
  reductions.emitRemarks = options.emitRemarks;
  reductions.unroll = reductionChoices.unroll;
  reductions.crossBlock = reductionChoices.crossBlock;
  reductions.warpRows = reductionChoices.warpRows;
  reductions.vectorBytes = reductionChoices.vectorBytes;
  pm.addPass(createMapReductionsPass(reductions));
  pm.addPass(createMapLoopsToThreadsPass(options));
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

void threadbind::buildKernelOptimizationStage(
    OpPassManager &pm, const KernelOptimizationOptions &options) {
  // Bounds checks first: splitting one adds a block-uniform branch that the
  // passes below leave alone, and the check left in the last block is a
  // guarded store that predication keeps.
  RemoveTailChecksPassOptions tail;
  tail.strategy = options.tail;
  tail.emitRemarks = options.remarks;
  pm.addPass(createRemoveTailChecksPass(tail));
  // Unswitching first: it only moves uniform conditions, and predication
  // only touches divergent ones, but versioned loops give predication
  // straight-line bodies to work in.
  if (options.unswitch) {
    UnswitchUniformConditionsPassOptions unswitch;
    unswitch.emitRemarks = options.remarks;
    pm.addPass(createUnswitchUniformConditionsPass(unswitch));
  }
  if (options.predicate) {
    PredicateDivergentBranchesPassOptions predicate;
    predicate.emitRemarks = options.remarks;
    pm.addPass(createPredicateDivergentBranchesPass(predicate));
  }
  // Last: the loops it widens are then straight-line bodies, cloned once a
  // vector element, and the scalar versions it keeps are already optimised.
  if (options.vectorBytes != 0) {
    WidenAccessesPassOptions widen;
    widen.vectorBytes = options.vectorBytes;
    widen.unroll = options.widenUnroll;
    widen.nestedLoops = options.widenNested;
    widen.emitRemarks = options.remarks;
    pm.addPass(createWidenAccessesPass(widen));
  }
}

void threadbind::buildMapToGPUPipeline(OpPassManager &pm,
                                       const MapToGPUPipelineOptions &options) {
  buildNormalizePipeline(pm);
  buildMapStage(pm, options.toPassOptions());
}

void threadbind::buildOutlineStage(OpPassManager &pm, const ChipInfo &chip,
                                   unsigned optLevel, bool fpContraction) {
  // Without this, constants defined outside a launch (loop bounds of an
  // inner scf.for, say) become kernel parameters and LLVM cannot unroll.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  if (fpContraction)
    pm.addPass(createAllowFPContractionPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createMergeGPUModulesPass());
  // Kernel names are final now: grid queries can say whose grid they size.
  pm.addPass(createBindGridQueriesPass());
  AttachNVVMTargetPassOptions target;
  target.chip = chip.name.str();
  target.features = chip.getFeatures();
  target.optLevel = optLevel;
  pm.addPass(createAttachNVVMTargetPass(target));
}

void threadbind::buildDeviceLoweringStage(OpPassManager &pm) {
  // Subviews, reshapes and transposes in kernels lower through their strided
  // metadata, as on the host: convert-gpu-to-nvvm does not lower them, and
  // they would reach LLVM translation as unrealized casts. First, so that
  // lower-affine takes the affine.apply ops it leaves.
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createExpandStridedMetadataPass());
  // Kernels may hold affine index arithmetic (upstream's mapping emits it).
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  // Index stays 64-bit on the device: grid-stride loops over more than 2^31
  // iterations must not wrap.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());
}

void threadbind::buildSerializeStage(OpPassManager &pm, StringRef format,
                                     StringRef toolkitPath) {
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.toolkitPath = toolkitPath.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

LogicalResult threadbind::buildToPTXPipeline(
    OpPassManager &pm, const ToPTXPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::optional<ChipInfo> chip = lookupChip(options.chip);
  if (!chip)
    return errorHandler("unsupported chip '" + options.chip +
                        "'; supported: " + getSupportedChipList());
  if (options.optLevel > 3)
    return errorHandler("opt-level must be 0 to 3");
  buildNormalizePipeline(pm);
  buildMapStage(pm, options.toPassOptions());
  buildKernelOptimizationStage(pm, options.toKernelOptimizationOptions());
  buildOutlineStage(pm, *chip, options.optLevel, options.fpContract);
  buildDeviceLoweringStage(pm);
  buildSerializeStage(pm, "isa",
                      findLibdeviceToolkit(options.cudaPath).value_or(""));
  return success();
}

void threadbind::registerPipelines() {
  PassPipelineRegistration<>(
      "threadbind-normalize",
      "Bring linalg, scf.forall and affine.parallel to scf.parallel",
      buildNormalizePipeline);
  PassPipelineRegistration<MapToGPUPipelineOptions>(
      "threadbind-map-to-gpu",
      "Normalise and bind every outermost parallel loop to a gpu.launch",
      buildMapToGPUPipeline);
  // Registered by hand rather than through PassPipelineRegistration so an
  // unsupported chip is an error, not an abort.
  registerPassPipeline(
      "threadbind-to-ptx",
      "Normalise, bind, outline and lower to PTX (one gpu.binary)",
      [](OpPassManager &pm, StringRef optionsString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ToPTXPipelineOptions options;
        if (failed(options.parseFromString(optionsString)))
          return failure();
        return buildToPTXPipeline(pm, options, errorHandler);
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(ToPTXPipelineOptions());
      });
}
