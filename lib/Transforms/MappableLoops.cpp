//===- MappableLoops.cpp - Which loops can become kernels -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The legality half of threadbind-map-loops-to-threads: whether a loop's
// body can run on the GPU (types a kernel can take, ops with device
// lowerings, no host-only effects), with a diagnostic at the first op that
// cannot.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "threadbind/Transforms/KernelRewriting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// Types a kernel can take as an argument once outlined: a complex number
/// travels as an LLVM struct of its two parts.
static bool isKernelArgumentType(Type type) {
  return isa<BaseMemRefType, IndexType, IntegerType, FloatType, VectorType,
             ComplexType>(type);
}

/// Float types the NVPTX backend computes on. Kernels can load and store the
/// others (f8 and smaller travel as integers, f80 and f128 as bits), but
/// arithmetic on them fails to lower or aborts the backend.
static bool isDeviceArithmeticFloat(FloatType type) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

/// Why a kernel cannot hold a value of `type`, as the end of a sentence, or
/// an empty string. Checked here because the device lowering would only
/// fail long after, at an outlined function or an LLVM translation, without
/// naming the op that needs the type.
static std::string whyNoDeviceType(Type type) {
  if (isa<TensorType>(type))
    return "which a kernel cannot hold: bufferize tensors to memrefs first";
  if (auto memref = dyn_cast<MemRefType>(type); memref && !memref.isStrided())
    return "whose layout is not strided, so a kernel cannot address it "
           "(normalize-memrefs rewrites such layouts)";
  // tf32 is the one builtin float type LLVM has no type for.
  if (isa<FloatTF32Type>(getElementTypeOrSelf(type)))
    return "which has no LLVM type";
  if (isa<BaseMemRefType, IndexType, IntegerType, FloatType, VectorType,
          ComplexType>(type) ||
      LLVM::isCompatibleType(type))
    return "";
  return "which has no lowering on the device";
}

/// A float type that `op` computes on and kernels can move but not compute
/// on (see isDeviceArithmeticFloat), if any.
static std::optional<FloatType> findNonArithmeticFloat(Operation *op) {
  // Loads and stores move the bits only.
  if (isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp>(op))
    return std::nullopt;
  auto nonArithmetic = [](Type type) -> std::optional<FloatType> {
    if (isa<BaseMemRefType>(type))
      return std::nullopt;
    Type element = getElementTypeOrSelf(type);
    if (auto complex = dyn_cast<ComplexType>(element))
      element = complex.getElementType();
    auto fp = dyn_cast<FloatType>(element);
    if (!fp || isDeviceArithmeticFloat(fp))
      return std::nullopt;
    return fp;
  };
  for (Type type : op->getOperandTypes())
    if (std::optional<FloatType> fp = nonArithmetic(type))
      return fp;
  for (Type type : op->getResultTypes())
    if (std::optional<FloatType> fp = nonArithmetic(type))
      return fp;
  return std::nullopt;
}

/// Whether a `memref.copy` lowers to a memcpy, which a kernel can run,
/// rather than a call to the host runtime's `memrefCopy`; the same test as
/// MemRefToLLVM's.
static bool copiesContiguously(memref::CopyOp copy) {
  auto contiguous = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && (memref.getLayout().isIdentity() ||
                      memref::isStaticShapeAndContiguousRowMajor(memref));
  };
  return contiguous(copy.getSource().getType()) &&
         contiguous(copy.getTarget().getType());
}

LogicalResult threadbind::verifyMappable(scf::ParallelOp loop) {
  if (!loop.getInitVals().empty())
    return loop.emitOpError("has reductions, which "
                            "threadbind-map-loops-to-threads does not map");
  return verifyMappableBody(loop);
}

LogicalResult threadbind::verifyMappableBody(scf::ParallelOp loop) {
  if (failed(verifyRunsOnDevice(loop.getOperation())))
    return failure();
  return verifyNoUnknownEffects(loop);
}

