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
// The stages are the builders that make up the `threadbind-to-ptx`
// pipeline, run one after another so the manifest can be read off the IR
// between outlining and lowering.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/Uniformity.h"
#include "threadbind/Driver/BundleBuilder.h"
#include "threadbind/Driver/Manifest.h"
#include "threadbind/Driver/Occupancy.h"
#include "threadbind/Driver/OutputFiles.h"
#include "threadbind/Driver/Ptxas.h"
#include "threadbind/InitAllPasses.h"
#include "threadbind/Pipelines/OptionsBinding.h"
#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace mlir::threadbind;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { MLIR, LLVM, PTX, Cubin, Bundle };
enum class Mapper { ThreadBind, Upstream, UpstreamTiled };

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
                          "a host shared library with the kernels")),
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

/// Where the first loop the mapping would bind is: an scf.parallel,
/// scf.forall, affine.parallel or linalg op on memrefs outside any
/// gpu.launch.
static std::optional<Location> findParallelLoop(ModuleOp module) {
  std::optional<Location> found;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Hand-written kernels are not the mapping's, and a forall over tensors
    // stays on the host (normalisation warns at it).
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto forall = dyn_cast<scf::ForallOp>(op);
    if (forall && !forall.getOutputs().empty())
      return WalkResult::advance();
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (isa<scf::ParallelOp, scf::ForallOp, affine::AffineParallelOp>(op) ||
        (linalgOp && linalgOp.hasPureBufferSemantics())) {
      found = op->getLoc();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// The serialised objects of every gpu.binary, in module order.
static SmallVector<std::string> collectObjects(ModuleOp module) {
  SmallVector<std::string> objects;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjectsAttr())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        objects.push_back(object.getObject().getValue().str());
  });
  return objects;
}

/// Assembles `ptx` with ptxas into a cubin, recording each kernel's
/// resources in `kernels`.
static llvm::Expected<std::string>
assemble(StringRef ptxas, StringRef ptx, StringRef chip,
         std::vector<KernelManifest> &kernels) {
  SmallString<128> ptxFile, cubinFile;
  if (llvm::sys::fs::createTemporaryFile("threadbind", "ptx", ptxFile) ||
      llvm::sys::fs::createTemporaryFile("threadbind", "cubin", cubinFile))
    return llvm::createStringError("cannot create temporary files");
  llvm::FileRemover removePtx(ptxFile), removeCubin(cubinFile);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + ptxFile);
    os << ptx;
  }
  llvm::Expected<SmallVector<PtxasKernelInfo>> report =
      runPtxas(ptxas, ptxFile, chip, cubinFile);
  if (!report)
    return report.takeError();
  for (KernelManifest &kernel : kernels)
    for (const PtxasKernelInfo &info : *report)
      if (info.name == kernel.name)
        kernel.resources = info;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cubin =
      llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false);
  if (!cubin)
    return llvm::createStringError("cannot read the cubin ptxas wrote");
  return (*cubin)->getBuffer().str();
}

