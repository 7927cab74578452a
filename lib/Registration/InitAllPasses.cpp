//===- InitAllPasses.cpp - Register every ThreadBind pass -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/InitAllPasses.h"

#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::threadbind::registerAllPasses() {
  registerThreadBindPasses();
  registerPipelines();
}

void mlir::threadbind::registerDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  memref::MemRefDialect, scf::SCFDialect>();
}
