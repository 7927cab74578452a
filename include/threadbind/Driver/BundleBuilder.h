//===- BundleBuilder.h - Build a host shared library of kernels -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The pieces of `threadbind-compile --emit bundle`: which functions become
// entries and what their arguments are, the CPU reference copy, the host
// lowering, and the shared library around them. The bundle's ABI is in
// threadbind/Runtime/Bundle.h.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_BUNDLEBUILDER_H
#define THREADBIND_DRIVER_BUNDLEBUILDER_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class StructType;
} // namespace llvm

namespace mlir {
class ModuleOp;
class OpPassManager;
class SymbolTableCollection;
class Value;
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
  /// Out-parameters (`threadbind.result`): the result of the function as
  /// written that the argument holds; -1 for an argument as written.
  int64_t result = -1;
  /// Memrefs with a strided layout (not the identity): the strides and
  /// offset the type fixes, ShapedType::kDynamic where the caller chooses.
  bool strided = false;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  std::string mlirType;
};

/// A quantity known before a call (see ThreadBindTerm).
struct SizeTerm {
  enum Kind { Constant = 0, Dim = 1, Scalar = 2 };
  Kind kind = Constant;
  int arg = 0;
  int dim = 0;
  int64_t value = 0;

  bool operator==(const SizeTerm &other) const {
    return kind == other.kind && arg == other.arg && dim == other.dim &&
           value == other.value;
  }
};

/// Size `dim` of memref argument `arg` must reach `bound` + `offset` when
/// every guard holds (its second term exceeds its first): what a loop of
/// the function, or an access at a constant index, needs of the arguments
/// to stay in bounds (see ThreadBindRequirement).
struct SizeRequirement {
  int arg = 0;
  int dim = 0;
  SizeTerm bound;
  int64_t offset = 0;
  SmallVector<std::pair<SizeTerm, SizeTerm>> guards;
  /// The access it comes from, for messages.
  std::string where;

  bool operator==(const SizeRequirement &other) const {
    return arg == other.arg && dim == other.dim && bound == other.bound &&
           offset == other.offset && guards == other.guards;
  }
};

/// A function of the input that the bundle exports.
struct BundleEntry {
  std::string name;
  SmallVector<BundleArgument> arguments;
  /// What the arguments' sizes must satisfy.
  SmallVector<SizeRequirement> requirements;
  /// Why the entry has no CPU reference (its function launches GPU code
  /// the host cannot emulate); empty when it has one.
  std::string noReference;
};

/// The symbols a bundle exports for `entry`: the GPU version and the CPU
/// reference, each `void (void **args)`. Everything else in a bundle but
/// `threadbind_bundle_entries` is internal, so no name of the input can
/// clash with the C library, the runtime, or another entry.
std::string getGpuEntrySymbol(StringRef entry);
std::string getReferenceEntrySymbol(StringRef entry);

/// How `memref` (a function argument) is used, as ThreadBindAccess flags:
/// loads read, stores write, views are followed, and so are calls into
/// functions `symbols` finds defined (a helper that only reads its argument
/// does not make it written); anything else counts as both.
int getMemRefAccess(Value memref, SymbolTableCollection &symbols);

/// Takes out of `module` the functions a bundle cannot hold: `main`, the
/// CPU test harness, unless another function calls it (and declarations
/// only it used); those with host
/// code it cannot run (vector.print, which needs MLIR's runner
/// utilities; async ops, which need its async runtime) and every function
/// that calls or names one, with a warning at the op where that costs a
/// public function. Where no other public function than main would be
/// left, an error at each such op instead, and only main taken out.
LogicalResult leaveOutOfBundle(ModuleOp module);

/// Every public function with a body, other than a `main` (a CPU test
/// harness, left out of bundles), becomes an entry. Its arguments must be
/// ranked memrefs with the identity or a strided layout, or integer, index
/// or float scalars (otherwise an error at the function). One that returns
/// values is left out, with a warning, or, where no other function is an
/// entry, an error. Memref arguments are classified as read, written or
/// both from the loads and stores on them.
FailureOr<std::vector<BundleEntry>> collectBundleEntries(ModuleOp module);

/// Reads off `module` (normalised: its loops are scf.parallel and scf.for)
/// what each entry's loops need of its arguments' sizes: for every load or
/// store of a memref argument at `iv + c`, iv the induction variable of a
/// loop by 1 up to a bound the host knows, under nothing but such loops,
/// size >= bound + c while every loop around it runs. Accesses of other
/// shapes add nothing, so every requirement holds for any call that stays
/// in bounds.
void addSizeRequirements(ModuleOp module, MutableArrayRef<BundleEntry> entries);

/// Makes `module` the CPU reference: drops an unused `main`, runs
/// hand-written gpu.launch ops as host loops, drops hand-written
/// gpu.modules and the functions that need them (recording in `entries`
/// why an entry then has no reference), gives every symbol it defines a
/// name of its own so it links beside the GPU code, and gives every entry
/// a C interface.
void prepareReferenceModule(ModuleOp module,
                            MutableArrayRef<BundleEntry> entries);

/// Drops an unused `main` and gives every entry a C interface.
void prepareDeviceModule(ModuleOp module, ArrayRef<BundleEntry> entries);

/// Lowers a normalised module (buildNormalizePipeline) with parallel loops
/// straight to the LLVM dialect for the CPU: parallel loops run
/// sequentially, and every memref access is checked against its bounds.
void buildCPULoweringStage(OpPassManager &pm);

/// Lowers the host side of an outlined, serialised module to the LLVM
/// dialect: launches become calls into the runtime library.
void buildHostLoweringStage(OpPassManager &pm);

/// Fails, with an error at the op, if host code outside the kernels reads or
/// writes memref data: a bundle's memrefs live in device memory.
LogicalResult verifyHostCodeLeavesDataAlone(ModuleOp module);

/// Replaces the PTX object of every gpu.binary by `cubin`, so the bundle
/// loads the cubin instead of JIT-compiling PTX.
void replaceWithCubin(ModuleOp module, StringRef cubin);

/// The shared library of a bundle: lowers the host side of `module`
/// (outlined and serialised), links it with the lowered CPU `reference`,
/// adds the entry wrappers and table, compiles it for the host, and links
/// it against the runtime library in `runtimeLibDir` with the system C
/// compiler. Each step is timed in a scope nested in `timing`. Errors are
/// reported at `module`.
FailureOr<std::string> buildBundleLibrary(ModuleOp module, ModuleOp reference,
                                          ArrayRef<BundleEntry> entries,
                                          StringRef runtimeLibDir,
                                          TimingScope &timing);

/// The LLVM struct types of ThreadBindArgument, ThreadBindTerm,
/// ThreadBindGuard, ThreadBindRequirement and ThreadBindEntry, as the
/// bundle's table lays them out (the layout test compares them with the C
/// header).
llvm::StructType *getBundleArgumentType(llvm::LLVMContext &context);
llvm::StructType *getBundleTermType(llvm::LLVMContext &context);
llvm::StructType *getBundleGuardType(llvm::LLVMContext &context);
llvm::StructType *getBundleRequirementType(llvm::LLVMContext &context);
llvm::StructType *getBundleEntryType(llvm::LLVMContext &context);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_BUNDLEBUILDER_H
