//===- BundleBuilder.cpp - Build a host shared library of kernels ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/BundleBuilder.h"

#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Transforms/EmulateGPULaunch.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Padding.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::threadbind;

std::string threadbind::getGpuEntrySymbol(StringRef entry) {
  return ("threadbind_gpu_" + entry).str();
}

std::string threadbind::getReferenceEntrySymbol(StringRef entry) {
  return ("threadbind_ref_" + entry).str();
}

/// Prefixes of the names the input's own symbols take in a bundle: no name
/// the input can spell then meets the C library, the runtime's functions
/// or the other copy of the program.
static constexpr StringLiteral kDeviceSymbolPrefix = "threadbind.host.";
static constexpr StringLiteral kReferenceSymbolPrefix = "threadbind.ref.";

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

static std::optional<int> elementTypeOf(Type type) {
  if (type.isF16())
    return THREADBIND_F16;
  if (type.isBF16())
    return THREADBIND_BF16;
  if (type.isF32())
    return THREADBIND_F32;
  if (type.isF64())
    return THREADBIND_F64;
  if (isa<IndexType>(type))
    return THREADBIND_INDEX;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return THREADBIND_I8;
    case 16:
      return THREADBIND_I16;
    case 32:
      return THREADBIND_I32;
    case 64:
      return THREADBIND_I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// How `memref` (a function argument) is used: loads read, stores write,
/// views are followed; anything else counts as both.
static int accessOf(Value memref) {
  int access = 0;
  SmallVector<Value> worklist = {memref};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::LoadOp, affine::AffineLoadOp, vector::LoadOp,
              vector::TransferReadOp>(user)) {
        access |= THREADBIND_READ;
      } else if (isa<memref::StoreOp, affine::AffineStoreOp, vector::StoreOp,
                     vector::TransferWriteOp>(user)) {
        // A store's memref is written; stored as a value it would escape.
        access |= use.getOperandNumber() == 0 ? THREADBIND_READ_WRITE
                                              : THREADBIND_WRITE;
      } else if (isa<memref::DimOp>(user)) {
        continue;
      } else if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value)
          llvm::append_range(worklist, user->getResults());
        else
          access |= THREADBIND_READ_WRITE;
      } else if (isa<memref::CastOp>(user)) {
        llvm::append_range(worklist, user->getResults());
      } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        if (linalgOp.isDpsInput(&use))
          access |= THREADBIND_READ;
        else
          access |= linalgOp.payloadUsesValueFromOperand(&use)
                        ? THREADBIND_READ_WRITE
                        : THREADBIND_WRITE;
      } else {
        access |= THREADBIND_READ_WRITE;
      }
    }
  }
  return access ? access : THREADBIND_READ;
}

FailureOr<std::vector<BundleEntry>>
threadbind::collectBundleEntries(ModuleOp module) {
  std::vector<BundleEntry> entries;
  bool ok = true;
  // Bundles link the CUDA runtime wrapper and libm, not MLIR's async
  // runtime, so async host code cannot run in one.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (op->getDialect() && op->getDialect()->getNamespace() == "async") {
      op->emitOpError("cannot run in a bundle, which does not link MLIR's "
                      "async runtime; call the code it holds directly");
      ok = false;
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration() || !func.isPublic() || func.getName() == "main")
      continue;
    if (func.getNumResults() != 0) {
      func.emitOpError("cannot be a bundle entry: it returns values; write "
                       "results to memref arguments instead");
      ok = false;
      continue;
    }
    BundleEntry entry;
    entry.name = func.getName().str();
    for (BlockArgument arg : func.getArguments()) {
      BundleArgument a;
      a.mlirType = llvm::to_string(arg.getType());
      Type elementType = arg.getType();
      if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
        a.isMemRef = true;
        a.rank = memref.getRank();
        llvm::append_range(a.shape, memref.getShape());
        for (int64_t &size : a.shape)
          if (ShapedType::isDynamic(size))
            size = -1;
        a.access = accessOf(arg);
        elementType = memref.getElementType();
        FailureOr<std::optional<int64_t>> paddedTo =
            getPaddedTo(func, arg.getArgNumber());
        if (failed(paddedTo))
          ok = false;
        else
          a.paddedTo = paddedTo->value_or(0);
        if (!memref.getLayout().isIdentity()) {
          func.emitOpError("cannot be a bundle entry: argument ")
              << arg.getArgNumber() << " has type " << memref
              << "; bundle memrefs must have the identity layout";
          ok = false;
        }
      }
      std::optional<int> code = elementTypeOf(elementType);
      if (!code) {
        func.emitOpError("cannot be a bundle entry: argument ")
            << arg.getArgNumber() << " has type " << arg.getType()
            << "; supported are memrefs and scalars of f16, bf16, f32, f64, "
               "i8, i16, i32, i64 and index";
        ok = false;
        continue;
      }
      a.elementType = *code;
      entry.arguments.push_back(std::move(a));
    }
    entries.push_back(std::move(entry));
  }
  if (!ok)
    return failure();
  if (entries.empty())
    return module.emitError("nothing to bundle: no public function with a "
                            "body other than main");
  return entries;
}

