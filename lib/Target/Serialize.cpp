//===- Serialize.cpp - Kernel modules to PTX, in parallel -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The steps are upstream's ModuleToObject::run for the NVPTX target (MLIR
// 22): translate the gpu.module, set the target's data layout and triple,
// link the bitcode libraries keeping only what is used, optimise with
// makeOptimizingTransformer at the target's level, and emit assembly with
// the legacy code-generation pipeline. Keeping those steps and pipelines
// keeps the code each kernel compiles to; what changes is how often the
// fixed costs are paid and on how many threads.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Target/Serialize.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// What is built once per process
//===----------------------------------------------------------------------===//

namespace {
/// NVPTX target machines for the optimisation pipeline, kept for the life
/// of the process and lent to one thread at a time. Code generation gets a
/// machine of its own for each module (create): NVPTX numbers the call
/// sites it lowers per machine, so a machine used before would number a
/// module's calls after the last module's, and the PTX would depend on
/// which thread compiled what.
class TargetMachinePool {
public:
  /// The pool; never destroyed, so that no target machine is torn down
  /// after LLVM's own statics at exit.
  static TargetMachinePool &get() {
    static auto *pool = new TargetMachinePool();
    return *pool;
  }

  /// An idle machine for `triple`, `chip` and `features`, or a new one.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  acquire(const llvm::Triple &triple, StringRef chip, StringRef features) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (auto it = idle.begin(); it != idle.end(); ++it) {
        llvm::TargetMachine &tm = **it;
        if (tm.getTargetTriple() != triple || tm.getTargetCPU() != chip ||
            tm.getTargetFeatureString() != features)
          continue;
        std::unique_ptr<llvm::TargetMachine> found = std::move(*it);
        idle.erase(it);
        return found;
      }
    }
    return create(triple, chip, features);
  }

  /// A new machine, for the caller alone.
  static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  create(const llvm::Triple &triple, StringRef chip, StringRef features) {
    initializeNVPTX();
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return llvm::createStringError("no LLVM target for '" + triple.str() +
                                     "': " + error);
    std::unique_ptr<llvm::TargetMachine> tm(
        target->createTargetMachine(triple, chip, features, {}, {}));
    if (!tm)
      return llvm::createStringError("cannot build a target machine for " +
                                     chip);
    return tm;
  }

  void release(std::unique_ptr<llvm::TargetMachine> tm) {
    std::lock_guard<std::mutex> lock(mutex);
    idle.push_back(std::move(tm));
  }

private:
  static void initializeNVPTX() {
    static std::once_flag once;
    std::call_once(once, [] {
      LLVMInitializeNVPTXTargetInfo();
      LLVMInitializeNVPTXTarget();
      LLVMInitializeNVPTXTargetMC();
      LLVMInitializeNVPTXAsmPrinter();
    });
  }

  std::mutex mutex;
  std::vector<std::unique_ptr<llvm::TargetMachine>> idle;
};

/// A machine borrowed from the pool, given back when this goes.
class BorrowedTargetMachine {
public:
  explicit BorrowedTargetMachine(std::unique_ptr<llvm::TargetMachine> tm)
      : tm(std::move(tm)) {}
  BorrowedTargetMachine(BorrowedTargetMachine &&) = default;
  ~BorrowedTargetMachine() {
    if (tm)
      TargetMachinePool::get().release(std::move(tm));
  }
  llvm::TargetMachine &operator*() const { return *tm; }
  llvm::TargetMachine *operator->() const { return tm.get(); }

private:
  std::unique_ptr<llvm::TargetMachine> tm;
};

/// The bytes of the bitcode libraries read so far (libdevice is 470 KB),
/// by path; read once per process, parsed lazily into each context.
class LibraryCache {
public:
  static LibraryCache &get() {
    static auto *cache = new LibraryCache();
    return *cache;
  }

  llvm::Expected<llvm::MemoryBufferRef> lookup(StringRef path) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = buffers.find(path);
    if (it != buffers.end())
      return it->second->getMemBufferRef();
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer)
      return llvm::createStringError(buffer.getError(),
                                     "cannot read '" + path + "'");
    llvm::MemoryBufferRef ref = (*buffer)->getMemBufferRef();
    buffers[path] = std::move(*buffer);
    return ref;
  }

private:
  std::mutex mutex;
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> buffers;
};
} // namespace

//===----------------------------------------------------------------------===//
// One module
//===----------------------------------------------------------------------===//

namespace {
/// What every module of one call is compiled with.
struct Settings {
  llvm::Triple triple;
  std::string chip;
  std::string features;
  unsigned optLevel;
  /// Bitcode libraries linked into every module (the target's `link`).
  SmallVector<std::string> libraries;
  /// libdevice, linked into modules that declare `__nv_*` functions.
  std::string libdevice;

