//===- threadbind-compile.cpp - ThreadBind compiler driver ----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Compiles an MLIR file with parallel loops to bound MLIR, device LLVM IR,
// PTX or a cubin in one process, with a JSON manifest that says how to
// launch every kernel:
//
//   threadbind-compile in.mlir -o out.ptx --chip sm_90 --emit ptx
//
// --save-mlir, --save-ptx and --save-cubin keep the other forms from the
// same run, so a bundle and the code inside it come from one compilation.
//
// The compilation itself is a CompileSession (Driver/CompileSession.h);
// this file reads the flags and the input, and writes the outputs only once
// the whole run has succeeded.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/CompileSession.h"
#include "threadbind/Driver/LauncherHeader.h"
#include "threadbind/Driver/OutputFiles.h"
#include "threadbind/InitAllPasses.h"
#include "threadbind/Pipelines/OptionsBinding.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace mlir::threadbind;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("threadbind-compile options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input .mlir>"),
                                   cl::init("-"), cl::cat(category));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::PTX),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir",
                          "the bound MLIR (gpu.launch form)"),
               clEnumValN(EmitKind::LLVM, "llvm", "device LLVM IR"),
               clEnumValN(EmitKind::PTX, "ptx", "PTX assembly"),
               clEnumValN(EmitKind::Cubin, "cubin", "a cubin, via ptxas"),
               clEnumValN(EmitKind::Bundle, "bundle",
                          "a host shared library with the kernels"),
               clEnumValN(EmitKind::Header, "header",
                          "a C/C++ header with the PTX and a launcher per "
                          "host function")),
    cl::cat(category));
cl::opt<bool> printDefaultChip(
    "print-default-chip",
    cl::desc("Print the chip compiled for without --chip, and exit"),
    cl::cat(category));
cl::opt<std::string>
    manifestFilename("manifest",
                     cl::desc("Where to write the JSON launch manifest "
                              "(default: beside a regular -o file, as "
                              "<output>.manifest.json; none for -o - or a "
                              "device)"),
                     cl::value_desc("file"), cl::cat(category));