//===----------------------------------------------------------------------===//
// Size requirements
//===----------------------------------------------------------------------===//

/// `value` as a quantity the host knows before calling `func`.
static std::optional<SizeTerm> getSizeTerm(Value value, func::FuncOp func) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return SizeTerm{SizeTerm::Constant, 0, 0, *constant};
  if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
    return getSizeTerm(cast.getIn(), func);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &func.getBody().front() ||
        !isa<IndexType, IntegerType>(arg.getType()))
      return std::nullopt;
    return SizeTerm{SizeTerm::Scalar, static_cast<int>(arg.getArgNumber()), 0,
                    0};
  }
  auto dim = value.getDefiningOp<memref::DimOp>();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  auto source = dim ? dyn_cast<BlockArgument>(dim.getSource()) : nullptr;
  if (!index || !source || source.getOwner() != &func.getBody().front())
    return std::nullopt;
  return SizeTerm{SizeTerm::Dim, static_cast<int>(source.getArgNumber()),
                  static_cast<int>(*index), 0};
}

/// Bounds, as terms, of the loop dimension `iv` counts, if its step is 1.
static std::optional<std::pair<SizeTerm, SizeTerm>>
getUnitLoopBounds(BlockArgument iv, func::FuncOp func) {
  Operation *owner = iv.getOwner()->getParentOp();
  Value lb, ub, step;
  if (auto loop = dyn_cast<scf::ParallelOp>(owner)) {
    unsigned d = iv.getArgNumber();
    lb = loop.getLowerBound()[d], ub = loop.getUpperBound()[d],
    step = loop.getStep()[d];
  } else if (auto loop = dyn_cast<scf::ForOp>(owner);
             loop && iv == loop.getInductionVar()) {
    lb = loop.getLowerBound(), ub = loop.getUpperBound(),
    step = loop.getStep();
  } else {
    return std::nullopt;
  }
  std::optional<SizeTerm> lower = getSizeTerm(lb, func);
  std::optional<SizeTerm> upper = getSizeTerm(ub, func);
  if (!isConstantIntValue(step, 1) || !lower || !upper)
    return std::nullopt;
  return std::make_pair(*lower, *upper);
}

/// The guards under which `op` runs: one a dimension of every loop around
/// it, or nothing when anything else encloses it (a branch, a loop whose
/// bounds the host cannot know).
static std::optional<SmallVector<std::pair<SizeTerm, SizeTerm>>>
getLoopGuards(Operation *op, func::FuncOp func) {
  SmallVector<std::pair<SizeTerm, SizeTerm>> guards;
  for (Operation *parent = op->getParentOp(); parent != func;
       parent = parent->getParentOp()) {
    if (!isa<scf::ParallelOp, scf::ForOp>(parent))
      return std::nullopt;
    Block &body = parent->getRegion(0).front();
    unsigned numIvs = isa<scf::ForOp>(parent) ? 1 : body.getNumArguments();
    for (unsigned d = 0; d < numIvs; ++d) {
      std::optional<std::pair<SizeTerm, SizeTerm>> bounds =
          getUnitLoopBounds(body.getArgument(d), func);
      if (!bounds)
        return std::nullopt;
      guards.push_back(*bounds);
    }
  }
  return guards;
}

