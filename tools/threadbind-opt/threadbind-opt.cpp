//===- threadbind-opt.cpp - ThreadBind optimizer driver -------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass, plus the
// ThreadBind passes, pipelines and test passes, whose output file appears
// only when the run succeeds.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "threadbind/Driver/OutputFiles.h"
#include "threadbind/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerAllPasses();
  mlir::threadbind::registerAllPasses();
  mlir::threadbind::test::registerThreadBindTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::threadbind::registerDialects(registry);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "ThreadBind optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listings print and return before any file is opened.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  auto fail = [](const llvm::Twine &message) {
    llvm::WithColor::error(llvm::errs(), "threadbind-opt") << message << "\n";
    return EXIT_FAILURE;
  };
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  // Unlike mlir-opt, an output that already exists is replaced only when
  // the run succeeds, and never removed when it fails.
  mlir::threadbind::OutputFiles files(inputFilename);
  llvm::Expected<llvm::raw_ostream *> output = files.add("-o", outputFilename);
  if (!output)
    return fail(llvm::toString(output.takeError()));
  if (mlir::failed(
          mlir::MlirOptMain(**output, std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (llvm::Error error = files.commit())
    return fail(llvm::toString(std::move(error)));
  return EXIT_SUCCESS;
}
