//===- TestPrintUniformity.cpp - Report the uniformity analysis -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "threadbind/Analysis/Uniformity.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::threadbind::test {
#define GEN_PASS_DEF_TESTPRINTUNIFORMITYPASS
#include "TestPasses.h.inc"

namespace {
struct TestPrintUniformityPass
    : impl::TestPrintUniformityPassBase<TestPrintUniformityPass> {
  using Base::Base;

  void runOnOperation() override {
    DataFlowSolver solver;
    loadUniformityAnalysis(solver);
    if (failed(solver.initializeAndRun(getOperation())))
      return signalPassFailure();

    getOperation()->walk([&](Operation *op) {
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          !op->getParentOfType<gpu::GPUFuncOp>())
        return;
      if (taggedOnly && !op->hasAttr("tag"))
        return;
      if (op->getNumResults() > 0) {
        InFlightDiagnostic remark = op->emitRemark("uniformity: ");
        llvm::interleaveComma(op->getResults(), remark, [&](Value result) {
          std::string text;
          llvm::raw_string_ostream os(text);
          getUniformity(solver, result).print(os);
          remark << text;
        });
      }
      if (std::optional<UniformityValue> branch =
              getBranchUniformity(solver, op)) {
        std::string text;
        llvm::raw_string_ostream os(text);
        branch->print(os);
        op->emitRemark("branch: ") << text;
      }
    });
  }
};
} // namespace
} // namespace mlir::threadbind::test