LogicalResult threadbind::verifyNoUnknownEffects(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) {
    if (op == root || op->hasTrait<OpTrait::IsTerminator>() ||
        !hasUnknownEffects(op))
      return WalkResult::advance();
    op->emitError("cannot run in parallel: '")
        << op->getName() << "' has unknown side effects";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult threadbind::verifyRunsOnDevice(ArrayRef<Operation *> ops,
                                             StringRef whole) {
  assert(!ops.empty() && "nothing to check");
  Block *block = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 8> kernelOps(ops.begin(), ops.end());
  // Whether `value` is made by the ops that become the kernel.
  auto isInside = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      def = value.getParentBlock()->getParentOp();
    Operation *ancestor = def ? block->findAncestorOpInBlock(*def) : nullptr;
    return ancestor && kernelOps.contains(ancestor);
  };
  auto check = [&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op)) {
      op->emitError("cannot bind the enclosing loop to the GPU: its body "
                    "already launches a kernel");
      return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      // threadbind-inline-loop-calls left it: say why it could not.
      auto callee =
          dyn_cast_or_null<CallableOpInterface>(call.resolveCallable());
      InFlightDiagnostic diag = op->emitError("cannot run on the device: '")
                                << op->getName() << "' calls ";
      if (callee && callee.getCallableRegion() &&
          !callee.getCallableRegion()->empty())
        diag << "a function that was not inlined into the loop, and a "
                "kernel cannot call the host (threadbind-inline-loop-calls "
                "inlines helpers unless they call themselves, directly or "
                "through others, or lie more than 16 calls deep)";
      else
        diag << "a host function";
      return WalkResult::interrupt();
    }
    if (isa<memref::AllocOp, memref::ReallocOp, memref::DeallocOp, gpu::AllocOp,
            gpu::DeallocOp>(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName()
          << "' manages heap memory, which cannot live on the device; use "
             "memref.alloca for per-iteration scratch";
      return WalkResult::interrupt();
    }
    // MLIR 22 lowers memref.generic_atomic_rmw to an LLVM cmpxchg of the
    // element type, which must be an integer or a pointer: on floats the
    // lowering fails late, with a message about llvm.cmpxchg.
    if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op);
        atomic &&
        !atomic.getMemref().getType().getElementType().isIntOrIndex()) {
      op->emitError("cannot run on the device: '")
          << op->getName() << "' on "
          << atomic.getMemref().getType().getElementType()
          << " lowers to a compare-and-swap that MLIR's lowering to LLVM "
             "takes on integers only; use memref.atomic_rmw where a kind "
             "fits (addf, maximumf, minimumf, ...), or keep the values as "
             "integer bits";
      return WalkResult::interrupt();
    }
    // Thread ids, barriers, shuffles and the like would refer to the launch
    // this pass creates, whose shape is the mapping's choice, not the
    // program's; only gpu.printf means the same in any launch.
    if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) &&
        !isa<gpu::PrintfOp>(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName()
          << "' would refer to the launch that the mapping creates, whose "
             "shape is the mapping's choice; write the gpu.launch by hand";
      return WalkResult::interrupt();
    }
    // OpenMP and OpenACC constructs lower to calls into their host
    // runtimes (__kmpc_*), and async ones to MLIR's async runtime: none
    // exists on the device.
    if (Dialect *dialect = op->getDialect();
        dialect && llvm::is_contained({StringRef("omp"), StringRef("acc"),
                                       StringRef("async")},
                                      dialect->getNamespace())) {
      op->emitError("cannot run on the device: '")
          << op->getName() << "' needs the " << dialect->getNamespace()
          << " host runtime; the parallel loop around it is what ThreadBind "
             "binds to the GPU";
      return WalkResult::interrupt();
    }
    // Both lower to calls into the host's runtime libraries, which a kernel
    // cannot link.
    if (isa<vector::PrintOp>(op)) {
      op->emitError("cannot run on the device: 'vector.print' prints "
                    "through the host runtime; use gpu.printf");
      return WalkResult::interrupt();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op);
        copy && !copiesContiguously(copy)) {
      op->emitError("cannot run on the device: 'memref.copy' of memrefs "
                    "that are not contiguous calls the host runtime; copy "
                    "with loads and stores");
      return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      if (isInside(operand) || isKernelArgumentType(operand.getType()))
        continue;
      op->emitError("cannot run on the device: it uses a value of type ")
          << operand.getType()
          << " defined outside " << whole
          << ", which a kernel cannot take as an "
             "argument";
      return WalkResult::interrupt();
    }
    auto reportType = [&](Type type, StringRef verb) {
      std::string why = whyNoDeviceType(type);
      if (why.empty())
        return false;
      op->emitError("cannot run on the device: '")
          << op->getName() << "' " << verb << " a value of type " << type
          << ", " << why;
      return true;
    };
    for (Type type : op->getOperandTypes())
      if (reportType(type, "takes"))
        return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (reportType(type, "makes"))
        return WalkResult::interrupt();
    if (std::optional<FloatType> fp = findNonArithmeticFloat(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName() << "' computes on " << *fp
          << ", which kernels can load and store but compute on only as "
             "f16, bf16, f32 or f64";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  };
  // Outer ops first: a launch in the body is reported as such, not as the
  // gpu ops inside it.
  for (Operation *op : ops)
    if (op->walk<WalkOrder::PreOrder>(check).wasInterrupted())
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// The sequential fallback
//===----------------------------------------------------------------------===//

std::optional<Refusal>
threadbind::catchRefusal(MLIRContext *context,
                         function_ref<LogicalResult()> check) {
  std::optional<Refusal> refusal;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (!refusal)
        refusal = Refusal{diag.getLocation(), diag.str()};
      return success();
    });
    if (succeeded(check()))
      return std::nullopt;
  }
  if (!refusal)
    refusal = Refusal{UnknownLoc::get(context), "it was refused"};
  return refusal;
}

