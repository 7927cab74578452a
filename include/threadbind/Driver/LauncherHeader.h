//===- LauncherHeader.h - A C header that launches the kernels --*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// `threadbind-compile --emit header` writes a self-contained C/C++ header:
// the PTX as a string, a loader, and one typed launcher per host function
// that the manifest says a caller can stand in for. A launcher takes the
// host function's arguments as raw device pointers (plus the sizes and
// strides their types leave open) and a CUstream, computes each kernel's
// grid, block and parameters from the manifest's expression trees printed as
// C, and launches on that stream without waiting. It needs only cuda.h and
// the driver library.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_LAUNCHERHEADER_H
#define THREADBIND_DRIVER_LAUNCHERHEADER_H

#include "threadbind/Driver/Manifest.h"

#include <string>

namespace mlir::threadbind {

/// The C identifier prefix of a header written to `outputPath`: its stem,
/// made an identifier ("threadbind" for standard output).
std::string getHeaderPrefix(StringRef outputPath);

/// Writes the header, with the kernels' `ptx` and, when not empty, their
/// `cubin` (which the loader tries first: no JIT on the chip it is for).
/// Host functions a caller cannot stand in for get a comment saying why
/// instead of a launcher, and are returned by name in `skipped` with the
/// reason and what to do instead.
std::string
writeLauncherHeader(ArrayRef<KernelManifest> kernels,
                    ArrayRef<HostFunctionManifest> functions, StringRef ptx,
                    StringRef cubin, StringRef prefix, StringRef input,
                    StringRef chip,
                    SmallVectorImpl<std::pair<std::string, std::string>>
                        &skipped);

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_LAUNCHERHEADER_H
