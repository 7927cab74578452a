//===- BundleBuilder.cpp - Build a host shared library of kernels ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/BundleBuilder.h"

#include "BundleSymbols.h"

#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/EmulateGPULaunch.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Padding.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
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
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ScopedPrinter.h"

#include <limits>

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::detail;

std::string threadbind::getGpuEntrySymbol(StringRef entry) {
  return ("threadbind_gpu_" + entry).str();
}

std::string threadbind::getReferenceEntrySymbol(StringRef entry) {
  return ("threadbind_ref_" + entry).str();
}


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
    case 1:
      return THREADBIND_I1;
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

int threadbind::getMemRefAccess(Value memref, SymbolTableCollection &symbols) {
  int access = 0;
  SmallVector<Value> worklist = {memref};
  llvm::SmallPtrSet<void *, 8> followed;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!followed.insert(value.getAsOpaquePointer()).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto call = dyn_cast<func::CallOp>(user)) {
        auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && !callee.isExternal()) {
          worklist.push_back(
              callee.getArgument(use.getOperandNumber()));
          continue;
        }
      }
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

/// Why host code cannot run in a bundle: prints (vector.print lowers to
/// calls into MLIR's runner utilities) and async ops (MLIR's async runtime);
/// a bundle links the CUDA runtime wrapper and libm.
static std::optional<StringRef> getBundleRefusal(Operation *op) {
  if (op->getDialect() && op->getDialect()->getNamespace() == "async")
    return StringRef("cannot run in a bundle, which does not link MLIR's "
                     "async runtime; call the code it holds directly");
  if (isa<vector::PrintOp>(op))
    return StringRef("cannot run in a bundle, which does not link MLIR's "
                     "runner utilities; print from the program that calls "
                     "the bundle");
  return std::nullopt;
}

namespace {
/// The host functions a bundle cannot hold: those with an op it cannot run,
/// and every function that calls or names one of them.
struct UnbundledFunctions {
  /// Each op a bundle cannot run, with its function.
  SmallVector<std::pair<Operation *, func::FuncOp>> roots;
  /// Each function left out, with the op (a root or a call) that makes it.
  llvm::MapVector<func::FuncOp, Operation *> functions;
  /// Whether something outside every function names one of them, so that
  /// they cannot be taken out of the module.
  bool pinned = false;
};
} // namespace

static UnbundledFunctions collectUnbundledFunctions(ModuleOp module) {
  UnbundledFunctions unbundled;
  // An op outside every func.func (an async.func) cannot be left out.
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<func::FuncOp>(op) && getBundleRefusal(&op)) {
      unbundled.roots.push_back({&op, nullptr});
      unbundled.pinned = true;
    }
  SmallVector<func::FuncOp> worklist;
  for (auto func : module.getOps<func::FuncOp>()) {
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (!getBundleRefusal(op))
        return WalkResult::advance();
      unbundled.roots.push_back({op, func});
      if (unbundled.functions.insert({func, op}).second)
        worklist.push_back(func);
      // An async op's region is its own; what it holds is not looked at.
      return WalkResult::skip();
    });
  }
  while (!worklist.empty()) {
    func::FuncOp func = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto user = use.getUser()->getParentOfType<func::FuncOp>();
      unbundled.pinned |= !user;
      if (user && unbundled.functions.insert({user, use.getUser()}).second)
        worklist.push_back(user);
    }
  }
  return unbundled;
}

/// Drops `main`, the CPU test harness, unless another function calls it:
/// then it is a helper like any other. Then what only it called, round
/// after round: private helpers of the harness (filling inputs on the
/// host, printing), which no entry can reach, and declarations, since one
/// with llvm.emit_c_interface (printMemref's, in MLIR's test files)
/// becomes a wrapper calling _mlir_ciface_<name>, which the bundle would
/// fail to link.
static void dropUnusedMain(ModuleOp module) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (main && SymbolTable::symbolKnownUseEmpty(main, module))
    main.erase();
  for (bool erased = true; erased;) {
    erased = false;
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module)) {
        func.erase();
        erased = true;
      }
  }
}

