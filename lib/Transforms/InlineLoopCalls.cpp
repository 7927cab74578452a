//===- InlineLoopCalls.cpp - Inline the functions loop bodies call --------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Front ends and people factor loop bodies into helper functions. A kernel
// cannot call back into the host program, so such a call is inlined before
// mapping; upstream's inliner does the work, the pass only chooses the
// calls (those in parallel loops, not the host code around them). C front
// ends call the C math library (expf, sqrt, fabsf, ...) through
// declarations; those calls become the math ops that mean the same, which
// the device lowers to libdevice and the host back to the same library.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_INLINELOOPCALLSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// Calls inlined into calls inlined, at most.
static constexpr int kMaxDepth = 16;

/// Which functions can reach themselves through their calls: inlining one
/// would bring a call to it back in at every level.
class RecursionFinder {
public:
  explicit RecursionFinder(SymbolTableCollection &symbols)
      : symbols(symbols) {}

  bool isRecursive(Operation *callee) {
    auto [it, inserted] = recursive.try_emplace(callee, false);
    if (inserted)
      it->second = reaches(callee, callee);
    return it->second;
  }

private:
  /// Whether a call in `from`, or in what it calls, calls `target`.
  bool reaches(Operation *from, Operation *target) {
    llvm::SmallPtrSet<Operation *, 8> seen;
    SmallVector<Operation *> work = {from};
    while (!work.empty()) {
      Operation *function = work.pop_back_val();
      WalkResult result = function->walk([&](CallOpInterface call) {
        Operation *next = call.resolveCallableInTable(&symbols);
        if (next == target)
          return WalkResult::interrupt();
        if (next && seen.insert(next).second)
          work.push_back(next);
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return true;
    }
    return false;
  }

  SymbolTableCollection &symbols;
  DenseMap<Operation *, bool> recursive;
};

/// The op a C math library function computes, by the double version's
/// name (the float one's ends in 'f'), and its operand count.
static std::pair<StringRef, unsigned> getMathOp(StringRef name) {
  return llvm::StringSwitch<std::pair<StringRef, unsigned>>(name)
      .Case("exp", {"math.exp", 1})
      .Case("exp2", {"math.exp2", 1})
      .Case("expm1", {"math.expm1", 1})
      .Case("log", {"math.log", 1})
      .Case("log2", {"math.log2", 1})
      .Case("log10", {"math.log10", 1})
      .Case("log1p", {"math.log1p", 1})
      .Case("sqrt", {"math.sqrt", 1})
      .Case("cbrt", {"math.cbrt", 1})
      .Case("sin", {"math.sin", 1})
      .Case("cos", {"math.cos", 1})
      .Case("tan", {"math.tan", 1})
      .Case("asin", {"math.asin", 1})
      .Case("acos", {"math.acos", 1})
      .Case("atan", {"math.atan", 1})
      .Case("sinh", {"math.sinh", 1})
      .Case("cosh", {"math.cosh", 1})
      .Case("tanh", {"math.tanh", 1})
      .Case("asinh", {"math.asinh", 1})
      .Case("acosh", {"math.acosh", 1})
      .Case("atanh", {"math.atanh", 1})
      .Case("erf", {"math.erf", 1})
      .Case("erfc", {"math.erfc", 1})
      .Case("fabs", {"math.absf", 1})
      .Case("floor", {"math.floor", 1})
      .Case("ceil", {"math.ceil", 1})
      // Halves away from zero, as C's round.
      .Case("round", {"math.round", 1})
      .Case("trunc", {"math.trunc", 1})
      .Case("pow", {"math.powf", 2})
      .Case("atan2", {"math.atan2", 2})
      .Case("copysign", {"math.copysign", 2})
      // C's fmin and fmax return the other operand of a NaN.
      .Case("fmin", {"arith.minnumf", 2})
      .Case("fmax", {"arith.maxnumf", 2})
      // frem takes the dividend's sign, as fmod does.
      .Case("fmod", {"arith.remf", 2})
      .Case("fma", {"math.fma", 3})
      .Default({"", 0});
}

/// Replaces `call`, of a C math library function the module declares, by
/// the op that computes the same: f64 operands and result for the name as
/// it is, f32 for the name with an 'f'. False for any other call.
static bool replaceMathLibraryCall(func::CallOp call, func::FuncOp callee) {
  if (!callee.isDeclaration() || call.getNumResults() != 1 ||
      call.getNumOperands() == 0)
    return false;
  Type type = call.getResult(0).getType();
  if (!llvm::all_of(call.getOperandTypes(),
                    [&](Type operand) { return operand == type; }))
    return false;
  StringRef name = callee.getSymName();
  if (type.isF32() ? !name.consume_back("f") : !type.isF64())
    return false;
  auto [opName, arity] = getMathOp(name);
  if (opName.empty() || arity != call.getNumOperands())
    return false;
  OpBuilder b(call);
  OperationState state(call.getLoc(), opName, call.getOperands(), {type});
  Operation *op = b.create(state);
  call.replaceAllUsesWith(op->getResults());
  call.erase();
  return true;
}

namespace {
struct InlineLoopCallsPass
    : threadbind::impl::InlineLoopCallsPassBase<InlineLoopCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    RecursionFinder recursion(symbols);
    InlinerInterface interface(&getContext());
    InlinerConfig config;
    SetVector<Operation *> inlinedCallees;
    for (int depth = 0; depth < kMaxDepth; ++depth) {
      SmallVector<CallOpInterface> calls;
      module.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
          return WalkResult::skip();
        if (auto call = dyn_cast<CallOpInterface>(op);
            call && isInParallelLoop(op->getBlock()))
          calls.push_back(call);
        return WalkResult::advance();
      });
      bool inlined = false;
      for (CallOpInterface call : calls) {
        Operation *target = call.resolveCallableInTable(&symbols);
        auto direct = dyn_cast<func::CallOp>(call.getOperation());
        auto declared = dyn_cast_or_null<func::FuncOp>(target);
        if (direct && declared && replaceMathLibraryCall(direct, declared)) {
          ++numMathCallsReplaced;
          continue;
        }
        auto callee = dyn_cast_or_null<CallableOpInterface>(target);
        if (!callee || !callee.getCallableRegion() ||
            callee.getCallableRegion()->empty() ||
            recursion.isRecursive(callee))
          continue;
        wrapForSeveralBlocks(call, callee);
        if (failed(inlineCall(interface, config.getCloneCallback(), call,
                              callee, callee.getCallableRegion(),
                              /*shouldCloneInlinedRegion=*/true)))
          continue;
        call->erase();
        ++numCallsInlined;
        inlinedCallees.insert(callee);
        inlined = true;
      }
      if (!inlined)
        break;
    }
    eraseUnusedHelpers(module, inlinedCallees.takeVector());
  }

  /// A callee of several blocks (an early return) cannot be inlined into a
  /// region of one, as a loop's body is: the call moves into an
  /// `scf.execute_region` of its own, which takes them, and whose results
  /// stand for the call's.
  static void wrapForSeveralBlocks(CallOpInterface call,
                                   CallableOpInterface callee) {
    Operation *parent = call->getParentOp();
    if (callee.getCallableRegion()->hasOneBlock() ||
        !parent->hasTrait<OpTrait::SingleBlock>())
      return;
    OpBuilder builder(call);
    auto region = scf::ExecuteRegionOp::create(builder, call.getLoc(),
                                               call->getResultTypes());
    Block *body = builder.createBlock(&region.getRegion());
    call->replaceAllUsesWith(region.getResults());
    call->moveBefore(body, body->end());
    builder.setInsertionPointToEnd(body);
    scf::YieldOp::create(builder, call.getLoc(), call->getResults());
  }

  /// Erases the private functions among `callees` that nothing calls any
  /// more: each lives on in the loops it was inlined into, and left behind
  /// it would be taken for host code (a function that touches memory with
  /// no loop runs on one GPU thread, with a warning). A helper erased can
  /// leave its own callees unused, so this goes round until none is.
  void eraseUnusedHelpers(ModuleOp module, SmallVector<Operation *> callees) {
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&callee : callees) {
        auto symbol = dyn_cast_or_null<SymbolOpInterface>(callee);
        if (!symbol || !symbol.isPrivate() ||
            callee->getParentOp() != module.getOperation() ||
            !SymbolTable::symbolKnownUseEmpty(symbol, module))
          continue;
        callee->erase();
        callee = nullptr;
        ++numHelpersErased;
        erased = true;
      }
    }
  }
};
} // namespace
