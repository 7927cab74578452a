//===- Target.h - Every fact ThreadBind knows about a chip ------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// One table of the chips ThreadBind compiles for, holding every per-chip
// fact a pass, the driver or a script needs (PTX version, per-SM limits),
// the limits of the CUDA programming model that hold on all of them, and
// the one search for the CUDA toolkit (ptxas and libdevice). Supporting a
// new chip is one row in kChips (Target.cpp); TargetTest checks that every
// row is complete.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TARGET_TARGET_H
#define THREADBIND_TARGET_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::threadbind {

/// Limits of the CUDA programming model on every chip ThreadBind targets.
struct GpuLimits {
  static constexpr int64_t kWarpSize = 32;
  static constexpr int64_t kMaxThreadsPerBlock = 1024;
  static constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};
  static constexpr int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
};

/// The per-SM limits that bound how many blocks are resident, from the
/// compute-capability tables of the CUDA C++ Programming Guide.
struct SMLimits {
  unsigned maxThreads;
  unsigned maxBlocks;
  unsigned registers;
  /// Registers are allocated to each warp in units of this many.
  unsigned registerUnit;
  unsigned maxRegistersPerThread;
  /// Shared memory blocks may use together, and what each block costs on
  /// top of its own (reserved by the system).
  unsigned sharedBytes;
  unsigned sharedReservedPerBlock;
};

/// A chip ThreadBind compiles for.
struct ChipInfo {
  llvm::StringLiteral name;
  /// The lowest PTX ISA version that supports the chip, so the PTX loads on
  /// the oldest driver that can run it; times ten (7.8 is 78).
  unsigned ptxVersion;
  /// What bounds occupancy on one of its SMs.
  SMLimits sm;

  /// The NVPTX feature string that selects the PTX version, e.g. "+ptx78".
  std::string getFeatures() const;
  /// "7.8" for 78.
  std::string getPtxVersionString() const;
};

/// The chip every tool, pipeline and script compiles for unless told
/// otherwise (`threadbind-compile --print-default-chip` prints it).
inline constexpr llvm::StringLiteral kDefaultChip = "sm_90";

/// Every chip CUDA 13's ptxas and LLVM 22's NVPTX backend both accept.
ArrayRef<ChipInfo> getSupportedChips();
/// The chip called `name`, if supported.
std::optional<ChipInfo> lookupChip(StringRef name);
/// "sm_75, sm_80, ..." for error messages.
std::string getSupportedChipList();

/// The CUDA toolkit folders to look in, in order: `cudaPath` alone if
/// given (a user who names one must not silently get another); else
/// $CUDA_ROOT, $CUDA_HOME and $CUDA_PATH (the variables MLIR's NVVM target
/// reads, in its order), /usr/local/cuda, then the toolkit of the ptxas on
/// PATH.
SmallVector<std::string> getCudaToolkitCandidates(StringRef cudaPath);

/// The first candidate toolkit with an executable bin/ptxas, as the path of
/// that ptxas. The error names every place looked in.
llvm::Expected<std::string> findPtxas(StringRef cudaPath);

/// The first candidate toolkit with `nvvm/libdevice/libdevice.10.bc`, which
/// the NVVM backend links into kernels to resolve the `__nv_*` calls that
/// math (and some arith) operations lower to. None if no candidate holds it.
std::optional<std::string> findLibdeviceToolkit(StringRef cudaPath);

} // namespace mlir::threadbind

#endif // THREADBIND_TARGET_TARGET_H
