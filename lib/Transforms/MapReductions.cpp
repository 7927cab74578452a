//===- MapReductions.cpp - scf.parallel reductions onto the GPU -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The pass: finds the outermost reductions outside kernels, 1-D ones
// (FullReductions.cpp) and loops of them, one a row (RowReductions.cpp) or
// a column (ColumnReductions.cpp),
// checks every one and the options before changing anything, then maps
// them. Reductions.h lists the parts.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir::threadbind {
#define GEN_PASS_DEF_MAPREDUCTIONSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

namespace {
struct MapReductionsPass
    : threadbind::impl::MapReductionsPassBase<MapReductionsPass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

/// Makes `loop`'s results reach code its kernel cannot take (a use in
/// another block, an op that touches memory): each result is stored right
/// after the loop, where the reduction's kernel stores it, to a
/// one-element device buffer, and read back to the host, whose copy takes
/// every other use. The host code that then uses it runs as it can (in
/// kernels of its own where it touches memory).
static void readResultsBack(RewriterBase &rewriter, scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> buffers;
  for (Value result : loop.getResults())
    buffers.push_back(createDeviceAlloc(
        rewriter, loc, MemRefType::get({1}, result.getType())));
  rewriter.setInsertionPointAfter(loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  llvm::SmallPtrSet<Operation *, 4> stores;
  for (auto [result, buffer] : llvm::zip_equal(loop.getResults(), buffers))
    stores.insert(memref::StoreOp::create(rewriter, loc, result, buffer, zero));
  for (auto [result, buffer] : llvm::zip_equal(loop.getResults(), buffers)) {
    Value read = createHostReadback(rewriter, loc, buffer);
    rewriter.replaceUsesWithIf(result, read, [&](OpOperand &use) {
      return !stores.contains(use.getOwner());
    });
  }
}

/// Calls `fn` on every scf.parallel of `module` that no other one and no
/// kernel encloses.
static void forEachOutermostLoop(ModuleOp module,
                                 function_ref<void(scf::ParallelOp)> fn) {
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop)
      return WalkResult::advance();
    fn(loop);
    return WalkResult::skip();
  });
}

/// The combiner op of `region`, a combiner of index or i1 values, when it
/// is one integer op of the kinds the block combine knows (add, mul, and,
/// or, xor, min, max) on its two arguments: the same op on a wider integer,
/// the result cast back, combines the same way. Null otherwise.
static Operation *getIntegerKindCombiner(Region &region) {
  Operation *op = getArgumentCombiner(region.front());
  return isa_and_nonnull<arith::AddIOp, arith::MulIOp, arith::AndIOp,
                         arith::OrIOp, arith::XOrIOp, arith::MaxSIOp,
                         arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(op)
             ? op
             : nullptr;
}

/// The type an index or i1 reduction combines in (i64, i8), or null for a
/// type the block combine takes as it is.
static Type getWiderReductionType(Type type) {
  if (type.isIndex())
    return IntegerType::get(type.getContext(), 64);
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return nullptr;
}

/// `value` of type index or i1 as `wider`: index_cast for index; for i1,
/// sign-extended under a signed min or max (true is -1 there), else
/// zero-extended. `back` casts the other way (a truncation for i1, which
/// the modular and bitwise ops and the order-preserving extensions allow).
static Value castToWider(RewriterBase &rewriter, Location loc, Value value,
                         Type wider, Operation *combiner) {
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(rewriter, loc, wider, value);
  if (isa<arith::MaxSIOp, arith::MinSIOp>(combiner))
    return arith::ExtSIOp::create(rewriter, loc, wider, value);
  return arith::ExtUIOp::create(rewriter, loc, wider, value);
}

static Value castBack(RewriterBase &rewriter, Location loc, Value value,
                      Type narrow) {
  if (narrow.isIndex())
    return arith::IndexCastOp::create(rewriter, loc, narrow, value);
  return arith::TruncIOp::create(rewriter, loc, narrow, value);
}

