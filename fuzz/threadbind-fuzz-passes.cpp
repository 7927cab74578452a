//===- threadbind-fuzz-passes.cpp - libFuzzer target for the passes -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Crash fuzzing of the parser plus ThreadBind's passes: each input is MLIR
// text, prefixed by one byte that picks the mapping options. A parsed,
// verified module goes through what `threadbind-compile` runs before
// lowering (normalise, map, optimise the kernels, outline). Beyond crashes
// and sanitizer reports, two outcomes abort and so count as findings:
//   - the passes succeed but leave IR that does not verify;
//   - the passes fail without saying why (no error diagnostic).
//
// Built with -DTHREADBIND_LIBFUZZER=ON by clang (see docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#include "threadbind/InitAllPasses.h"
#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Target/ObjectFormat.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::threadbind;

static DialectRegistry *registry;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new DialectRegistry();
  registerAllDialects(*registry);
  registerAllExtensions(*registry);
  registerDialects(*registry);
  return 0;
}

/// The options one byte picks: every combination the driver's flags allow
/// that changes which code runs.
static void buildPipeline(PassManager &pm, uint8_t choice) {
  static constexpr unsigned kVectorBytes[] = {16, 0, 8, 4};
  CompileOptions options;
  options.mapping.threadsPerBlock.count = (choice & 1) ? 64 : 256;
  options.mapping.gridPolicy =
      (choice & 2) ? GridPolicy::Cover : GridPolicy::GridStride;
  options.mapping.maxBlocks = (choice & 4) ? 3 : 0;
  options.reductions.unroll = (choice & 8) ? 1 : 0;
  options.reductions.crossBlock = (choice & 16)
                                      ? CrossBlockCombine::Atomic
                                      : CrossBlockCombine::SecondKernel;
  options.shared.vectorBytes = kVectorBytes[(choice >> 5) & 3];
  options.kernels.tail =
      (choice & 16) ? TailStrategy::Split : TailStrategy::Pad;
  options.kernels.unswitch = !(choice & 8);
  options.kernels.widenUnroll = (choice & 1) ? 2 : 1;
  options.kernels.widenNested = choice & 128;
  // Everything threadbind-compile runs before lowering: the lowering and
  // serialising pass manager is built and dropped.
  PassManager lower(pm.getContext());
  buildCompileStages(pm, pm, lower, options, KernelObjectFormat::PTX);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  uint8_t choice = data[0];
  // MLIR's lexer reads the byte past the end, as the tools' memory buffers
  // (and std::string) hold a NUL there; libFuzzer's data does not.
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);

  // A context per input: nothing one input uniques leaks into the next.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  unsigned errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors += diagnostic.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });

  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;

  PassManager pm(&context);
  // Verified once at the end, where a bad result is a finding of its own
  // rather than a failure the passes could be blamed for.
  pm.enableVerifier(false);
  buildPipeline(pm, choice);
  unsigned errorsBefore = errors;
  if (failed(pm.run(*module))) {
    if (errors == errorsBefore) {
      llvm::errs() << "threadbind-fuzz-passes: the passes failed without "
                      "an error\n";
      std::abort();
    }
    return 0;
  }
  if (failed(verify(*module))) {
    llvm::errs() << "threadbind-fuzz-passes: the passes left IR that does "
                    "not verify\n";
    std::abort();
  }
  return 0;
}
