//===- Bundle.h - Build a host shared library with the kernels --*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The pieces of `threadbind-compile --emit bundle`: which functions become
// entries and what their arguments are, the CPU reference copy, the host
// lowering, and the object and shared library around them. The bundle's
// ABI is in threadbind/Runtime/Bundle.h.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_BUNDLE_H
#define THREADBIND_DRIVER_BUNDLE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace mlir::threadbind {

/// One argument of a bundle entry (see ThreadBindArgument).
struct BundleArgument {
  bool isMemRef = false;
  int elementType = 0;
  int rank = 0;
  int access = 0;
  SmallVector<int64_t> shape;
  /// Memrefs: the multiple its allocation must be padded to
  /// (`threadbind.padded_to`), 0 when none.
  int64_t paddedTo = 0;
  std::string mlirType;
};

/// A function of the input that the bundle exports.
struct BundleEntry {
  std::string name;
  SmallVector<BundleArgument> arguments;
};

/// The name under which a bundle keeps the CPU reference of `entry`.
std::string getReferenceName(StringRef entry);

/// Every public function with a body, other than a `main` (a CPU test
/// harness, left out of bundles), becomes an entry. Its arguments must be
/// ranked memrefs or integer, index or float scalars, and it must return
/// nothing; otherwise an error at the function. Memref arguments are
/// classified as read, written or both from the loads and stores on them.
FailureOr<std::vector<BundleEntry>> collectBundleEntries(ModuleOp module);

/// Makes `module` the CPU reference: drops `main`, renames every entry to
/// getReferenceName and gives it a C interface.
void prepareReferenceModule(ModuleOp module, ArrayRef<BundleEntry> entries);

/// Drops `main` and gives every entry a C interface.
void prepareDeviceModule(ModuleOp module, ArrayRef<BundleEntry> entries);

/// Lowers a module with parallel loops straight to the LLVM dialect for the
/// CPU (parallel loops run sequentially).
void buildCPULoweringPipeline(OpPassManager &pm);

/// Lowers the host side of an outlined, serialised module to the LLVM
/// dialect: launches become calls into the runtime library.
void buildHostLoweringStage(OpPassManager &pm);

/// Fails, with an error at the op, if host code outside the kernels reads or
/// writes memref data: a bundle's memrefs live in device memory.
LogicalResult verifyHostCodeLeavesDataAlone(ModuleOp module);

/// Replaces the PTX object of every gpu.binary by `cubin`, so the bundle
/// loads the cubin instead of JIT-compiling PTX.
void replaceWithCubin(ModuleOp module, StringRef cubin);

/// Adds `threadbind_entry_<name>` (and `..._reference`) wrappers taking
/// `void **args` around the C interfaces of the entries.
llvm::Error addPackedEntryPoints(llvm::Module &module,
                                 ArrayRef<BundleEntry> entries);

/// Compiles `module` for the host into a position-independent object file.
llvm::Error emitHostObject(llvm::Module &module, StringRef path);

/// Writes the C source of threadbind_bundle_entries().
void writeEntryTable(llvm::raw_ostream &os, ArrayRef<BundleEntry> entries,
                     StringRef input);

/// Links `objects` into a shared library at `output` against the runtime
/// library in `runtimeLibDir`, with the system C compiler.
llvm::Error linkBundle(ArrayRef<std::string> inputs, StringRef includeDir,
                       StringRef runtimeLibDir, StringRef output);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_BUNDLE_H
