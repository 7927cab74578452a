//===- TestPlugin.cpp - ThreadBind's test passes as an mlir-opt plugin ----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The passes tests use to look inside ThreadBind (the uniformity analysis,
// the launch emulator), for a stock mlir-opt. Loaded beside the project's
// own plugin, which registers only what users run:
//   mlir-opt --load-pass-plugin=ThreadBindPlugin.so \
//            --load-pass-plugin=ThreadBindTestPlugin.so ...
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ThreadBindTest", LLVM_VERSION_STRING,
          []() { mlir::threadbind::test::registerThreadBindTestPasses(); }};
}