/// What one access of memref argument `memref` at `indices` needs.
static void addAccessRequirements(Operation *op, Value memref,
                                  ValueRange indices, func::FuncOp func,
                                  SmallVectorImpl<SizeRequirement> &out) {
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return;
  auto type = cast<MemRefType>(memref.getType());
  std::optional<SmallVector<std::pair<SizeTerm, SizeTerm>>> guards;
  for (auto [j, index] : llvm::enumerate(indices)) {
    // index = iv + c
    int64_t offset = 0;
    Value base = index;
    if (auto add = index.getDefiningOp<arith::AddIOp>()) {
      for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()),
                          std::pair(add.getRhs(), add.getLhs())})
        if (std::optional<int64_t> c = getConstantIntValue(y)) {
          base = x, offset = *c;
          break;
        }
    }
    auto iv = dyn_cast<BlockArgument>(base);
    if (!iv)
      continue;
    std::optional<std::pair<SizeTerm, SizeTerm>> bounds =
        getUnitLoopBounds(iv, func);
    if (!bounds)
      continue;
    SizeRequirement requirement;
    requirement.arg = arg.getArgNumber();
    requirement.dim = j;
    requirement.bound = bounds->second;
    requirement.offset = offset;
    // Nothing to check: a loop over this very size.
    if (requirement.bound ==
            SizeTerm{SizeTerm::Dim, requirement.arg, requirement.dim, 0} &&
        offset <= 0)
      continue;
    // Or constants that fit a static size.
    if (requirement.bound.kind == SizeTerm::Constant &&
        !type.isDynamicDim(j) &&
        requirement.bound.value + offset <= type.getDimSize(j))
      continue;
    if (!guards && !(guards = getLoopGuards(op, func)))
      return;
    requirement.guards = *guards;
    std::string where;
    llvm::raw_string_ostream os(where);
    os << "'" << op->getName() << "' at ";
    if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      os << op->getLoc();
    requirement.where = where;
    if (!llvm::is_contained(out, requirement))
      out.push_back(std::move(requirement));
  }
}

void threadbind::addSizeRequirements(ModuleOp module,
                                     MutableArrayRef<BundleEntry> entries) {
  for (BundleEntry &entry : entries) {
    auto func = module.lookupSymbol<func::FuncOp>(entry.name);
    if (!func)
      continue;
    func.walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op))
        addAccessRequirements(op, load.getMemRef(), load.getIndices(), func,
                              entry.requirements);
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        addAccessRequirements(op, store.getMemRef(), store.getIndices(), func,
                              entry.requirements);
    });
  }
}

/// Drops `main`, the CPU test harness, unless another function calls it:
/// then it is a helper like any other.
static void dropUnusedMain(ModuleOp module) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (main && SymbolTable::symbolKnownUseEmpty(main, module))
    main.erase();
  // What only @main called: a declaration with llvm.emit_c_interface
  // (printMemref's, in MLIR's test files) becomes a wrapper calling
  // _mlir_ciface_<name>, which the bundle would fail to link.
  for (auto decl :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (decl.isDeclaration() && decl.isPrivate() &&
        SymbolTable::symbolKnownUseEmpty(decl, module))
      decl.erase();
}

/// Renames every symbol `module` defines at its top level (functions with
/// bodies, globals) to `prefix` + its name, and every use with it;
/// declarations keep their names, as the linker resolves them. GPU modules
/// and binaries keep theirs.
static void prefixDefinedSymbols(ModuleOp module, StringRef prefix) {
  MLIRContext *context = module.getContext();
  SmallVector<SymbolOpInterface> defined;
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol || symbol.isDeclaration() ||
        isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      continue;
    defined.push_back(symbol);
  }
  for (SymbolOpInterface symbol : defined) {
    auto name = StringAttr::get(context, prefix + symbol.getName());
    (void)SymbolTable::replaceAllSymbolUses(symbol, name, module);
    symbol.setName(name);
  }
}

