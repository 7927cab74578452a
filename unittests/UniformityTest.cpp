//===- UniformityTest.cpp - Tests for the uniformity queries --------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/Uniformity.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::threadbind;

namespace {

class UniformityTest : public ::testing::Test {
protected:
  UniformityTest() {
    context.loadDialect<arith::ArithDialect, gpu::GPUDialect,
                        memref::MemRefDialect, scf::SCFDialect>();
  }

  /// Parses `source`, runs the analysis, and returns the value of the op
  /// named by its `name` attribute.
  Value find(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      auto attr = op->getAttrOfType<StringAttr>("name");
      if (attr && attr.getValue() == name)
        found = op->getResult(0);
    });
    return found;
  }

  void analyse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    loadUniformityAnalysis(solver);
    ASSERT_TRUE(succeeded(solver.initializeAndRun(*module)));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DataFlowSolver solver;
};

constexpr StringLiteral kKernel = R"mlir(
gpu.module @m {
  gpu.func @k(%n: index) kernel attributes {known_block_size = array<i32: 64, 4, 1>} {
    %tx = gpu.thread_id x {name = "tx"}
    %ty = gpu.thread_id y {name = "ty"}
    %bx = gpu.block_id x {name = "bx"}
    %c2 = arith.constant 2 : index
    %row = arith.cmpi ult, %ty, %c2 {name = "row"} : index
    %col = arith.cmpi ult, %tx, %c2 {name = "col"} : index
    %sum = arith.addi %bx, %n {name = "sum"} : index
    %r = scf.if %col -> index {
      scf.yield %n : index
    } else {
      scf.yield %n : index
    } {name = "merged"}
    gpu.return
  }
}
)mlir";

TEST_F(UniformityTest, ThreadGeometryAndControlDependence) {
  analyse(kKernel);
  EXPECT_FALSE(isWarpUniform(solver, find("tx")));
  EXPECT_TRUE(isWarpUniform(solver, find("ty")));
  EXPECT_EQ(getUniformity(solver, find("ty")).getLevel(),
            UniformityLevel::WarpUniform);
  EXPECT_EQ(getUniformity(solver, find("bx")).getLevel(),
            UniformityLevel::BlockUniform);
  EXPECT_EQ(getUniformity(solver, find("sum")).getLevel(),
            UniformityLevel::BlockUniform);
  EXPECT_TRUE(isWarpUniform(solver, find("row")));
  EXPECT_FALSE(isWarpUniform(solver, find("col")));
  // Both sides yield the kernel argument; the merge still diverges.
  Value merged = find("merged");
  EXPECT_FALSE(isWarpUniform(solver, merged));
  std::optional<UniformityValue> branch =
      getBranchUniformity(solver, merged.getDefiningOp());
  ASSERT_TRUE(branch);
  EXPECT_EQ(branch->getLevel(), UniformityLevel::Divergent);
  ASSERT_NE(branch->getSource(), nullptr);
  EXPECT_TRUE(isa<gpu::ThreadIdOp>(branch->getSource()));
}

TEST_F(UniformityTest, FindsDivergentBranchesOnly) {
  analyse(kKernel);
  FailureOr<SmallVector<DivergentBranch>> branches =
      findDivergentBranches(*module);
  ASSERT_TRUE(succeeded(branches));
  ASSERT_EQ(branches->size(), 1u);
  EXPECT_TRUE(isa<scf::IfOp>((*branches)[0].branch));
}

TEST(UniformityValueTest, JoinKeepsTheLessUniformAndItsSource) {
  UniformityValue uniform(UniformityLevel::Uniform);
  UniformityValue warp(UniformityLevel::WarpUniform);
  UniformityValue none;
  EXPECT_TRUE(none.isUninitialized());
  EXPECT_EQ(UniformityValue::join(none, warp), warp);
  EXPECT_EQ(UniformityValue::join(uniform, warp).getLevel(),
            UniformityLevel::WarpUniform);
  EXPECT_EQ(UniformityValue::join(warp, uniform).getLevel(),
            UniformityLevel::WarpUniform);
  EXPECT_EQ(stringify(UniformityLevel::BlockUniform), "block-uniform");
}

} // namespace
