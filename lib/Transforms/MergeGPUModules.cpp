//===- MergeGPUModules.cpp - One gpu.module per program -------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Moves every kernel into a single gpu.module so a program is one PTX file,
// one cubin and one module load at run time.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_MERGEGPUMODULESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

/// Whether PTX accepts `name` as an identifier: a letter then letters,
/// digits, '_' or '$'; or '_', '$' or '%' then at least one of those.
static bool isPTXIdentifier(StringRef name) {
  auto isTail = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (name.empty() || !llvm::all_of(name.drop_front(), isTail))
    return false;
  if (llvm::isAlpha(name.front()))
    return true;
  return (name.front() == '_' || name.front() == '$' || name.front() == '%') &&
         name.size() > 1;
}

/// `name` with every character PTX does not accept in an identifier
/// replaced by '_', made to start with a letter or '_'.
static std::string toPTXIdentifier(StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) || c == '_' || c == '$' ? c : '_';
  if (result.empty() || !llvm::isAlpha(result.front()))
    result = "k_" + result;
  return result;
}

/// The name of the host module's `memref.global` that `op`, in a
/// gpu.module, is a copy of (as outlining makes them: the same name and
/// the same definition), or null.
static StringAttr copiedHostGlobal(ModuleOp module, Operation *op) {
  auto global = dyn_cast<memref::GlobalOp>(op);
  if (!global)
    return nullptr;
  auto host = module.lookupSymbol<memref::GlobalOp>(global.getSymNameAttr());
  if (!host || !OperationEquivalence::isEquivalentTo(
                   host, global, OperationEquivalence::IgnoreLocations))
    return nullptr;
  return global.getSymNameAttr();
}

namespace {
struct MergeGPUModulesPass
    : threadbind::impl::MergeGPUModulesPassBase<MergeGPUModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules =
        llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    // A single module is renamed too, so every program's kernels live in a
    // module of a predictable name.
    if (gpuModules.empty())
      return;

    // Check everything before changing anything. A module without targets
    // (one outlining made) takes those of the others; modules that carry
    // targets must agree.
    gpu::GPUModuleOp withTargets;
    bool ok = true;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      if (!gpuModule.getTargetsAttr())
        continue;
      if (!withTargets) {
        withTargets = gpuModule;
        continue;
      }
      if (gpuModule.getTargetsAttr() == withTargets.getTargetsAttr())
        continue;
      gpuModule.emitOpError("has targets ")
          << gpuModule.getTargetsAttr() << " where '" << withTargets.getName()
          << "' has " << withTargets.getTargetsAttr()
          << ": modules for different targets cannot be merged";
      ok = false;
    }
    ArrayAttr targets = withTargets ? withTargets.getTargetsAttr() : nullptr;
    if (moduleName.empty() || !isPTXIdentifier(moduleName)) {
      module.emitError("threadbind-merge-gpu-modules: module-name '")
          << moduleName
          << "' is not a symbol PTX can name: it needs a letter, then "
             "letters, digits, '_' or '$'";
      ok = false;
    }
    if (Operation *clash = module.lookupSymbol(moduleName)) {
      if (!isa<gpu::GPUModuleOp>(clash)) {
        clash->emitOpError("is named '")
            << moduleName << "', the name chosen for the merged gpu.module";
        ok = false;
      }
    }
    if (!ok)
      return signalPassFailure();

    // Outlining names every kernel of a host function after it, in modules
    // of distinct names; symbols that clash are renamed, preferring their
    // module's (unique) name, and uses inside the module follow. So are
    // symbols PTX cannot spell (a function named "vector.add" or "a-b"
    // outlines to such a kernel), with what they had in them that PTX
    // cannot name replaced by '_'.
    //
    // Outlining gives each kernel's module its own copy of every host global
    // the kernel uses. They are one variable of the program, so the copies
    // become one global of the merged module: two kernels that share a
    // mutable global (one writes what the next reads) must see one address.
    llvm::StringSet<> taken;
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    DenseMap<StringAttr, StringAttr> hostGlobalCopies;
    SmallVector<Operation *> duplicateCopies;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      for (Operation &op : gpuModule.getBody()->getOperations()) {
        auto name = op.getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName());
        if (!name)
          continue;
        StringAttr hostGlobal = copiedHostGlobal(module, &op);
        if (auto it = hostGlobalCopies.find(hostGlobal);
            hostGlobal && it != hostGlobalCopies.end()) {
          if (it->second != name && failed(SymbolTable::replaceAllSymbolUses(
                                        &op, it->second, gpuModule)))
            return signalPassFailure();
          duplicateCopies.push_back(&op);
          continue;
        }
        bool spellable = isPTXIdentifier(name.getValue());
        if (spellable && taken.insert(name.getValue()).second) {
          if (hostGlobal)
            hostGlobalCopies[hostGlobal] = name;
          continue;
        }
        std::string base = spellable ? name.getValue().str()
                                     : toPTXIdentifier(name.getValue());
        std::string fresh = spellable && isPTXIdentifier(gpuModule.getName())
                                ? gpuModule.getName().str()
                                : base;
        for (unsigned i = 0; taken.contains(fresh); ++i)
          fresh = (base + "_" + Twine(i)).str();
        taken.insert(fresh);
        StringAttr freshAttr = StringAttr::get(&getContext(), fresh);
        if (failed(SymbolTable::replaceAllSymbolUses(&op, freshAttr,
                                                     gpuModule)))
          return signalPassFailure();
        SymbolTable::setSymbolName(&op, freshAttr);
        renamed[{gpuModule.getNameAttr(), name}] = freshAttr;
        if (hostGlobal)
          hostGlobalCopies[hostGlobal] = freshAttr;
        ++numSymbolsRenamed;
      }
    }

    IRRewriter rewriter(&getContext());
    for (Operation *copy : duplicateCopies)
      rewriter.eraseOp(copy);
    rewriter.setInsertionPoint(gpuModules.front());
    auto merged = gpu::GPUModuleOp::create(rewriter, gpuModules.front().getLoc(),
                                           "threadbind_merged_tmp", targets);
    Block *dest = merged.getBody();
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      Block *src = gpuModule.getBody();
      // Everything but the implicit terminator, if the body has one.
      for (Operation &op : llvm::make_early_inc_range(*src)) {
        if (op.hasTrait<OpTrait::IsTerminator>())
          continue;
        op.moveBefore(dest, dest->end());
      }
      rewriter.eraseOp(gpuModule);
      ++numModulesMerged;
    }
    merged.setName(moduleName);

    threadbind::retargetLaunches(
        module, [&](StringAttr from, StringAttr kernel) {
          auto it = renamed.find({from, kernel});
          return std::pair(merged.getNameAttr(),
                           it == renamed.end() ? kernel : it->second);
        });
  }
};
} // namespace
