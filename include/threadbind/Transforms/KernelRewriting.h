//===- KernelRewriting.h - Rewrites shared by the kernel passes -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Pieces the passes that reshape bound kernels (unswitching, predication,
// tail checks) have in common: finding the kernel around an op, replacing
// an scf.if by one of its sides, and versioning an op on a condition.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_KERNELREWRITING_H
#define THREADBIND_TRANSFORMS_KERNELREWRITING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

namespace mlir::threadbind {

/// Host-side device memory in the form the GPU-to-LLVM lowering takes:
/// each op async on a fresh token and waited for at once. A device
/// allocation of `type` with `sizes` for its dynamic dimensions:
Value createDeviceAlloc(OpBuilder &builder, Location loc, MemRefType type,
                        ValueRange sizes = {}, ValueRange symbols = {});
/// Frees what createDeviceAlloc made.
void createDeviceDealloc(OpBuilder &builder, Location loc, Value memref);
/// Copies `src` to `dst`, either of them device or host memory.
void createDeviceCopy(OpBuilder &builder, Location loc, Value dst, Value src);
/// The one element of `buffer`, a memref<1xT> in device memory, read back
/// to the host through a host buffer marked threadbind.host_readback;
/// `buffer` is freed after.
Value createHostReadback(OpBuilder &builder, Location loc, Value buffer);

/// Points every gpu.launch_func in `module` whose kernel `moved` finds
/// elsewhere (given the old module's and the kernel's names, it returns the
/// new module's and kernel's, or nothing) at its new place: what passes
/// that move kernels between gpu.modules and binaries do after moving.
void retargetLaunches(
    Operation *module,
    function_ref<std::optional<std::pair<StringAttr, StringAttr>>(
        StringAttr module, StringAttr kernel)>
        moved);

/// Creates a gpu.launch of `grid` blocks of `block` threads (x, y, z) with
/// its terminator, and leaves the insertion point before the terminator.
gpu::LaunchOp createLaunchWithTerminator(RewriterBase &rewriter, Location loc,
                                         ArrayRef<Value> grid,
                                         ArrayRef<Value> block);

/// Moves `op` into a new `scf.if (count > 0)`, for host code that must not
/// run (such as a launch whose one-block grid would be all past the end)
/// when `count` is zero. Nothing changes when `count` is a positive
/// constant.
void guardOnPositive(RewriterBase &rewriter, Operation *op, Value count);

/// An scf.if on `condition`, at the rewriter's insertion point, whose then
/// side yields what `thenValues` builds there (values of `types`) and whose
/// else side yields zeros of those types: loads that must not run where
/// `condition` is false. Returns the if's results.
SmallVector<Value> createIfElseZeros(RewriterBase &rewriter, Location loc,
                                     Value condition, TypeRange types,
                                     function_ref<SmallVector<Value>()> thenValues);

/// The GPU code root around `op`: its gpu.launch or gpu.func; null in host
/// code.
Operation *getEnclosingKernel(Operation *op);

/// Whether code in `block` runs in the body of a parallel loop (an
/// scf.parallel, scf.forall or affine.parallel around it).
bool isInParallelLoop(Block *block);

/// Replaces `ifOp` by the operations of one of its sides, its results by
/// what that side yields. The missing else side of an if without results
/// is nothing: the if is erased.
void inlineIfSide(RewriterBase &rewriter, scf::IfOp ifOp, bool thenSide);

/// Replaces `op` by `scf.if %cond { copy } else { copy }`, each side yielding
/// its copy's results. `adjust` is called on each copy, with the mapping from
/// `op`'s nested values to the copy's, to specialise it for its side.
scf::IfOp versionOnCondition(
    RewriterBase &rewriter, Operation *op, Value cond,
    function_ref<void(IRMapping &mapping, bool thenSide)> adjust);

/// `value` as another value plus a constant: an arith.addi of a value and a
/// constant (either side), or an arith.subi of a constant from a value
/// (not INT64_MIN, whose negation overflows). None otherwise. Stencil
/// indices (`%j - 1`) are read this way.
std::optional<std::pair<Value, int64_t>> splitConstantAddend(Value value);

/// Whether `bytes` is a width vector accesses may be widened to: 4, 8 or
/// 16 (the widest PTX load and store).
inline bool isSupportedVectorBytes(int64_t bytes) {
  return bytes == 4 || bytes == 8 || bytes == 16;
}

/// Whether elements of `type` can travel in vector loads and stores:
/// integers and floats of 8, 16, 32 or 64 bits.
bool isVectorElementType(Type type);

/// The address, as an index, of element [outerIndices..., first] of
/// `memref` (a memref whose last dimension has unit stride): the aligned
/// pointer, plus the offset and the strided outer indices, plus `first`, in
/// bytes.
Value createElementAddress(OpBuilder &builder, Location loc, Value memref,
                           ValueRange outerIndices, Value first);

/// An i1 that holds where every outer stride of `memref` is a whole
/// number of `width` elements, so that its rows all start the same number
/// of elements past a boundary of `width`; null for a memref of one
/// dimension or none.
Value createRowsStartAlike(OpBuilder &builder, Location loc, Value memref,
                           int64_t width);

/// An i1 that holds where element [outerIndices..., first] of `memref`
/// starts at a multiple of `alignment` bytes (see createElementAddress).
Value createIsAligned(OpBuilder &builder, Location loc, Value memref,
                      ValueRange outerIndices, Value first,
                      uint64_t alignment);

/// Clones the ops of `body`, but its terminator, for element `lane` of a
/// vector iteration whose first element is `first`: the induction variable
/// `iv` maps to `first + lane`, the result of each op in `vectors` (a load
/// the iteration replaced with a vector load) to element `lane` of its
/// vector, and other values through `mapping`, which the clones extend.
/// Ops that `skip` accepts are left out.
void cloneVectorLane(RewriterBase &rewriter, Location loc, Block *body,
                     Value iv, Value first, int64_t lane,
                     const DenseMap<Operation *, Value> &vectors,
                     IRMapping &mapping,
                     function_ref<bool(Operation &)> skip = nullptr);

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_KERNELREWRITING_H
