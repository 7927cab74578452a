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
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

namespace {
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
  }
};
} // namespace