FailureOr<std::optional<Refusal>>
threadbind::checkWithFallback(Operation *loop, bool fallback,
                              function_ref<LogicalResult()> check) {
  if (!fallback) {
    if (failed(check()))
      return failure();
    return std::optional<Refusal>();
  }
  std::optional<Refusal> refusal = catchRefusal(loop->getContext(), check);
  // The device check runs again only for a loop that was refused, to tell
  // the refusals the fallback takes from those no GPU can run.
  if (refusal && failed(verifyRunsOnDevice(loop)))
    return failure();
  return refusal;
}

void threadbind::leaveToOneThread(Operation *loop, const Refusal &why) {
  setSequentialReason(loop, why.message);
  InFlightDiagnostic warning = loop->emitWarning(
      "cannot be bound to the GPU in parallel, so it runs on one GPU "
      "thread: ");
  warning << why.message;
  if (why.loc != loop->getLoc() && !isa<UnknownLoc>(why.loc))
    warning.attachNote(why.loc) << "here";
}

//===----------------------------------------------------------------------===//
// Iterations that touch one element
//===----------------------------------------------------------------------===//

namespace {
/// An index as a value plus a constant (`%i - 1` is `%i` and -1).
struct SplitIndex {
  Value base;
  int64_t offset = 0;
};

/// How an index's base varies over the iterations of the loop checked.
enum class BaseKind {
  /// The loop's own induction variable of this dimension.
  LoopIV,
  /// The same value in every iteration.
  Invariant,
  /// The induction variable of a loop inside the body whose bounds are the
  /// same in every iteration: it takes the same values in each.
  InnerIV,
  /// Anything else: which elements it reaches is not followed.
  Unknown,
};
} // namespace

static SplitIndex splitIndex(Value index) {
  SplitIndex split{index, 0};
  // A bound on the chain keeps pathological IR cheap.
  for (int depth = 0; depth < 8; ++depth) {
    std::optional<std::pair<Value, int64_t>> next =
        splitConstantAddend(split.base);
    int64_t offset;
    if (!next || llvm::AddOverflow(split.offset, next->second, offset))
      break;
    split = {next->first, offset};
  }
  return split;
}

static BaseKind classifyBase(scf::ParallelOp loop, Value base, unsigned &dim) {
  if (auto arg = dyn_cast<BlockArgument>(base)) {
    if (arg.getOwner() == loop.getBody()) {
      dim = arg.getArgNumber();
      return BaseKind::LoopIV;
    }
    Operation *owner = arg.getOwner()->getParentOp();
    if (loop->isProperAncestor(owner) &&
        isa<scf::ForOp, scf::ParallelOp>(owner) &&
        llvm::all_of(owner->getOperands(), [&](Value operand) {
          return loop.isDefinedOutsideOfLoop(operand);
        }))
      return BaseKind::InnerIV;
  }
  return loop.isDefinedOutsideOfLoop(base) ? BaseKind::Invariant
                                           : BaseKind::Unknown;
}

