//===- EmulateGPULaunchTest.cpp - Tests for the gpu.launch emulation ------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/EmulateGPULaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::threadbind;

namespace {

class EmulateGPULaunchTest : public ::testing::Test {
protected:
  EmulateGPULaunchTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        gpu::GPUDialect, memref::MemRefDialect,
                        scf::SCFDialect>();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  static gpu::LaunchOp firstLaunch(ModuleOp module) {
    gpu::LaunchOp found;
    module.walk([&](gpu::LaunchOp op) {
      found = op;
      return WalkResult::interrupt();
    });
    return found;
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  MLIRContext context;
};

constexpr StringLiteral kIdsKernel = R"mlir(
func.func @ids(%out: memref<?xindex>, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %gid = gpu.global_id x
    %bdim = gpu.block_dim x
    %gdim = gpu.grid_dim x
    %lane = gpu.lane_id
    %t = gpu.thread_id x
    %sum0 = arith.addi %gid, %bdim : index
    %sum1 = arith.addi %sum0, %gdim : index
    %sum2 = arith.addi %sum1, %lane : index
    %sum3 = arith.addi %sum2, %t : index
    %sum4 = arith.addi %sum3, %sx : index
    memref.store %sum4, %out[%gid] : memref<?xindex>
    gpu.terminator
  }
  return
}
)mlir";

TEST_F(EmulateGPULaunchTest, RewritesLaunchIntoSixLoopsWithoutDeviceOps) {
  OwningOpRef<ModuleOp> module = parse(kIdsKernel);
  ASSERT_TRUE(module);
  gpu::LaunchOp launch = firstLaunch(*module);
  ASSERT_TRUE(launch);
  ASSERT_TRUE(succeeded(verifyEmulatable(launch)));

  IRRewriter rewriter(&context);
  emulateLaunchOnHost(rewriter, launch);

  EXPECT_TRUE(succeeded(verify(*module)));
  unsigned numFor = 0, numGpuOps = 0;
  module->walk([&](Operation *op) {
    if (isa<scf::ForOp>(op))
      ++numFor;
    if (op->getDialect() && op->getDialect()->getNamespace() == "gpu")
      ++numGpuOps;
  });
  EXPECT_EQ(numFor, 6u);
  EXPECT_EQ(numGpuOps, 0u);
  // The store survives and is now inside the innermost loop.
  bool storeInLoop = false;
  module->walk([&](memref::StoreOp store) {
    unsigned depth = 0;
    for (Operation *p = store->getParentOp(); p; p = p->getParentOp())
      depth += isa<scf::ForOp>(p);
    storeInLoop = depth == 6;
  });
  EXPECT_TRUE(storeInLoop);
}

// A barrier in the launch body, or in a loop all threads of a block run
// alike, splits the emulation into phases; one in a loop whose trip count
// varies between threads cannot be emulated.
TEST_F(EmulateGPULaunchTest, RejectsBarrierInAThreadVaryingLoopAndLeavesIRAlone) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @barrier(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %tx step %c1 {
      memref.store %f, %out[%tx] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
)mlir");
  ASSERT_TRUE(module);
  std::string before = print(*module);

  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verifyEmulatable(firstLaunch(*module))));
  EXPECT_NE(message.find("its bounds are not computed from block ids"),
            std::string::npos)
      << message;
  EXPECT_EQ(print(*module), before);
}

TEST_F(EmulateGPULaunchTest, AcceptsBarrierInABlockUniformLoop) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @barrier(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %n = arith.addi %bx, %c4 : index
    scf.for %k = %c0 to %n step %c1 {
      memref.store %f, %out[%tx] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
)mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(succeeded(verifyEmulatable(firstLaunch(*module))));
}

TEST_F(EmulateGPULaunchTest, RejectsAsynchronousLaunch) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @async() {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}
)mlir");
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verifyEmulatable(firstLaunch(*module))));
  EXPECT_NE(message.find("asynchronous"), std::string::npos) << message;
}

} // namespace
