//===- Padding.h - Memrefs whose allocations run past their size -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A function argument marked `threadbind.padded_to = P` promises that its
// buffer is allocated up to the next multiple of P along its only
// dimension: indices in [size, roundUp(size, P)) address memory that belongs
// to it and that nothing reads as a result. Kernels may then run threads
// past the end of a loop over that memref instead of checking the bound.
// The driver records the promise in the manifest and the runner allocates
// accordingly.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_PADDING_H
#define THREADBIND_TRANSFORMS_PADDING_H

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::threadbind {

/// On a memref argument of a function: its allocation reaches the next
/// multiple of this many elements.
inline constexpr StringLiteral kPaddedToAttr = "threadbind.padded_to";

/// The multiple argument `index` of `func` is padded to, or std::nullopt if
/// it carries no `threadbind.padded_to`. Failure, with an error at the
/// function, if the attribute is not a positive integer or the argument is
/// not a 1-D memref with the identity layout.
FailureOr<std::optional<int64_t>> getPaddedTo(FunctionOpInterface func,
                                              unsigned index);

/// Checks every `threadbind.padded_to` of `func`, reporting each bad one.
LogicalResult verifyPaddedToAttrs(FunctionOpInterface func);

/// `value` rounded up to a multiple of `multiple`, built as index
/// arithmetic (folded when `value` is a constant).
OpFoldResult roundUpToMultiple(OpBuilder &builder, Location loc,
                               OpFoldResult value, int64_t multiple);

/// The 1-D identity-layout memref type of `type`'s elements and memory space
/// with `size` elements, static where `size` is a constant.
MemRefType getResizedMemRefType(MemRefType type, OpFoldResult size);

/// A view of the 1-D identity-layout memref `memref` whose size is its own
/// rounded up to `multiple`: what a thread past the end may index.
Value createPaddedView(OpBuilder &builder, Location loc, Value memref,
                       int64_t multiple);

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_PADDING_H
