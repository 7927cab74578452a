//===- Pipelines.cpp - ThreadBind pass pipelines --------------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Pipelines/Pipelines.h"

#include "threadbind/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::threadbind;

void threadbind::buildNormalizePipeline(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertLinalgToParallelLoopsPass());
  funcPm.addPass(createForallToParallelLoopPass());
  // affine.parallel becomes scf.parallel; affine.load/store become memref
  // accesses whose indices the access analysis still follows.
  pm.addPass(createLowerAffinePass());
  // Merges perfectly nested scf.parallel loops with invariant inner bounds.
  pm.addPass(createCanonicalizerPass());
}

void threadbind::buildMapToGPUPipeline(OpPassManager &pm,
                                       const MapToGPUPipelineOptions &options) {
  buildNormalizePipeline(pm);
  MapLoopsToThreadsPassOptions mapOptions;
  mapOptions.threadsPerBlock = options.threadsPerBlock;
  mapOptions.blockShape.assign(options.blockShape.begin(),
                               options.blockShape.end());
  mapOptions.dimOrder.assign(options.dimOrder.begin(),
                             options.dimOrder.end());
  mapOptions.gridPolicy = options.gridPolicy;
  mapOptions.maxBlocks = options.maxBlocks;
  mapOptions.emitRemarks = options.remarks;
  pm.addPass(createMapLoopsToThreadsPass(mapOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
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
}