/// Why `func` cannot run on the CPU as written, or an empty string; runs
/// its hand-written gpu.launch ops as host loops where it can.
static std::string emulateHandWrittenKernels(RewriterBase &rewriter,
                                             func::FuncOp func) {
  std::string why;
  SmallVector<gpu::LaunchOp> launches;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      launches.push_back(launch);
      return WalkResult::skip();
    }
    if (isa<gpu::LaunchFuncOp>(op)) {
      why = "it launches a kernel of a hand-written gpu.module, which the "
            "host does not run";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!why.empty())
    return why;
  for (gpu::LaunchOp launch : launches) {
    // The reason goes to the manifest, not to the user's terminal: the
    // bundle still runs on the GPU.
    ScopedDiagnosticHandler capture(func.getContext(), [&](Diagnostic &diag) {
      if (why.empty())
        why = "its gpu.launch cannot run on the host: " + diag.str();
      return success();
    });
    if (failed(verifyEmulatable(launch)))
      return why;
  }
  for (gpu::LaunchOp launch : launches)
    emulateLaunchOnHost(rewriter, launch);
  return why;
}

/// Rewrites every scf.parallel of `module` to count iterations from 0 by
/// 1, with iv = lb + k * step inside. Upstream's lowering steps the
/// induction variable itself, which wraps past the end of the index type
/// (a loop to INT64_MAX, or ub - lb over 2^63) and then runs no iteration
/// or never stops; the kernels count trips, and the reference must mean
/// the same loop.
static void countParallelLoopsInTrips(RewriterBase &rewriter,
                                      ModuleOp module) {
  SmallVector<scf::ParallelOp> loops;
  module.walk([&](scf::ParallelOp loop) { loops.push_back(loop); });
  for (scf::ParallelOp loop : loops) {
    if (llvm::all_of(loop.getLowerBound(),
                     [](Value v) { return isConstantIntValue(v, 0); }) &&
        llvm::all_of(loop.getStep(),
                     [](Value v) { return isConstantIntValue(v, 1); }))
      continue;
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    unsigned numDims = loop.getNumLoops();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> trips;
    for (unsigned d = 0; d < numDims; ++d)
      trips.push_back(createTripCount(rewriter, loc, loop, d));
    auto counted = scf::ParallelOp::create(
        rewriter, loc, SmallVector<Value>(numDims, zero), trips,
        SmallVector<Value>(numDims, one), loop.getInitVals(),
        /*bodyBuilderFn=*/nullptr);
    counted->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *body = counted.getBody();
    // The builder's implicit terminator, if it made one (it makes none
    // for a loop with results), gives way to the moved body's.
    if (!body->empty())
      rewriter.eraseOp(&body->back());
    rewriter.setInsertionPointToStart(body);
    SmallVector<Value> ivs;
    for (unsigned d = 0; d < numDims; ++d) {
      Value offset = arith::MulIOp::create(rewriter, loc,
                                           body->getArgument(d),
                                           loop.getStep()[d]);
      ivs.push_back(arith::AddIOp::create(rewriter, loc,
                                          loop.getLowerBound()[d], offset));
    }
    rewriter.mergeBlocks(loop.getBody(), body, ivs);
    rewriter.replaceOp(loop, counted.getResults());
  }
}

void threadbind::prepareReferenceModule(ModuleOp module,
                                        MutableArrayRef<BundleEntry> entries) {
  dropUnusedMain(module);
  MLIRContext *context = module.getContext();
  // Host loops and memory replace the GPU code: the dialects may not be
  // loaded yet when the input held none of their ops.
  context->loadDialect<arith::ArithDialect, memref::MemRefDialect,
                       scf::SCFDialect>();
  IRRewriter rewriter(context);
  // Functions that cannot run on the CPU, and every function that calls
  // one, leave the reference.
  DenseMap<Operation *, std::string> noReference;
  for (auto func : module.getOps<func::FuncOp>()) {
    std::string why = emulateHandWrittenKernels(rewriter, func);
    if (!why.empty())
      noReference[func] = why;
  }
  replaceDeviceAllocationsOnHost(rewriter, module);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (noReference.count(func))
        continue;
      func.walk([&](func::CallOp call) {
        Operation *callee = module.lookupSymbol(call.getCalleeAttr());
        auto it = noReference.find(callee);
        if (it == noReference.end() || noReference.count(func))
          return;
        noReference[func] = ("it calls @" + call.getCallee() + ", and " +
                             it->second)
                                .str();
        changed = true;
      });
    }
  }
  for (BundleEntry &entry : entries) {
    auto it = noReference.find(module.lookupSymbol(entry.name));
    if (it != noReference.end())
      entry.noReference = it->second;
  }
  for (auto &[func, why] : noReference)
    func->erase();
  for (auto gpuModule :
       llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
    gpuModule.erase();
  countParallelLoopsInTrips(rewriter, module);

  for (const BundleEntry &entry : entries)
    if (entry.noReference.empty())
      module.lookupSymbol(entry.name)
          ->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
  prefixDefinedSymbols(module, kReferenceSymbolPrefix);
}

