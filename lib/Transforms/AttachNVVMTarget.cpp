//===- AttachNVVMTarget.cpp - The chip every kernel is compiled for -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Upstream's nvvm-attach-target appends its target to whatever a module
// already carries, so a hand-written gpu.module that names its own
// #nvvm.target would be serialised twice. Here the run's chip decides:
// a module's own NVVM targets for that chip give way to the run's, and a
// target for anything else is an error at the module.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_ATTACHNVVMTARGETPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

namespace {
struct AttachNVVMTargetPass
    : threadbind::impl::AttachNVVMTargetPassBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto target = NVVM::NVVMTargetAttr::getChecked(
        [&] { return emitError(getOperation()->getLoc()); }, context,
        static_cast<int>(optLevel), StringRef("nvptx64-nvidia-cuda"),
        StringRef(chip), StringRef(features), DictionaryAttr(), ArrayAttr(),
        /*verifyTarget=*/true);
    if (!target)
      return signalPassFailure();
    SmallVector<gpu::GPUModuleOp> modules;
    bool ok = true;
    getOperation()->walk([&](gpu::GPUModuleOp gpuModule) {
      modules.push_back(gpuModule);
      ArrayAttr own = gpuModule.getTargetsAttr();
      for (Attribute attr : own ? own.getValue() : ArrayRef<Attribute>()) {
        auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
        if (nvvm && nvvm.getChip() == chip)
          continue;
        gpuModule.emitOpError("has the target ")
            << attr << ", but this compilation is for " << chip
            << "; drop the target or compile for its chip";
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    for (gpu::GPUModuleOp gpuModule : modules)
      gpuModule.setTargetsAttr(ArrayAttr::get(context, {target}));
  }
};
} // namespace
