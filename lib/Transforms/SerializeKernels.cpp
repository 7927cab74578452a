//===- SerializeKernels.cpp - Every gpu.module into one gpu.binary --------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The pass around serializeKernelModules (Target/Serialize.h): checks the
// modules, compiles them, and swaps them for one binary.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Target/Serialize.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_SERIALIZEKERNELSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// The one #nvvm.target every module of `gpuModules` carries.
static FailureOr<NVVM::NVVMTargetAttr>
getCommonTarget(ArrayRef<gpu::GPUModuleOp> gpuModules) {
  NVVM::NVVMTargetAttr common;
  gpu::GPUModuleOp first;
  for (gpu::GPUModuleOp gpuModule : gpuModules) {
    ArrayAttr targets = gpuModule.getTargetsAttr();
    auto target = targets && targets.size() == 1
                      ? dyn_cast<NVVM::NVVMTargetAttr>(targets[0])
                      : NVVM::NVVMTargetAttr();
    if (!target && !targets)
      return gpuModule.emitOpError("has no target: it needs one "
                                   "#nvvm.target to be compiled to PTX");
    if (!target)
      return gpuModule.emitOpError("has targets ")
             << targets << ": it needs exactly one #nvvm.target to be "
             << "compiled to PTX";
    if (!common) {
      common = target;
      first = gpuModule;
      continue;
    }
    if (target != common)
      return gpuModule.emitOpError("has target ")
             << target << " where '" << first.getName() << "' has "
             << common << ": modules compiled into one binary must agree";
  }
  return common;
}

namespace {
struct SerializeKernelsPass
    : threadbind::impl::SerializeKernelsPassBase<SerializeKernelsPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // What translating the modules to LLVM IR needs.
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules =
        llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty())
      return;
    FailureOr<NVVM::NVVMTargetAttr> target = getCommonTarget(gpuModules);
    if (failed(target))
      return signalPassFailure();
    std::string name =
        binaryName.empty() ? gpuModules.front().getName().str() : binaryName;
    if (Operation *taken = module.lookupSymbol(name);
        taken && !isa<gpu::GPUModuleOp>(taken)) {
      taken->emitOpError("is named '")
          << name << "', the name chosen for the kernels' gpu.binary";
      return signalPassFailure();
    }

    KernelSerializeOptions options;
    options.toolkitPath = toolkitPath;
    options.format = format;
    FailureOr<std::string> object =
        serializeKernelModules(gpuModules, *target, options);
    if (failed(object))
      return signalPassFailure();

    // As upstream's gpu-module-to-binary describes PTX and bitcode.
    Builder builder(&getContext());
    bool ptx = format == KernelObjectFormat::PTX;
    DictionaryAttr properties =
        ptx ? builder.getDictionaryAttr(builder.getNamedAttr(
                  "O", builder.getI32IntegerAttr(target->getO())))
            : DictionaryAttr();
    auto objectAttr = gpu::ObjectAttr::get(
        &getContext(), *target,
        ptx ? gpu::CompilationTarget::Assembly
            : gpu::CompilationTarget::Offload,
        builder.getStringAttr(*object), properties, /*kernels=*/nullptr);
    gpu::GPUModuleOp first = gpuModules.front();
    OpBuilder opBuilder(first);
    gpu::BinaryOp::create(opBuilder, first.getLoc(), name,
                          first.getOffloadingHandlerAttr(),
                          builder.getArrayAttr({objectAttr}));
    llvm::SmallDenseSet<StringAttr> serialized;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      serialized.insert(gpuModule.getNameAttr());
      gpuModule.erase();
      ++numModulesSerialized;
    }
    StringAttr binary = builder.getStringAttr(name);
    retargetLaunches(module,
                     [&](StringAttr from, StringAttr kernel)
                         -> std::optional<std::pair<StringAttr, StringAttr>> {
                       if (!serialized.contains(from))
                         return std::nullopt;
                       return std::pair(binary, kernel);
                     });
  }
};
} // namespace