void threadbind::prepareDeviceModule(ModuleOp module,
                                     ArrayRef<BundleEntry> entries) {
  dropUnusedMain(module);
  for (const BundleEntry &entry : entries)
    module.lookupSymbol<func::FuncOp>(entry.name)
        ->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(module.getContext()));
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// From the standard dialects to LLVM, on the host. Strided metadata before
/// lower-affine: expanding a subview with a dynamic offset leaves
/// affine.apply ops. Math ops with an LLVM intrinsic become it; the others
/// (erf, cbrt, tan, ...) become calls to libm, which bundles link:
/// convert-to-llvm alone would leave those for the LLVM translation to
/// choke on.
static void addHostToLLVM(OpPassManager &pm) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void threadbind::buildCPULoweringStage(OpPassManager &pm) {
  // The reference checks every access against its memref's bounds and
  // aborts, naming the op, where one falls outside: inputs that do not
  // fit the program (sizes that disagree, indices read from random data)
  // stop with a message instead of corrupting memory or passing.
  pm.addPass(createGenerateRuntimeVerificationPass());
  addHostToLLVM(pm);
}

void threadbind::buildHostLoweringStage(OpPassManager &pm) {
  pm.addPass(createGpuToLLVMConversionPass());
  addHostToLLVM(pm);
}

LogicalResult threadbind::verifyHostCodeLeavesDataAlone(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (op->getParentOfType<gpu::GPUModuleOp>())
      return WalkResult::skip();
    if (isa<memref::LoadOp, memref::StoreOp, affine::AffineLoadOp,
            affine::AffineStoreOp, vector::LoadOp, vector::StoreOp,
            vector::TransferReadOp, vector::TransferWriteOp, memref::CopyOp,
            linalg::LinalgOp>(op)) {
      op->emitOpError("accesses memref data on the host, outside any "
                      "parallel loop; in a bundle, memrefs live in device "
                      "memory, so this would read a device pointer on the "
                      "CPU");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void threadbind::replaceWithCubin(ModuleOp module, StringRef cubin) {
  module.walk([&](gpu::BinaryOp binary) {
    SmallVector<Attribute> objects;
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      objects.push_back(gpu::ObjectAttr::get(
          module.getContext(), object.getTarget(),
          gpu::CompilationTarget::Binary,
          StringAttr::get(module.getContext(), cubin),
          object.getProperties(), object.getKernels()));
    }
    binary.setObjectsAttr(ArrayAttr::get(module.getContext(), objects));
  });
}

//===----------------------------------------------------------------------===//
// LLVM IR, object and library
//===----------------------------------------------------------------------===//

/// `void <exported>(void **args)` calling `_mlir_ciface_<symbol>`: memref
/// descriptors are passed by pointer as they come, scalars are loaded from
/// theirs.
static FailureOr<llvm::Function *>
addEntryWrapper(llvm::Module &module, StringRef symbol, StringRef exported) {
  llvm::Function *callee =
      module.getFunction(("_mlir_ciface_" + symbol).str());
  if (!callee)
    return failure();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> b(context);
  auto *ptrTy = llvm::PointerType::getUnqual(context);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptrTy}, false);
  llvm::Function *wrapper = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, exported, module);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", wrapper));
  SmallVector<llvm::Value *> args;
  for (auto [i, param] : llvm::enumerate(callee->args())) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptrTy, wrapper->getArg(0), i);
    llvm::Value *pointer = b.CreateLoad(ptrTy, slot);
    args.push_back(param.getType()->isPointerTy()
                       ? pointer
                       : b.CreateLoad(param.getType(), pointer));
  }
  b.CreateCall(callee, args);
  b.CreateRetVoid();
  return wrapper;
}

