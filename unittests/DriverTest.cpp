//===- DriverTest.cpp - Tests for the compiler driver's helpers -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/Manifest.h"
#include "threadbind/Driver/Ptxas.h"
#include "threadbind/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::threadbind;

namespace {

TEST(PtxasReportTest, ReadsEveryKernelsResources) {
  // The shape of `ptxas -v` output from CUDA 13.
  constexpr StringLiteral report = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'copy_kernel' for 'sm_90'
ptxas info    : Function properties for copy_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 20 registers, used 0 barriers
ptxas info    : Compiling entry function 'tree_kernel' for 'sm_90'
ptxas info    : Function properties for tree_kernel
    48 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 24.289 ms
)";
  SmallVector<PtxasKernelInfo> kernels = parsePtxasReport(report);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "copy_kernel");
  EXPECT_EQ(kernels[0].registers, 20u);
  EXPECT_EQ(kernels[0].spillStoreBytes, 0u);
  EXPECT_EQ(kernels[0].sharedBytes, 0u);
  EXPECT_EQ(kernels[1].name, "tree_kernel");
  EXPECT_EQ(kernels[1].registers, 255u);
  EXPECT_EQ(kernels[1].stackBytes, 48u);
  EXPECT_EQ(kernels[1].spillStoreBytes, 16u);
  EXPECT_EQ(kernels[1].spillLoadBytes, 12u);
  EXPECT_EQ(kernels[1].sharedBytes, 4096u);
  EXPECT_EQ(kernels[1].barriers, 1u);
  EXPECT_TRUE(parsePtxasReport("").empty());
}

TEST(PtxasLookupTest, ExplicitToolkitWithoutPtxasIsAnError) {
  llvm::Expected<std::string> found = findPtxas("/nonexistent/cuda");
  ASSERT_FALSE(static_cast<bool>(found));
  std::string message = llvm::toString(found.takeError());
  EXPECT_NE(message.find("/nonexistent/cuda/bin/ptxas"), std::string::npos)
      << message;
}

TEST(ChipTest, KnownChipsAndTheirPtxVersions) {
  std::optional<ChipInfo> sm90 = lookupChip("sm_90");
  ASSERT_TRUE(sm90);
  EXPECT_EQ(sm90->getFeatures(), "+ptx78");
  EXPECT_EQ(sm90->getPtxVersionString(), "7.8");
  std::optional<ChipInfo> sm80 = lookupChip("sm_80");
  ASSERT_TRUE(sm80);
  EXPECT_EQ(sm80->getPtxVersionString(), "7.0");
  EXPECT_FALSE(lookupChip("sm_50"));
  EXPECT_FALSE(lookupChip("gfx90a"));
  EXPECT_NE(getSupportedChipList().find("sm_80, sm_86"), std::string::npos);
}

TEST(DescribeHostValueTest, ExpressionsOverFunctionArguments) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      memref::MemRefDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @f(%a: memref<?x?xf32>, %n: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %d = memref.dim %a, %c1 : memref<?x?xf32>
  %e = arith.maxsi %d, %c0 : index
  %g = arith.ceildivui %e, %c256 : index
  %h = arith.muli %g, %n : index
  %s = arith.addi %h, %c1 : index
  return %g, %s, %c256 : index, index, index
}
)mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  Operation *ret = func.getBody().front().getTerminator();
  EXPECT_EQ(describeHostValue(ret->getOperand(0)),
            "ceildiv(max(dim(arg0, 1), 0), 256)");
  EXPECT_EQ(describeHostValue(ret->getOperand(1)),
            "((ceildiv(max(dim(arg0, 1), 0), 256) * arg1) + 1)");
  EXPECT_EQ(describeHostValue(ret->getOperand(2)), "256");
}

} // namespace