LogicalResult threadbind::leaveOutOfBundle(ModuleOp module) {
  dropUnusedMain(module);
  UnbundledFunctions unbundled = collectUnbundledFunctions(module);
  if (unbundled.roots.empty())
    return success();
  auto isEntry = [](func::FuncOp func) {
    return !func.isDeclaration() && func.isPublic() && func.getName() != "main";
  };
  bool othersRemain =
      llvm::any_of(module.getOps<func::FuncOp>(), [&](func::FuncOp func) {
        return isEntry(func) && !unbundled.functions.count(func);
      });
  if (!othersRemain || unbundled.pinned) {
    for (auto [root, func] : unbundled.roots)
      root->emitOpError(*getBundleRefusal(root));
    return failure();
  }
  // Said where it costs an entry: a helper of main's goes quietly.
  bool losesEntries = llvm::any_of(unbundled.functions, [&](const auto &left) {
    return isEntry(left.first);
  });
  if (losesEntries) {
    // Each function's first such op is named.
    llvm::SmallPtrSet<Operation *, 8> named;
    for (auto [root, func] : unbundled.roots)
      if (named.insert(func).second)
        root->emitWarning("'")
            << root->getName() << "' op " << *getBundleRefusal(root)
            << " (left out of the bundle with '" << func.getName()
            << "' and every function that calls it)";
    // In the module's order.
    for (auto func : module.getOps<func::FuncOp>())
      if (Operation *why = unbundled.functions.lookup(func);
          why && isEntry(func) && !getBundleRefusal(why))
        why->emitWarning("left out of the bundle: '")
            << func.getName() << "' "
            << (isa<func::CallOp>(why) ? "calls" : "refers to")
            << " host code a bundle cannot run";
  }
  for (auto [func, why] : unbundled.functions)
    func.erase();
  return success();
}

