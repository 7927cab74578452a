//===- SplitKernelModules.cpp - Independent kernels in modules of their own ===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Splits a gpu.module along its symbol references, so that the passes
// nested on gpu.module and the serialiser work on the parts in parallel.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_SPLITKERNELMODULESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

/// The ops of `gpuModule` in groups that refer to nothing outside
/// themselves, each group in body order and the groups in the order of
/// their first op; none when the module cannot be split safely.
static std::optional<SmallVector<SmallVector<Operation *>>>
findIndependentGroups(gpu::GPUModuleOp gpuModule) {
  Block *body = gpuModule.getBody();
  DenseMap<StringAttr, Operation *> byName;
  SmallVector<Operation *> ops;
  for (Operation &op : *body) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    auto name =
        op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    // Anything but a symbol (module flags, global constructors) may
    // concern every kernel.
    if (!name)
      return std::nullopt;
    byName[name] = &op;
    ops.push_back(&op);
  }
  llvm::EquivalenceClasses<Operation *> groups;
  for (Operation *op : ops)
    groups.insert(op);
  for (Operation *op : ops) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      return std::nullopt;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto it = byName.find(use.getSymbolRef().getRootReference());
      if (it != byName.end())
        groups.unionSets(op, it->second);
    }
  }
  SmallVector<SmallVector<Operation *>> ordered;
  DenseMap<Operation *, unsigned> indexOfLeader;
  for (Operation *op : ops) {
    Operation *leader = groups.getLeaderValue(op);
    auto [it, inserted] = indexOfLeader.try_emplace(leader, ordered.size());
    if (inserted)
      ordered.emplace_back();
    ordered[it->second].push_back(op);
  }
  return ordered;
}

namespace {
struct SplitKernelModulesPass
    : threadbind::impl::SplitKernelModulesPassBase<SplitKernelModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The module each moved kernel now lives in, by old module and name.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> movedTo;
    for (gpu::GPUModuleOp gpuModule :
         llvm::to_vector(module.getOps<gpu::GPUModuleOp>())) {
      std::optional<SmallVector<SmallVector<Operation *>>> groups =
          findIndependentGroups(gpuModule);
      if (!groups || groups->size() < 2)
        continue;
      OpBuilder builder(&getContext());
      builder.setInsertionPointAfter(gpuModule);
      unsigned suffix = 1;
      for (ArrayRef<Operation *> group : llvm::drop_begin(*groups)) {
        std::string name;
        do {
          name = (gpuModule.getName() + "_" + Twine(suffix++)).str();
        } while (symbols.lookup(name));
        // The attributes and targets, not the kernels.
        auto split =
            cast<gpu::GPUModuleOp>(builder.cloneWithoutRegions(*gpuModule));
        split->getRegion(0).emplaceBlock();
        split.setName(name);
        symbols.insert(split);
        Block *dest = split.getBody();
        for (Operation *op : group) {
          op->moveBefore(dest, dest->end());
          movedTo[{gpuModule.getNameAttr(), SymbolTable::getSymbolName(op)}] =
              split.getNameAttr();
        }
        builder.setInsertionPointAfter(split);
        ++numModulesCreated;
      }
    }
    if (movedTo.empty())
      return;
    threadbind::retargetLaunches(
        module,
        [&](StringAttr from, StringAttr kernel)
            -> std::optional<std::pair<StringAttr, StringAttr>> {
          auto it = movedTo.find({from, kernel});
          if (it == movedTo.end())
            return std::nullopt;
          return std::pair(it->second, kernel);
        });
  }
};
} // namespace
