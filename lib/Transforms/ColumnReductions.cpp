//===- ColumnReductions.cpp - Column sums split over a block's rows -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A loop of reductions whose loads walk memory along the outer loop (column
// sums; the transposed halves of atax and bicg; mvt's second product) reads
// coalesced with a thread an output, which is what the loop mapping gives.
// But a thread an output starves the GPU when the outputs are few and each
// reduction is long: atax at 4096 is 4096 threads for 16.7 M loads.
//
// Such a loop gets blocks of 32 x R threads (R = threads a block / 32), a
// block for each 32 consecutive outputs:
//
//   thread (x, y) folds rows y, y + R, y + 2R, ... of output 32 b + x, so
//             each row's 32 loads stay one coalesced access;
//   each thread keeps its partial result in workgroup memory, part[y][x];
//   gpu.barrier
//   thread (x, 0) combines part[0..R)[x] in order, adds the init value and
//             stores, as the loop did.
//
// Once there are as many outputs as the device holds threads (the host asks
// the resident blocks of a block size at run time), a thread an output is
// busy enough and needs no combine: the host then runs the loop as it was,
// which the loop mapping takes.
//
// An output's body may end in a parallel loop that updates its column with
// the result (Gram-Schmidt: r = sum_i q[i] a[i][j], then a[i][j] -= q[i] r
// for every i, an scf.for that threadbind-parallelize-loop-reductions found
// to touch an element of its own an iteration). Thread (x, 0) then also
// leaves the result in workgroup memory; after a second barrier every
// thread (x, y) reads it and runs the loop's iterations y, y + R, ...
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Analysis/AccessPattern.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

/// Outputs a block takes: a warp's width, so each row of them is one
/// coalesced access.
static constexpr int64_t kColumnsPerBlock = GpuLimits::kWarpSize;

/// The ops of `outer`'s body before `inner` that `update` uses, directly or
/// through the pure ops between `inner` and `update`, in order; failure
/// where one is not pure (a load: every thread would make it again after
/// the leader's stores, which may have changed what it reads).
static FailureOr<SmallVector<Operation *>>
collectUpdatePrologue(scf::ParallelOp outer, scf::ParallelOp inner,
                      scf::ParallelOp update) {
  Block *body = outer.getBody();
  llvm::SetVector<Value> worklist;
  getUsedValuesDefinedAbove(update.getRegion(), worklist);
  worklist.insert(update->getOperands().begin(), update->getOperands().end());
  for (Operation *op = inner->getNextNode(); op != update.getOperation();
       op = op->getNextNode())
    if (!isa<memref::StoreOp>(op))
      worklist.insert(op->getOperands().begin(), op->getOperands().end());
  llvm::SmallPtrSet<Operation *, 8> needed;
  for (size_t i = 0; i < worklist.size(); ++i) {
    Operation *def = worklist[i].getDefiningOp();
    if (!def || def->getBlock() != body || !def->isBeforeInBlock(inner))
      continue;
    if (!isPure(def))
      return failure();
    if (needed.insert(def).second)
      worklist.insert(def->getOperands().begin(), def->getOperands().end());
  }
  SmallVector<Operation *> ordered;
  for (Operation &op : *body)
    if (needed.contains(&op))
      ordered.push_back(&op);
  return ordered;
}

/// Whether consecutive iterations of `outer` read `inner`'s rows side by
/// side: each load in the rows that moves with the output moves one element
/// along its memref's unit-stride dimension, at least one does, and where
/// a row starts follows the output affinely (not through loaded data).
static bool readsAcrossOutputs(scf::ParallelOp outer, scf::ParallelOp inner) {
  Value iv = outer.getInductionVars().front();
  IndexCoefficients along(iv);
  if (!llvm::all_of(inner.getLowerBound(),
                    [&](Value bound) { return along.get(bound); }))
    return false;
  LoadsAlong loads = summarizeLoadsAlong(inner, iv);
  return loads.contiguous > 0 && loads.stridedBytes == 0 &&
         loads.unclassified == 0;
}

