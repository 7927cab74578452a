//===- LowerAsserts.cpp - cf.assert to puts and abort, named once ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The code upstream's cf.assert lowering makes, with the messages' globals
// named through one symbol table instead of a module scan each.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_LOWERASSERTSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;

namespace {
struct LowerAssertsPass
    : threadbind::impl::LowerAssertsPassBase<LowerAssertsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) {
      if (isa<FunctionOpInterface>(op->getParentOp()))
        asserts.push_back(op);
    });
    if (asserts.empty())
      return;

    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    IRRewriter rewriter(context);
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i8 = IntegerType::get(context, 8);
    // The C library functions, declared as upstream declares them. A
    // symbol of the module that already has the name must be that
    // function: anything else would take the calls. Both are checked
    // before anything changes.
    auto putsType = LLVM::LLVMFunctionType::get(IntegerType::get(context, 32),
                                                {ptrType});
    auto abortType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {});
    bool clash = false;
    for (auto [name, type] : {std::pair(StringRef("puts"), putsType),
                              std::pair(StringRef("abort"), abortType)}) {
      Operation *existing = symbols.lookup(name);
      auto func = dyn_cast_or_null<LLVM::LLVMFuncOp>(existing);
      if (!existing || (func && func.getFunctionType() == type))
        continue;
      existing->emitOpError("is named '")
          << name << "', the C library function that a failed cf.assert "
          << "calls (" << type << ")";
      clash = true;
    }
    if (clash)
      return signalPassFailure();
    auto declare = [&](StringRef name,
                       LLVM::LLVMFunctionType type) -> LLVM::LLVMFuncOp {
      if (auto existing = symbols.lookup<LLVM::LLVMFuncOp>(name))
        return existing;
      rewriter.setInsertionPointToStart(module.getBody());
      auto func = LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), name,
                                           type);
      symbols.insert(func);
      return func;
    };
    LLVM::LLVMFuncOp puts = declare("puts", putsType);
    LLVM::LLVMFuncOp abort = declare("abort", abortType);

    for (cf::AssertOp op : asserts) {
      Location loc = op.getLoc();
      // The message, NUL-terminated, as a private constant.
      std::string text = (op.getMsg() + Twine('\0')).str();
      auto arrayType = LLVM::LLVMArrayType::get(i8, text.size());
      rewriter.setInsertionPointToStart(module.getBody());
      auto global = LLVM::GlobalOp::create(
          rewriter, loc, arrayType, /*isConstant=*/true,
          LLVM::Linkage::Internal, "assert_msg", rewriter.getStringAttr(text),
          /*alignment=*/0);
      symbols.insert(global);

      Block *before = op->getBlock();
      Block *after = rewriter.splitBlock(before, std::next(op->getIterator()));
      Block *failure = rewriter.createBlock(after);
      rewriter.setInsertionPointToStart(failure);
      Value address = LLVM::AddressOfOp::create(rewriter, loc, global);
      Value message = LLVM::GEPOp::create(
          rewriter, loc, ptrType, arrayType, address,
          ArrayRef<LLVM::GEPArg>{0, 0});
      LLVM::CallOp::create(rewriter, loc, puts, ValueRange{message});
      LLVM::CallOp::create(rewriter, loc, abort, ValueRange{});
      LLVM::UnreachableOp::create(rewriter, loc);
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<cf::CondBranchOp>(op, op.getArg(), after,
                                                    failure);
      ++numLowered;
    }
  }
};
} // namespace