llvm::StructType *threadbind::getBundleArgumentType(llvm::LLVMContext &context) {
  auto *i32 = llvm::Type::getInt32Ty(context);
  return llvm::StructType::get(
      context, {i32, i32, i32, i32, llvm::PointerType::getUnqual(context),
                llvm::Type::getInt64Ty(context)});
}

llvm::StructType *threadbind::getBundleTermType(llvm::LLVMContext &context) {
  auto *i32 = llvm::Type::getInt32Ty(context);
  return llvm::StructType::get(context,
                               {i32, i32, i32, llvm::Type::getInt64Ty(context)});
}

llvm::StructType *threadbind::getBundleGuardType(llvm::LLVMContext &context) {
  llvm::StructType *term = getBundleTermType(context);
  return llvm::StructType::get(context, {term, term});
}

llvm::StructType *
threadbind::getBundleRequirementType(llvm::LLVMContext &context) {
  auto *i32 = llvm::Type::getInt32Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  return llvm::StructType::get(
      context, {i32, i32, getBundleTermType(context),
                llvm::Type::getInt64Ty(context), i32, ptr, ptr});
}

llvm::StructType *threadbind::getBundleEntryType(llvm::LLVMContext &context) {
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i32 = llvm::Type::getInt32Ty(context);
  return llvm::StructType::get(context, {ptr, ptr, ptr, i32, ptr, i32, ptr});
}

/// A private constant global holding `value`.
static llvm::GlobalVariable *addConstant(llvm::Module &module,
                                         llvm::Constant *value,
                                         const Twine &name) {
  auto *global = new llvm::GlobalVariable(
      module, value->getType(), /*isConstant=*/true,
      llvm::GlobalValue::PrivateLinkage, value, name);
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return global;
}

