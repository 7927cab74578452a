//===- FullReductions.cpp - 1-D reductions as two kernels -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A 1-D scf.parallel with scf.reduce becomes two launches. The first runs a
// grid-stride loop in which each thread folds its elements into registers,
// starting from the combiner's identity; gpu.all_reduce combines a block's
// threads (warp shuffles, then the warps' results through shared memory),
// and thread 0 writes the block's partial result (or combines it into one
// accumulator with a hardware atomic). The second, one block, folds the
// partials the same way and combines the init value once, then performs
// the stores the host made of the result. Without atomics nothing depends
// on the order in which blocks finish, so a sum is the same from run to run.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

namespace {
/// Where the blocks of a full reduction leave their results for the final
/// kernel: one slot a block (and a byte flag a block for a combiner without
/// an identity), or one accumulator all blocks combine into atomically.
struct CrossBlock {
  Value values;
  Value flags;
  /// The atomic kind the blocks combine into `values`[0] with, if they do.
  std::optional<arith::AtomicRMWKind> atomic;
};
} // namespace

//// Folds each thread's share of `loop`'s iterations into registers, the
/// block's threads together with gpu.all_reduce, and leaves block b's
/// result at scratch[k][b], or combines it into scratch[k][0] atomically.
static void emitPartialKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                              ArrayRef<Reduction> reductions, Value grid,
                              Value threads, ArrayRef<CrossBlock> scratch,
                              int64_t unroll, int64_t vectorBytes) {
  Location loc = loop.getLoc();
  gpu::LaunchOp launch = createLaunch(rewriter, loc, grid, threads);
  Value first = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            launch.getBlockSize().x),
      launch.getThreadIds().x);
  Value jump = arith::MulIOp::create(rewriter, loc, launch.getGridSize().x,
                                     launch.getBlockSize().x);
  SmallVector<Partial> accs = foldShare(rewriter, loc, loop, reductions, first,
                                        jump, unroll, vectorBytes, IRMapping());
  SmallVector<Partial> blockResults =
      reduceBlockForLeader(rewriter, loc, launch, reductions, accs);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (auto [cross, result] : llvm::zip_equal(scratch, blockResults)) {
    if (cross.atomic) {
      memref::AtomicRMWOp::create(rewriter, loc, *cross.atomic, result.value,
                                  cross.values, ValueRange{zero});
      continue;
    }
    memref::StoreOp::create(rewriter, loc, result.value, cross.values,
                            launch.getBlockIds().x);
    if (cross.flags)
      memref::StoreOp::create(rewriter, loc,
                              arith::ExtUIOp::create(rewriter, loc,
                                                     rewriter.getI8Type(),
                                                     result.valid),
                              cross.flags, launch.getBlockIds().x);
  }
  rewriter.setInsertionPointAfter(launch);
}

/// One block folds the `count` block results (or reads the atomic
/// accumulator), combines the init values, and makes the host's stores of
/// the results.
static void emitFinalKernel(RewriterBase &rewriter, scf::ParallelOp loop,
                            ArrayRef<Reduction> reductions,
                            ArrayRef<Operation *> epilogue, Value count,
                            Value threads, ArrayRef<CrossBlock> scratch) {
  Location loc = loop.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, one, threads);
  // The block folds the per-block slots; atomic accumulators hold their
  // total already.
  SmallVector<Reduction> slotted;
  SmallVector<CrossBlock> slots;
  SmallVector<Partial> empty;
  for (auto [reduction, cross] : llvm::zip_equal(reductions, scratch)) {
    if (cross.atomic)
      continue;
    slotted.push_back(reduction);
    slots.push_back(cross);
    empty.push_back(createEmpty(rewriter, loc, reduction));
  }
  SmallVector<Partial> slotTotals;
  if (slotted.empty()) {
    // Only atomic accumulators: thread 0 reads them.
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, launch.getThreadIds().x,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  } else {
    auto forOp =
        scf::ForOp::create(rewriter, loc, launch.getThreadIds().x, count,
                           launch.getBlockSize().x, flatten(empty));
    rewriter.setInsertionPointToEnd(forOp.getBody());
    SmallVector<Partial> folded;
    for (auto [reduction, cross, acc] : llvm::zip_equal(
             slotted, slots, unflatten(slotted, forOp.getRegionIterArgs()))) {
      Partial value{memref::LoadOp::create(rewriter, loc, cross.values,
                                           forOp.getInductionVar()),
                    nullptr};
      if (cross.flags)
        value.valid = arith::TruncIOp::create(
            rewriter, loc, rewriter.getI1Type(),
            memref::LoadOp::create(rewriter, loc, cross.flags,
                                   forOp.getInductionVar()));
      folded.push_back(merge(rewriter, loc, reduction, acc, value));
    }
    scf::YieldOp::create(rewriter, loc, flatten(folded));
    rewriter.setInsertionPointAfter(forOp);
    slotTotals = reduceBlockForLeader(rewriter, loc, launch, slotted,
                                      unflatten(slotted, forOp.getResults()));
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto nextSlotTotal = slotTotals.begin();
  IRMapping results;
  for (auto [reduction, cross, init, result] : llvm::zip_equal(
           reductions, scratch, loop.getInitVals(), loop.getResults())) {
    Partial total =
        cross.atomic
            ? Partial{memref::LoadOp::create(rewriter, loc, cross.values, zero),
                      nullptr}
            : *nextSlotTotal++;
    results.map(result, combineInit(rewriter, loc, reduction, init, total));
  }
  replayEpilogue(rewriter, loop, epilogue, results);
  rewriter.setInsertionPointAfter(launch);
}

