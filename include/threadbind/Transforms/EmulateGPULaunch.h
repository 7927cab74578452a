//===- EmulateGPULaunch.h - Run gpu.launch bodies as host loops -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Rewriting of a `gpu.launch` into ordinary loops over block and thread
// ids, so the launch runs on the CPU: the CPU reference of a bundle entry
// that holds a hand-written kernel, and the test pass through which
// mlir-runner executes bound IR. Only kernels whose threads observe each
// other through nothing but barriers and block-wide all-reduces can be
// emulated this way, and those only where they stand in the launch body or
// in scf.for loops of block-uniform bounds nested in it: the host then runs
// the code between two of them for every thread before the next.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_EMULATEGPULAUNCH_H
#define THREADBIND_TRANSFORMS_EMULATEGPULAUNCH_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class RewriterBase;
namespace gpu {
class LaunchOp;
} // namespace gpu
} // namespace mlir

namespace mlir::threadbind {

/// Returns success if `launch` can be run as sequential host loops with the
/// same result. Otherwise emits an error at the first offending op (or at the
/// launch itself) saying why, and returns failure. Never modifies the IR.
LogicalResult verifyEmulatable(gpu::LaunchOp launch);

/// Replaces `launch` by a nest of `scf.for` loops over (block z, y, x,
/// thread z, y, x) whose body is the launch body, with every id and dimension
/// query replaced by the loop values. `launch` must satisfy
/// verifyEmulatable.
void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch);

/// Turns device memory management under `root` (gpu.alloc, gpu.dealloc,
/// gpu.memset, gpu.memcpy and the gpu.wait ops that order them) into host
/// memory operations, for code whose launches all run on the host.
void replaceDeviceAllocationsOnHost(RewriterBase &rewriter, Operation *root);

} // namespace mlir::threadbind

#endif // THREADBIND_TRANSFORMS_EMULATEGPULAUNCH_H