/// threadbind_bundle_entries() and the table it returns (ThreadBindEntry
/// in threadbind/Runtime/Bundle.h), built as LLVM globals: no name or
/// path needs quoting for a C compiler.
static void addEntryTable(llvm::Module &module, ArrayRef<BundleEntry> entries,
                          ArrayRef<llvm::Function *> gpu,
                          ArrayRef<llvm::Function *> reference) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptrTy = llvm::PointerType::getUnqual(context);
  auto *i32 = llvm::Type::getInt32Ty(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  llvm::StructType *argumentTy = getBundleArgumentType(context);
  llvm::StructType *entryTy = getBundleEntryType(context);
  llvm::Constant *null = llvm::ConstantPointerNull::get(ptrTy);
  auto term = [&](const SizeTerm &t) -> llvm::Constant * {
    return llvm::ConstantStruct::get(
        getBundleTermType(context),
        {llvm::ConstantInt::get(i32, t.kind), llvm::ConstantInt::get(i32, t.arg),
         llvm::ConstantInt::get(i32, t.dim), llvm::ConstantInt::get(i64, t.value)});
  };
  SmallVector<llvm::Constant *> rows;
  for (auto [e, entry] : llvm::enumerate(entries)) {
    SmallVector<llvm::Constant *> arguments;
    for (auto [i, a] : llvm::enumerate(entry.arguments)) {
      llvm::Constant *shape = null;
      if (a.isMemRef && !a.shape.empty())
        shape = addConstant(
            module,
            llvm::ConstantDataArray::get(context, ArrayRef<int64_t>(a.shape)),
            "threadbind.shape." + Twine(e) + "." + Twine(i));
      arguments.push_back(llvm::ConstantStruct::get(
          argumentTy,
          {llvm::ConstantInt::get(i32, a.isMemRef),
           llvm::ConstantInt::get(i32, a.elementType),
           llvm::ConstantInt::get(i32, a.rank),
           llvm::ConstantInt::get(i32, a.access), shape,
           llvm::ConstantInt::get(i64, a.paddedTo)}));
    }
    llvm::Constant *argumentTable = null;
    if (!arguments.empty())
      argumentTable = addConstant(
          module,
          llvm::ConstantArray::get(
              llvm::ArrayType::get(argumentTy, arguments.size()), arguments),
          "threadbind.arguments." + Twine(e));
    SmallVector<llvm::Constant *> requirements;
    for (auto [r, requirement] : llvm::enumerate(entry.requirements)) {
      SmallVector<llvm::Constant *> guards;
      for (const auto &[lower, upper] : requirement.guards)
        guards.push_back(llvm::ConstantStruct::get(
            getBundleGuardType(context),
            {term(lower), term(upper)}));
      llvm::Constant *guardTable = null;
      if (!guards.empty())
        guardTable = addConstant(
            module,
            llvm::ConstantArray::get(
                llvm::ArrayType::get(getBundleGuardType(context),
                                     guards.size()),
                guards),
            "threadbind.guards." + Twine(e) + "." + Twine(r));
      llvm::Constant *where = addConstant(
          module,
          llvm::ConstantDataArray::getString(context, requirement.where),
          "threadbind.where." + Twine(e) + "." + Twine(r));
      requirements.push_back(llvm::ConstantStruct::get(
          getBundleRequirementType(context),
          {llvm::ConstantInt::get(i32, requirement.arg),
           llvm::ConstantInt::get(i32, requirement.dim),
           term(requirement.bound),
           llvm::ConstantInt::get(i64, requirement.offset),
           llvm::ConstantInt::get(i32, guards.size()), guardTable, where}));
    }
    llvm::Constant *requirementTable = null;
    if (!requirements.empty())
      requirementTable = addConstant(
          module,
          llvm::ConstantArray::get(
              llvm::ArrayType::get(getBundleRequirementType(context),
                                   requirements.size()),
              requirements),
          "threadbind.requirements." + Twine(e));
    llvm::Constant *name = addConstant(
        module, llvm::ConstantDataArray::getString(context, entry.name),
        "threadbind.name." + Twine(e));
    rows.push_back(llvm::ConstantStruct::get(
        entryTy, {name, gpu[e], reference[e] ? reference[e] : null,
                  llvm::ConstantInt::get(i32, entry.arguments.size()),
                  argumentTable,
                  llvm::ConstantInt::get(i32, requirements.size()),
                  requirementTable}));
  }
  llvm::GlobalVariable *table = addConstant(
      module,
      llvm::ConstantArray::get(llvm::ArrayType::get(entryTy, rows.size()),
                               rows),
      "threadbind.entries");

  auto *type = llvm::FunctionType::get(ptrTy, {ptrTy}, false);
  llvm::Function *function =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             "threadbind_bundle_entries", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", function));
  b.CreateStore(llvm::ConstantInt::get(i32, entries.size()),
                function->getArg(0));
  b.CreateRet(table);
}

/// Gives every definition in `module` but `exported` internal linkage, so
/// the bundle exports exactly its ABI and the input's symbols bind only
/// among themselves.
static void internalizeAllBut(llvm::Module &module,
                              const llvm::StringSet<> &exported) {
  auto internalize = [&](llvm::GlobalValue &value) {
    if (value.isDeclaration() || value.hasLocalLinkage() ||
        value.hasAppendingLinkage() || value.getName().starts_with("llvm.") ||
        exported.contains(value.getName()))
      return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    value.setVisibility(llvm::GlobalValue::DefaultVisibility);
    if (auto *object = dyn_cast<llvm::GlobalObject>(&value))
      object->setComdat(nullptr);
  };
  for (llvm::Function &function : module)
    internalize(function);
  for (llvm::GlobalVariable &global : module.globals())
    internalize(global);
}

/// Compiles `module` for the host into a position-independent object file.
static llvm::Error emitHostObject(llvm::Module &module, StringRef path) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Inline assembly in host code goes through the target's parser.
  llvm::InitializeNativeTargetAsmParser();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no host target: " + error);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write " + path);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  pm.run(module);
  return llvm::Error::success();
}

