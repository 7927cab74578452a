//===- MapReductions.h - Options of the reduction mapping -------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_MAPREDUCTIONS_H
#define THREADBIND_TRANSFORMS_MAPREDUCTIONS_H

namespace mlir::threadbind {

/// How threadbind-map-reductions combines the blocks of a full reduction.
enum class CrossBlockCombine {
  /// Each block stores its result; a second one-block kernel folds them in
  /// block order, so results are the same from run to run.
  SecondKernel,
  /// Where the combiner has a hardware atomic (integer add, and, or, xor,
  /// min and max; f32 and f64 add), each block combines its result into one
  /// accumulator atomically. Floating-point sums then depend on the order
  /// the blocks finish in.
  Atomic,
};

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_MAPREDUCTIONS_H