FailureOr<std::vector<BundleEntry>>
threadbind::collectBundleEntries(ModuleOp module) {
  std::vector<BundleEntry> entries;
  bool ok = true;
  // Public functions a bundle cannot call, and why: they return values, or
  // take an argument it has no C type or layout for. Each is an error
  // where nothing else is an entry, and otherwise left out, with a warning,
  // so that one such function does not cost the file its bundle.
  SmallVector<std::pair<func::FuncOp, std::string>> refused;
  SymbolTableCollection symbols;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration() || !func.isPublic() || func.getName() == "main")
      continue;
    if (func.getNumResults() != 0) {
      refused.push_back({func, "it returns values; write results to memref "
                               "arguments instead"});
      continue;
    }
    BundleEntry entry;
    entry.name = func.getName().str();
    std::string problem;
    for (BlockArgument arg : func.getArguments()) {
      BundleArgument a;
      a.mlirType = llvm::to_string(arg.getType());
      a.result = getResultIndex(func, arg.getArgNumber()).value_or(-1);
      Type elementType = arg.getType();
      if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
        a.isMemRef = true;
        a.rank = memref.getRank();
        llvm::append_range(a.shape, memref.getShape());
        for (int64_t &size : a.shape)
          if (ShapedType::isDynamic(size))
            size = -1;
        a.access = getMemRefAccess(arg, symbols);
        elementType = memref.getElementType();
        FailureOr<std::optional<int64_t>> paddedTo =
            getPaddedTo(func, arg.getArgNumber());
        if (failed(paddedTo))
          ok = false;
        else
          a.paddedTo = paddedTo->value_or(0);
        if (!memref.getLayout().isIdentity()) {
          // A strided layout (a slice, a transposed view) takes its strides
          // and offset from the caller's descriptor.
          a.strided = true;
          if (failed(memref.getStridesAndOffset(a.strides, a.offset))) {
            problem = llvm::formatv("argument {0} has type '{1}'; bundle "
                                    "memrefs must have the identity or a "
                                    "strided layout",
                                    arg.getArgNumber(), memref);
            break;
          }
        }
      }
      std::optional<int> code = elementTypeOf(elementType);
      if (!code) {
        problem = llvm::formatv("argument {0} has type '{1}'; supported are "
                                "memrefs and scalars of f16, bf16, f32, f64, "
                                "i1, i8, i16, i32, i64 and index",
                                arg.getArgNumber(), arg.getType());
        break;
      }
      a.elementType = *code;
      entry.arguments.push_back(std::move(a));
    }
    if (!problem.empty()) {
      refused.push_back({func, problem});
      continue;
    }
    entries.push_back(std::move(entry));
  }
  if (!ok)
    return failure();
  bool leaveOut = !entries.empty();
  for (auto &[func, why] : refused) {
    InFlightDiagnostic diag = leaveOut ? func.emitWarning() : func.emitError();
    diag << "'func.func' op cannot be a bundle entry: " << why
         << (leaveOut ? " (left out of the bundle)" : "");
  }
  if (!refused.empty() && !leaveOut)
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
    SizeRequirement requirement;
    requirement.arg = arg.getArgNumber();
    requirement.dim = j;
    if (std::optional<int64_t> c = getConstantIntValue(index)) {
      // A constant index c needs c + 1 elements (a negative one is out of
      // bounds whatever the sizes).
      if (*c < 0 || *c == std::numeric_limits<int64_t>::max())
        continue;
      requirement.bound = SizeTerm{SizeTerm::Constant, 0, 0, *c + 1};
    } else {
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
      requirement.bound = bounds->second;
      requirement.offset = offset;
    }
    // Nothing to check: a loop over this very size.
    if (requirement.bound ==
            SizeTerm{SizeTerm::Dim, requirement.arg, requirement.dim, 0} &&
        requirement.offset <= 0)
      continue;
    // Or constants that fit a static size.
    if (requirement.bound.kind == SizeTerm::Constant && !type.isDynamicDim(j) &&
        requirement.bound.value + requirement.offset <= type.getDimSize(j))
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

void threadbind::detail::prefixDefinedSymbols(ModuleOp module,
                                              StringRef prefix) {
  MLIRContext *context = module.getContext();
  SmallVector<SymbolOpInterface> defined;
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol || symbol.isDeclaration() ||
        isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      continue;
    defined.push_back(symbol);
  }
  // One walk for every rename: SymbolTable::replaceAllSymbolUses walks the
  // module once a symbol, which takes seconds at a thousand functions.
  DenseMap<StringAttr, StringAttr> renamed;
  for (SymbolOpInterface symbol : defined) {
    auto name = StringAttr::get(context, prefix + symbol.getName());
    renamed[symbol.getNameAttr()] = name;
    symbol.setName(name);
  }
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
    auto it = renamed.find(ref.getRootReference());
    if (it == renamed.end())
      return std::nullopt;
    return SymbolRefAttr::get(it->second, ref.getNestedReferences());
  });
  // Flat references inside a nested symbol table (a gpu.module) name its
  // own symbols, not the module's.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module.getOperation() && op->hasTrait<OpTrait::SymbolTable>())
      return WalkResult::skip();
    replacer.replaceElementsIn(op, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                               /*replaceTypes=*/false);
    return WalkResult::advance();
  });
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
/// choke on. Complex arithmetic becomes arith and math on the parts first
/// (convert-to-llvm lowers only complex.create, re, im and a few more).
static void addHostToLLVM(OpPassManager &pm) {
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Upstream's lowering of the asserts runtime verification adds is
  // quadratic in their number.
  pm.addPass(createLowerAssertsPass());
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
  pm.addPass(createScopeLoopStackPass());
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
      // Scalars that threadbind-sequential-kernels reads back from the
      // device land in host buffers.
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && load.getMemRef().getDefiningOp() &&
          isHostReadback(load.getMemRef().getDefiningOp()))
        return WalkResult::advance();
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