FailureOr<std::optional<ColumnReduction>>
reductions::matchColumnReduction(scf::ParallelOp outer,
                                 int64_t threadsPerBlock) {
  using Result = std::optional<ColumnReduction>;
  if (outer.getNumLoops() != 1 || threadsPerBlock < 2 * kColumnsPerBlock)
    return Result();
  SmallVector<Operation *> epilogue;
  scf::ParallelOp update;
  scf::ParallelOp inner = findReductionShape(outer, epilogue, &update);
  if (!inner || inner.getNumLoops() != 1 || !walksAcrossRows(outer, inner))
    return Result();
  // The update's iterations are shared out one dimension at a time; a loop
  // nested in it would be a loop in a kernel, which nothing maps.
  SmallVector<Operation *> updatePrologue;
  if (update) {
    auto isLoop = [](scf::ParallelOp) { return WalkResult::interrupt(); };
    if (update.getNumLoops() != 1 ||
        update.getBody()->walk(isLoop).wasInterrupted())
      return Result();
    FailureOr<SmallVector<Operation *>> prologue =
        collectUpdatePrologue(outer, inner, update);
    if (failed(prologue))
      return Result();
    updatePrologue = std::move(*prologue);
  }
  // A loop this mapping cannot take is the loop mapping's, which runs its
  // reduction in each thread and says what is wrong, if anything; nothing
  // is reported from here.
  ScopedDiagnosticHandler quiet(outer.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(verifyMappableBody(outer)))
    return Result();
  FailureOr<SmallVector<Reduction>> reductions = analyzeReduction(inner);
  if (failed(reductions))
    return Result();
  for (const Reduction &reduction : *reductions)
    if (!reduction.getType().isIntOrFloat())
      return Result();
  return Result(ColumnReduction{
      outer, inner, std::move(*reductions), std::move(epilogue), update,
      std::move(updatePrologue), readsAcrossOutputs(outer, inner)});
}

/// Clones the ops of `outer`'s body before `inner` through `mapping`: the
/// pure code and loads an output's reduction starts from.
static void clonePrologue(RewriterBase &rewriter, scf::ParallelOp outer,
                          scf::ParallelOp inner, IRMapping &mapping) {
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == inner.getOperation())
      break;
    rewriter.clone(op, mapping);
  }
}

/// Where each reduction's values lie among the parts: its buffer's index,
/// the next buffer holding its flags where its combiner has no identity.
static SmallVector<unsigned> getValueBuffers(ArrayRef<Reduction> reductions) {
  SmallVector<unsigned> at;
  unsigned next = 0;
  for (const Reduction &reduction : reductions) {
    at.push_back(next);
    next += reduction.identity ? 1 : 2;
  }
  return at;
}

/// Thread (x, y)'s share of `col.update` for the output at `iv`: the
/// iterations y, y + rows, ..., with the reductions' results read from
/// row 0 of `parts` and the pure ops the loop uses from the output's body
/// made again.
static void emitSharedUpdate(RewriterBase &rewriter, const ColumnReduction &col,
                             Value iv, ValueRange parts, Value tx, Value ty,
                             int64_t rows) {
  scf::ParallelOp outer = col.outer, inner = col.inner;
  scf::ParallelOp update = col.update;
  Location loc = update.getLoc();
  IRMapping mapping;
  mapping.map(outer.getInductionVars().front(), iv);
  for (Operation *op : col.updatePrologue)
    rewriter.clone(*op, mapping);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (auto [result, buffer] : llvm::zip_equal(
           inner.getResults(), getValueBuffers(col.reductions)))
    mapping.map(result, memref::LoadOp::create(rewriter, loc, parts[buffer],
                                               ValueRange{zero, tx}));
  // Between the reduction and the loop there are only pure ops and the
  // epilogue's stores, which the leader made.
  for (Operation *op = inner->getNextNode(); op != update.getOperation();
       op = op->getNextNode())
    if (!isa<memref::StoreOp>(op))
      rewriter.clone(*op, mapping);
  Value lb = mapping.lookupOrDefault(update.getLowerBound().front());
  Value step = mapping.lookupOrDefault(update.getStep().front());
  Value trips = createTripCount(
      rewriter, loc, lb, mapping.lookupOrDefault(update.getUpperBound().front()),
      step);
  auto share = scf::ForOp::create(
      rewriter, loc, ty, trips,
      arith::ConstantIndexOp::create(rewriter, loc, rows));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(share.getBody()->getTerminator());
  mapping.map(update.getInductionVars().front(),
              arith::AddIOp::create(
                  rewriter, loc, lb,
                  arith::MulIOp::create(rewriter, loc,
                                        share.getInductionVar(), step)));
  for (Operation &op : update.getBody()->without_terminator())
    rewriter.clone(op, mapping);
}