// One run can leave every form a user wants to keep: the main output plus
// these, each written only if the whole compilation succeeds.
cl::opt<std::string> saveMLIR(
    "save-mlir",
    cl::desc("Also write the bound MLIR (gpu.launch form) to this file"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<std::string>
    savePTX("save-ptx",
            cl::desc("Also write the kernels' PTX to this file (with --emit "
                     "ptx, cubin or bundle)"),
            cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> saveCubin(
    "save-cubin",
    cl::desc("Also write the kernels assembled by ptxas to this file (with "
             "--emit ptx, cubin or bundle)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> printPipeline("print-pipeline",
                            cl::desc("Print the pass pipeline to stderr"),
                            cl::cat(category));
cl::opt<bool> timing("timing", cl::desc("Report MLIR pass timing on stderr"),
                     cl::cat(category));
cl::opt<unsigned> threads(
    "num-threads",
    cl::desc("Threads to compile on: 0 for one a core (the default), 1 for "
             "the main thread alone (as --mlir-disable-threading); kernels, "
             "ptxas and a bundle's host code share them"),
    cl::init(0), cl::cat(category));
cl::opt<bool> reportDivergence(
    "report-divergence",
    cl::desc("Report every divergent branch of the bound kernels, with its "
             "location and the value it depends on"),
    cl::cat(category));

cl::opt<Mapper> mapper(
    "mapper", cl::desc("Which mapping binds the loops (upstream ones are for "
                       "comparison)"),
    cl::init(Mapper::ThreadBind),
    cl::values(
        clEnumValN(Mapper::ThreadBind, "threadbind",
                   "threadbind-map-loops-to-threads"),
        clEnumValN(Mapper::Upstream, "upstream",
                   "gpu-map-parallel-loops + convert-parallel-loops-to-gpu"),
        clEnumValN(Mapper::UpstreamTiled, "upstream-tiled",
                   "scf-parallel-loop-tiling by --upstream-tile (no min/max "
                   "bounds), then the upstream mapping")),
    cl::cat(category));
cl::list<int64_t> upstreamTile("upstream-tile",
                               cl::desc("Tile sizes for --mapper="
                                        "upstream-tiled (default 256)"),
                               cl::CommaSeparated, cl::cat(category));
} // namespace

/// Reports `message` as the tool's error and returns the exit code.
static int fail(const Twine &message) {
  llvm::WithColor::error(llvm::errs(), "threadbind-compile") << message << "\n";
  return 1;
}

/// The manifest goes where --manifest says, else next to a regular file
/// output as <output>.manifest.json (so a PTX and a cubin from the same
/// stem keep a manifest each); nowhere for standard output or a device.
static std::string manifestPath() {
  if (!manifestFilename.empty())
    return manifestFilename;
  if (!OutputFiles::isRegularPath(outputFilename))
    return "";
  return outputFilename + ".manifest.json";
}

/// The folder of libThreadBindRuntime, which sits beside this tool's bin/.
static std::string runtimeLibraryDir() {
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&runtimeLibraryDir));
  SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(dir, "lib");
  return std::string(dir);
}

/// The request the flags describe, with the stages' options bound by
/// `binder`.
static CompileRequest makeRequest(const CompileOptions &options) {
  CompileRequest request;
  request.options = options;
  request.emit = emitKind;
  request.mapper = mapper;
  request.upstreamTiles.assign(upstreamTile.begin(), upstreamTile.end());
  request.keepMLIR = !saveMLIR.empty();
  request.keepPTX = !savePTX.empty();
  request.keepCubin = !saveCubin.empty();
  // An explicit --manifest with --emit mlir is refused by the request; the
  // implicit one is not made there.
  request.keepManifest = emitKind == EmitKind::MLIR
                             ? !manifestFilename.empty()
                             : !manifestPath().empty();
  request.printPipeline = printPipeline;
  request.timePasses = timing;
  request.reportDivergence = reportDivergence;
  request.sourceName = inputFilename;
  request.headerPrefix = getHeaderPrefix(outputFilename);
  request.runtimeLibraryDir = runtimeLibraryDir();
  return request;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // --mlir-disable-threading and friends, read by the MLIRContext below.
  registerMLIRContextCLOptions();
  // The stages' own options, declared once (Pipelines/Options.h) and bound
  // here as flags, as threadbind-to-ptx binds them as pipeline options.
  CompileOptions options;
  CommandLineBinder binder(category);
  binder.bind(options);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ThreadBind compiler driver: parallel loops to bound MLIR, device LLVM "
      "IR, PTX or cubin\n");

  if (printDefaultChip) {
    llvm::outs() << kDefaultChip << "\n";
    return 0;
  }
  binder.read();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerDialects(registry);
  // Declared first: the context's threads come from it and must go last.
  std::optional<llvm::DefaultThreadPool> threadPool;
  MLIRContext context(registry);
  if (threads == 1) {
    context.disableMultithreading();
  } else if (threads > 1 && context.isMultithreadingEnabled()) {
    context.disableMultithreading();
    threadPool.emplace(llvm::hardware_concurrency(threads));
    context.setThreadPool(*threadPool);
  }
  // Diagnostics point at the user's source; a dump of the op, rewritten by
  // the passes before it, would bury them.
  context.printOpOnDiagnostic(false);

  CompileSession session(context, makeRequest(options));
  if (failed(session.prepare()))
    return 1;
  const CompileRequest &request = session.getRequest();
  if (request.emit != EmitKind::MLIR && !request.keepManifest)
    llvm::WithColor::note(llvm::errs(), "threadbind-compile")
        << "no manifest written: -o " << outputFilename
        << " is not a regular file; name one with --manifest\n";

  // Every output goes to a temporary file beside its target and appears
  // only once the whole run succeeded; none may be the input, and no two
  // the same file.
  CompileResult result;
  OutputFiles files(inputFilename);
  SmallVector<std::pair<llvm::raw_ostream *, std::string *>> outputs;
  std::string manifestFile = request.keepManifest ? manifestPath() : "";
  for (auto [flag, path, text] :
       {std::tuple(StringRef("-o"), StringRef(outputFilename), &result.output),
        std::tuple(StringRef("--manifest"), StringRef(manifestFile),
                   &result.manifest),
        std::tuple(StringRef("--save-mlir"), StringRef(saveMLIR), &result.mlir),
        std::tuple(StringRef("--save-ptx"), StringRef(savePTX), &result.ptx),
        std::tuple(StringRef("--save-cubin"), StringRef(saveCubin),
                   &result.cubin)}) {
    if (path.empty())
      continue;
    llvm::Expected<llvm::raw_ostream *> stream = files.add(flag, path);
    if (!stream)
      return fail(llvm::toString(stream.takeError()));
    outputs.emplace_back(*stream, text);
  }

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // A loop the mapping runs as several launches (a copy for each case the
  // host chooses between) hears the same remark from each: say it once.
  llvm::StringSet<> said;
  ScopedDiagnosticHandler onceEach(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      return failure();
    std::string key;
    llvm::raw_string_ostream os(key);
    os << diag.getLocation() << '\0' << diag;
    for (const Diagnostic &note : diag.getNotes())
      os << '\0' << note.getLocation() << '\0' << note;
    return success(!said.insert(key).second);
  });
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module;
  {
    TimingScope parseTiming = rootTiming.nest("Parse");
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!module || failed(session.run(*module, result, rootTiming)))
    return 1;
  for (auto [stream, text] : outputs)
    *stream << *text;
  if (llvm::Error error = files.commit())
    return fail(llvm::toString(std::move(error)));
  return 0;
}
