//===- CompileSession.h - One compilation, source to every output -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A CompileSession is the whole of what `threadbind-compile` does between
// reading its input and writing its outputs: the CPU reference of a bundle,
// the block size for --threads-per-block=auto, the pipeline stages of
// `threadbind-to-ptx` (or upstream's mapping, for comparison), ptxas, the
// bundle's shared library and the launch manifest. The tool parses flags
// and files around it; tests drive it directly.
//
// Tool-level errors (a missing ptxas, a kernel calling libdevice without a
// toolkit) are printed as `<tool>: error: ...`; errors in the program are
// MLIR diagnostics at the offending op, through the context's handler.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_COMPILESESSION_H
#define THREADBIND_DRIVER_COMPILESESSION_H

#include "threadbind/Pipelines/Options.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::threadbind {

/// What a compilation produces as its main output.
enum class EmitKind { MLIR, LLVM, PTX, Cubin, Bundle, Header };

/// Which mapping binds the loops. The upstream ones are there to compare
/// against.
enum class Mapper { ThreadBind, Upstream, UpstreamTiled };

/// Everything a compilation needs to know, besides the module.
struct CompileRequest {
  CompileOptions options;
  EmitKind emit = EmitKind::PTX;
  Mapper mapper = Mapper::ThreadBind;
  /// Tile sizes for Mapper::UpstreamTiled (256 when empty).
  SmallVector<int64_t> upstreamTiles;

  /// Which of the other forms to keep besides the main output.
  bool keepMLIR = false;
  bool keepPTX = false;
  bool keepCubin = false;
  bool keepManifest = false;

  /// Print the pass pipeline to stderr before running it.
  bool printPipeline = false;
  /// Time each stage's passes under the scope `run` is given.
  bool timePasses = false;
  /// Report every divergent branch of the bound kernels as a remark.
  bool reportDivergence = false;

  /// The input's name, as the manifest records it.
  std::string sourceName = "-";
  /// For EmitKind::Header: the prefix of every name the header defines.
  std::string headerPrefix = "threadbind";
  /// The folder holding libThreadBindRuntime (for EmitKind::Bundle).
  std::string runtimeLibraryDir;
  /// The name tool-level errors, warnings and remarks are printed under.
  std::string toolName = "threadbind-compile";

  /// Checks the request's settings against each other. Returns "" when
  /// they fit, else one line saying what does not.
  std::string verify() const;

  /// Prints `message` as the tool's error (`<toolName>: error: ...`) and
  /// returns failure.
  LogicalResult emitToolError(const Twine &message) const;

  bool emitsPTX() const {
    return emit == EmitKind::PTX || emit == EmitKind::Cubin ||
           emit == EmitKind::Bundle || emit == EmitKind::Header;
  }
};

/// What a compilation produced. Only the forms asked for are filled.
struct CompileResult {
  /// The main output: MLIR text, LLVM IR text, PTX, a cubin, or the bytes
  /// of a bundle's shared library.
  std::string output;
  std::string mlir;
  std::string ptx;
  std::string cubin;
  std::string manifest;
};

/// One compilation: construct, `prepare`, then `run` on a parsed module.
class CompileSession {
public:
  CompileSession(MLIRContext &context, CompileRequest request);

  /// Verifies the request and finds the tools it needs (ptxas), so that a
  /// missing toolkit fails before any work. Reports its own errors.
  LogicalResult prepare();

  /// Compiles `module` in place into `result`, timing each stage as a
  /// scope nested in `timing`. The module is left as the last stage that
  /// ran left it.
  LogicalResult run(ModuleOp module, CompileResult &result,
                    TimingScope &timing);

  const CompileRequest &getRequest() const { return request; }

private:
  MLIRContext &context;
  CompileRequest request;
  std::string ptxasPath;
};

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_COMPILESESSION_H
