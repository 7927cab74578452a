//===- SinkGlobals.cpp - Kernels read globals from device memory ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A host function that takes `memref.get_global` of a table (a constant
// tensor after bufferization, a lookup table written by hand) and uses it in
// a kernel would hand the kernel a host address. This pass re-creates the
// `memref.get_global`, and the views taken of it, inside each `gpu.launch`
// that uses it; kernel outlining then copies the `memref.global` into the
// `gpu.module`, and the kernel reads the device's copy.
//
// That copy is the only one kernels see, and the host never sees it: a
// global that kernels and host code both use is refused, unless neither
// side writes it (a table the user left without `constant`).
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_SINKGLOBALSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

/// Whether `value` is a global's address, or a pure view of one, computed
/// on the host.
static bool isGlobalView(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getParentOfType<gpu::LaunchOp>())
    return false;
  if (isa<memref::GetGlobalOp>(def))
    return true;
  auto view = dyn_cast<ViewLikeOpInterface>(def);
  return view && isPure(def) && def->getNumResults() == 1 &&
         isGlobalView(view.getViewSource());
}

/// `op` as a pure view of `source` with one result, or null.
static ViewLikeOpInterface getPureViewOf(Operation *op, Value source) {
  auto view = dyn_cast<ViewLikeOpInterface>(op);
  if (!view || !isPure(op) || op->getNumResults() != 1 ||
      view.getViewSource() != source)
    return nullptr;
  return view;
}

/// Whether some use of `value` is not a pure view whose own uses are dead:
/// the views a launch's sinking left behind on the host are not uses.
static bool hasLiveUse(Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return !getPureViewOf(user, value) || hasLiveUse(user->getResult(0));
  });
}

/// Whether every use of `value`, through pure views, only reads it.
static bool isOnlyRead(Value value) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (isa<memref::LoadOp, memref::DimOp, memref::ExtractStridedMetadataOp>(
            user))
      return true;
    return getPureViewOf(user, value) && isOnlyRead(user->getResult(0));
  });
}

namespace {
/// A global's uses on one side of the launch boundary.
struct GlobalUses {
  Operation *first = nullptr;
  Operation *firstWrite = nullptr;
  void add(memref::GetGlobalOp use) {
    if (!first)
      first = use;
    if (!firstWrite && !isOnlyRead(use.getResult()))
      firstWrite = use;
  }
};

struct SinkGlobalsPass
    : threadbind::impl::SinkGlobalsPassBase<SinkGlobalsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      launches.push_back(launch);
    });
    OpBuilder builder(&getContext());
    for (gpu::LaunchOp launch : launches) {
      // The outside values the body uses that are globals or their views.
      SetVector<Value> sunk;
      launch.getBody().walk([&](Operation *op) {
        for (Value operand : op->getOperands())
          if (!launch.getBody().isAncestor(operand.getParentRegion()) &&
              isGlobalView(operand))
            sunk.insert(operand);
      });
      if (sunk.empty())
        continue;
      // Each view with the chain it stands on, sources first.
      SetVector<Operation *> chain;
      std::function<void(Operation *)> addChain = [&](Operation *op) {
        if (auto view = dyn_cast<ViewLikeOpInterface>(op);
            view && !isa<memref::GetGlobalOp>(op))
          addChain(view.getViewSource().getDefiningOp());
        chain.insert(op);
      };
      for (Value value : sunk)
        addChain(value.getDefiningOp());
      builder.setInsertionPointToStart(&launch.getBody().front());
      IRMapping mapping;
      for (Operation *op : chain)
        builder.clone(*op, mapping);
      for (Value value : sunk) {
        Value inside = mapping.lookup(value);
        value.replaceUsesWithIf(inside, [&](OpOperand &use) {
          return launch->isProperAncestor(use.getOwner());
        });
      }
      numGlobalsSunk += sunk.size();
    }
    if (failed(checkSharedGlobals()))
      signalPassFailure();
  }

  /// Refuses a mutable global that kernels and host code both use and one
  /// of them writes: each kernel works on the device's copy, which outlining
  /// makes, and host code on the host's.
  LogicalResult checkSharedGlobals() {
    llvm::MapVector<StringAttr, std::pair<GlobalUses, GlobalUses>> uses;
    getOperation()->walk([&](memref::GetGlobalOp use) {
      if (use->getParentOfType<gpu::GPUModuleOp>())
        return;
      bool inKernel = use->getParentOfType<gpu::LaunchOp>() != nullptr;
      if (!inKernel && !hasLiveUse(use.getResult()))
        return;
      auto &[host, kernel] = uses[use.getNameAttr().getAttr()];
      (inKernel ? kernel : host).add(use);
    });
    bool ok = true;
    for (auto &[name, sides] : uses) {
      auto &[host, kernel] = sides;
      if (!host.first || !kernel.first ||
          (!host.firstWrite && !kernel.firstWrite))
        continue;
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          host.first, name);
      if (global && global.getConstant())
        continue;
      // Where the kernel writes, any host use may see stale data; else the
      // host's write is what the kernel would miss.
      bool kernelWrites = kernel.firstWrite != nullptr;
      Operation *hostUse = kernelWrites ? host.first : host.firstWrite;
      Operation *kernelUse = kernelWrites ? kernel.firstWrite : kernel.first;
      InFlightDiagnostic diag = hostUse->emitError("global @");
      diag << name.getValue() << " is "
           << (kernelWrites ? "used here on the host and written"
                            : "written here on the host and read")
           << " by a kernel, but kernels work on a copy of it in device "
              "memory that host code neither sees nor updates; pass the "
              "data to the kernel as a memref argument instead";
      diag.attachNote(kernelUse->getLoc())
          << "the kernel's use of @" << name.getValue();
      ok = false;
    }
    return success(ok);
  }
};
} // namespace
