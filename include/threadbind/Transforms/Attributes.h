//===- Attributes.h - The marks ThreadBind's passes leave -------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Every attribute one ThreadBind pass sets for another, with typed
// accessors: passes read and write marks only through these, so each
// mark's name, the op it sits on and the type of its value are written
// once. A getter returns nothing for a mark of the wrong type, so a
// malformed mark is never trusted. The pipelines strip the internal marks
// from their input (threadbind-strip-internal-marks): a program cannot be
// trusted to carry them honestly.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_ATTRIBUTES_H
#define THREADBIND_TRANSFORMS_ATTRIBUTES_H

#include "threadbind/Transforms/PassEnums.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::threadbind {

/// Marks the `scf.if` that a cover-policy launch wraps its body in, the
/// per-thread bounds check along x (a unit attribute).
inline constexpr StringLiteral kTailGuardAttr = "threadbind.tail_guard";

/// On a `gpu.launch` the mapping made: its grid policy, "grid-stride" or
/// "cover", for widening and the manifest (a string).
inline constexpr StringLiteral kGridPolicyAttr = "threadbind.grid_policy";

/// On the two `gpu.launch`es threadbind-map-loops-to-threads makes of a
/// stencil nest under the grid-stride policy, the branches of one host
/// `scf.if`: a cover launch where every row starts alike and the grid fits,
/// the grid-stride launch otherwise. threadbind-widen-accesses keeps the
/// cover launch where it widens it and runs the grid-stride one alone where
/// it does not (a unit attribute).
inline constexpr StringLiteral kStencilChoiceAttr = "threadbind.stencil_choice";

/// On an `scf.if` that threadbind-unswitch-uniform-conditions decided not to
/// hoist, while that pass runs (a unit attribute).
inline constexpr StringLiteral kUnswitchRejectedAttr =
    "threadbind.unswitch_rejected";

/// On an `scf.parallel` whose one-trip dimensions
/// threadbind-fold-trivial-parallel-dims dropped: the dimension each of its
/// dimensions was as written (an array of i64), and how many there were
/// (an i64). `dim-order` names the dimensions as written.
inline constexpr StringLiteral kWrittenDimsAttr = "threadbind.written_dims";
inline constexpr StringLiteral kWrittenRankAttr = "threadbind.written_rank";

/// On an `scf.parallel` a mapping pass could not bind in parallel and left
/// for threadbind-sequential-kernels to run on one thread: why (a string).
inline constexpr StringLiteral kSequentialReasonAttr = "threadbind.sequential";

/// On a host `memref.alloca` that threadbind-sequential-kernels copies a
/// scalar into from the device, so the host may read it (a unit attribute).
inline constexpr StringLiteral kHostReadbackAttr = "threadbind.host_readback";

/// On an argument of an entry function, a `func.func` argument attribute
/// that threadbind-bufferize-entries sets: the argument is an
/// out-parameter holding the function's result of this index as written
/// (an i64). The manifest reports it.
inline constexpr StringLiteral kResultIndexAttr = "threadbind.result";

/// On the one-dimensional `scf.parallel` threadbind-collapse-contiguous-nests
/// made of a nest: the nest's rank (an i64), for the mapping's remark.
inline constexpr StringLiteral kCollapsedFromAttr = "threadbind.collapsed_from";

/// On a load in a `gpu.launch` (a unit attribute): the memref it reads is
/// only read by the kernel, and the host launches it only while that
/// memref overlaps nothing the kernel writes
/// (threadbind-version-read-only-launches).
inline constexpr StringLiteral kReadOnlyLoadAttr = "threadbind.read_only_load";

/// On a kernel (`gpu.func`, then `llvm.func`; a unit attribute): its
/// parameters with `llvm.readonly` were proven read-only and disjoint from
/// what it writes, so they may also be `llvm.noalias`.
inline constexpr StringLiteral kNoAliasReadOnlyAttr =
    "threadbind.noalias_read_only";

/// On a host function threadbind-version-read-only-launches adds (a unit
/// attribute): it tells whether two memrefs' bytes are disjoint; the
/// manifest shows its calls as `disjoint(a, b)`.
inline constexpr StringLiteral kDisjointHelperAttr =
    "threadbind.disjoint_helper";

/// The marks one pass leaves for another, which no input may carry.
inline constexpr StringLiteral kInternalMarks[] = {
    kTailGuardAttr,       kGridPolicyAttr,     kUnswitchRejectedAttr,
    kWrittenDimsAttr,     kWrittenRankAttr,    kSequentialReasonAttr,
    kHostReadbackAttr,    kCollapsedFromAttr,  kReadOnlyLoadAttr,
    kNoAliasReadOnlyAttr, kDisjointHelperAttr, kStencilChoiceAttr};

/// A user's mark, not internal: on an `scf.parallel` (carried to its
/// `gpu.launch`), the tail strategy for that loop, overriding the pass
/// option ("split", "pad" or "keep").
inline constexpr StringLiteral kTailStrategyAttr = "threadbind.tail";

/// The cover launch's bounds check.
void setTailGuard(Operation *ifOp);
bool isTailGuard(Operation *ifOp);
void clearTailGuard(Operation *ifOp);

/// The grid policy of a launch the mapping made; none for a launch written
/// by hand.
void setGridPolicy(Operation *launch, GridPolicy policy);
std::optional<GridPolicy> getGridPolicy(Operation *launch);

/// A launch of a stencil's host choice (see kStencilChoiceAttr).
void setStencilChoice(Operation *launch);
bool isStencilChoice(Operation *launch);
void clearStencilChoice(Operation *launch);

/// The dimensions of a folded loop as written.
struct WrittenDims {
  /// For each dimension of the loop, its position as written.
  SmallVector<int64_t> dims;
  /// How many dimensions the loop had as written.
  int64_t rank;
};
void setWrittenDims(Operation *loop, const WrittenDims &written);
/// None unless both marks are there, well typed and consistent: every
/// position below the rank, and no more positions than the rank.
std::optional<WrittenDims> getWrittenDims(Operation *loop);

/// Why a loop was left to run on one thread; none if it was not.
void setSequentialReason(Operation *loop, StringRef why);
std::optional<StringRef> getSequentialReason(Operation *loop);
void clearSequentialReason(Operation *loop);

/// The host buffer a device value is read back into.
void setHostReadback(Operation *alloca);
bool isHostReadback(Operation *alloca);

/// Which result of `func` as written argument `arg` holds; none for an
/// argument that is not an out-parameter.
void setResultIndex(FunctionOpInterface func, unsigned arg, int64_t result);
std::optional<int64_t> getResultIndex(FunctionOpInterface func, unsigned arg);

/// threadbind-unswitch-uniform-conditions' note to itself.
void setUnswitchRejected(Operation *ifOp);
bool isUnswitchRejected(Operation *ifOp);
void clearUnswitchRejected(Operation *ifOp);

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_ATTRIBUTES_H
