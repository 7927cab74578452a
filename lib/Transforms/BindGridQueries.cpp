//===- BindGridQueries.cpp - Size each grid from its own kernel -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites each threadbind_max_resident_blocks(threads) that sizes exactly
// one gpu.launch_func into threadbind_kernel_resident_blocks(threads, name),
// so the runtime answers from the kernel's own occupancy.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_BINDGRIDQUERIESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {
struct BindGridQueriesPass
    : threadbind::impl::BindGridQueriesPassBase<BindGridQueriesPass> {
  void runOnOperation() override;

  /// The private global holding `name` followed by NUL.
  LLVM::GlobalOp getNameGlobal(StringRef name);

  DenseMap<StringAttr, LLVM::GlobalOp> nameGlobals;
};
} // namespace

LLVM::GlobalOp BindGridQueriesPass::getNameGlobal(StringRef name) {
  MLIRContext *context = &getContext();
  StringAttr key = StringAttr::get(context, name);
  auto it = nameGlobals.find(key);
  if (it != nameGlobals.end())
    return it->second;
  ModuleOp module = getOperation();
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  std::string value = (name + Twine('\0')).str();
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                       value.size());
  auto global = LLVM::GlobalOp::create(
      builder, module.getLoc(), type, /*isConstant=*/true,
      LLVM::Linkage::Private, ("__threadbind_kernel_name_" + name).str(),
      builder.getStringAttr(value));
  SymbolTable(module).insert(global);
  nameGlobals[key] = global;
  return global;
}

void BindGridQueriesPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Which launches each query's result reaches.
  DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp, 1>> launchesOf;
  SmallVector<func::CallOp> order;
  module.walk([&](gpu::LaunchFuncOp launch) {
    llvm::SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.inclusive = true; // the grid value's own definition counts too
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    for (Value dim : {grid.x, grid.y, grid.z})
      (void)getBackwardSlice(dim, &slice, options);
    for (Operation *op : slice) {
      auto call = dyn_cast<func::CallOp>(op);
      if (!call || call.getCallee() != kMaxResidentBlocksFn)
        continue;
      auto &launches = launchesOf[call];
      if (launches.empty())
        order.push_back(call);
      launches.push_back(launch);
    }
  });

  // A function of the input that takes the query's name would be called
  // with arguments it does not take.
  if (Operation *existing = module.lookupSymbol(kKernelResidentBlocksFn);
      existing && !order.empty()) {
    Builder b(&getContext());
    FunctionType type = b.getFunctionType(
        {b.getIndexType(), LLVM::LLVMPointerType::get(&getContext())},
        {b.getIndexType()});
    auto func = dyn_cast<FunctionOpInterface>(existing);
    if (!func || func.getFunctionType() != type) {
      existing->emitError("'")
          << kKernelResidentBlocksFn << "' must be a function of type "
          << type << ": grid-stride launches call it to size their grid; "
          << "rename this one";
      return signalPassFailure();
    }
  }
  MLIRContext *context = &getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Type index = IndexType::get(context);
  bool bound = false;
  for (func::CallOp call : order) {
    SmallVector<gpu::LaunchFuncOp, 1> launches = launchesOf[call];
    // A kernel and its read-only copy (threadbind-version-read-only-
    // launches) share their grid; the two hold the same registers, so the
    // query takes the plain kernel's name.
    if (launches.size() > 1)
      llvm::erase_if(launches, [&](gpu::LaunchFuncOp launch) {
        Operation *kernel = SymbolTable::lookupNearestSymbolFrom(
            launch, launch.getKernelAttr());
        return kernel && kernel->hasAttr(kNoAliasReadOnlyAttr);
      });
    if (launches.size() != 1 || call.getNumOperands() != 1)
      continue;
    LLVM::GlobalOp name = getNameGlobal(launches.front().getKernelName());
    OpBuilder builder(call);
    Value namePtr = LLVM::AddressOfOp::create(builder, call.getLoc(), name);
    auto boundCall = func::CallOp::create(
        builder, call.getLoc(), kKernelResidentBlocksFn, TypeRange{index},
        ValueRange{call.getOperand(0), namePtr});
    call.replaceAllUsesWith(boundCall.getResults());
    call.erase();
    ++numQueriesBound;
    bound = true;
  }
  if (!bound || module.lookupSymbol(kKernelResidentBlocksFn))
    return;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(
      builder, module.getLoc(), kKernelResidentBlocksFn,
      builder.getFunctionType({index, ptrType}, {index}));
  decl.setPrivate();
}
