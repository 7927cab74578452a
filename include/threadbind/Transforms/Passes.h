//===- Passes.h - ThreadBind transformation passes --------------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the passes defined in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_PASSES_H
#define THREADBIND_TRANSFORMS_PASSES_H

#include "threadbind/Transforms/PassEnums.h"

#include "mlir/Pass/Pass.h"

namespace mlir::threadbind {

#define GEN_PASS_DECL
#include "threadbind/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "threadbind/Transforms/Passes.h.inc"

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_PASSES_H
