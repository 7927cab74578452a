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

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_MERGEGPUMODULESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

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

    // Check everything before changing anything.
    ArrayAttr targets = gpuModules.front().getTargetsAttr();
    bool ok = true;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      if (gpuModule.getTargetsAttr() == targets)
        continue;
      gpuModule.emitOpError("has targets ")
          << gpuModule.getTargetsAttr() << " where '"
          << gpuModules.front().getName() << "' has " << targets
          << ": modules for different targets cannot be merged";
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
    // module's (unique) name, and uses inside the module follow.
    llvm::StringSet<> taken;
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      for (Operation &op : gpuModule.getBody()->getOperations()) {
        auto name = op.getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName());
        if (!name || taken.insert(name.getValue()).second)
          continue;
        std::string fresh = gpuModule.getName().str();
        for (unsigned i = 0; taken.contains(fresh); ++i)
          fresh = (name.getValue() + "_" + Twine(i)).str();
        taken.insert(fresh);
        StringAttr freshAttr = StringAttr::get(&getContext(), fresh);
        if (failed(SymbolTable::replaceAllSymbolUses(&op, freshAttr,
                                                     gpuModule)))
          return signalPassFailure();
        SymbolTable::setSymbolName(&op, freshAttr);
        renamed[{gpuModule.getNameAttr(), name}] = freshAttr;
        ++numSymbolsRenamed;
      }
    }

    IRRewriter rewriter(&getContext());
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

    module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr kernel = launch.getKernelName();
      auto it = renamed.find({launch.getKernelModuleName(), kernel});
      if (it != renamed.end())
        kernel = it->second;
      launch.setKernelAttr(SymbolRefAttr::get(
          merged.getNameAttr(), {FlatSymbolRefAttr::get(kernel)}));
    });
  }
};
} // namespace
