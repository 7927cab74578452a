//===- LaunchExpr.h - Launch quantities over a function's arguments -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A kernel's grid, block, dynamic shared memory, launch condition and scalar
// parameters are computed by its host function from the function's
// arguments. A LaunchExpr is that computation read back off the host IR as
// a tree, so that a caller that launches the PTX itself (Python's
// launch_ptx, the C launcher header) can compute the same values. The
// manifest writes the tree as JSON (docs/Manifest.md gives the grammar,
// docs/manifest.schema.json the schema); the header prints it as C.
//
// Arithmetic is on 64-bit two's-complement integers; the `u`-suffixed
// operators read their operands as unsigned 64-bit values.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_LAUNCHEXPR_H
#define THREADBIND_DRIVER_LAUNCHEXPR_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::threadbind {

struct LaunchExpr {
  enum class Kind {
    /// `value`.
    Constant,
    /// The value of scalar argument `arg` of the host function; as an
    /// operand of "disjoint", memref argument `arg` itself.
    Argument,
    /// Size `index` of memref argument `arg`.
    Dim,
    /// Stride `index` of memref argument `arg`, in elements.
    Stride,
    /// The offset of memref argument `arg`'s first element from its aligned
    /// pointer, in elements.
    Offset,
    /// Operator `name` applied to `operands` (see the list in
    /// docs/Manifest.md); "resident_blocks" may name its `kernel`, and
    /// "zext" and "sext" keep the operand's low `index` bits.
    Op,
    /// Device scratch `arg` of the host function (its gpu.allocs in order):
    /// memory a caller standing in for the function allocates before its
    /// first launch and frees after its last. Only a memref parameter's
    /// base.
    Scratch,
    /// Something only the host function itself can compute: device memory
    /// it allocates, a call, a loop around the launch. `name` says what, in
    /// the manifest's text form.
    Opaque,
  };

  Kind kind = Kind::Constant;
  int64_t value = 0;
  unsigned arg = 0;
  unsigned index = 0;
  std::string name;
  std::string kernel;
  std::vector<LaunchExpr> operands;

  static LaunchExpr constant(int64_t value);
  static LaunchExpr op(StringRef name, std::vector<LaunchExpr> operands);
  static LaunchExpr opaque(StringRef what);

  bool isConstant() const { return kind == Kind::Constant; }

  /// Whether a caller holding only the function's arguments can compute it:
  /// nothing opaque anywhere in the tree.
  bool isComputable() const;

  /// The first opaque part of the tree, or null.
  const LaunchExpr *findOpaque() const;

  /// The text form, as remarks and messages print it:
  /// "min(ceildiv(dim(arg0, 0), 256), 65535)".
  std::string str() const;

  /// The JSON tree, on one line: a number, {"arg": 0}, {"dim": [0, 1]},
  /// {"op": "ceildiv", "args": [...]}, {"opaque": "..."}.
  void writeJson(llvm::raw_ostream &os) const;
};

/// The host value `value` as an expression over the arguments of the
/// function that defines it.
LaunchExpr describeHostValue(Value value);

/// A memref the host function passes to a kernel, as the fields of its
/// descriptor: `base` is the argument whose pointer it has (an Argument
/// node), or the device scratch (a Scratch node), or opaque where the
/// memory is neither; then its offset, sizes and strides in elements.
/// Static sizes and strides of the type are constants.
struct HostMemRefExpr {
  LaunchExpr base;
  LaunchExpr offset;
  std::vector<LaunchExpr> sizes;
  std::vector<LaunchExpr> strides;
};

/// `memref` (a host value) as the descriptor of an argument of its
/// function, or of a view the function makes of one (a cast, a
/// collapse_shape).
HostMemRefExpr describeHostMemRef(Value memref);

/// The device scratch a host function allocates (gpu.alloc, in walk
/// order): each one's element type and sizes, or failure with `problem`
/// set where one is not plain (symbols, host-shared, a layout).
struct ScratchExpr {
  std::string elementType;
  int64_t elementBytes = 0;
  std::vector<LaunchExpr> sizes;
};
FailureOr<std::vector<ScratchExpr>>
describeDeviceScratch(FunctionOpInterface function, std::string &problem);

/// The conjunction of `conditions` (an empty one is true, a single one
/// itself).
LaunchExpr conjunction(std::vector<LaunchExpr> conditions);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_LAUNCHEXPR_H
