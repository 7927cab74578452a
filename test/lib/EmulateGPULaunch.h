//===- EmulateGPULaunch.h - Run gpu.launch bodies as host loops -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Test-only rewriting of a `gpu.launch` into ordinary loops over block and
// thread ids, so mlir-runner can execute bound IR on the CPU. Only kernels
// whose threads never observe each other (no barriers, shuffles or other
// collective operations) can be emulated this way.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TEST_LIB_EMULATEGPULAUNCH_H
#define THREADBIND_TEST_LIB_EMULATEGPULAUNCH_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class RewriterBase;
namespace gpu {
class LaunchOp;
} // namespace gpu
} // namespace mlir

namespace mlir::threadbind::test {

/// Returns success if `launch` can be run as sequential host loops with the
/// same result. Otherwise emits an error at the first offending op (or at the
/// launch itself) saying why, and returns failure. Never modifies the IR.
LogicalResult verifyEmulatable(gpu::LaunchOp launch);

/// Replaces `launch` by a nest of `scf.for` loops over (block z, y, x,
/// thread z, y, x) whose body is the launch body, with every id and dimension
/// query replaced by the loop values. `launch` must satisfy
/// verifyEmulatable.
void emulateLaunchOnHost(RewriterBase &rewriter, gpu::LaunchOp launch);

} // namespace mlir::threadbind::test

#endif // THREADBIND_TEST_LIB_EMULATEGPULAUNCH_H