/// Whether `module` has kernels to compile: launches the mapping made, or
/// gpu.modules written by hand.
static bool hasKernels(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    found = isa<gpu::LaunchOp, gpu::GPUModuleOp>(op);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// The parallel loops of `module` that run on the host after mapping: those
/// outside kernels.
static SmallVector<scf::ParallelOp> findHostLoops(ModuleOp module) {
  SmallVector<scf::ParallelOp> loops;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      loops.push_back(loop);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return loops;
}

/// --threads-per-block=auto: compiles a copy of `module` with 256 threads
/// a block, reads each kernel's registers and shared memory from ptxas,
/// and weighs the sizes 128 to 1024 by the occupancy of the least occupied
/// kernel whose block is that size (kernels with blocks of their own, such
/// as one-warp rows, keep them).
static FailureOr<BlockSizeChoice>
chooseBlockThreads(MLIRContext &context, ModuleOp module,
                   CompileOptions options, const ChipInfo &chip,
                   StringRef ptxas) {
  constexpr unsigned kProbe = 256;
  options.mapping.threadsPerBlock.count = kProbe;
  options.shared.remarks = false;
  OwningOpRef<ModuleOp> probe = module.clone();
  auto mapPm = PassManager::on<ModuleOp>(&context);
  auto outlinePm = PassManager::on<ModuleOp>(&context);
  auto lowerPm = PassManager::on<ModuleOp>(&context);
  buildCompileStages(mapPm, outlinePm, lowerPm, options, "isa");
  if (failed(mapPm.run(*probe)))
    return failure();
  if (!hasKernels(*probe))
    return BlockSizeChoice{kProbe, "no loop became a kernel, so there is "
                                   "nothing to weigh; " +
                                       std::to_string(kProbe) +
                                       " threads a block"};
  SmallVector<std::string> gridPolicies = collectGridPolicies(*probe);
  if (failed(outlinePm.run(*probe)))
    return failure();
  std::vector<KernelManifest> kernels =
      collectKernelManifests(*probe, gridPolicies);
  if (failed(lowerPm.run(*probe)))
    return failure();
  SmallVector<std::string> objects = collectObjects(*probe);
  if (objects.size() != 1)
    return emitError(module.getLoc(), "expected one serialised gpu.module");
  llvm::Expected<std::string> cubin =
      assemble(ptxas, objects.front(), chip.name, kernels);
  if (!cubin)
    return emitError(module.getLoc(), llvm::toString(cubin.takeError()));
  SmallVector<PtxasKernelInfo> scaled;
  for (const KernelManifest &kernel : kernels) {
    int64_t total = 1;
    for (const std::string &extent : kernel.block) {
      int64_t n;
      if (StringRef(extent).getAsInteger(10, n))
        total = -1;
      else if (total > 0)
        total *= n;
    }
    if (total == kProbe && kernel.resources)
      scaled.push_back(*kernel.resources);
  }
  return chooseBlockSize(chip.sm, scaled, {128, 256, 512, 1024}, kProbe);
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
  if (std::string error = options.verify(/*allowAutoThreads=*/true);
      !error.empty())
    return fail(error);
  const ChipInfo chip = *lookupChip(options.target.chip);
  // Upstream's tiling only warns at each loop about a tile that is not
  // positive, and goes on with the loop untiled.
  for (int64_t tile : upstreamTile)
    if (tile <= 0)
      return fail("--upstream-tile sizes must be positive, not " +
                  Twine(tile));
  bool chooseBlock = options.mapping.threadsPerBlock.isAuto();
  if (chooseBlock && mapper != Mapper::ThreadBind)
    return fail("--threads-per-block=auto chooses for ThreadBind's "
                "mapping, not --mapper=upstream*");
  bool emitsPTX = emitKind == EmitKind::PTX || emitKind == EmitKind::Cubin ||
                  emitKind == EmitKind::Bundle;
  if (!emitsPTX && (!savePTX.empty() || !saveCubin.empty()))
    return fail("--save-ptx and --save-cubin need --emit ptx, cubin or "
                "bundle");
  std::string ptxasPath;
  if (emitKind == EmitKind::Cubin || chooseBlock || !saveCubin.empty()) {
    // Found before any work, so a missing toolkit fails fast.
    llvm::Expected<std::string> found = findPtxas(options.target.cudaPath);
    if (!found)
      return fail((chooseBlock ? "--threads-per-block=auto reads registers "
                                 "from ptxas: "
                   : emitKind != EmitKind::Cubin ? "--save-cubin: "
                                                 : "") +
                  llvm::toString(found.takeError()));
    ptxasPath = *found;
  } else if (emitKind == EmitKind::Bundle) {
    // A bundle embeds a cubin when ptxas is there, else PTX that the driver
    // compiles when the bundle first launches.
    llvm::Expected<std::string> found = findPtxas(options.target.cudaPath);
    if (found)
      ptxasPath = *found;
    else
      llvm::WithColor::warning(llvm::errs(), "threadbind-compile")
          << llvm::toString(found.takeError())
          << "; the bundle carries PTX for the driver to compile\n";
  }

  if (emitKind == EmitKind::MLIR && !manifestFilename.empty())
    return fail("--manifest needs --emit llvm, ptx, cubin or bundle: the "
                "manifest describes the outlined kernels, which --emit mlir "
                "does not reach");
  // Every output goes to a temporary file beside its target and appears
  // only once the whole run succeeded; none may be the input, and no two
  // the same file.
  std::string manifestFile =
      emitKind == EmitKind::MLIR ? std::string() : manifestPath();
  if (emitKind != EmitKind::MLIR && manifestFile.empty())
    llvm::WithColor::note(llvm::errs(), "threadbind-compile")
        << "no manifest written: -o " << outputFilename
        << " is not a regular file; name one with --manifest\n";
  OutputFiles files(inputFilename);
  llvm::raw_ostream *output = nullptr, *manifest = nullptr,
                    *savedMLIR = nullptr, *savedPTX = nullptr,
                    *savedCubin = nullptr;
  for (auto [flag, path, stream] :
       {std::tuple(StringRef("-o"), StringRef(outputFilename), &output),
        std::tuple(StringRef("--manifest"), StringRef(manifestFile),
                   &manifest),
        std::tuple(StringRef("--save-mlir"), StringRef(saveMLIR), &savedMLIR),
        std::tuple(StringRef("--save-ptx"), StringRef(savePTX), &savedPTX),
        std::tuple(StringRef("--save-cubin"), StringRef(saveCubin),
                   &savedCubin)}) {
    if (path.empty())
      continue;
    llvm::Expected<llvm::raw_ostream *> added = files.add(flag, path);
    if (!added)
      return fail(llvm::toString(added.takeError()));
    *stream = *added;
  }
  auto commit = [&]() {
    if (llvm::Error error = files.commit())
      return fail(llvm::toString(std::move(error)));
    return 0;
  };

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the user's source; a dump of the op, rewritten by
  // the passes before it, would bury them.
  context.printOpOnDiagnostic(false);

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
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
  if (!module)
    return 1;
  // Once, before the CPU reference is copied off, so each stripped mark is
  // reported once.
  {
    auto stripPm = PassManager::on<ModuleOp>(&context);
    stripPm.addPass(createStripInternalMarksPass());
    if (failed(stripPm.run(*module)))
      return 1;
  }

  // A bundle also carries every entry as written, compiled for the CPU.
  std::vector<BundleEntry> entries;
  OwningOpRef<ModuleOp> reference;
  if (emitKind == EmitKind::Bundle) {
    FailureOr<std::vector<BundleEntry>> found = collectBundleEntries(*module);
    if (failed(found))
      return 1;
    entries = std::move(*found);
    reference = module->clone();
    TimingScope referenceTiming = rootTiming.nest("CPU reference");
    auto normalizePm = PassManager::on<ModuleOp>(&context);
    buildNormalizePipeline(normalizePm);
    auto cpuPm = PassManager::on<ModuleOp>(&context);
    buildCPULoweringStage(cpuPm);
    if (timing) {
      normalizePm.enableTiming(referenceTiming);
      cpuPm.enableTiming(referenceTiming);
    }
    if (failed(normalizePm.run(*reference)))
      return 1;
    // The loops as written, normalised, say what sizes the arguments need.
    addSizeRequirements(*reference, entries);
    prepareReferenceModule(*reference, entries);
    if (failed(cpuPm.run(*reference)))
      return 1;
    prepareDeviceModule(*module, entries);
  }

  if (chooseBlock) {
    TimingScope chooseTiming = rootTiming.nest("Choose the block size");
    FailureOr<BlockSizeChoice> choice =
        chooseBlockThreads(context, *module, options, chip, ptxasPath);
    if (failed(choice))
      return 1;
    options.mapping.threadsPerBlock.count = choice->threadsPerBlock;
    llvm::WithColor::remark(llvm::errs(), "threadbind-compile")
        << "--threads-per-block=auto: " << choice->why << "\n";
  }
  // The stages, in order: with ThreadBind's mapping, the builder of
  // threadbind-to-ptx itself (for --emit mlir its first stage, for --emit
  // llvm with LLVM bitcode). Upstream's mapping runs on normalised loops,
  // checked in between for what it cannot convert.
  auto normalizePm = PassManager::on<ModuleOp>(&context);
  auto mapPm = PassManager::on<ModuleOp>(&context);
  auto outlinePm = PassManager::on<ModuleOp>(&context);
  auto lowerPm = PassManager::on<ModuleOp>(&context);
  StringRef format = emitKind == EmitKind::LLVM ? "llvm" : "isa";
  if (mapper == Mapper::ThreadBind) {
    buildCompileStages(mapPm, outlinePm, lowerPm, options, format);
  } else {
    buildNormalizePipeline(normalizePm);
    SmallVector<int64_t> tiles(upstreamTile.begin(), upstreamTile.end());
    if (mapper == Mapper::UpstreamTiled && tiles.empty())
      tiles.push_back(256);
    buildUpstreamMapStage(
        mapPm, mapper == Mapper::UpstreamTiled ? tiles : ArrayRef<int64_t>());
    buildBackEndStages(outlinePm, lowerPm, options.target, format);
  }
  SmallVector<PassManager *> stages;
  if (mapper != Mapper::ThreadBind)
    stages.push_back(&normalizePm);
  stages.push_back(&mapPm);
  if (emitKind != EmitKind::MLIR)
    stages.append({&outlinePm, &lowerPm});

  if (printPipeline) {
    llvm::interleave(
        stages, llvm::errs(),
        [](PassManager *pm) { pm->printAsTextualPipeline(llvm::errs()); },
        ",\n");
    llvm::errs() << "\n";
  }

  auto runStage = [&](PassManager &pm, StringRef name) {
    TimingScope stageTiming = rootTiming.nest(name);
    if (timing)
      pm.enableTiming(stageTiming);
    return pm.run(*module);
  };

  std::optional<Location> firstLoop = findParallelLoop(*module);
  if (mapper != Mapper::ThreadBind) {
    if (failed(runStage(normalizePm, "Normalise")))
      return 1;
    bool reduces = false;
    for (scf::ParallelOp loop : findHostLoops(*module)) {
      if (loop.getNumResults() == 0)
        continue;
      loop.emitError("--mapper=upstream cannot map a loop with reductions: "
                     "upstream's convert-parallel-loops-to-gpu does not "
                     "convert them; use --mapper=threadbind");
      reduces = true;
    }
    if (reduces)
      return 1;
  }
  if (failed(runStage(mapPm, "Normalise and map")))
    return 1;
  // Upstream's mapping leaves the loops it cannot convert where they are:
  // say which run sequentially on the host.
  SmallVector<scf::ParallelOp> hostLoops;
  if (mapper != Mapper::ThreadBind) {
    hostLoops = findHostLoops(*module);
    for (scf::ParallelOp loop : hostLoops)
      loop.emitWarning("upstream's mapping did not convert this loop: it "
                       "runs sequentially on the host");
  }
  bool mapped = hasKernels(*module);
  if (!mapped && !firstLoop) {
    emitError(module->getLoc())
        << "nothing to map: no scf.parallel, scf.forall, affine.parallel or "
           "linalg op on memrefs outside a gpu.launch";
    return 1;
  }
  if (!mapped) {
    // Every loop stayed on the host (warned above), or normalisation
    // folded it away because it runs no iteration or nothing it computes
    // is used: a valid program that needs no kernel. It still gets its
    // (empty) kernel module, so every output has the form the user asked
    // for.
    if (hostLoops.empty())
      emitWarning(*firstLoop)
          << "no parallel loop is left to map: each runs no iteration, or "
             "computes nothing that is used, and was folded away; the "
             "program has no kernels";
    OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
    gpu::GPUModuleOp::create(builder, *firstLoop, "threadbind_kernels");
    (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                       builder.getUnitAttr());
  }
  if (reportDivergence) {
    FailureOr<SmallVector<DivergentBranch>> branches =
        findDivergentBranches(*module);
    if (failed(branches))
      return fail("the uniformity analysis failed");
    for (const DivergentBranch &b : *branches) {
      bool loop = isa<LoopLikeOpInterface>(b.branch);
      InFlightDiagnostic remark =
          b.branch->emitRemark("divergent '")
          << b.branch->getName() << "': threads of a warp can "
          << (loop ? "leave it after different iterations"
                   : "take different sides");
      Operation *source = b.cause.getSource();
      if (!source)
        continue;
      if (isa<gpu::LaunchOp>(source))
        remark.attachNote(source->getLoc())
            << "it depends on the thread ids of this 'gpu.launch'";
      else
        remark.attachNote(source->getLoc())
            << "it depends on this '" << source->getName() << "'";
    }
    llvm::errs() << "threadbind-compile: " << branches->size()
                 << " divergent branch(es)\n";
  }
  if (savedMLIR)
    module->print(*savedMLIR);
  if (emitKind == EmitKind::MLIR) {
    module->print(*output);
    return commit();
  }

  SmallVector<std::string> gridPolicies = collectGridPolicies(*module);
  if (failed(runStage(outlinePm, "Outline")))
    return 1;
  std::vector<KernelManifest> kernels =
      collectKernelManifests(*module, gridPolicies);
  if (emitKind == EmitKind::Bundle &&
      failed(verifyHostCodeLeavesDataAlone(*module)))
    return 1;
  if (failed(runStage(lowerPm, "Lower and serialise")))
    return 1;
  SmallVector<std::string> objects = collectObjects(*module);
  if (objects.size() != 1)
    return fail("expected one serialised gpu.module, found " +
                Twine(objects.size()));
  // PTX still calling into libdevice would not assemble or load: say why
  // now instead of leaving it to ptxas or the driver at launch.
  if (emitKind != EmitKind::LLVM) {
    llvm::Regex unresolved("\\.extern \\.func[^\n]*(__nv_[A-Za-z0-9_]+)");
    SmallVector<StringRef> match;
    if (unresolved.match(objects.front(), &match))
      return fail("the kernels call libdevice's '" + match[1] +
                  "', but no CUDA toolkit with "
                  "nvvm/libdevice/libdevice.10.bc was found; pass "
                  "--cuda-path");
  }

  TimingScope emitTiming = rootTiming.nest("Emit");
  if (emitKind == EmitKind::LLVM) {
    llvm::LLVMContext llvmContext;
    llvm::Expected<std::unique_ptr<llvm::Module>> device =
        llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(objects.front(), "device"), llvmContext);
    if (!device)
      return fail("cannot read the device bitcode: " +
                  llvm::toString(device.takeError()));
    (*device)->print(*output, nullptr);
  } else {
    std::string cubin;
    if (!ptxasPath.empty() && (emitKind != EmitKind::PTX || savedCubin)) {
      llvm::Expected<std::string> assembled =
          assemble(ptxasPath, objects.front(), chip.name, kernels);
      if (!assembled)
        return fail(llvm::toString(assembled.takeError()));
      cubin = std::move(*assembled);
    }
    if (emitKind == EmitKind::PTX) {
      *output << objects.front();
    } else if (emitKind == EmitKind::Cubin) {
      *output << cubin;
    } else {
      if (!cubin.empty())
        replaceWithCubin(*module, cubin);
      FailureOr<std::string> library = buildBundleLibrary(
          *module, *reference, entries, runtimeLibraryDir());
      if (failed(library))
        return 1;
      *output << *library;
    }
    if (savedPTX)
      *savedPTX << objects.front();
    if (savedCubin)
      *savedCubin << cubin;
  }

  if (manifest)
    writeManifest(*manifest, kernels, inputFilename, chip.name,
                  chip.getPtxVersionString(), entries);
  return commit();
}