/// Rewrites the index- and i1-typed reductions of `loop` (a count, a
/// largest position, "any", "all") to i64 and i8 ones, with casts at the
/// init values, the reduced values and the results: the block combine and
/// its scratch need whole bytes, which index (no bit width) and i1 lack.
/// index is 64-bit on host and device alike. Returns whether it rewrote
/// anything; reductions through other combiner regions stay as they are
/// (and then unmapped).
static bool reduceInWiderType(RewriterBase &rewriter, scf::ParallelOp loop) {
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  Location loc = loop.getLoc();
  bool changed = false;
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Type narrow = loop.getResult(i).getType();
    Type wider = getWiderReductionType(narrow);
    Operation *kind =
        wider ? getIntegerKindCombiner(reduce.getReductions()[i]) : nullptr;
    if (!kind)
      continue;
    changed = true;
    Block &combiner = reduce.getReductions()[i].front();
    rewriter.setInsertionPoint(loop);
    Value init =
        castToWider(rewriter, loc, loop.getInitVals()[i], wider, kind);
    rewriter.setInsertionPoint(reduce);
    Value operand =
        castToWider(rewriter, loc, reduce.getOperands()[i], wider, kind);
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getInitValsMutable()[i].assign(init);
      loop.getResult(i).setType(wider);
    });
    rewriter.modifyOpInPlace(reduce, [&] {
      reduce.getOperandsMutable()[i].assign(operand);
      for (BlockArgument arg : combiner.getArguments())
        arg.setType(wider);
      kind->getResult(0).setType(wider);
    });
    rewriter.setInsertionPointAfter(loop);
    Value back = castBack(rewriter, loc, loop.getResult(i), narrow);
    rewriter.replaceAllUsesExcept(loop.getResult(i), back,
                                  back.getDefiningOp());
  }
  return changed;
}

