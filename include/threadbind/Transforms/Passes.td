//===- Passes.td - ThreadBind transformation passes --------*- tablegen -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Every ThreadBind pass is declared here, with typed options and statistics.
// The generated markdown (docs/Passes.md) is built from this file.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_PASSES
#define THREADBIND_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

#endif // THREADBIND_TRANSFORMS_PASSES
