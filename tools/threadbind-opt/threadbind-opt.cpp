//===- threadbind-opt.cpp - ThreadBind optimizer driver -------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass, plus the
// ThreadBind passes, pipelines and test passes.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "threadbind/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::threadbind::registerAllPasses();
  mlir::threadbind::test::registerThreadBindTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::threadbind::registerDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ThreadBind optimizer driver\n", registry));
}
