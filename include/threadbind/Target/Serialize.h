//===- Serialize.h - Kernel modules to PTX, in parallel ---------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The last step of compilation: gpu.modules lowered to the LLVM and NVVM
// dialects become one PTX text (or one LLVM bitcode module). It does what
// upstream's NVPTX serialiser does to one module (translate, link
// libdevice, optimise, run the NVPTX back end), with the same LLVM
// pipelines, so the code is the same; but
//   - each gpu.module is compiled on its own LLVM context, the modules on
//     the MLIR context's thread pool, and their PTX joined in order;
//   - the target machines the optimisation pipeline queries are built once
//     per process and reused (code generation takes a fresh one a module:
//     NVPTX numbers call sites per machine);
//   - libdevice is read once per process, and linked only into modules
//     that call into it.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TARGET_SERIALIZE_H
#define THREADBIND_TARGET_SERIALIZE_H

#include "threadbind/Target/ObjectFormat.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::threadbind {

/// How serializeKernelModules compiles.
struct KernelSerializeOptions {
  /// The CUDA toolkit whose nvvm/libdevice/libdevice.10.bc resolves the
  /// `__nv_*` functions kernels call. Empty: calls into libdevice stay
  /// unresolved, for the caller to report.
  std::string toolkitPath;
  KernelObjectFormat format = KernelObjectFormat::PTX;
};

/// Compiles `modules` (gpu.modules in the LLVM and NVVM dialects, all for
/// `target`) into one object, the modules' code in their order.
///
/// For PTX each module is translated, linked, optimised and compiled on an
/// LLVM context of its own, in parallel where the MLIR context allows
/// threads; the result does not depend on the number of threads. A local
/// symbol (internal or private) that several modules define, such as a
/// libdevice helper each links in, keeps its name in the first and is
/// renamed in the others. Two modules defining the same external symbol is
/// an error. For bitcode the modules are linked into one LLVM module first,
/// then optimised once.
///
/// Errors are reported at the module that caused them.
FailureOr<std::string>
serializeKernelModules(ArrayRef<gpu::GPUModuleOp> modules,
                       NVVM::NVVMTargetAttr target,
                       const KernelSerializeOptions &options);

/// The PTX texts `parts` as one: the first one's header (the comment, the
/// `.version`, `.target` and `.address_size` lines), then every part's body
/// in order. An error if the headers differ or two parts define the same
/// symbol (two extern declarations of one are fine).
llvm::Expected<std::string> joinPTX(ArrayRef<std::string> parts);

} // namespace mlir::threadbind

#endif // THREADBIND_TARGET_SERIALIZE_H