void reductions::mapFullReduction(RewriterBase &rewriter, scf::ParallelOp loop,
                                  MutableArrayRef<Reduction> reductions,
                                  ArrayRef<Operation *> epilogue,
                                  const MapReductionsPassOptions &options) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  // Host side: as many blocks as the extent needs, up to the resident
  // ones, and at least one, so an empty loop still yields its init value.
  Value threads =
      arith::ConstantIndexOp::create(rewriter, loc, options.threadsPerBlock);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value trips = createTripCount(rewriter, loc, loop, 0);
  Value needed = arith::CeilDivUIOp::create(rewriter, loc, trips, threads);
  Value cap =
      createGridCap(rewriter, loc, options.threadsPerBlock, options.maxBlocks);
  Value grid = arith::MaxUIOp::create(
      rewriter, loc, arith::MinUIOp::create(rewriter, loc, needed, cap), one);
  // Device scratch for the blocks' results.
  SmallVector<Value> allocations;
  auto allocate = [&](MemRefType type, ValueRange sizes) {
    allocations.push_back(createDeviceAlloc(rewriter, loc, type, sizes));
    return allocations.back();
  };
  SmallVector<CrossBlock> scratch;
  unsigned numAtomic = 0;
  for (const Reduction &reduction : reductions) {
    CrossBlock cross;
    if (options.crossBlock == CrossBlockCombine::Atomic)
      cross.atomic = getHardwareAtomic(reduction);
    if (cross.atomic) {
      cross.values =
          createAtomicAccumulator(rewriter, loc, reduction, allocate);
      ++numAtomic;
    } else {
      cross.values =
          allocate(MemRefType::get({ShapedType::kDynamic}, reduction.getType()),
                   ValueRange{grid});
      if (!reduction.identity)
        cross.flags = allocate(
            MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
            ValueRange{grid});
    }
    scratch.push_back(cross);
  }
  int64_t elements = chooseUnroll(loop, options.unroll);
  if (options.emitRemarks) {
    InFlightDiagnostic remark = loop.emitRemark("reduction mapped: ");
    remark << reductions.size() << " value(s), "
           << static_cast<int64_t>(options.threadsPerBlock)
           << " threads a block fold a grid-stride share each (" << elements
           << " elements an iteration"
           << (options.unroll > 0 ? "" : ", to keep 8 loads in flight")
           << "), warp shuffles and shared memory combine each block, ";
    if (numAtomic == reductions.size())
      remark << "each block combines its result into an accumulator "
                "with a hardware atomic, and a second one-block kernel "
                "combines the init value";
    else if (numAtomic)
      remark << numAtomic << " value(s) combine across blocks with a "
             << "hardware atomic, and a second one-block kernel combines "
             << "the other blocks' results and the init values";
    else
      remark << "and a second one-block kernel combines the blocks and "
                "the init value";
    if (options.crossBlock == CrossBlockCombine::Atomic &&
        numAtomic < reductions.size())
      remark << " (no hardware atomic for " << reductions.size() - numAtomic
             << " combiner(s))";
  }

  emitPartialKernel(rewriter, loop, reductions, grid, threads, scratch,
                    elements, options.vectorBytes);
  rewriter.setInsertionPoint(loop);
  emitFinalKernel(rewriter, loop, reductions, epilogue, grid, threads,
                  scratch);
  rewriter.setInsertionPoint(loop);
  for (Value allocation : allocations)
    createDeviceDealloc(rewriter, loc, allocation);
  for (Operation *op : llvm::reverse(epilogue))
    rewriter.eraseOp(op);
  rewriter.eraseOp(loop);
}