/// The split kernel: a block for each kColumnsPerBlock outputs, `rows`
/// threads folding each, combined through workgroup memory.
static void emitSplitKernel(RewriterBase &rewriter, const ColumnReduction &col,
                            Value columns, int64_t rows, int64_t unroll,
                            int64_t vectorBytes) {
  scf::ParallelOp outer = col.outer, inner = col.inner;
  Location loc = outer.getLoc();
  MLIRContext *context = rewriter.getContext();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value width = cst(kColumnsPerBlock), one = cst(1);
  Value blocks = arith::CeilDivUIOp::create(rewriter, loc, columns, width);

  // part[y][x] for each reduction, and whether it holds anything for a
  // combiner without an identity (as a byte: i1 has no memory layout the
  // back end agrees on).
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto partsOf = [&](Type element) {
    return MemRefType::get({rows, kColumnsPerBlock}, element,
                           MemRefLayoutAttrInterface(), workgroup);
  };
  SmallVector<Type> buffers;
  for (const Reduction &reduction : col.reductions) {
    buffers.push_back(partsOf(reduction.getType()));
    if (!reduction.identity)
      buffers.push_back(partsOf(rewriter.getI8Type()));
  }
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, width, cst(rows), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, buffers);
  Block &kernel = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&kernel);
  Operation *terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value column = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, width), tx);
  Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       column, columns);
  // iv = lb + column * step
  Value iv = arith::AddIOp::create(
      rewriter, loc, outer.getLowerBound().front(),
      arith::MulIOp::create(rewriter, loc, column, outer.getStep().front()));

  // Every thread of the block reaches the barrier; those past the last
  // output fold nothing.
  SmallVector<Partial> empty;
  for (const Reduction &reduction : col.reductions)
    empty.push_back(createEmpty(rewriter, loc, reduction));
  SmallVector<Value> emptyValues = flatten(empty);
  auto fold = scf::IfOp::create(rewriter, loc,
                                ValueRange(emptyValues).getTypes(), inside,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(fold.thenBlock());
    IRMapping mapping;
    mapping.map(outer.getInductionVars().front(), iv);
    clonePrologue(rewriter, outer, inner, mapping);
    SmallVector<Partial> accs =
        foldShare(rewriter, loc, inner, col.reductions, ty, cst(rows), unroll,
                  vectorBytes, mapping);
    scf::YieldOp::create(rewriter, loc, flatten(accs));
    rewriter.setInsertionPointToStart(fold.elseBlock());
    scf::YieldOp::create(rewriter, loc, emptyValues);
  }
  SmallVector<Partial> accs = unflatten(col.reductions, fold.getResults());
  ValueRange parts = launch.getWorkgroupAttributions();
  auto store = [&](Partial p, unsigned buffer, Value y) {
    memref::StoreOp::create(rewriter, loc, p.value, parts[buffer],
                            ValueRange{y, tx});
    if (p.valid)
      memref::StoreOp::create(
          rewriter, loc,
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI8Type(), p.valid),
          parts[buffer + 1], ValueRange{y, tx});
  };
  SmallVector<unsigned> valueBuffers = getValueBuffers(col.reductions);
  for (auto [p, buffer] : llvm::zip_equal(accs, valueBuffers))
    store(p, buffer, ty);
  gpu::BarrierOp::create(rewriter, loc);

  // Thread (x, 0) combines the column's parts in order, so the result is
  // the same every run.
  Value leader = arith::AndIOp::create(
      rewriter, loc, inside,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, ty,
                            cst(0)));
  auto ifLeader = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
  rewriter.setInsertionPoint(ifLeader.thenBlock()->getTerminator());
  IRMapping mapping;
  mapping.map(outer.getInductionVars().front(), iv);
  clonePrologue(rewriter, outer, inner, mapping);
  auto load = [&](const Reduction &reduction, unsigned buffer, Value y) {
    Partial p;
    p.value = memref::LoadOp::create(rewriter, loc, parts[buffer],
                                     ValueRange{y, tx});
    if (!reduction.identity)
      p.valid = arith::TruncIOp::create(
          rewriter, loc, rewriter.getI1Type(),
          memref::LoadOp::create(rewriter, loc, parts[buffer + 1],
                                 ValueRange{y, tx}));
    return p;
  };
  SmallVector<Partial> totals;
  for (auto [reduction, buffer] :
       llvm::zip_equal(col.reductions, valueBuffers)) {
    Partial total = load(reduction, buffer, cst(0));
    for (int64_t y = 1; y < rows; ++y)
      total = merge(rewriter, loc, reduction, total,
                    load(reduction, buffer, cst(y)));
    totals.push_back(total);
  }
  for (auto [reduction, init, total, result] : llvm::zip_equal(
           col.reductions, inner.getInitVals(), totals, inner.getResults()))
    mapping.map(result, combineInit(rewriter, loc, reduction,
                                    mapping.lookupOrDefault(init), total));
  replayEpilogue(rewriter, inner, col.epilogue, mapping);
  if (col.update) {
    // The leader leaves the results in row 0 of the parts, which no thread
    // reads again, for every thread of the column after a second barrier.
    for (auto [result, buffer] :
         llvm::zip_equal(inner.getResults(), valueBuffers))
      memref::StoreOp::create(rewriter, loc, mapping.lookup(result),
                              parts[buffer], ValueRange{cst(0), tx});
    rewriter.setInsertionPointAfter(ifLeader);
    gpu::BarrierOp::create(rewriter, loc);
    auto ifInside = scf::IfOp::create(rewriter, loc, inside,
                                      /*withElseRegion=*/false);
    rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
    emitSharedUpdate(rewriter, col, iv, parts, tx, ty, rows);
  }
  rewriter.setInsertionPointAfter(launch);
  guardOnPositive(rewriter, launch, columns);
}