  /// A machine of the caller's own, at the target's optimisation level.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine() const {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
        TargetMachinePool::create(triple, chip, features);
    if (tm)
      (*tm)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
    return tm;
  }

  llvm::Expected<BorrowedTargetMachine> borrowTargetMachine() const {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
        TargetMachinePool::get().acquire(triple, chip, features);
    if (!tm)
      return tm.takeError();
    (*tm)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
    return BorrowedTargetMachine(std::move(*tm));
  }
};

/// One gpu.module on its way to PTX, on an LLVM context of its own.
struct Part {
  gpu::GPUModuleOp op;
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> module;
  std::string ptx;
};
} // namespace

/// Whether `module` calls into libdevice.
static bool callsLibdevice(const llvm::Module &module) {
  return llvm::any_of(module.functions(), [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
}

/// Links the functions `module` uses from the bitcode libraries in,
/// internalised, as upstream's ModuleToObject::linkFiles does.
static LogicalResult linkLibraries(gpu::GPUModuleOp op, llvm::Module &module,
                                   const Settings &settings) {
  SmallVector<StringRef> paths(settings.libraries.begin(),
                               settings.libraries.end());
  if (!settings.libdevice.empty() && callsLibdevice(module))
    paths.push_back(settings.libdevice);
  if (paths.empty())
    return success();
  llvm::Linker linker(module);
  for (StringRef path : paths) {
    llvm::Expected<llvm::MemoryBufferRef> bytes =
        LibraryCache::get().lookup(path);
    if (!bytes)
      return op.emitError(llvm::toString(bytes.takeError()));
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> library = llvm::getLazyIRModule(
        llvm::MemoryBuffer::getMemBuffer(*bytes, /*RequiresNullTerminator=*/
                                         false),
        diagnostic, module.getContext());
    if (!library)
      return op.emitError("cannot load '")
             << path << "': " << diagnostic.getMessage();
    bool failed = linker.linkInModule(
        std::move(library), llvm::Linker::Flags::LinkOnlyNeeded,
        [](llvm::Module &linked, const llvm::StringSet<> &added) {
          llvm::internalizeModule(linked, [&](const llvm::GlobalValue &gv) {
            return !gv.hasName() || !added.contains(gv.getName());
          });
        });
    if (failed)
      return op.emitError("cannot link '") << path << "' into the kernels";
  }
  return success();
}

/// Readies translated `module` for code generation as upstream does: the
/// target's data layout and triple, the libraries linked in, and LLVM's
/// optimisation pipeline at the target's level, all on one borrowed
/// machine.
static LogicalResult prepareModule(gpu::GPUModuleOp op, llvm::Module &module,
                                   const Settings &settings) {
  llvm::Expected<BorrowedTargetMachine> tm = settings.borrowTargetMachine();
  if (!tm)
    return op.emitError(llvm::toString(tm.takeError()));
  module.setDataLayout((*tm)->createDataLayout());
  module.setTargetTriple((*tm)->getTargetTriple());
  if (failed(linkLibraries(op, module, settings)))
    return failure();
  auto transform =
      makeOptimizingTransformer(settings.optLevel, /*sizeLevel=*/0, &**tm);
  if (llvm::Error error = transform(&module))
    return op.emitError("cannot optimise the kernels: ")
           << llvm::toString(std::move(error));
  return success();
}

/// The PTX the NVPTX back end writes for `module`, on a machine of its own.
static FailureOr<std::string> emitPTX(gpu::GPUModuleOp op,
                                      llvm::Module &module,
                                      const Settings &settings) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      settings.createTargetMachine();
  if (!tm)
    return op.emitError(llvm::toString(tm.takeError()));
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  {
    llvm::buffer_ostream stream(os);
    llvm::legacy::PassManager codegen;
    if ((*tm)->addPassesToEmitFile(codegen, stream, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
      return op.emitError("the NVPTX back end cannot emit assembly");
    codegen.run(module);
  }
  return ptx;
}

//===----------------------------------------------------------------------===//
// Symbols several modules define
//===----------------------------------------------------------------------===//

/// Gives each local symbol defined in more than one part a fresh name in
/// every part but the first, so that their PTX joins into one module. Fails
/// where two parts define one external symbol, which no renaming can fix.
static LogicalResult renameSharedLocals(MutableArrayRef<Part> parts) {
  // Every name some part gives a global value, every external one, and
  // which part first defines each external one.
  llvm::StringSet<> names, externalNames;
  llvm::StringMap<size_t> externalDefinitions;
  for (auto [index, part] : llvm::enumerate(parts)) {
    for (llvm::GlobalValue &gv : part.module->global_values()) {
      if (!gv.hasName())
        continue;
      names.insert(gv.getName());
      if (gv.hasLocalLinkage())
        continue;
      externalNames.insert(gv.getName());
      if (gv.isDeclaration())
        continue;
      auto [it, inserted] = externalDefinitions.try_emplace(gv.getName(), index);
      if (!inserted)
        return part.op.emitError("'")
               << gv.getName() << "' is defined both here and in gpu.module '"
               << parts[it->second].op.getName()
               << "': the modules cannot be compiled into one PTX";
    }
  }
  // A local symbol keeps its name in the first part that defines it, unless
  // some part declares or defines an external symbol of that name.
  llvm::StringSet<> claimed;
  for (auto [index, part] : llvm::enumerate(parts)) {
    for (llvm::GlobalValue &gv : part.module->global_values()) {
      if (!gv.hasName() || !gv.hasLocalLinkage() || gv.isDeclaration())
        continue;
      std::string name = gv.getName().str();
      if (!externalNames.contains(name) && claimed.insert(name).second)
        continue;
      std::string fresh;
      for (unsigned i = 0;; ++i) {
        fresh = name + "_" + std::to_string(index) +
                (i ? "_" + std::to_string(i) : "");
        if (!names.contains(fresh))
          break;
      }
      gv.setName(fresh);
      names.insert(fresh);
      claimed.insert(fresh);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Joining PTX
//===----------------------------------------------------------------------===//

/// Where the header of `ptx` ends: just past its `.address_size` line.
static std::optional<size_t> findHeaderEnd(StringRef ptx) {
  size_t at = ptx.starts_with(".address_size") ? 0
                                                : ptx.find("\n.address_size");
  if (at == StringRef::npos)
    return std::nullopt;
  size_t end = ptx.find('\n', at + 1);
  return end == StringRef::npos ? ptx.size() : end + 1;
}

/// The names of the functions and variables `ptx` defines at module scope
/// (extern declarations and function prototypes left out).
static SmallVector<StringRef> getDefinedSymbols(StringRef ptx) {
  SmallVector<StringRef> defined;
  auto isName = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%';
  };
  // The statement starting at `pos` (module scope): a function defines its
  // name when a body follows before any ';'.
  auto hasBody = [&](size_t pos) {
    size_t brace = ptx.find('{', pos), semicolon = ptx.find(';', pos);
    return brace != StringRef::npos && brace < semicolon;
  };
  int depth = 0;
  size_t pos = 0;
  while (pos < ptx.size()) {
    size_t eol = ptx.find('\n', pos);
    if (eol == StringRef::npos)
      eol = ptx.size();
    StringRef line = ptx.slice(pos, eol);
    StringRef code = line.take_front(line.find("//")).trim();
    if (depth == 0) {
      StringRef rest = code;
      bool extern_ = false;
      for (StringRef prefix : {".visible ", ".weak ", ".extern ", ".common "})
        if (rest.consume_front(prefix)) {
          extern_ |= prefix == ".extern ";
          rest = rest.ltrim();
        }
      bool function =
          rest.starts_with(".entry ") || rest.starts_with(".func ") ||
          rest.starts_with(".entry\t") || rest.starts_with(".func\t");
      bool variable = rest.starts_with(".global ") ||
                      rest.starts_with(".shared ") ||
                      rest.starts_with(".const ");
      if (!extern_ && function && hasBody(pos)) {
        // `.func (.param .b32 r) name(` or `.entry name(`: the name is the
        // identifier before the first '(' that follows the return values.
        StringRef head = rest.drop_front(rest.find_first_of(" \t")).ltrim();
        if (head.starts_with("(")) {
          size_t close = head.find(')');
          head = close == StringRef::npos ? StringRef()
                                          : head.drop_front(close + 1).ltrim();
        }
        StringRef name = head.take_while(isName);
        if (!name.empty())
          defined.push_back(name);
      } else if (!extern_ && variable) {
        // `.global .align 4 .b8 name[16] = {...};`: the last identifier
        // before '[', '=' or ';'.
        StringRef decl = rest.take_until(
            [](char c) { return c == '[' || c == '=' || c == ';'; });
        decl = decl.rtrim();
        size_t start = decl.size();
        while (start > 0 && isName(decl[start - 1]))
          --start;
        if (start < decl.size())
          defined.push_back(decl.drop_front(start));
      }
    }
    for (char c : code) {
      if (c == '{')
        ++depth;
      else if (c == '}')
        --depth;
    }
    pos = eol + 1;
  }
  return defined;
}

llvm::Expected<std::string> threadbind::joinPTX(ArrayRef<std::string> parts) {
  if (parts.empty())
    return std::string();
  std::optional<size_t> headerEnd = findHeaderEnd(parts.front());
  if (!headerEnd)
    return llvm::createStringError("the PTX has no .address_size line");
  StringRef header = StringRef(parts.front()).take_front(*headerEnd);
  std::string joined = parts.front();
  for (StringRef part : parts.drop_front()) {
    std::optional<size_t> end = findHeaderEnd(part);
    if (!end || part.take_front(*end) != header)
      return llvm::createStringError(
          "the kernels' PTX parts have different headers");
    joined += part.drop_front(*end);
  }
  llvm::StringSet<> seen;
  for (StringRef name : getDefinedSymbols(joined))
    if (!seen.insert(name).second)
      return llvm::createStringError("'" + name +
                                     "' is defined twice in the joined PTX");
  return joined;
}

//===----------------------------------------------------------------------===//
// Every module
//===----------------------------------------------------------------------===//

/// Bitcode: every module translated onto one context, linked into the
/// first (the linker renames clashing local symbols), then libraries,
/// optimisation and the bitcode writer, as upstream does for one module.
static FailureOr<std::string>
serializeToBitcode(ArrayRef<gpu::GPUModuleOp> modules,
                   const Settings &settings) {
  gpu::GPUModuleOp first = modules.front();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> linked;
  for (gpu::GPUModuleOp op : modules) {
    std::unique_ptr<llvm::Module> module =
        translateModuleToLLVMIR(op, llvmContext);
    if (!module)
      return op.emitError("cannot translate the kernels to LLVM IR");
    if (!linked) {
      linked = std::move(module);
      continue;
    }
    if (llvm::Linker::linkModules(*linked, std::move(module)))
      return op.emitError("cannot link the kernels with those of '")
             << first.getName() << "'";
  }
  if (failed(prepareModule(first, *linked, settings)))
    return failure();
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*linked, os);
  return bitcode;
}

FailureOr<std::string>
threadbind::serializeKernelModules(ArrayRef<gpu::GPUModuleOp> modules,
                                   NVVM::NVVMTargetAttr target,
                                   const KernelSerializeOptions &options) {
  if (modules.empty())
    return std::string();
  MLIRContext *context = target.getContext();
  gpu::GPUModuleOp first = modules.front();
  Settings settings;
  settings.triple = llvm::Triple(target.getTriple());
  settings.chip = target.getChip().str();
  settings.features = target.getFeatures().str();
  if (target.getO() < 0 || target.getO() > 3)
    return first.emitError("optimisation level ")
           << target.getO() << " is not 0 to 3";
  settings.optLevel = target.getO();
  if (ArrayAttr link = target.getLink()) {
    for (Attribute file : link) {
      auto path = dyn_cast<StringAttr>(file);
      if (!path)
        return first.emitError("the target links ")
               << file << ", which is not a bitcode file's path";
      settings.libraries.push_back(path.str());
    }
  }
  if (!options.toolkitPath.empty()) {
    SmallString<256> path(options.toolkitPath);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    settings.libdevice = path.str().str();
  }
  if (options.format == KernelObjectFormat::Bitcode)
    return serializeToBitcode(modules, settings);

  SmallVector<Part> parts;
  for (gpu::GPUModuleOp op : modules)
    parts.push_back(Part{op, std::make_unique<llvm::LLVMContext>(), {}, {}});

  // Diagnostics from the threads come out in module order.
  ParallelDiagnosticHandler diagnostics(context);
  auto inOrder = [&](size_t index, function_ref<LogicalResult()> step) {
    diagnostics.setOrderIDForThread(index);
    LogicalResult result = step();
    diagnostics.eraseOrderIDForThread();
    return result;
  };
  LogicalResult optimized =
      failableParallelForEachN(context, 0, parts.size(), [&](size_t index) {
        Part &part = parts[index];
        return inOrder(index, [&]() -> LogicalResult {
          part.module = translateModuleToLLVMIR(part.op, *part.llvmContext);
          if (!part.module)
            return part.op.emitError(
                "cannot translate the kernels to LLVM IR");
          return prepareModule(part.op, *part.module, settings);
        });
      });
  if (failed(optimized) || failed(renameSharedLocals(parts)))
    return failure();
  LogicalResult emitted =
      failableParallelForEachN(context, 0, parts.size(), [&](size_t index) {
        Part &part = parts[index];
        return inOrder(index, [&]() -> LogicalResult {
          FailureOr<std::string> ptx = emitPTX(part.op, *part.module, settings);
          if (failed(ptx))
            return failure();
          part.ptx = std::move(*ptx);
          // Done with LLVM: free the module while the others compile.
          part.module.reset();
          part.llvmContext.reset();
          return success();
        });
      });
  if (failed(emitted))
    return failure();
  SmallVector<std::string> texts;
  for (Part &part : parts)
    texts.push_back(std::move(part.ptx));
  llvm::Expected<std::string> joined = joinPTX(texts);
  if (!joined)
    return first.emitError(llvm::toString(joined.takeError()));
  return std::move(*joined);
}
