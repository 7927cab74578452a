//===- BundleLibrary.cpp - A bundle's LLVM IR, object and library ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The last step of a bundle: the host code and the CPU reference, lowered to
// LLVM IR, are linked into one module with a C entry per function and the
// entry table the runtime reads (threadbind/Runtime/Bundle.h), compiled to
// an object for this host, and linked with the runtime into a shared
// library.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/BundleBuilder.h"

#include "BundleSymbols.h"

#include "threadbind/Runtime/Bundle.h"

#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
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
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::detail;

//===----------------------------------------------------------------------===//
// LLVM IR, object and library
//===----------------------------------------------------------------------===//

/// `void <exported>(void **args)` calling `_mlir_ciface_<symbol>`: memref
/// descriptors are passed by pointer as they come, scalars are loaded from
/// theirs. With `waitForLaunches`, the wrapper then waits for the launches
/// the call made (threadbind_bundle_call_done), which the runtime runs in
/// order without waiting for each.
static FailureOr<llvm::Function *>
addEntryWrapper(llvm::Module &module, StringRef symbol, StringRef exported,
                bool waitForLaunches) {
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
    llvm::Type *paramType = param.getType();
    if (paramType->isPointerTy()) {
      args.push_back(pointer);
    } else if (paramType->isIntegerTy(1)) {
      // An i1 is a byte in memory; any value but 0 is true.
      args.push_back(b.CreateIsNotNull(
          b.CreateLoad(llvm::Type::getInt8Ty(context), pointer)));
    } else {
      args.push_back(b.CreateLoad(paramType, pointer));
    }
  }
  b.CreateCall(callee, args);
  if (waitForLaunches) {
    llvm::FunctionCallee done = module.getOrInsertFunction(
        "threadbind_bundle_call_done",
        llvm::FunctionType::get(llvm::Type::getVoidTy(context), false));
    b.CreateCall(done);
  }
  b.CreateRetVoid();
  return wrapper;
}

