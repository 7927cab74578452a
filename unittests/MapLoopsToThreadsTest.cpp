//===- MapLoopsToThreadsTest.cpp - Tests for the loop-mapping planner -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::threadbind;

namespace {

class MapLoopsToThreadsTest : public ::testing::Test {
protected:
  MapLoopsToThreadsTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, memref::MemRefDialect,
                        scf::SCFDialect>();
  }

  /// Parses `source` and returns its first scf.parallel.
  scf::ParallelOp parseLoop(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return nullptr;
    scf::ParallelOp loop;
    module->walk([&](scf::ParallelOp op) {
      loop = op;
      return WalkResult::interrupt();
    });
    return loop;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST(LoopMappingOptionsTest, RejectsShapesBeyondHardwareLimits) {
  LoopMappingOptions options;
  EXPECT_EQ(verifyLoopMappingOptions(options), "");
  options.blockShape = {64, 32};
  EXPECT_EQ(verifyLoopMappingOptions(options),
            "block-shape has 2048 threads, more than 1024");
  options.blockShape = {1, 1, 65};
  EXPECT_EQ(verifyLoopMappingOptions(options),
            "block-shape[2] = 65 is outside [1, 64]");
  options.blockShape = {};
  options.threadsPerBlock = 0;
  EXPECT_EQ(verifyLoopMappingOptions(options),
            "threads-per-block = 0 is outside [1, 1024]");
  options.threadsPerBlock = 1024;
  options.maxBlocks = -1;
  EXPECT_EQ(verifyLoopMappingOptions(options), "max-blocks = -1 is negative");
}

TEST_F(MapLoopsToThreadsTest, ThreeDimensionalRowMajorLoop) {
  scf::ParallelOp loop = parseLoop(R"mlir(
func.func @f(%a: memref<?x?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %n, %n) step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<?x?x?xf32>
    memref.store %x, %a[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(loop);
  FailureOr<LoopMappingPlan> plan = planLoopMapping(loop, {});
  ASSERT_TRUE(succeeded(plan));
  ASSERT_EQ(plan->groups.size(), 3u);
  EXPECT_EQ(plan->groups[0], (SmallVector<unsigned, 2>{2}));
  EXPECT_EQ(plan->groups[1], (SmallVector<unsigned, 2>{1}));
  EXPECT_EQ(plan->groups[2], (SmallVector<unsigned, 2>{0}));
  // One load an iteration: flat blocks (32x4x2 above 16 loads).
  EXPECT_EQ(plan->blockShape, (SmallVector<int64_t, 3>{64, 4, 1}));
  // 96 threads stay 96: one warp wide where two would drop some.
  LoopMappingOptions options;
  options.threadsPerBlock = 96;
  plan = planLoopMapping(loop, options);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ(plan->blockShape, (SmallVector<int64_t, 3>{32, 3, 1}));
}

TEST_F(MapLoopsToThreadsTest, FiveDimensionsLineariseOntoZ) {
  scf::ParallelOp loop = parseLoop(R"mlir(
func.func @f(%a: memref<?x?x?x?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j, %k, %l, %m) = (%c0, %c0, %c0, %c0, %c0) to (%n, %n, %n, %n, %n) step (%c1, %c1, %c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k, %l, %m] : memref<?x?x?x?x?xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(loop);
  LoopMappingOptions options;
  options.threadsPerBlock = 128;
  FailureOr<LoopMappingPlan> plan = planLoopMapping(loop, options);
  ASSERT_TRUE(succeeded(plan));
  ASSERT_EQ(plan->groups.size(), 3u);
  EXPECT_EQ(plan->groups[0], (SmallVector<unsigned, 2>{4}));
  EXPECT_EQ(plan->groups[1], (SmallVector<unsigned, 2>{3}));
  EXPECT_EQ(plan->groups[2], (SmallVector<unsigned, 2>{0, 1, 2}));
  EXPECT_EQ(plan->blockShape, (SmallVector<int64_t, 3>{64, 2, 1}));
}

TEST_F(MapLoopsToThreadsTest, ForcedOrderAndBadForcedOrder) {
  scf::ParallelOp loop = parseLoop(R"mlir(
func.func @f(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(loop);
  LoopMappingOptions options;
  options.dimOrder = {0};
  FailureOr<LoopMappingPlan> plan = planLoopMapping(loop, options);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ(plan->groups[0], (SmallVector<unsigned, 2>{0}));
  EXPECT_EQ(plan->groups[1], (SmallVector<unsigned, 2>{1}));
  EXPECT_EQ(plan->reason, "forced by dim-order");

  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  options.dimOrder = {2};
  EXPECT_TRUE(failed(planLoopMapping(loop, options)));
  EXPECT_NE(message.find("dim-order 2 is not a distinct dimension"),
            std::string::npos)
      << message;
}

TEST_F(MapLoopsToThreadsTest, SmallStaticExtentShrinksBlockAlongIt) {
  scf::ParallelOp loop = parseLoop(R"mlir(
func.func @f(%a: memref<1000x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1000, %c3) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<1000x3xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(loop);
  FailureOr<LoopMappingPlan> plan = planLoopMapping(loop, {});
  ASSERT_TRUE(succeeded(plan));
  // x covers the 3 columns with 4 threads; y takes the other factor of 8.
  EXPECT_EQ(plan->blockShape, (SmallVector<int64_t, 3>{4, 64, 1}));
}

TEST_F(MapLoopsToThreadsTest, IndexCoefficientsFollowArithAndAffine) {
  context.allowUnregisteredDialects();
  scf::ParallelOp loop = parseLoop(R"mlir(
#m = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
func.func @f(%a: memref<?xf32>, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %a0 = arith.muli %i, %c2 : index
    %a1 = arith.addi %a0, %j : index
    %a2 = arith.subi %a1, %i : index
    %sq = arith.muli %i, %i : index
    %ap = affine.apply #m(%i)[%j]
    "test.use"(%a2, %sq, %ap) : (index, index, index) -> ()
  }
  return
}
)mlir");
  ASSERT_TRUE(loop);
  Operation *use = &*std::prev(loop.getBody()->end(), 2);
  ASSERT_EQ(use->getName().getStringRef(), "test.use");
  IndexCoefficients ci(loop.getInductionVars()[0]);
  IndexCoefficients cj(loop.getInductionVars()[1]);
  EXPECT_EQ(ci.get(use->getOperand(0)), std::optional<int64_t>(1));
  EXPECT_EQ(cj.get(use->getOperand(0)), std::optional<int64_t>(1));
  EXPECT_EQ(ci.get(use->getOperand(1)), std::nullopt);
  EXPECT_EQ(cj.get(use->getOperand(1)), std::optional<int64_t>(0));
  EXPECT_EQ(ci.get(use->getOperand(2)), std::optional<int64_t>(4));
  EXPECT_EQ(cj.get(use->getOperand(2)), std::optional<int64_t>(1));
}

TEST_F(MapLoopsToThreadsTest, UnitStrideDimensionFromLayout) {
  auto f32 = Float32Type::get(&context);
  EXPECT_EQ(getUnitStrideDim(MemRefType::get({4, 8}, f32)),
            std::optional<unsigned>(1));
  int64_t dyn = ShapedType::kDynamic;
  auto colMajor = MemRefType::get(
      {4, 8}, f32, StridedLayoutAttr::get(&context, 0, {1, dyn}));
  EXPECT_EQ(getUnitStrideDim(colMajor), std::optional<unsigned>(0));
  auto noUnit = MemRefType::get(
      {4, 8}, f32, StridedLayoutAttr::get(&context, 0, {dyn, dyn}));
  EXPECT_EQ(getUnitStrideDim(noUnit), std::nullopt);
  EXPECT_EQ(getUnitStrideDim(MemRefType::get({}, f32)), std::nullopt);
}

} // namespace
