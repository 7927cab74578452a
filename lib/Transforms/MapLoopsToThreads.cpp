//===- MapLoopsToThreads.cpp - Bind parallel loops to the GPU -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Turns outermost scf.parallel loops into gpu.launch ops whose threads run
// strip-mined, grid-stride loops, with the loop dimension that walks memory
// contiguously bound to threadIdx.x.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "threadbind-map-loops-to-threads"

namespace mlir::threadbind {
#define GEN_PASS_DEF_MAPLOOPSTOTHREADSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

std::string
threadbind::verifyLoopMappingOptions(const LoopMappingOptions &options) {
  if (!options.blockShape.empty()) {
    if (options.blockShape.size() > 3)
      return "block-shape has more than three dimensions";
    int64_t total = 1;
    for (auto [i, size] : llvm::enumerate(options.blockShape)) {
      if (size < 1 || size > GpuLimits::kMaxBlockDim[i])
        return llvm::formatv("block-shape[{0}] = {1} is outside [1, {2}]", i,
                             size, GpuLimits::kMaxBlockDim[i]);
      total *= size;
    }
    if (total > GpuLimits::kMaxThreadsPerBlock)
      return llvm::formatv("block-shape has {0} threads, more than {1}",
                           total, GpuLimits::kMaxThreadsPerBlock);
  } else if (options.threadsPerBlock < 1 ||
             options.threadsPerBlock > GpuLimits::kMaxThreadsPerBlock) {
    return llvm::formatv("threads-per-block = {0} is outside [1, {1}]",
                         options.threadsPerBlock,
                         GpuLimits::kMaxThreadsPerBlock);
  }
  if (options.maxBlocks < 0)
    return llvm::formatv("max-blocks = {0} is negative", options.maxBlocks);
  for (int64_t d : options.dimOrder)
    if (d < 0)
      return llvm::formatv("dim-order has a negative dimension {0}", d);
  return "";
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// Types a kernel can take as an argument once outlined.
static bool isKernelArgumentType(Type type) {
  return isa<BaseMemRefType, IndexType, IntegerType, FloatType, VectorType>(
      type);
}

LogicalResult threadbind::verifyMappable(scf::ParallelOp loop) {
  if (!loop.getInitVals().empty())
    return loop.emitOpError("has reductions, which "
                            "threadbind-map-loops-to-threads does not map");
  Region &loopRegion = loop.getRegion();
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op)) {
      op->emitError("cannot bind the enclosing loop to the GPU: its body "
                    "already launches a kernel");
      return WalkResult::interrupt();
    }
    if (isa<CallOpInterface>(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName() << "' calls a host function";
      return WalkResult::interrupt();
    }
    if (isa<memref::AllocOp, memref::ReallocOp, memref::DeallocOp>(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName()
          << "' manages heap memory, which cannot live on the device; use "
             "memref.alloca for per-iteration scratch";
      return WalkResult::interrupt();
    }
    if (!op->hasTrait<OpTrait::IsTerminator>() && hasUnknownEffects(op)) {
      op->emitError("cannot run on the device: '")
          << op->getName() << "' has unknown side effects";
      return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      if (loopRegion.isAncestor(operand.getParentRegion()) ||
          isKernelArgumentType(operand.getType()))
        continue;
      op->emitError("cannot run on the device: it uses a value of type ")
          << operand.getType()
          << " defined outside the loop, which a kernel cannot take as an "
             "argument";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// Static trip count of loop dimension `d`, if its bounds and step are
/// constants.
static std::optional<int64_t> staticTripCount(scf::ParallelOp loop,
                                              unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : llvm::divideCeil(*ub - *lb, *step);
}

/// The 256-style default: 256, 32x8, 32x4x2 (scaled for other totals).
static SmallVector<int64_t, 3> defaultBlockShape(int64_t threads,
                                                 unsigned numGroups) {
  if (numGroups <= 1)
    return {threads, 1, 1};
  int64_t x = std::min(threads, GpuLimits::kWarpSize);
  int64_t rest = std::max<int64_t>(1, threads / x);
  if (numGroups == 2)
    return {x, rest, 1};
  int64_t z = rest >= 4 ? 2 : 1;
  return {x, rest / z, z};
}

/// Shrinks block dimensions that exceed a small static extent and hands the
/// freed threads to dimensions that can use them, keeping x a multiple of
/// the warp size where the work allows.
static void fitBlockShapeToExtents(SmallVector<int64_t, 3> &shape,
                                   ArrayRef<std::optional<int64_t>> extents) {
  auto wants = [&](unsigned g) -> int64_t {
    // How many threads dimension g can use: its extent rounded up to a
    // power of two, or the hardware limit when the extent is dynamic.
    if (g >= extents.size())
      return 1;
    if (!extents[g])
      return GpuLimits::kMaxBlockDim[g];
    return std::min<int64_t>(GpuLimits::kMaxBlockDim[g],
                             llvm::PowerOf2Ceil(std::max<int64_t>(1,
                                                                  *extents[g])));
  };
  int64_t freed = 1;
  for (unsigned g = 0; g < 3; ++g) {
    while (shape[g] > 1 && shape[g] / 2 >= wants(g) && shape[g] % 2 == 0) {
      shape[g] /= 2;
      freed *= 2;
    }
  }
  for (unsigned g = 0; g < 3 && freed > 1; ++g) {
    while (freed > 1 && shape[g] * 2 <= wants(g)) {
      shape[g] *= 2;
      freed /= 2;
    }
  }
}

FailureOr<LoopMappingPlan>
threadbind::planLoopMapping(scf::ParallelOp loop,
                            const LoopMappingOptions &options) {
  unsigned numDims = loop.getNumLoops();
  LoopMappingPlan plan;

  // Order the dimensions: forced ones first, the analysis ranks the rest.
  SmallVector<unsigned> order;
  for (int64_t d : options.dimOrder) {
    if (d >= static_cast<int64_t>(numDims) || llvm::is_contained(order, d))
      return loop.emitOpError("dim-order ")
             << d << " is not a distinct dimension of this " << numDims
             << "-D loop";
    order.push_back(static_cast<unsigned>(d));
  }
  LoopAccessPattern pattern = analyzeAccessPattern(loop);
  for (unsigned d : rankDimsForCoalescing(pattern))
    if (!llvm::is_contained(order, d))
      order.push_back(d);

  unsigned x = order.front();
  const DimAccessSummary &xs = pattern.dims[x];
  if (!options.dimOrder.empty())
    plan.reason = "forced by dim-order";
  else if (xs.contiguousAccesses > 0)
    plan.reason = llvm::formatv(
        "it walks the unit-stride dimension of {0} of {1} accesses, {2} "
        "bytes per iteration",
        xs.contiguousAccesses, pattern.numAccesses, xs.contiguousBytes);
  else
    plan.reason = "no dimension walks a unit-stride memref dimension, so the "
                  "innermost one is used";

  // x and y take one dimension each; z takes the rest, linearised in loop
  // order so the innermost of them varies fastest.
  for (unsigned g = 0; g < std::min(numDims, 2u); ++g)
    plan.groups.push_back({order[g]});
  if (numDims > 2) {
    SmallVector<unsigned, 2> rest(order.begin() + 2, order.end());
    llvm::sort(rest);
    plan.groups.push_back(rest);
  }

  if (!options.blockShape.empty()) {
    plan.blockShape.assign(options.blockShape.begin(),
                           options.blockShape.end());
    plan.blockShape.resize(3, 1);
    return plan;
  }
  plan.blockShape =
      defaultBlockShape(options.threadsPerBlock, plan.groups.size());
  SmallVector<std::optional<int64_t>> extents;
  for (const auto &group : plan.groups) {
    std::optional<int64_t> extent = 1;
    for (unsigned d : group) {
      std::optional<int64_t> trips = staticTripCount(loop, d);
      extent = trips && extent ? std::optional<int64_t>(*extent * *trips)
                               : std::nullopt;
    }
    extents.push_back(extent);
  }
  fitBlockShapeToExtents(plan.blockShape, extents);
  return plan;
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

namespace {
/// Builds index arithmetic at the rewriter's insertion point.
struct IndexBuilder {
  RewriterBase &b;
  Location loc;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value sub(Value l, Value r) { return arith::SubIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value divu(Value l, Value r) { return arith::DivUIOp::create(b, loc, l, r); }
  Value remu(Value l, Value r) { return arith::RemUIOp::create(b, loc, l, r); }
  Value ceilDivu(Value l, Value r) {
    return arith::CeilDivUIOp::create(b, loc, l, r);
  }
  Value minu(Value l, Value r) { return arith::MinUIOp::create(b, loc, l, r); }
  Value maxu(Value l, Value r) { return arith::MaxUIOp::create(b, loc, l, r); }
  Value maxs(Value l, Value r) { return arith::MaxSIOp::create(b, loc, l, r); }
};
} // namespace

gpu::LaunchOp threadbind::mapLoopToLaunch(RewriterBase &rewriter,
                                          scf::ParallelOp loop,
                                          const LoopMappingPlan &plan,
                                          const LoopMappingOptions &options) {
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  IndexBuilder ib{rewriter, loc};
  unsigned numGroups = plan.groups.size();
  ValueRange lbs = loop.getLowerBound(), ubs = loop.getUpperBound(),
             steps = loop.getStep();

  // Host side: trip counts, the extent of each hardware dimension and the
  // number of blocks it needs. Steps of scf.parallel are positive.
  Value zero = ib.cst(0), one = ib.cst(1);
  SmallVector<Value> trips(loop.getNumLoops());
  for (unsigned d = 0; d < loop.getNumLoops(); ++d)
    trips[d] = ib.ceilDivu(ib.maxs(ib.sub(ubs[d], lbs[d]), zero), steps[d]);
  SmallVector<Value, 3> extents, blockSizes, needed;
  for (unsigned g = 0; g < 3; ++g) {
    blockSizes.push_back(ib.cst(plan.blockShape[g]));
    if (g >= numGroups) {
      extents.push_back(one);
      needed.push_back(one);
      continue;
    }
    Value extent = trips[plan.groups[g].front()];
    for (unsigned d : ArrayRef(plan.groups[g]).drop_front())
      extent = ib.mul(extent, trips[d]);
    extents.push_back(extent);
    // At least one block, so a zero-trip loop still launches validly.
    needed.push_back(ib.maxu(ib.ceilDivu(extent, blockSizes[g]), one));
  }
  SmallVector<Value, 3> grid(3);
  grid[1] = ib.minu(needed[1], ib.cst(GpuLimits::kMaxGridDim[1]));
  grid[2] = ib.minu(needed[2], ib.cst(GpuLimits::kMaxGridDim[2]));
  Value gridX = needed[0];
  if (options.gridPolicy == GridPolicy::GridStride) {
    Value cap;
    if (options.maxBlocks > 0) {
      cap = ib.cst(options.maxBlocks);
    } else {
      int64_t threads =
          plan.blockShape[0] * plan.blockShape[1] * plan.blockShape[2];
      cap = func::CallOp::create(rewriter, loc, kMaxResidentBlocksFn,
                                 TypeRange{rewriter.getIndexType()},
                                 ValueRange{ib.cst(threads)})
                .getResult(0);
    }
    // The cap is for the whole grid; y and z already took their share.
    Value capX = ib.maxu(ib.divu(cap, ib.mul(grid[1], grid[2])), one);
    gridX = ib.minu(gridX, capX);
  }
  grid[0] = ib.minu(gridX, ib.cst(GpuLimits::kMaxGridDim[0]));

  auto launch = gpu::LaunchOp::create(rewriter, loc, grid[0], grid[1],
                                      grid[2], blockSizes[0], blockSizes[1],
                                      blockSizes[2]);
  launch->setAttr("threadbind.grid_policy",
                  rewriter.getStringAttr(options.gridPolicy ==
                                                 GridPolicy::GridStride
                                             ? "grid-stride"
                                             : "cover"));
  Block &launchBody = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&launchBody);
  Operation *terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  // Device side: z outermost, x innermost, so consecutive threads of a warp
  // take consecutive iterations of the x dimension.
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridDims = launch.getGridSize();
  gpu::KernelDim3 blockDims = launch.getBlockSize();
  auto pick = [](const gpu::KernelDim3 &v, unsigned g) {
    return g == 0 ? v.x : g == 1 ? v.y : v.z;
  };
  // Every thread's first iteration, stride and bound along each hardware
  // dimension, computed once up front rather than in the enclosing loops.
  // A single loop dimension iterates its own bounds; a linearised group
  // iterates [0, extent) and is delinearised below.
  SmallVector<Value, 3> starts, strides, ends;
  for (unsigned g = 0; g < numGroups; ++g) {
    Value globalId = ib.add(ib.mul(pick(blockIds, g), pick(blockDims, g)),
                            pick(threadIds, g));
    Value stride = ib.mul(pick(gridDims, g), pick(blockDims, g));
    Value start = globalId, end = extents[g];
    if (plan.groups[g].size() == 1) {
      unsigned d = plan.groups[g].front();
      start = ib.add(lbs[d], ib.mul(globalId, steps[d]));
      stride = ib.mul(stride, steps[d]);
      end = ubs[d];
    }
    starts.push_back(start);
    strides.push_back(stride);
    ends.push_back(end);
  }
  SmallVector<Value> ivs(loop.getNumLoops());
  for (int g = numGroups - 1; g >= 0; --g) {
    ArrayRef<unsigned> group = plan.groups[g];
    Value start = starts[g], stride = strides[g], end = ends[g];
    Value iv;
    if (g == 0 && options.gridPolicy == GridPolicy::Cover) {
      Value inBounds = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, start, end);
      auto guardOp = scf::IfOp::create(rewriter, loc, inBounds,
                                       /*withElseRegion=*/false);
      rewriter.setInsertionPoint(guardOp.thenBlock()->getTerminator());
      iv = start;
    } else {
      auto forOp = scf::ForOp::create(rewriter, loc, start, end, stride);
      rewriter.setInsertionPoint(forOp.getBody()->getTerminator());
      iv = forOp.getInductionVar();
    }
    if (group.size() == 1) {
      ivs[group.front()] = iv;
      continue;
    }
    // Delinearise, innermost dimension first.
    Value linear = iv;
    for (unsigned d : llvm::reverse(group)) {
      Value index = ib.remu(linear, trips[d]);
      linear = ib.divu(linear, trips[d]);
      ivs[d] = ib.add(lbs[d], ib.mul(index, steps[d]));
    }
  }

  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), ivs);
  rewriter.eraseOp(loop);
  return launch;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct MapLoopsToThreadsPass
    : threadbind::impl::MapLoopsToThreadsPassBase<MapLoopsToThreadsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    mappingOptions.threadsPerBlock = threadsPerBlock;
    mappingOptions.blockShape.assign(blockShape.begin(), blockShape.end());
    mappingOptions.dimOrder.assign(dimOrder.begin(), dimOrder.end());
    mappingOptions.gridPolicy = gridPolicy;
    mappingOptions.maxBlocks = maxBlocks;
    std::string error = verifyLoopMappingOptions(mappingOptions);
    if (!error.empty())
      return emitError(UnknownLoc::get(context))
             << "threadbind-map-loops-to-threads: " << error;
    return success();
  }

  void runOnOperation() override;

  /// Checks that a user-provided grid-size query has the expected type.
  LogicalResult verifyMaxResidentBlocks(ModuleOp module);
  /// Declares the host's grid-size query if the module does not define it.
  void declareMaxResidentBlocks(ModuleOp module);

  LoopMappingOptions mappingOptions;
};
} // namespace