void reductions::mapColumnReduction(RewriterBase &rewriter,
                                    ColumnReduction &col,
                                    const MapReductionsPassOptions &options) {
  scf::ParallelOp outer = col.outer;
  Location loc = outer.getLoc();
  int64_t rows = options.threadsPerBlock / kColumnsPerBlock;
  int64_t unroll = chooseUnroll(col.inner, options.unroll);
  rewriter.setInsertionPoint(outer);
  Value columns = createTripCount(rewriter, loc, outer, 0);
  // As many outputs as resident threads: a thread an output fills the
  // device, and the loop mapping takes the loop as written.
  Value threads =
      arith::ConstantIndexOp::create(rewriter, loc, options.threadsPerBlock);
  Value resident = arith::MulIOp::create(
      rewriter, loc,
      createGridCap(rewriter, loc, options.threadsPerBlock, options.maxBlocks),
      threads);
  Value few = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    columns, resident);
  if (options.emitRemarks) {
    InFlightDiagnostic remark =
        outer.emitRemark("column reduction mapped: while there are fewer "
                         "outputs than the device holds threads, blocks of ")
        << kColumnsPerBlock << "x" << rows << " threads, " << rows
        << " threads folding each of " << kColumnsPerBlock << " outputs ("
        << (col.readsAcrossOutputs
                ? "its loads coalesced across the outputs"
                : "its loads do not walk memory contiguously across the "
                  "outputs, but each output's threads share its row")
        << ") and combining through workgroup memory";
    if (col.update)
      remark << ", then the rows of threads share the loop that follows the "
                "reduction";
    remark << "; with more outputs, a thread an output as the loop mapping "
              "gives";
  }
  auto ifFew = scf::IfOp::create(rewriter, loc, few, /*withElse=*/true);
  rewriter.setInsertionPoint(ifFew.thenBlock()->getTerminator());
  emitSplitKernel(rewriter, col, columns, rows, unroll, options.vectorBytes);
  // The else side keeps the loop itself, for the loop mapping.
  rewriter.moveOpBefore(outer, ifFew.elseBlock()->getTerminator());
}