llvm::StructType *threadbind::getBundleArgumentType(llvm::LLVMContext &context) {
  auto *i32 = llvm::Type::getInt32Ty(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  return llvm::StructType::get(context,
                               {i32, i32, i32, i32, ptr, i64, i32, ptr, i64});
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
      // ShapedType::kDynamic is THREADBIND_DYNAMIC (INT64_MIN).
      static_assert(ShapedType::kDynamic == INT64_MIN);
      llvm::Constant *strides = null;
      if (a.strided && !a.strides.empty())
        strides = addConstant(
            module,
            llvm::ConstantDataArray::get(context,
                                         ArrayRef<int64_t>(a.strides)),
            "threadbind.strides." + Twine(e) + "." + Twine(i));
      arguments.push_back(llvm::ConstantStruct::get(
          argumentTy,
          {llvm::ConstantInt::get(i32, a.isMemRef),
           llvm::ConstantInt::get(i32, a.elementType),
           llvm::ConstantInt::get(i32, a.rank),
           llvm::ConstantInt::get(i32, a.access), shape,
           llvm::ConstantInt::get(i64, a.paddedTo),
           llvm::ConstantInt::get(i32, a.strided), strides,
           llvm::ConstantInt::get(i64, a.strided ? a.offset : 0)}));
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

/// Defines the conversions to bf16 that LLVM's x86 code generator calls
/// (`__truncsfbf2`, `__truncdfbf2`): it promotes bf16 arithmetic to f32 and
/// rounds back through them, and the libgcc of GCC 12 (Debian 12's) lacks
/// them, so a bundle whose host code or CPU reference touched bf16 failed
/// to link. Hidden and weak: a libgcc that has them is not needed, and the
/// bundle exports nothing new. Both round to nearest, ties to even, as
/// arith.truncf does; a NaN stays a NaN of the same sign.
static void addBf16Truncations(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  llvm::Type *f64 = llvm::Type::getDoubleTy(context);
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *bf16 = llvm::Type::getBFloatTy(context);
  auto define = [&](StringRef name, llvm::Type *from) {
    if (llvm::Function *existing = module.getFunction(name))
      if (!existing->isDeclaration())
        return static_cast<llvm::Function *>(nullptr);
    auto *function = llvm::cast<llvm::Function>(
        module
            .getOrInsertFunction(name,
                                 llvm::FunctionType::get(bf16, {from}, false))
            .getCallee());
    function->setLinkage(llvm::GlobalValue::WeakODRLinkage);
    function->setVisibility(llvm::GlobalValue::HiddenVisibility);
    return function;
  };
  // f32 -> bf16: add half an ulp of bf16, less one unless the kept part is
  // odd, and keep the top 16 bits.
  auto roundToBf16 = [&](llvm::IRBuilder<> &b, llvm::Value *x) {
    llvm::Value *bits = b.CreateBitCast(x, i32);
    llvm::Value *odd = b.CreateAnd(b.CreateLShr(bits, 16), 1);
    llvm::Value *rounded =
        b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(odd, b.getInt32(0x7FFF))),
                     16);
    llvm::Value *quiet = b.CreateOr(b.CreateLShr(bits, 16), 0x40);
    llvm::Value *isNaN = b.CreateFCmpUNO(x, x);
    llvm::Value *half = b.CreateTrunc(b.CreateSelect(isNaN, quiet, rounded),
                                      b.getInt16Ty());
    return b.CreateBitCast(half, bf16);
  };
  if (llvm::Function *function = define("__truncsfbf2", f32)) {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", function));
    b.CreateRet(roundToBf16(b, function->getArg(0)));
  }
  // f64 -> bf16 without double rounding: to f32 rounding to odd (toward
  // zero, then the last bit set where that dropped anything), then as
  // above. f32 keeps more than bf16's bits plus two, so the result is the
  // correctly rounded one.
  if (llvm::Function *function = define("__truncdfbf2", f64)) {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", function));
    llvm::Value *x = function->getArg(0);
    llvm::Value *nearest = b.CreateFPTrunc(x, f32);
    llvm::Value *back = b.CreateFPExt(nearest, f64);
    llvm::Value *abs = b.CreateBitCast(
        b.CreateAnd(b.CreateBitCast(x, i64), b.getInt64(INT64_MAX)), f64);
    llvm::Value *absBack = b.CreateBitCast(
        b.CreateAnd(b.CreateBitCast(back, i64), b.getInt64(INT64_MAX)), f64);
    // Rounded away from zero: one ulp back toward it (integer order is
    // magnitude order for floats of one sign).
    llvm::Value *bits = b.CreateBitCast(nearest, i32);
    llvm::Value *away = b.CreateFCmpOGT(absBack, abs);
    bits = b.CreateSelect(away, b.CreateSub(bits, b.getInt32(1)), bits);
    llvm::Value *inexact = b.CreateFCmpONE(back, x);
    bits = b.CreateSelect(inexact, b.CreateOr(bits, 1), bits);
    // NaNs keep the nearest conversion's quiet NaN.
    llvm::Value *isNaN = b.CreateFCmpUNO(x, x);
    llvm::Value *odd = b.CreateSelect(isNaN, nearest, b.CreateBitCast(bits, f32));
    b.CreateRet(roundToBf16(b, odd));
  }
}

/// Compiles `module` for the host into a position-independent object file.
/// The native target must be initialised.
static llvm::Error emitHostObject(llvm::Module &module, StringRef path) {
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

/// Host functions an object file should hold at least before the host code
/// is split to be compiled on several threads.
static constexpr unsigned kFunctionsPerHostObject = 32;

/// Compiles `module` for the host into object files, one a thread where the
/// module is large: llvm::SplitModule shares its functions out (the local
/// symbols parts share become hidden), and each part is compiled on an LLVM
/// context of its own. Returns the files, which `removers` deletes.
static llvm::Expected<SmallVector<std::string>>
emitHostObjects(MLIRContext *context, llvm::Module &module,
                std::vector<llvm::FileRemover> &removers) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Inline assembly in host code goes through the target's parser.
  llvm::InitializeNativeTargetAsmParser();
  auto defined = llvm::count_if(module.functions(), [](llvm::Function &f) {
    return !f.isDeclaration();
  });
  unsigned parts = context->isMultithreadingEnabled()
                       ? std::min<unsigned>(context->getNumThreads(),
                                            defined / kFunctionsPerHostObject)
                       : 1;
  // Module-level assembly would be copied into every part.
  if (parts < 2 || !module.getModuleInlineAsm().empty())
    parts = 1;
  SmallVector<std::string> paths;
  for (unsigned i = 0; i < parts; ++i) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("threadbind-bundle", "o", path))
      return llvm::createStringError("cannot create temporary files");
    removers.emplace_back(path);
    paths.push_back(path.str().str());
  }
  if (parts == 1) {
    if (llvm::Error error = emitHostObject(module, paths.front()))
      return std::move(error);
    return paths;
  }
  // Each part travels to its own context as bitcode, as LLVM's parallel
  // LTO code generation does.
  SmallVector<SmallVector<char, 0>> bitcode;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_svector_ostream os(bitcode.emplace_back());
        llvm::WriteBitcodeToFile(*part, os);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  SmallVector<std::string> errors(bitcode.size());
  mlir::parallelFor(context, 0, bitcode.size(), [&](size_t i) {
    llvm::LLVMContext llvmContext;
    llvm::Expected<std::unique_ptr<llvm::Module>> part =
        llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(StringRef(bitcode[i].data(), bitcode[i].size()),
                                  "host part"),
            llvmContext);
    llvm::Error error = part ? emitHostObject(**part, paths[i])
                             : part.takeError();
    if (error)
      errors[i] = llvm::toString(std::move(error));
  });
  for (const std::string &error : errors)
    if (!error.empty())
      return llvm::createStringError(error);
  paths.resize(bitcode.size());
  return paths;
}

