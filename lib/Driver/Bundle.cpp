//===- Bundle.cpp - Build a host shared library with the kernels ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/Bundle.h"

#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Runtime/Bundle.h"
#include "threadbind/Transforms/Padding.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::threadbind;

std::string threadbind::getReferenceName(StringRef entry) {
  return (entry + "_reference").str();
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

static void dropMain(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    main.erase();
}

void threadbind::prepareReferenceModule(ModuleOp module,
                                        ArrayRef<BundleEntry> entries) {
  dropMain(module);
  MLIRContext *context = module.getContext();
  for (const BundleEntry &entry : entries) {
    auto func = module.lookupSymbol<func::FuncOp>(entry.name);
    StringAttr newName =
        StringAttr::get(context, getReferenceName(entry.name));
    (void)SymbolTable::replaceAllSymbolUses(func, newName, module);
    SymbolTable::setSymbolName(func, newName);
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(context));
  }
}

void threadbind::prepareDeviceModule(ModuleOp module,
                                     ArrayRef<BundleEntry> entries) {
  dropMain(module);
  for (const BundleEntry &entry : entries)
    module.lookupSymbol<func::FuncOp>(entry.name)
        ->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(module.getContext()));
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// Math ops with an LLVM intrinsic become it; the others (erf, cbrt, tan,
/// ...) become calls to libm, which bundles link. convert-to-llvm alone
/// would leave those for the LLVM translation to choke on.
static void addHostMathLowering(OpPassManager &pm) {
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
}

void threadbind::buildCPULoweringPipeline(OpPassManager &pm) {
  buildNormalizePipeline(pm);
  // Strided metadata before lower-affine: expanding a subview with a
  // dynamic offset leaves affine.apply ops.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  addHostMathLowering(pm);
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void threadbind::buildHostLoweringStage(OpPassManager &pm) {
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  addHostMathLowering(pm);
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
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

/// `void threadbind_entry_<symbol>(void **args)` calling `_mlir_ciface_<
/// symbol>`: memref descriptors are passed by pointer as they come, scalars
/// are loaded from theirs.
static llvm::Error addPackedEntryPoint(llvm::Module &module, StringRef symbol,
                                       StringRef exported) {
  llvm::Function *callee =
      module.getFunction(("_mlir_ciface_" + symbol).str());
  if (!callee)
    return llvm::createStringError("no C interface for " + symbol);
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
  return llvm::Error::success();
}

llvm::Error threadbind::addPackedEntryPoints(llvm::Module &module,
                                             ArrayRef<BundleEntry> entries) {
  for (const BundleEntry &entry : entries) {
    if (llvm::Error error = addPackedEntryPoint(
            module, entry.name, "threadbind_entry_" + entry.name))
      return error;
    std::string reference = getReferenceName(entry.name);
    if (llvm::Error error = addPackedEntryPoint(
            module, reference, "threadbind_entry_" + reference))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error threadbind::emitHostObject(llvm::Module &module, StringRef path) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
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

void threadbind::writeEntryTable(llvm::raw_ostream &os,
                                 ArrayRef<BundleEntry> entries,
                                 StringRef input) {
  os << "/* Generated by threadbind-compile from " << input
     << "; do not edit. */\n#include \"threadbind/Runtime/Bundle.h\"\n\n";
  for (const BundleEntry &entry : entries) {
    os << "void threadbind_entry_" << entry.name << "(void **);\n";
    os << "void threadbind_entry_" << getReferenceName(entry.name)
       << "(void **);\n";
    for (auto [i, a] : llvm::enumerate(entry.arguments)) {
      if (!a.isMemRef || a.shape.empty())
        continue;
      os << "static const int64_t shape_" << entry.name << "_" << i << "[] = {"
         << llvm::join(llvm::map_range(a.shape,
                                       [](int64_t s) { return std::to_string(s); }),
                       ", ")
         << "};\n";
    }
    os << "static const ThreadBindArgument args_" << entry.name << "[] = {\n";
    for (auto [i, a] : llvm::enumerate(entry.arguments)) {
      os << "  {" << a.isMemRef << ", " << a.elementType << ", " << a.rank
         << ", " << a.access << ", ";
      if (a.isMemRef && !a.shape.empty())
        os << "shape_" << entry.name << "_" << i;
      else
        os << "0";
      os << ", " << a.paddedTo << "}, /* " << a.mlirType << " */\n";
    }
    if (entry.arguments.empty())
      os << "  {0, 0, 0, 0, 0, 0}\n";
    os << "};\n\n";
  }
  os << "static const ThreadBindEntry entries[] = {\n";
  for (const BundleEntry &entry : entries)
    os << "  {\"" << entry.name << "\", threadbind_entry_" << entry.name
       << ", threadbind_entry_" << getReferenceName(entry.name) << ", "
       << entry.arguments.size() << ", args_" << entry.name << "},\n";
  os << "};\n\nconst ThreadBindEntry *threadbind_bundle_entries(int32_t "
        "*count) {\n  *count = "
     << entries.size() << ";\n  return entries;\n}\n";
}

llvm::Error threadbind::linkBundle(ArrayRef<std::string> inputs,
                                   StringRef includeDir,
                                   StringRef runtimeLibDir, StringRef output) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError(
        "no C compiler ('cc') on PATH to link the bundle");
  std::string include = ("-I" + includeDir).str();
  std::string libDir = ("-L" + runtimeLibDir).str();
  // $ORIGIN first, so a bundle copied next to the runtime finds it there.
  std::string rpath = ("-Wl,-rpath,$ORIGIN:" + runtimeLibDir).str();
  std::string out = output.str();
  SmallVector<StringRef> args = {*cc, "-shared", "-fPIC", "-O2", include};
  for (const std::string &input : inputs)
    args.push_back(input);
  // libm: the CPU reference may call it (LLVM expands f16 maxnum into
  // fmaxf, and math ops without an instruction into their libm functions).
  args.append({libDir, "-lThreadBindRuntime", "-lm", rpath,
               "-Wl,--no-undefined", "-o", out});
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0,
                                         &message);
  if (status != 0)
    return llvm::createStringError("linking the bundle with " + *cc +
                                   " failed" +
                                   (message.empty() ? "" : ": " + message));
  return llvm::Error::success();
}
