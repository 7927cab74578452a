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
#include "threadbind/Driver/Ptxas.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

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
  /// Where the value comes from, as an expression over the host function's
  /// arguments: "arg0", "dim(arg0, 1)", "256", ...
  std::string source;
};

/// Everything needed to launch one kernel.
struct KernelManifest {
  std::string hostFunction;
  std::string module;
  std::string name;
  SmallVector<KernelParam> params;
  /// Block and grid extents as expressions over the host function's
  /// arguments (plain numbers when constant).
  std::string block[3];
  std::string grid[3];
  std::string gridPolicy;
  /// When the host function launches the kernel, as a condition over its
  /// arguments ("(dim(arg0, 0) > 0)"); empty when always. A caller that
  /// launches the PTX itself must skip the launch otherwise.
  std::string launchIf;
  std::string dynamicSharedMemory;
  std::optional<PtxasKernelInfo> resources;
  /// For a kernel whose PTX bounds its block (`.maxntid`) and that ptxas
  /// assembled: whether the bound was dropped because it made ptxas spill,
  /// and why it was kept or dropped.
  bool launchBoundDropped = false;
  std::string launchBoundWhy;
};

/// Describes a host value as an expression over the enclosing function's
/// arguments: "arg2", "dim(arg0, 1)", "ceildiv(max(dim(arg0, 0), 0), 256)";
/// device scratch the function allocates is "device_scratch(f32, <size>)".
/// Values it cannot follow are named by their op, "<op.name>".
std::string describeHostValue(Value value);

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

/// Writes the manifest as JSON, with the bundle's entries when given.
void writeManifest(llvm::raw_ostream &os, ArrayRef<KernelManifest> kernels,
                   StringRef input, StringRef chip, StringRef ptxVersion,
                   ArrayRef<BundleEntry> entries = {});

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_MANIFEST_H