/// Links `object` into a shared library at `output` against the runtime
/// library in `runtimeLibDir`, with the system C compiler.
static llvm::Error linkBundle(StringRef object, StringRef runtimeLibDir,
                              StringRef output) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError(
        "no C compiler ('cc') on PATH to link the bundle");
  std::string libDir = ("-L" + runtimeLibDir).str();
  // $ORIGIN first, so a bundle copied next to the runtime finds it there.
  std::string rpath = ("-Wl,-rpath,$ORIGIN:" + runtimeLibDir).str();
  // libm: the CPU reference may call it (LLVM expands f16 maxnum into
  // fmaxf, and math ops without an instruction into their libm functions).
  SmallVector<StringRef> args = {*cc,    "-shared", "-fPIC",
                                 object, libDir,    "-lThreadBindRuntime",
                                 "-lm",  rpath,     "-Wl,--no-undefined",
                                 "-o",   output};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0,
                                         &message);
  if (status != 0)
    return llvm::createStringError("linking the bundle with " + *cc +
                                   " failed" +
                                   (message.empty() ? "" : ": " + message));
  return llvm::Error::success();
}

FailureOr<std::string>
threadbind::buildBundleLibrary(ModuleOp module, ModuleOp reference,
                               ArrayRef<BundleEntry> entries,
                               StringRef runtimeLibDir) {
  Location loc = module.getLoc();
  prefixDefinedSymbols(module, kDeviceSymbolPrefix);
  auto hostPm = PassManager::on<ModuleOp>(module.getContext());
  buildHostLoweringStage(hostPm);
  if (failed(hostPm.run(module)))
    return failure();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> host =
      translateModuleToLLVMIR(module, llvmContext, "threadbind_bundle");
  std::unique_ptr<llvm::Module> cpu =
      translateModuleToLLVMIR(reference, llvmContext, "threadbind_reference");
  if (!host || !cpu)
    return failure();
  if (llvm::Linker::linkModules(*host, std::move(cpu)))
    return emitError(loc, "cannot link the CPU reference with the host code");

  llvm::StringSet<> exported = {"threadbind_bundle_entries"};
  SmallVector<llvm::Function *> gpu, cpuEntries;
  for (const BundleEntry &entry : entries) {
    FailureOr<llvm::Function *> wrapper = addEntryWrapper(
        *host, (kDeviceSymbolPrefix + entry.name).str(),
        getGpuEntrySymbol(entry.name));
    if (failed(wrapper))
      return emitError(loc, "no C interface for the entry '")
             << entry.name << "'";
    gpu.push_back(*wrapper);
    exported.insert((*wrapper)->getName());
    cpuEntries.push_back(nullptr);
    if (!entry.noReference.empty())
      continue;
    FailureOr<llvm::Function *> referenceWrapper = addEntryWrapper(
        *host, (kReferenceSymbolPrefix + entry.name).str(),
        getReferenceEntrySymbol(entry.name));
    if (failed(referenceWrapper))
      return emitError(loc, "no C interface for the reference of '")
             << entry.name << "'";
    cpuEntries.back() = *referenceWrapper;
    exported.insert((*referenceWrapper)->getName());
  }
  addEntryTable(*host, entries, gpu, cpuEntries);
  internalizeAllBut(*host, exported);

  SmallString<128> objectFile, libraryFile;
  if (llvm::sys::fs::createTemporaryFile("threadbind-bundle", "o",
                                         objectFile) ||
      llvm::sys::fs::createTemporaryFile("threadbind-bundle", "so",
                                         libraryFile))
    return emitError(loc, "cannot create temporary files");
  llvm::FileRemover removeObject(objectFile), removeLibrary(libraryFile);
  if (llvm::Error error = emitHostObject(*host, objectFile))
    return emitError(loc, llvm::toString(std::move(error)));
  if (llvm::Error error = linkBundle(objectFile, runtimeLibDir, libraryFile))
    return emitError(loc, llvm::toString(std::move(error)));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> library =
      llvm::MemoryBuffer::getFile(libraryFile, /*IsText=*/false);
  if (!library)
    return emitError(loc, "cannot read the linked bundle");
  return (*library)->getBuffer().str();
}
