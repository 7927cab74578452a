//===- Occupancy.cpp - How many blocks of a kernel an SM holds ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/Occupancy.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::threadbind;

unsigned threadbind::residentBlocks(const SMLimits &limits,
                                    unsigned threadsPerBlock,
                                    unsigned registers, unsigned sharedBytes) {
  if (threadsPerBlock == 0 || threadsPerBlock > limits.maxThreads ||
      registers > limits.maxRegistersPerThread)
    return 0;
  unsigned warps = llvm::divideCeil(threadsPerBlock, 32u);
  unsigned blocks =
      std::min(limits.maxBlocks, limits.maxThreads / (warps * 32));
  // Each warp's registers are rounded up to the allocation unit.
  unsigned perWarp = llvm::alignTo(std::max(registers, 1u) * 32,
                                   limits.registerUnit);
  blocks = std::min(blocks, (limits.registers / perWarp) / warps);
  unsigned perBlockShared = sharedBytes + limits.sharedReservedPerBlock;
  if (perBlockShared != 0)
    blocks = std::min(blocks, limits.sharedBytes / perBlockShared);
  return blocks;
}

double threadbind::occupancy(const SMLimits &limits, unsigned threadsPerBlock,
                             unsigned registers, unsigned sharedBytes) {
  unsigned blocks =
      residentBlocks(limits, threadsPerBlock, registers, sharedBytes);
  unsigned warps = llvm::divideCeil(threadsPerBlock, 32u);
  return double(blocks * warps * 32) / limits.maxThreads;
}

BlockSizeChoice threadbind::chooseBlockSize(const SMLimits &limits,
                                            ArrayRef<PtxasKernelInfo> kernels,
                                            ArrayRef<unsigned> candidates,
                                            unsigned preferred) {
  if (kernels.empty())
    return {preferred, llvm::formatv("{0} threads a block: no kernel's "
                                     "resources to weigh",
                                     preferred)
                           .str()};
  // The worst kernel's occupancy at each size, and which kernel it is.
  SmallVector<std::pair<double, const PtxasKernelInfo *>> worst;
  for (unsigned threads : candidates) {
    std::pair<double, const PtxasKernelInfo *> w = {2.0, nullptr};
    for (const PtxasKernelInfo &kernel : kernels) {
      double o = occupancy(limits, threads, kernel.registers,
                           kernel.sharedBytes);
      if (o < w.first)
        w = {o, &kernel};
    }
    worst.push_back(w);
  }
  unsigned best = 0;
  for (unsigned i = 1; i < candidates.size(); ++i) {
    double a = worst[i].first, b = worst[best].first;
    if (a > b || (a == b && candidates[i] == preferred &&
                  candidates[best] != preferred))
      best = i;
  }
  std::string why;
  llvm::raw_string_ostream os(why);
  const PtxasKernelInfo &limiting = *worst[best].second;
  os << candidates[best] << " threads a block: "
     << llvm::formatv("{0:P0}", worst[best].first)
     << " occupancy for the least occupied kernel, '" << limiting.name
     << "' (" << limiting.registers << " registers, "
     << limiting.sharedBytes << " B shared); by size:";
  for (auto [threads, w] : llvm::zip(candidates, worst))
    os << " " << threads << " " << llvm::formatv("{0:P0}", w.first);
  return {candidates[best], why};
}

LaunchBoundChoice threadbind::chooseLaunchBound(
    const SMLimits &limits, unsigned threads, const PtxasKernelInfo &bounded,
    const PtxasKernelInfo &unbounded) {
  auto spills = [](const PtxasKernelInfo &k) {
    return k.spillStoreBytes + k.spillLoadBytes;
  };
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "with .maxntid " << threads << ", " << bounded.registers
     << " registers and " << spills(bounded) << " B of spills a thread; "
     << "without it, " << unbounded.registers << " registers and "
     << spills(unbounded) << " B";
  if (spills(unbounded) >= spills(bounded)) {
    os << ": the bound is kept";
    return {false, why};
  }
  if (residentBlocks(limits, threads, unbounded.registers,
                     unbounded.sharedBytes) == 0) {
    os << ", too many for a block of " << threads
       << " threads on one SM: the bound is kept (smaller blocks, or "
          "--threads-per-block=auto, would not spill)";
    return {false, why};
  }
  os << ": the bound is dropped";
  return {true, why};
}
