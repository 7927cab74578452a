//===- Occupancy.h - How many blocks of a kernel an SM holds ----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The compile-time half of choosing a block size: from a kernel's registers
// and shared memory (ptxas reports both) and a chip's per-SM limits, how
// many blocks of a given size are resident at once. The CUDA driver answers
// the same question at launch (cuOccupancyMaxActiveBlocksPerMultiprocessor)
// for the grid; this answers it before any GPU is involved, for the block.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_OCCUPANCY_H
#define THREADBIND_DRIVER_OCCUPANCY_H

#include "threadbind/Driver/Ptxas.h"
#include "threadbind/Target/Target.h"

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::threadbind {

/// Blocks of `threadsPerBlock` threads, each thread using `registers`
/// registers and each block `sharedBytes` of static shared memory, that an
/// SM holds at once; 0 if one does not fit.
unsigned residentBlocks(const SMLimits &limits, unsigned threadsPerBlock,
                        unsigned registers, unsigned sharedBytes);

/// The fraction of the SM's threads those blocks keep resident, 0 to 1.
double occupancy(const SMLimits &limits, unsigned threadsPerBlock,
                 unsigned registers, unsigned sharedBytes);

/// A block size and the reason it was chosen.
struct BlockSizeChoice {
  unsigned threadsPerBlock;
  /// One line: the size, the occupancy it gives the worst kernel, and what
  /// every candidate would have given.
  std::string why;
};

/// The size from `candidates` that keeps the most threads resident for the
/// worst of `kernels` (each with its ptxas resources); a tie goes to
/// `preferred`, else to the smaller size, which leaves more blocks to
/// spread over the SMs. With no kernels, `preferred`.
BlockSizeChoice chooseBlockSize(const SMLimits &limits,
                                ArrayRef<PtxasKernelInfo> kernels,
                                ArrayRef<unsigned> candidates,
                                unsigned preferred);

/// Whether a kernel keeps its `.maxntid` launch bound, and why.
struct LaunchBoundChoice {
  bool drop;
  /// One line: the spills with and without the bound, and the registers.
  std::string why;
};

/// The bound caps a thread's registers at what a block of `threads` leaves
/// it, and ptxas spills to keep under the cap where it must, and at times
/// where it need not. `bounded` is what ptxas made of a kernel under the
/// bound, `unbounded` without it: drop the bound where that spills less and
/// a block of `threads` still fits on an SM of `limits`.
LaunchBoundChoice chooseLaunchBound(const SMLimits &limits, unsigned threads,
                                    const PtxasKernelInfo &bounded,
                                    const PtxasKernelInfo &unbounded);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_OCCUPANCY_H
