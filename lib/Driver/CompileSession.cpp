//===- CompileSession.cpp - One compilation, source to every output -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The stages are the builders that make up the `threadbind-to-ptx`
// pipeline, run one after another so that the manifest can be read off the
// IR between outlining and lowering, and so that a bundle's CPU reference
// can be copied off before mapping.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/CompileSession.h"

#include "threadbind/Analysis/Uniformity.h"
#include "threadbind/Driver/BundleBuilder.h"
#include "threadbind/Driver/LauncherHeader.h"
#include "threadbind/Driver/Manifest.h"
#include "threadbind/Driver/Occupancy.h"
#include "threadbind/Driver/Ptxas.h"
#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// What the stages leave in the IR
//===----------------------------------------------------------------------===//

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

/// A remark at every divergent branch of the bound kernels, with a note at
/// the value it depends on, and a count on stderr: of the source's
/// branches, which the kernels may hold in several copies (unswitching,
/// a launch's copies), each said once.
static LogicalResult reportDivergentBranches(ModuleOp module,
                                             StringRef toolName) {
  FailureOr<SmallVector<DivergentBranch>> branches =
      findDivergentBranches(module);
  if (failed(branches))
    return failure();
  llvm::SetVector<std::pair<Location, unsigned>> sourceBranches;
  for (const DivergentBranch &b : *branches) {
    bool loop = isa<LoopLikeOpInterface>(b.branch);
    sourceBranches.insert({b.branch->getLoc(), loop ? 1u : 0u});
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
  llvm::errs() << toolName << ": " << sourceBranches.size()
               << " divergent branch(es)";
  if (sourceBranches.size() != branches->size())
    llvm::errs() << " (" << branches->size()
                 << " in the bound kernels, which hold some in several "
                    "copies)";
  llvm::errs() << "\n";
  return success();
}

//===----------------------------------------------------------------------===//
// ptxas and the block size
//===----------------------------------------------------------------------===//

/// The threads ptxas may use on `kernels`: MLIR's, where it has several
/// and there is more than one kernel to share out.
static unsigned getPtxasThreads(MLIRContext &context,
                                ArrayRef<KernelManifest> kernels) {
  return context.isMultithreadingEnabled() && kernels.size() > 1
             ? context.getNumThreads()
             : 1;
}

/// Assembles `ptx` with ptxas into a cubin, on `threads` threads, recording
/// each kernel's resources in `kernels`.
static llvm::Expected<std::string>
assemble(StringRef ptxas, StringRef ptx, StringRef chip,
         std::vector<KernelManifest> &kernels, unsigned threads) {
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
      runPtxas(ptxas, ptxFile, chip, cubinFile, threads);
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

/// Where ptxas spilled a kernel of `ptx` under its `.maxntid` bound (the
/// block size the kernel is launched with, which caps a thread's registers),
/// assembles the PTX again without the bound, and keeps that where it
/// spills less and a block still fits (chooseLaunchBound). `ptx`, `cubin`
/// and each kernel's resources and launch-bound note are updated to what is
/// kept.
static llvm::Error relaxLaunchBounds(StringRef ptxas, const ChipInfo &chip,
                                     std::string &ptx, std::string &cubin,
                                     std::vector<KernelManifest> &kernels,
                                     unsigned threads) {
  SmallVector<std::string> spilling;
  llvm::StringMap<unsigned> bounds = getMaxntidThreadsOfEntries(ptx);
  for (KernelManifest &kernel : kernels) {
    if (!kernel.resources || !bounds.contains(kernel.name))
      continue;
    const PtxasKernelInfo &r = *kernel.resources;
    if (r.spillStoreBytes + r.spillLoadBytes == 0) {
      kernel.launchBoundWhy = "kept: ptxas spills nothing under it";
      continue;
    }
    spilling.push_back(kernel.name);
  }
  if (spilling.empty())
    return llvm::Error::success();
  std::string unboundPtx = removeMaxntid(ptx, spilling);
  std::vector<KernelManifest> unbound = kernels;
  llvm::Expected<std::string> unboundCubin =
      assemble(ptxas, unboundPtx, chip.name, unbound, threads);
  if (!unboundCubin)
    return unboundCubin.takeError();
  SmallVector<std::string> dropped;
  for (auto [kernel, without] : llvm::zip_equal(kernels, unbound)) {
    if (!llvm::is_contained(spilling, kernel.name) || !without.resources)
      continue;
    LaunchBoundChoice choice =
        chooseLaunchBound(chip.sm, bounds.lookup(kernel.name),
                          *kernel.resources, *without.resources);
    kernel.launchBoundWhy = choice.why;
    if (choice.drop)
      dropped.push_back(kernel.name);
  }
  if (dropped.empty())
    return llvm::Error::success();
  auto markDropped = [&] {
    for (KernelManifest &kernel : kernels)
      kernel.launchBoundDropped = llvm::is_contained(dropped, kernel.name);
  };
  if (dropped.size() == spilling.size()) {
    for (auto [kernel, without] : llvm::zip_equal(kernels, unbound))
      kernel.resources = without.resources;
    ptx = std::move(unboundPtx);
    cubin = std::move(*unboundCubin);
    markDropped();
    return llvm::Error::success();
  }
  // Some kernels keep theirs: assemble once more with only the others'
  // bounds gone (ptxas assembles each kernel on its own, so the dropped
  // ones come out as in the trial).
  std::string relaxed = removeMaxntid(ptx, dropped);
  llvm::Expected<std::string> relaxedCubin =
      assemble(ptxas, relaxed, chip.name, kernels, threads);
  if (!relaxedCubin)
    return relaxedCubin.takeError();
  ptx = std::move(relaxed);
  cubin = std::move(*relaxedCubin);
  markDropped();
  return llvm::Error::success();
}

/// The number of threads in a block of `kernel`, or -1 where it is not a
/// constant.
static int64_t getBlockThreads(const KernelManifest &kernel) {
  int64_t total = 1;
  for (const LaunchExpr &extent : kernel.block) {
    if (!extent.isConstant())
      return -1;
    total *= extent.value;
  }
  return total;
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
  buildCompileStages(mapPm, outlinePm, lowerPm, options,
                     KernelObjectFormat::PTX);
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
      assemble(ptxas, objects.front(), chip.name, kernels,
               getPtxasThreads(context, kernels));
  if (!cubin)
    return emitError(module.getLoc(), llvm::toString(cubin.takeError()));
  SmallVector<PtxasKernelInfo> scaled;
  for (const KernelManifest &kernel : kernels)
    if (getBlockThreads(kernel) == kProbe && kernel.resources)
      scaled.push_back(*kernel.resources);
  return chooseBlockSize(chip.sm, scaled, {128, 256, 512, 1024}, kProbe);
}

//===----------------------------------------------------------------------===//
// CompileRequest
//===----------------------------------------------------------------------===//

std::string CompileRequest::verify() const {
  if (std::string error = options.verify(/*allowAutoThreads=*/true);
      !error.empty())
    return error;
  // Upstream's tiling only warns at each loop about a tile that is not
  // positive, and goes on with the loop untiled.
  for (int64_t tile : upstreamTiles)
    if (tile <= 0)
      return "--upstream-tile sizes must be positive, not " +
             std::to_string(tile);
  if (options.mapping.threadsPerBlock.isAuto() && mapper != Mapper::ThreadBind)
    return "--threads-per-block=auto chooses for ThreadBind's mapping, not "
           "--mapper=upstream*";
  if (!emitsPTX() && (keepPTX || keepCubin))
    return "--save-ptx and --save-cubin need --emit ptx, cubin or bundle";
  if (emit == EmitKind::MLIR && keepManifest)
    return "--manifest needs --emit llvm, ptx, cubin or bundle: the manifest "
           "describes the outlined kernels, which --emit mlir does not "
           "reach";
  return "";
}

//===----------------------------------------------------------------------===//
// One run
//===----------------------------------------------------------------------===//

namespace {
/// The state of one `CompileSession::run`: the stages, the bundle's entries
/// and reference, and what each stage reads off the IR for the next.
class Compilation {
public:
  Compilation(MLIRContext &context, const CompileRequest &request,
              StringRef ptxasPath, ModuleOp module, TimingScope &timing)
      : context(context), request(request), options(request.options),
        chip(*lookupChip(request.options.target.chip)), ptxasPath(ptxasPath),
        module(module), timing(timing) {}

  LogicalResult run(CompileResult &result);

private:
  LogicalResult error(const Twine &message) const {
    return request.emitToolError(message);
  }
  LogicalResult runStage(PassManager &pm, StringRef name);
  LogicalResult buildReference();
  LogicalResult chooseBlock();
  void buildStages();
  LogicalResult mapLoops();
  LogicalResult lowerKernels(CompileResult &result);

  MLIRContext &context;
  const CompileRequest &request;
  CompileOptions options;
  const ChipInfo chip;
  StringRef ptxasPath;
  ModuleOp module;
  TimingScope &timing;

  PassManager normalizePm = PassManager::on<ModuleOp>(&context);
  PassManager mapPm = PassManager::on<ModuleOp>(&context);
  PassManager outlinePm = PassManager::on<ModuleOp>(&context);
  PassManager lowerPm = PassManager::on<ModuleOp>(&context);

  std::vector<BundleEntry> entries;
  OwningOpRef<ModuleOp> reference;
  std::vector<KernelManifest> kernels;
  std::vector<HostFunctionManifest> hostFunctions;
  ArgumentAccess argumentAccess;

  /// Whether an output describes the host functions (the manifest's
  /// functions section, the header's launchers), so that they are read.
  bool describesHostFunctions() const {
    return request.keepManifest || request.emit == EmitKind::Header;
  }
};
} // namespace

LogicalResult Compilation::runStage(PassManager &pm, StringRef name) {
  TimingScope stageTiming = timing.nest(name);
  if (request.timePasses)
    pm.enableTiming(stageTiming);
  return pm.run(module);
}

/// A bundle also carries every entry as written, compiled for the CPU.
LogicalResult Compilation::buildReference() {
  FailureOr<std::vector<BundleEntry>> found = collectBundleEntries(module);
  if (failed(found))
    return failure();
  entries = std::move(*found);
  reference = module.clone();
  TimingScope referenceTiming = timing.nest("CPU reference");
  auto referenceNormalizePm = PassManager::on<ModuleOp>(&context);
  buildNormalizePipeline(referenceNormalizePm, /*loopReductions=*/false);
  auto cpuPm = PassManager::on<ModuleOp>(&context);
  buildCPULoweringStage(cpuPm);
  if (request.timePasses) {
    referenceNormalizePm.enableTiming(referenceTiming);
    cpuPm.enableTiming(referenceTiming);
  }
  if (failed(referenceNormalizePm.run(*reference)))
    return failure();
  // The loops as written, normalised, say what sizes the arguments need.
  addSizeRequirements(*reference, entries);
  prepareReferenceModule(*reference, entries);
  if (failed(cpuPm.run(*reference)))
    return failure();
  prepareDeviceModule(module, entries);
  return success();
}

LogicalResult Compilation::chooseBlock() {
  TimingScope chooseTiming = timing.nest("Choose the block size");
  FailureOr<BlockSizeChoice> choice =
      chooseBlockThreads(context, module, options, chip, ptxasPath);
  if (failed(choice))
    return failure();
  options.mapping.threadsPerBlock.count = choice->threadsPerBlock;
  llvm::WithColor::remark(llvm::errs(), request.toolName)
      << "--threads-per-block=auto: " << choice->why << "\n";
  return success();
}

/// The stages, in order: with ThreadBind's mapping, the builder of
/// threadbind-to-ptx itself (for --emit mlir its first stage, for --emit
/// llvm with LLVM bitcode). Upstream's mapping runs on normalised loops,
/// checked in between for what it cannot convert.
void Compilation::buildStages() {
  KernelObjectFormat format = request.emit == EmitKind::LLVM
                                  ? KernelObjectFormat::Bitcode
                                  : KernelObjectFormat::PTX;
  if (request.mapper == Mapper::ThreadBind) {
    buildCompileStages(mapPm, outlinePm, lowerPm, options, format);
  } else {
    buildNormalizePipeline(normalizePm, options.mapping.loopReductions,
                           options.shared.remarks);
    SmallVector<int64_t> tiles(request.upstreamTiles);
    if (request.mapper == Mapper::UpstreamTiled && tiles.empty())
      tiles.push_back(256);
    buildUpstreamMapStage(mapPm, request.mapper == Mapper::UpstreamTiled
                                     ? tiles
                                     : ArrayRef<int64_t>());
    buildBackEndStages(outlinePm, lowerPm, options.target, format);
  }
  if (!request.printPipeline)
    return;
  SmallVector<PassManager *> stages;
  if (request.mapper != Mapper::ThreadBind)
    stages.push_back(&normalizePm);
  stages.push_back(&mapPm);
  if (request.emit != EmitKind::MLIR)
    stages.append({&outlinePm, &lowerPm});
  llvm::interleave(
      stages, llvm::errs(),
      [](PassManager *pm) { pm->printAsTextualPipeline(llvm::errs()); },
      ",\n");
  llvm::errs() << "\n";
}

/// Normalises and maps the loops. A module left without kernels still gets
/// an empty kernel module, so that every output has the form asked for.
LogicalResult Compilation::mapLoops() {
  std::optional<Location> firstLoop = findParallelLoop(module);
  bool upstream = request.mapper != Mapper::ThreadBind;
  if (upstream) {
    if (failed(runStage(normalizePm, "Normalise")))
      return failure();
    bool reduces = false;
    for (scf::ParallelOp loop : findHostLoops(module)) {
      if (loop.getNumResults() == 0)
        continue;
      loop.emitError("--mapper=upstream cannot map a loop with reductions: "
                     "upstream's convert-parallel-loops-to-gpu does not "
                     "convert them; use --mapper=threadbind");
      reduces = true;
    }
    if (reduces)
      return failure();
  }
  if (failed(runStage(mapPm, "Normalise and map")))
    return failure();
  // Upstream's mapping leaves the loops it cannot convert where they are:
  // say which run sequentially on the host.
  SmallVector<scf::ParallelOp> hostLoops;
  if (upstream) {
    hostLoops = findHostLoops(module);
    for (scf::ParallelOp loop : hostLoops)
      loop.emitWarning("upstream's mapping did not convert this loop: it "
                       "runs sequentially on the host");
  }
  if (hasKernels(module))
    return success();
  if (!firstLoop) {
    InFlightDiagnostic diag =
        emitError(module.getLoc())
        << "nothing to map: no scf.parallel, scf.forall, affine.parallel "
           "or linalg op on memrefs outside a gpu.launch";
    bool touchesMemory = module
                             .walk([](Operation *op) {
                               if (isa<memref::LoadOp, memref::StoreOp>(op) &&
                                   !op->getParentOfType<gpu::LaunchOp>() &&
                                   !op->getParentOfType<gpu::GPUModuleOp>())
                                 return WalkResult::interrupt();
                               return WalkResult::advance();
                             })
                             .wasInterrupted();
    if (!options.mapping.sequentialFallback && touchesMemory)
      diag << " (--sequential-fallback=false keeps sequential code on the "
              "host; with it, code that touches memory runs on one GPU "
              "thread)";
    return diag;
  }
  // Every loop stayed on the host (warned above), or normalisation folded
  // it away because it runs no iteration or nothing it computes is used: a
  // valid program that needs no kernel.
  if (hostLoops.empty())
    emitWarning(*firstLoop)
        << "no parallel loop is left to map: each runs no iteration, or "
           "computes nothing that is used, and was folded away; the program "
           "has no kernels";
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  gpu::GPUModuleOp::create(builder, *firstLoop, "threadbind_kernels");
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  return success();
}

/// Outlines, lowers and serialises the kernels, and makes the main output
/// and the kept forms from them.
LogicalResult Compilation::lowerKernels(CompileResult &result) {
  SmallVector<std::string> gridPolicies = collectGridPolicies(module);
  if (failed(runStage(outlinePm, "Outline")))
    return failure();
  kernels = collectKernelManifests(module, gridPolicies);
  if (describesHostFunctions())
    hostFunctions = collectHostFunctions(module, kernels, argumentAccess);
  if (request.emit == EmitKind::Bundle &&
      failed(verifyHostCodeLeavesDataAlone(module)))
    return failure();
  if (failed(runStage(lowerPm, "Lower and serialise")))
    return failure();
  SmallVector<std::string> objects = collectObjects(module);
  if (objects.size() != 1)
    return error("expected one serialised gpu.module, found " +
                 Twine(objects.size()));
  std::string &object = objects.front();
  TimingScope emitTiming = timing.nest("Emit");
  if (request.emit == EmitKind::LLVM) {
    llvm::LLVMContext llvmContext;
    llvm::Expected<std::unique_ptr<llvm::Module>> device =
        llvm::parseBitcodeFile(llvm::MemoryBufferRef(object, "device"),
                               llvmContext);
    if (!device)
      return error("cannot read the device bitcode: " +
                   llvm::toString(device.takeError()));
    llvm::raw_string_ostream os(result.output);
    (*device)->print(os, nullptr);
    return success();
  }
  // PTX still calling into libdevice would not assemble or load: say why
  // now instead of leaving it to ptxas or the driver at launch.
  llvm::Regex unresolved("\\.extern \\.func[^\n]*(__nv_[A-Za-z0-9_]+)");
  SmallVector<StringRef> match;
  if (unresolved.match(object, &match))
    return error("the kernels call libdevice's '" + match[1] +
                 "', but no CUDA toolkit with nvvm/libdevice/libdevice.10.bc "
                 "was found; pass --cuda-path");
  std::string cubin;
  if (!ptxasPath.empty() &&
      (request.emit != EmitKind::PTX || request.keepCubin)) {
    TimingScope ptxasTiming = emitTiming.nest("ptxas");
    unsigned threads = getPtxasThreads(context, kernels);
    llvm::Expected<std::string> assembled =
        assemble(ptxasPath, object, chip.name, kernels, threads);
    if (!assembled)
      return error(llvm::toString(assembled.takeError()));
    cubin = std::move(*assembled);
    if (llvm::Error e = relaxLaunchBounds(ptxasPath, chip, object, cubin,
                                          kernels, threads))
      return error(llvm::toString(std::move(e)));
    if (options.shared.remarks)
      for (const KernelManifest &kernel : kernels)
        if (!kernel.launchBoundWhy.empty() &&
            (kernel.resources->spillStoreBytes ||
             kernel.resources->spillLoadBytes || kernel.launchBoundDropped))
          llvm::WithColor::remark(llvm::errs(), request.toolName)
              << "kernel '" << kernel.name << "' launch bound: "
              << kernel.launchBoundWhy << "\n";
  }
  if (request.emit == EmitKind::PTX) {
    result.output = object;
  } else if (request.emit == EmitKind::Header) {
    SmallVector<std::pair<std::string, std::string>> skipped;
    result.output =
        writeLauncherHeader(kernels, hostFunctions, object, cubin,
                            request.headerPrefix, request.sourceName,
                            chip.name, skipped);
    for (const auto &[name, why] : skipped)
      llvm::WithColor::warning(llvm::errs(), request.toolName)
          << "no launcher for '" << name << "' in the header: " << why << "\n";
  } else if (request.emit == EmitKind::Cubin) {
    result.output = cubin;
  } else {
    if (!cubin.empty())
      replaceWithCubin(module, cubin);
    FailureOr<std::string> library = buildBundleLibrary(
        module, *reference, entries, request.runtimeLibraryDir, emitTiming);
    if (failed(library))
      return failure();
    result.output = std::move(*library);
  }
  if (request.keepPTX)
    result.ptx = object;
  if (request.keepCubin)
    result.cubin = std::move(cubin);
  return success();
}

LogicalResult Compilation::run(CompileResult &result) {
  // A bundle's caller is the program that loads it: a test driver `main`,
  // which may print, is left out of it, and so are functions that print.
  // Before the entries are bufferized, so that a function only those
  // called is an entry returning through its arguments.
  if (request.emit == EmitKind::Bundle && failed(leaveOutOfBundle(module)))
    return failure();
  // Once, before the CPU reference is copied off, so each stripped mark is
  // reported once and the entries are read off the calling convention the
  // bundle has (no tensors, no results); normalising again changes nothing.
  auto stripPm = PassManager::on<ModuleOp>(&context);
  stripPm.addPass(createStripInternalMarksPass());
  stripPm.addPass(createBufferizeEntriesPass());
  if (failed(stripPm.run(module)))
    return failure();
  if (describesHostFunctions())
    argumentAccess = collectArgumentAccess(module);
  if (request.emit == EmitKind::Bundle && failed(buildReference()))
    return failure();
  if (options.mapping.threadsPerBlock.isAuto() && failed(chooseBlock()))
    return failure();
  buildStages();
  if (failed(mapLoops()))
    return failure();
  if (request.reportDivergence &&
      failed(reportDivergentBranches(module, request.toolName)))
    return error("the uniformity analysis failed");
  if (request.keepMLIR || request.emit == EmitKind::MLIR) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    if (request.keepMLIR)
      result.mlir = text;
    if (request.emit == EmitKind::MLIR) {
      result.output = std::move(text);
      return success();
    }
  }
  if (failed(lowerKernels(result)))
    return failure();
  if (request.keepManifest) {
    llvm::raw_string_ostream os(result.manifest);
    writeManifest(os, kernels, hostFunctions, request.sourceName, chip.name,
                  chip.getPtxVersionString(), entries);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CompileSession
//===----------------------------------------------------------------------===//

CompileSession::CompileSession(MLIRContext &context, CompileRequest request)
    : context(context), request(std::move(request)) {}

LogicalResult CompileRequest::emitToolError(const Twine &message) const {
  llvm::WithColor::error(llvm::errs(), toolName) << message << "\n";
  return failure();
}

LogicalResult CompileSession::prepare() {
  if (std::string problem = request.verify(); !problem.empty())
    return request.emitToolError(problem);
  bool chooseBlock = request.options.mapping.threadsPerBlock.isAuto();
  StringRef cudaPath = request.options.target.cudaPath;
  if (request.emit == EmitKind::Cubin || chooseBlock || request.keepCubin) {
    llvm::Expected<std::string> found = findPtxas(cudaPath);
    if (!found)
      return request.emitToolError(
          (chooseBlock ? "--threads-per-block=auto reads registers from "
                         "ptxas: "
           : request.emit != EmitKind::Cubin ? "--save-cubin: "
                                             : "") +
          llvm::toString(found.takeError()));
    ptxasPath = *found;
  } else if (request.emit == EmitKind::Bundle) {
    // A bundle embeds a cubin when ptxas is there, else PTX that the driver
    // compiles when the bundle first launches.
    llvm::Expected<std::string> found = findPtxas(cudaPath);
    if (found)
      ptxasPath = *found;
    else
      llvm::WithColor::warning(llvm::errs(), request.toolName)
          << llvm::toString(found.takeError())
          << "; the bundle carries PTX for the driver to compile\n";
  } else if (request.emit == EmitKind::Header) {
    // A header carries the cubin too when ptxas is there (loaded without a
    // JIT on the chip it is for), and PTX for any other; quietly PTX alone
    // without it.
    llvm::Expected<std::string> found = findPtxas(cudaPath);
    if (found)
      ptxasPath = *found;
    else
      llvm::consumeError(found.takeError());
  }
  return success();
}

LogicalResult CompileSession::run(ModuleOp module, CompileResult &result,
                                  TimingScope &timing) {
  Compilation compilation(context, request, ptxasPath, module, timing);
  return compilation.run(result);
}
