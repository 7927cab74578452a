//===- InitAllPasses.h - Register every ThreadBind pass ---------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The one entry point that threadbind-opt and the mlir-opt plugin call, so
// both expose the same passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_INITALLPASSES_H
#define THREADBIND_INITALLPASSES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::threadbind {

/// Registers every ThreadBind pass and named pipeline with the global pass
/// registry. Safe to call more than once.
void registerAllPasses();

/// Adds the dialects ThreadBind passes create or consume to `registry`.
void registerDialects(DialectRegistry &registry);

} // namespace mlir::threadbind

#endif // THREADBIND_INITALLPASSES_H