/// The iteration distance, one entry per loop dimension, from an iteration
/// where `store` writes an element to one where `load` reads that element:
/// a constant, or none where any distance does (a dimension neither index
/// follows). None at all when the indices do not show one (they differ in
/// form, or follow values the check does not).
static std::optional<SmallVector<std::optional<int64_t>>>
findDistance(scf::ParallelOp loop, memref::StoreOp store, memref::LoadOp load) {
  SmallVector<std::optional<int64_t>> distance(loop.getNumLoops());
  for (auto [storeIndex, loadIndex] :
       llvm::zip_equal(store.getIndices(), load.getIndices())) {
    SplitIndex s = splitIndex(storeIndex), l = splitIndex(loadIndex);
    if (s.base != l.base)
      return std::nullopt;
    unsigned dim = 0;
    switch (classifyBase(loop, s.base, dim)) {
    case BaseKind::LoopIV: {
      // Same element when the load's iteration is the store's plus this.
      int64_t d;
      if (llvm::SubOverflow(s.offset, l.offset, d) ||
          (distance[dim] && *distance[dim] != d))
        return std::nullopt;
      distance[dim] = d;
      break;
    }
    case BaseKind::Invariant:
    case BaseKind::InnerIV:
      if (s.offset != l.offset)
        return std::nullopt;
      break;
    case BaseKind::Unknown:
      return std::nullopt;
    }
  }
  return distance;
}

/// Whether every op between `op` and `loop` runs its regions in each
/// iteration (loops; not branches, which may run an access in no
/// iteration at all).
static bool runsEveryIteration(scf::ParallelOp loop, Operation *op) {
  for (Operation *parent = op->getParentOp(); parent != loop;
       parent = parent->getParentOp())
    if (!isa<scf::ForOp, scf::ParallelOp>(parent))
      return false;
  return true;
}

void threadbind::warnIterationConflicts(scf::ParallelOp loop) {
  SmallVector<memref::StoreOp> stores;
  SmallVector<memref::LoadOp> loads;
  loop.getBody()->walk([&](Operation *op) {
    if (!runsEveryIteration(loop, op))
      return;
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stores.push_back(store);
    else if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(load);
  });
  SmallVector<std::optional<int64_t>> steps, trips;
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d) {
    steps.push_back(getConstantIntValue(loop.getStep()[d]));
    trips.push_back(getStaticTripCount(loop, d));
  }
  for (memref::StoreOp store : stores) {
    for (memref::LoadOp load : loads) {
      if (load.getMemRef() != store.getMemRef())
        continue;
      std::optional<SmallVector<std::optional<int64_t>>> distance =
          findDistance(loop, store, load);
      if (!distance)
        continue;
      // Another iteration must exist at that distance: a multiple of the
      // step, within the trip count; a free dimension of one trip is fixed.
      bool otherIteration = false, feasible = true;
      for (auto [d, step, trip] : llvm::zip_equal(*distance, steps, trips)) {
        if (!d) {
          otherIteration |= !trip || *trip > 1;
          continue;
        }
        if (*d == 0)
          continue;
        if (!step || *d % *step != 0 ||
            (trip &&
             llvm::AbsoluteValue(*d / *step) >= static_cast<uint64_t>(*trip))) {
          feasible = false;
          break;
        }
        otherIteration = true;
      }
      if (!feasible || !otherIteration)
        continue;
      std::string storeIteration, loadIteration;
      llvm::raw_string_ostream storeOs(storeIteration), loadOs(loadIteration);
      for (auto [dim, d] : llvm::enumerate(*distance)) {
        StringRef sep = dim ? ", " : "";
        storeOs << sep << "i" << dim;
        loadOs << sep;
        if (!d && trips[dim] != 1)
          loadOs << "any i" << dim;
        else if (!d)
          loadOs << "i" << dim;
        else if (*d == 0)
          loadOs << "i" << dim;
        else
          loadOs << "i" << dim << (*d > 0 ? " + " : " - ")
                 << (*d > 0 ? *d : -*d);
      }
      InFlightDiagnostic diag =
          store.emitWarning("iteration (")
          << storeIteration << ") of the enclosing scf.parallel stores to "
          << "an element that iteration (" << loadIteration
          << ") loads: an scf.parallel's iterations run in no set order "
             "(on the GPU, at once), so what the load reads depends on the "
             "order; make that dimension an scf.for, or store to another "
             "buffer";
      diag.attachNote(load.getLoc()) << "the load";
      return;
    }
  }
}