static FunctionType maxResidentBlocksType(MLIRContext *context) {
  Builder b(context);
  return b.getFunctionType({b.getIndexType()}, {b.getIndexType()});
}

LogicalResult MapLoopsToThreadsPass::verifyMaxResidentBlocks(ModuleOp module) {
  Operation *existing = module.lookupSymbol(kMaxResidentBlocksFn);
  if (!existing)
    return success();
  FunctionType type = maxResidentBlocksType(module.getContext());
  auto func = dyn_cast<FunctionOpInterface>(existing);
  if (!func || func.getFunctionType() != type)
    return existing->emitError("'")
           << kMaxResidentBlocksFn << "' must be a function of type " << type
           << ": grid-stride launches call it to size their grid";
  return success();
}

void MapLoopsToThreadsPass::declareMaxResidentBlocks(ModuleOp module) {
  if (module.lookupSymbol(kMaxResidentBlocksFn))
    return;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(),
                                   kMaxResidentBlocksFn,
                                   maxResidentBlocksType(module.getContext()));
  decl.setPrivate();
}

void MapLoopsToThreadsPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool asksHost = mappingOptions.gridPolicy == GridPolicy::GridStride &&
                  mappingOptions.maxBlocks == 0;
  if (asksHost && failed(verifyMaxResidentBlocks(module)))
    return signalPassFailure();
  bool anyFailed = false, needsHostQuery = false;
  IRRewriter rewriter(&getContext());

  for (auto func : module.getOps<FunctionOpInterface>()) {
    // Outermost loops only; loops already on the device stay as they are.
    SmallVector<scf::ParallelOp> loops;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        loops.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });

    // Check and plan every loop before rewriting any: a function with one
    // loop that cannot be bound is left exactly as it was.
    SmallVector<LoopMappingPlan> plans;
    bool funcOk = true;
    for (scf::ParallelOp loop : loops) {
      if (failed(verifyMappable(loop))) {
        funcOk = false;
        continue;
      }
      FailureOr<LoopMappingPlan> plan = planLoopMapping(loop, mappingOptions);
      if (failed(plan)) {
        funcOk = false;
        continue;
      }
      plans.push_back(std::move(*plan));
    }
    if (!funcOk) {
      anyFailed = true;
      continue;
    }

    for (auto [loop, plan] : llvm::zip_equal(loops, plans)) {
      if (emitRemarks) {
        InFlightDiagnostic remark = loop.emitRemark();
        remark << "bound to gpu.launch: loop dimension "
               << plan.groups[0].front() << " on threadIdx.x because "
               << plan.reason << "; block " << plan.blockShape[0] << "x"
               << plan.blockShape[1] << "x" << plan.blockShape[2] << ", "
               << (mappingOptions.gridPolicy == GridPolicy::GridStride
                       ? "grid-stride"
                       : "cover")
               << " grid";
        if (plan.groups.size() == 3 && plan.groups[2].size() > 1)
        {
          remark << "; dimensions ";
          llvm::interleaveComma(plan.groups[2], remark);
          remark << " linearised onto z";
        }
      }
      LDBG() << "mapping " << loop.getNumLoops() << "-D loop at "
             << loop.getLoc();
      if (plan.groups.size() == 3 && plan.groups[2].size() > 1)
        ++numLoopsLinearised;
      mapLoopToLaunch(rewriter, loop, plan, mappingOptions);
      ++numLoopsMapped;
      needsHostQuery |= asksHost;
    }
  }

  if (needsHostQuery)
    declareMaxResidentBlocks(module);
  if (anyFailed)
    signalPassFailure();
}
