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

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::threadbind {

/// Options of the `threadbind-map-to-gpu` pipeline; they mirror
/// threadbind-map-loops-to-threads.
struct MapToGPUPipelineOptions
    : public PassPipelineOptions<MapToGPUPipelineOptions> {
  PassOptions::Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads per block (see threadbind-map-loops-to-threads)"),
      llvm::cl::init(256)};
  PassOptions::ListOption<int64_t> blockShape{
      *this, "block-shape", llvm::cl::desc("Explicit block shape x,y,z")};
  PassOptions::ListOption<int64_t> dimOrder{
      *this, "dim-order",
      llvm::cl::desc("Loop dimensions to bind to x, y, z in that order")};
  PassOptions::Option<GridPolicy> gridPolicy{
      *this, "grid-policy", llvm::cl::desc("How the grid covers the loop"),
      llvm::cl::init(GridPolicy::GridStride),
      llvm::cl::values(
          clEnumValN(GridPolicy::GridStride, "grid-stride",
                     "occupancy-sized grid, every thread loops"),
          clEnumValN(GridPolicy::Cover, "cover",
                     "ceil-div grid, one guarded iteration per thread"))};
  PassOptions::Option<int64_t> maxBlocks{
      *this, "max-blocks",
      llvm::cl::desc("Static cap on a grid-stride grid; 0 asks the host"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Emit a remark per loop stating the binding and why"),
      llvm::cl::init(false)};
};

/// Brings every supported input form to scf.parallel over memrefs: linalg
/// on memrefs, scf.forall and affine.parallel become scf.parallel, and
/// perfectly nested parallel loops are merged into one.
void buildNormalizePipeline(OpPassManager &pm);

/// Normalises, binds every outermost parallel loop to a gpu.launch and
/// cleans up.
void buildMapToGPUPipeline(OpPassManager &pm,
                           const MapToGPUPipelineOptions &options);

/// Registers `threadbind-normalize` and `threadbind-map-to-gpu`.
void registerPipelines();

} // namespace mlir::threadbind

#endif // THREADBIND_PIPELINES_PIPELINES_H