/// Links `objects` into a shared library at `output` against the runtime
/// library in `runtimeLibDir`, with the system C compiler.
static llvm::Error linkBundle(ArrayRef<std::string> objects,
                              StringRef runtimeLibDir, StringRef output) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError(
        "no C compiler ('cc') on PATH to link the bundle");
  std::string libDir = ("-L" + runtimeLibDir).str();
  // $ORIGIN first, so a bundle copied next to the runtime finds it there.
  std::string rpath = ("-Wl,-rpath,$ORIGIN:" + runtimeLibDir).str();
  // libm: the CPU reference may call it (LLVM expands f16 maxnum into
  // fmaxf, and math ops without an instruction into their libm functions).
  SmallVector<StringRef> args = {*cc, "-shared", "-fPIC"};
  args.append(objects.begin(), objects.end());
  args.append({libDir, "-lThreadBindRuntime", "-lm", rpath,
               "-Wl,--no-undefined", "-o", output});
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
                               StringRef runtimeLibDir, TimingScope &timing) {
  Location loc = module.getLoc();
  prefixDefinedSymbols(module, kDeviceSymbolPrefix);
  auto hostPm = PassManager::on<ModuleOp>(module.getContext());
  buildHostLoweringStage(hostPm);
  {
    TimingScope lowerTiming = timing.nest("Lower the host code");
    if (failed(hostPm.run(module)))
      return failure();
  }

  TimingScope translateTiming = timing.nest("Host LLVM IR");
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
        getGpuEntrySymbol(entry.name), /*waitForLaunches=*/true);
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
        getReferenceEntrySymbol(entry.name), /*waitForLaunches=*/false);
    if (failed(referenceWrapper))
      return emitError(loc, "no C interface for the reference of '")
             << entry.name << "'";
    cpuEntries.back() = *referenceWrapper;
    exported.insert((*referenceWrapper)->getName());
  }
  addEntryTable(*host, entries, gpu, cpuEntries);
  internalizeAllBut(*host, exported);
  addBf16Truncations(*host);

  SmallString<128> libraryFile;
  if (llvm::sys::fs::createTemporaryFile("threadbind-bundle", "so",
                                         libraryFile))
    return emitError(loc, "cannot create temporary files");
  llvm::FileRemover removeLibrary(libraryFile);
  translateTiming.stop();
  std::vector<llvm::FileRemover> removeObjects;
  SmallVector<std::string> objects;
  {
    TimingScope objectTiming = timing.nest("Host objects");
    llvm::Expected<SmallVector<std::string>> emitted =
        emitHostObjects(module.getContext(), *host, removeObjects);
    if (!emitted)
      return emitError(loc, llvm::toString(emitted.takeError()));
    objects = std::move(*emitted);
  }
  TimingScope linkTiming = timing.nest("Link with cc");
  if (llvm::Error error = linkBundle(objects, runtimeLibDir, libraryFile))
    return emitError(loc, llvm::toString(std::move(error)));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> library =
      llvm::MemoryBuffer::getFile(libraryFile, /*IsText=*/false);
  if (!library)
    return emitError(loc, "cannot read the linked bundle");
  return (*library)->getBuffer().str();
}
