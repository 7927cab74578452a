//===- Ptxas.h - Run ptxas and read its resource report ---------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// threadbind-compile turns PTX into a cubin with the CUDA toolkit's ptxas and
// keeps what `ptxas -v` reports per kernel (registers, spills, shared
// memory), which the manifest and the runner show.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_PTXAS_H
#define THREADBIND_DRIVER_PTXAS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::threadbind {

/// What ptxas reports for one kernel.
struct PtxasKernelInfo {
  std::string name;
  unsigned registers = 0;
  unsigned stackBytes = 0;
  unsigned spillStoreBytes = 0;
  unsigned spillLoadBytes = 0;
  unsigned sharedBytes = 0;
  unsigned barriers = 0;
};

/// Parses the output of `ptxas -v` into one entry per kernel, in order.
SmallVector<PtxasKernelInfo> parsePtxasReport(StringRef report);

/// Assembles `ptxFile` for `chip` into `cubinFile` with `ptxas -v -O3` and
/// returns the per-kernel report. With `threads` above one, ptxas compiles
/// the kernels on that many threads (--split-compile): the code is the
/// same, the cubin's metadata sections are laid out differently. The error
/// carries ptxas's own messages.
llvm::Expected<SmallVector<PtxasKernelInfo>>
runPtxas(StringRef ptxas, StringRef ptxFile, StringRef chip,
         StringRef cubinFile, unsigned threads = 1);

/// The threads a block of kernel `kernel` is bounded to by the `.maxntid`
/// directive of its entry in `ptx` (x * y * z); none without one.
std::optional<unsigned> getMaxntidThreads(StringRef ptx, StringRef kernel);

/// getMaxntidThreads of every entry of `ptx` that has a bound, by name, in
/// one pass over the text.
llvm::StringMap<unsigned> getMaxntidThreadsOfEntries(StringRef ptx);

/// `ptx` with the `.maxntid` directive of each entry named in `kernels`
/// removed, the rest byte for byte the same.
std::string removeMaxntid(StringRef ptx, ArrayRef<std::string> kernels);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_PTXAS_H
