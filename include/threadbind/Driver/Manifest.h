//===- Manifest.h - What a user needs to launch the kernels -----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The launch manifest describes every kernel of a compiled program: its PTX
// entry parameters in order and what each one is (which host-function
// argument, which memref descriptor field, which scalar), its block shape,
// how its grid is computed, and, once ptxas ran, its resource use. With it
// the PTX can be launched from CuPy, PyTorch or CUDA C++ without reading it.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_MANIFEST_H
#define THREADBIND_DRIVER_MANIFEST_H

#include "threadbind/Driver/BundleBuilder.h"
#include "threadbind/Driver/LaunchExpr.h"
#include "threadbind/Driver/Ptxas.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <vector>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::threadbind {

/// One parameter of a kernel's PTX entry.
struct KernelParam {
  /// The PTX parameter type: "u64" (pointers, 64-bit integers and index),
  /// "u32", "u16", "u8", "f64", "f32" or "f16".
  std::string ptxType;
  /// Which kernel operand (of gpu.launch_func) it comes from.
  unsigned operand = 0;
  /// For memrefs, the descriptor field: "allocated_ptr", "aligned_ptr",
  /// "offset", "size" or "stride"; empty for scalars.
  std::string field;
  /// For "size" and "stride", the memref dimension.
  std::optional<unsigned> dim;
  /// The operand's MLIR type, e.g. "memref<?xf32>" or "index".
  std::string mlirType;
  /// The value, as an expression over the host function's arguments; for
  /// the pointer fields, the memref argument whose pointer it is.
  LaunchExpr source;
};

/// Everything needed to launch one kernel.
struct KernelManifest {
  std::string hostFunction;
  std::string module;
  std::string name;
  SmallVector<KernelParam> params;
  /// Block and grid extents as expressions over the host function's
  /// arguments.
  LaunchExpr block[3];
  LaunchExpr grid[3];
  std::string gridPolicy;
  /// When the host function launches the kernel, as a condition over its
  /// arguments (the conditions of the ifs around the launch); the constant
  /// 1 when always. A caller that launches the PTX itself must skip the
  /// launch otherwise.
  LaunchExpr launchIf = LaunchExpr::constant(1);
  /// The innermost op around the launch other than an scf.if (a host loop),
  /// as "'scf.for' at file:line:col"; empty when there is none.
  std::string enclosedBy;
  LaunchExpr dynamicSharedMemory = LaunchExpr::constant(0);
  std::optional<PtxasKernelInfo> resources;
  /// For a kernel whose PTX bounds its block (`.maxntid`) and that ptxas
  /// assembled: whether the bound was dropped because it made ptxas spill,
  /// and why it was kept or dropped.
  bool launchBoundDropped = false;
  std::string launchBoundWhy;
};

/// One argument of a host function that launches kernels.
struct HostArgument {
  std::string mlirType;
  bool isMemRef = false;
  /// The element type of a memref, or the scalar's type ("f32", "index").
  std::string elementType;
  /// Memrefs: sizes, then strides and offset (ShapedType::kDynamic where
  /// the caller chooses); strided is false for the identity layout.
  SmallVector<int64_t> shape;
  bool strided = false;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  /// Memrefs: the ThreadBindAccess flags of how the function uses it.
  int access = 0;
};

/// A host function that launches kernels, and whether a caller holding the
/// manifest can stand in for it: launch its kernels in order from the PTX,
/// computing every launch quantity from the arguments.
struct HostFunctionManifest {
  std::string name;
  SmallVector<HostArgument> arguments;
  /// The device scratch it allocates, which a caller standing in for it
  /// allocates before the first launch and frees after the last.
  std::vector<ScratchExpr> scratch;
  /// Why a caller cannot stand in for the function (device scratch it
  /// allocates, host work besides launches); empty when it can.
  std::string notLaunchable;
};

/// The `threadbind.grid_policy` of every gpu.launch of `module`, in walk
/// order ("" where a launch has none). Read before outlining, which drops
/// the attribute but replaces each launch in place.
SmallVector<std::string> collectGridPolicies(ModuleOp module);

/// Reads every gpu.launch_func of `module` (after outlining, before the
/// kernels are lowered) and the kernel it launches. `gridPolicies`, from
/// collectGridPolicies before outlining, names each launch's policy when it
/// has one entry per launch.
std::vector<KernelManifest>
collectKernelManifests(ModuleOp module, ArrayRef<std::string> gridPolicies);

/// The ThreadBindAccess flags of each memref argument of each function of
/// `module` with a body (0 for scalars), read off the functions as written:
/// once mapped, every memref is passed to kernels and looks read and
/// written.
using ArgumentAccess = llvm::StringMap<SmallVector<int>>;
ArgumentAccess collectArgumentAccess(ModuleOp module);

/// Reads every function of `module` that launches kernels (at the same point
/// as collectKernelManifests, whose result `kernels` is), in module order,
/// with the access flags `access` recorded before mapping.
std::vector<HostFunctionManifest>
collectHostFunctions(ModuleOp module, ArrayRef<KernelManifest> kernels,
                     const ArgumentAccess &access);

/// The manifest's version (`threadbind_manifest_version`); the format is in
/// docs/Manifest.md and docs/manifest.schema.json.
constexpr int kManifestVersion = 2;

/// Writes the manifest as JSON, with the bundle's entries when given.
void writeManifest(llvm::raw_ostream &os, ArrayRef<KernelManifest> kernels,
                   ArrayRef<HostFunctionManifest> functions, StringRef input,
                   StringRef chip, StringRef ptxVersion,
                   ArrayRef<BundleEntry> entries = {});

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_MANIFEST_H
