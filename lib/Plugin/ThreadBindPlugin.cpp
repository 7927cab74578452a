//===- ThreadBindPlugin.cpp - ThreadBind passes as an mlir-opt plugin -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Exposes the passes and pipelines of threadbind-opt to any mlir-opt built on
// the same MLIR shared library:
//   mlir-opt --load-pass-plugin=ThreadBindPlugin.so --pass-pipeline=...
//
//===----------------------------------------------------------------------===//

#include "threadbind/InitAllPasses.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ThreadBind", LLVM_VERSION_STRING,
          []() { mlir::threadbind::registerAllPasses(); }};
}