void MapReductionsPass::runOnOperation() {
  ModuleOp module = getOperation();

  // Index reductions reduce in i64, i1 ones in i8.
  IRRewriter rewriter(&getContext());
  SmallVector<scf::ParallelOp> narrowReductions;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto loop = dyn_cast<scf::ParallelOp>(op);
        loop && llvm::any_of(loop.getResultTypes(), getWiderReductionType))
      narrowReductions.push_back(loop);
    return WalkResult::advance();
  });
  for (scf::ParallelOp loop : narrowReductions)
    if (reduceInWiderType(rewriter, loop) && emitRemarks)
      loop.emitRemark("reduces index or i1 values: in i64 or i8, cast "
                      "back after");

  // Reductions over several dimensions, outermost or the reduction of a
  // row, become 1-D ones first.
  SmallVector<scf::ParallelOp> multiDim;
  forEachOutermostLoop(module, [&](scf::ParallelOp loop) {
    if (!loop.getInitVals().empty() && loop.getNumLoops() > 1)
      multiDim.push_back(loop);
    if (loop.getInitVals().empty() && loop.getNumLoops() == 1)
      for (auto inner : loop.getBody()->getOps<scf::ParallelOp>())
        if (!inner.getInitVals().empty() && inner.getNumLoops() > 1)
          multiDim.push_back(inner);
  });
  for (scf::ParallelOp loop : multiDim) {
    if (emitRemarks)
      loop.emitRemark() << "reduces over " << loop.getNumLoops()
                        << " dimensions: linearised into one, the last "
                           "varying fastest";
    linearizeReduction(rewriter, loop);
  }
  // Rows indexed by several dimensions (batched matrix-vector products)
  // become one list of rows, a block each.
  SmallVector<scf::ParallelOp> multiDimRows;
  forEachOutermostLoop(module, [&](scf::ParallelOp loop) {
    if (loop.getNumLoops() > 1 && hasRowReductionShape(loop))
      multiDimRows.push_back(loop);
  });
  for (scf::ParallelOp loop : multiDimRows) {
    if (emitRemarks)
      loop.emitRemark() << "reduces a row for each of " << loop.getNumLoops()
                        << " dimensions: they are linearised into one list "
                           "of rows, the last varying fastest";
    std::vector<unsigned> all(loop.getNumLoops());
    std::iota(all.begin(), all.end(), 0);
    collapseParallelLoops(rewriter, loop, {all});
  }

  // Outermost reductions outside kernels; decide all before mapping any.
  struct FullReduction {
    scf::ParallelOp loop;
    SmallVector<Reduction> reductions;
    SmallVector<Operation *> epilogue;
  };
  SmallVector<FullReduction> work;
  SmallVector<RowReduction> rowWork;
  SmallVector<ColumnReduction> columnWork;
  SmallVector<BlockRows> blockWork;
  bool anyFailed = false;
  forEachOutermostLoop(module, [&](scf::ParallelOp loop) {
    // With the fallback, what the device can run but this pass cannot map
    // is caught; what the device cannot run is still an error.
    if (loop.getInitVals().empty()) {
      std::optional<RowReduction> match;
      std::optional<ColumnReduction> columnMatch;
      std::optional<BlockRows> blockMatch;
      FailureOr<std::optional<Refusal>> refusal =
          checkWithFallback(loop, sequentialFallback, [&]() -> LogicalResult {
            FailureOr<std::optional<RowReduction>> row =
                matchRowReduction(loop);
            if (failed(row))
              return failure();
            match = std::move(*row);
            if (match)
              return success();
            if (splitColumns) {
              FailureOr<std::optional<ColumnReduction>> column =
                  matchColumnReduction(loop, threadsPerBlock);
              if (failed(column))
                return failure();
              columnMatch = std::move(*column);
              if (columnMatch)
                return success();
            }
            if (registerTiles) {
              LoopMappingOptions tiles;
              tiles.threadsPerBlock = threadsPerBlock;
              if (isRegisterTiledAfterSplit(loop, tiles))
                return success();
            }
            FailureOr<std::optional<BlockRows>> rows = matchBlockRows(loop);
            if (failed(rows))
              return failure();
            blockMatch = std::move(*rows);
            return success();
          });
      if (failed(refusal))
        anyFailed = true;
      else if (*refusal)
        // The loop mapping takes the loop; each thread folds its rows.
        loop.emitWarning("each row's reduction runs on one thread: ")
            << (*refusal)->message;
      else if (match)
        rowWork.push_back(std::move(*match));
      else if (columnMatch)
        columnWork.push_back(std::move(*columnMatch));
      else if (blockMatch)
        blockWork.push_back(std::move(*blockMatch));
      return;
    }
    SmallVector<Operation *> epilogue;
    SmallVector<Reduction> reductions;
    FailureOr<std::optional<Refusal>> refusal =
        checkWithFallback(loop, sequentialFallback, [&]() -> LogicalResult {
          FailureOr<SmallVector<Reduction>> analysed = analyzeReduction(loop);
          if (failed(analysed))
            return failure();
          // Results that code after the loop needs where the kernel cannot
          // take that code come back to the host.
          if (failed(collectEpilogue(loop, epilogue, /*report=*/false))) {
            if (emitRemarks)
              loop.emitRemark("the reduced values come back to the host: "
                              "code the reduction's kernel cannot take "
                              "uses them");
            readResultsBack(rewriter, loop);
            ++numResultsReadBack;
          }
          if (failed(collectEpilogue(loop, epilogue, /*report=*/true)))
            return failure();
          reductions = std::move(*analysed);
          return success();
        });
    if (failed(refusal))
      anyFailed = true;
    else if (*refusal)
      leaveToOneThread(loop, **refusal);
    else
      work.push_back({loop, std::move(reductions), std::move(epilogue)});
  });
  if (anyFailed)
    return signalPassFailure();
  if (work.empty() && rowWork.empty() && columnWork.empty() &&
      blockWork.empty())
    return;
  Operation *first =
      !work.empty()         ? work.front().loop.getOperation()
      : !rowWork.empty()    ? rowWork.front().outer.getOperation()
      : !columnWork.empty() ? columnWork.front().outer.getOperation()
                            : blockWork.front().outer.getOperation();
  if (unroll < 0 || unroll > 16) {
    first->emitOpError("cannot be mapped with unroll = ")
        << static_cast<int64_t>(unroll) << ": it must be 1 to 16, or 0 to "
        << "choose";
    return signalPassFailure();
  }
  if (vectorBytes != 0 && !isSupportedVectorBytes(vectorBytes)) {
    first->emitOpError("cannot be mapped with vector-bytes = ")
        << static_cast<int64_t>(vectorBytes) << ": it must be 4, 8, 16, or 0 "
        << "for scalar loads";
    return signalPassFailure();
  }
  if (threadsPerBlock <= 0 ||
      threadsPerBlock > GpuLimits::kMaxThreadsPerBlock ||
      threadsPerBlock % GpuLimits::kWarpSize != 0) {
    first->emitOpError("cannot be mapped with ")
        << static_cast<int64_t>(threadsPerBlock)
        << " threads a block: a reduction's blocks must be whole warps, a "
           "multiple of 32 up to 1024";
    return signalPassFailure();
  }
  // Full reductions size their grid from the resident blocks, and column
  // reductions choose their mapping by them.
  bool asksHost = maxBlocks == 0 && (!work.empty() || !columnWork.empty());
  if (asksHost && failed(verifyMaxResidentBlocksDecl(module)))
    return signalPassFailure();

  MapReductionsPassOptions options;
  options.threadsPerBlock = threadsPerBlock;
  options.maxBlocks = maxBlocks;
  options.unroll = unroll;
  options.crossBlock = crossBlock;
  options.warpRows = warpRows;
  options.splitColumns = splitColumns;
  options.registerTiles = registerTiles;
  options.vectorBytes = vectorBytes;
  options.emitRemarks = emitRemarks;
  for (FullReduction &full : work) {
    mapFullReduction(rewriter, full.loop, full.reductions, full.epilogue,
                     options);
    ++numReductionsMapped;
  }
  for (RowReduction &row : rowWork) {
    mapRowReduction(rewriter, row, options);
    ++numRowReductionsMapped;
  }
  for (ColumnReduction &column : columnWork) {
    mapColumnReduction(rewriter, column, options);
    ++numColumnReductionsMapped;
  }
  for (BlockRows &rows : blockWork) {
    mapBlockRows(rewriter, rows, options);
    ++numBlockRowsMapped;
  }
  if (asksHost)
    declareMaxResidentBlocks(module);
}
