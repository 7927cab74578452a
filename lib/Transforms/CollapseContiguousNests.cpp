//===- CollapseContiguousNests.cpp - One loop over contiguous nests -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A parallel nest whose every access is a[i0, i1, ...] on row-major memrefs
// (the same induction variable in each position of every access) walks
// memory in one linear order when the memrefs' inner sizes equal the loop's
// extents: an 8191x8191 add is a 67,092,481-element vector add. Mapped as a
// 2-D nest it pays a peel and a tail on every row; mapped as one loop it
// is a single grid-stride loop of 16-byte accesses. Sizes are rarely known
// statically, so the nest is versioned:
//
//   if (dim(a, 1) == n && dim(b, 1) == n ...) {
//     %a1 = memref.collapse_shape %a ...   // one dimension
//     scf.parallel (%l) = (0) to (m * n) { ... a1[%l] ... }
//   } else {
//     <the nest as written>
//   }
//
//===----------------------------------------------------------------------===//

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_COLLAPSECONTIGUOUSNESTSPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

/// The memref and indices of `op` if it is a memref.load or memref.store.
static std::optional<std::pair<Value, ValueRange>> getAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return std::make_pair(load.getMemRef(), load.getIndices());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return std::make_pair(store.getMemRef(), store.getIndices());
  return std::nullopt;
}

/// The position each loop dimension takes in every access (the same for
/// all), if `loop` qualifies: lower bounds 0 and steps 1, no reductions, a
/// body of accesses and pure ops without regions, every access a
/// row-major memref of the loop's rank indexed by the induction variables
/// alone, and the induction variables used nowhere else.
static std::optional<SmallVector<unsigned>> matchNest(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  if (rank < 2 || loop.getNumResults() != 0 ||
      llvm::any_of(loop.getLowerBound(),
                   [](Value v) { return !isConstantIntValue(v, 0); }) ||
      llvm::any_of(loop.getStep(),
                   [](Value v) { return !isConstantIntValue(v, 1); }))
    return std::nullopt;
  std::optional<SmallVector<unsigned>> position;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return std::nullopt;
    std::optional<std::pair<Value, ValueRange>> access = getAccess(&op);
    if (!access) {
      if (!isPure(&op))
        return std::nullopt;
      continue;
    }
    auto [memref, indices] = *access;
    auto type = cast<MemRefType>(memref.getType());
    if (!type.getLayout().isIdentity() || type.getRank() != rank ||
        !loop.isDefinedOutsideOfLoop(memref))
      return std::nullopt;
    SmallVector<unsigned> here(rank);
    for (auto [k, index] : llvm::enumerate(indices)) {
      auto iv = dyn_cast<BlockArgument>(index);
      if (!iv || iv.getOwner() != loop.getBody())
        return std::nullopt;
      here[iv.getArgNumber()] = k;
    }
    if (position && *position != here)
      return std::nullopt;
    position = here;
  }
  // Every induction variable is an index of the accesses, and only that.
  for (Value iv : loop.getInductionVars())
    for (OpOperand &use : iv.getUses())
      if (!getAccess(use.getOwner()) ||
          (isa<memref::StoreOp>(use.getOwner()) &&
           use.getOperandNumber() == 0))
        return std::nullopt;
  if (position && !llvm::is_contained(*position, 0u))
    return std::nullopt;
  return position;
}

namespace {
struct CollapseContiguousNestsPass
    : threadbind::impl::CollapseContiguousNestsPassBase<
          CollapseContiguousNestsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ParallelOp, SmallVector<unsigned>>> nests;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        if (std::optional<SmallVector<unsigned>> position = matchNest(loop))
          nests.push_back({loop, *position});
        return WalkResult::skip(); // outermost loops only
      }
      return WalkResult::advance();
    });
    for (auto &[loop, position] : nests)
      collapse(loop, position);
  }

  void collapse(scf::ParallelOp loop, ArrayRef<unsigned> position) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    unsigned rank = loop.getNumLoops();
    // The extent of each memref position, and the accessed memrefs.
    SmallVector<Value> extent(rank);
    for (unsigned d = 0; d < rank; ++d)
      extent[position[d]] = loop.getUpperBound()[d];
    SetVector<Value> memrefs;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto access = getAccess(&op))
        memrefs.insert(access->first);

    // Every memref's inner sizes are the loop's: then the nest's row-major
    // order is each memref's linear order.
    Value all;
    for (Value memref : memrefs)
      for (unsigned k = 1; k < rank; ++k) {
        // A bound that is this very size needs no test.
        if (auto dim = extent[k].getDefiningOp<memref::DimOp>();
            dim && dim.getSource() == memref && dim.getConstantIndex() == k)
          continue;
        auto type = cast<MemRefType>(memref.getType());
        if (!type.isDynamicDim(k) &&
            isConstantIntValue(extent[k], type.getDimSize(k)))
          continue;
        Value size = memref::DimOp::create(b, loc, memref, k);
        Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           size, extent[k]);
        all = all ? arith::AndIOp::create(b, loc, all, same).getResult()
                  : same;
      }
    if (!all)
      all = arith::ConstantIntOp::create(b, loc, 1, 1);
    auto version = scf::IfOp::create(b, loc, all, /*withElseRegion=*/true);
    b.setInsertionPoint(version.thenBlock()->getTerminator());
    Value total = extent[0];
    for (unsigned k = 1; k < rank; ++k)
      total = arith::MulIOp::create(b, loc, total, extent[k]);
    // The one-dimensional views, for the accesses alone (a memref.dim in
    // the body still asks the memref as written).
    IRMapping mapping;
    DenseMap<Value, Value> flatView;
    SmallVector<ReassociationIndices> all1D = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank))};
    for (Value memref : memrefs)
      flatView[memref] =
          memref::CollapseShapeOp::create(b, loc, memref, all1D).getResult();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto flat = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                        ValueRange{total}, ValueRange{one});
    // The user's marks carry over; the record of the nest's folded
    // dimensions does not, as the loop has one dimension now.
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      if (attr.getName() != kWrittenDimsAttr &&
          attr.getName() != kWrittenRankAttr)
        flat->setAttr(attr.getName(), attr.getValue());
    flat->setAttr(kCollapsedFromAttr, b.getI64IntegerAttr(rank));
    Value linear = flat.getInductionVars().front();
    b.setInsertionPoint(flat.getBody()->getTerminator());
    for (Operation &op : loop.getBody()->without_terminator()) {
      std::optional<std::pair<Value, ValueRange>> access = getAccess(&op);
      if (!access) {
        b.clone(op, mapping);
        continue;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        mapping.map(load.getResult(),
                    memref::LoadOp::create(
                        b, loc, flatView.lookup(load.getMemRef()), linear)
                        .getResult());
        continue;
      }
      auto store = cast<memref::StoreOp>(op);
      memref::StoreOp::create(b, loc,
                              mapping.lookupOrDefault(store.getValue()),
                              flatView.lookup(store.getMemRef()), linear);
    }
    loop->moveBefore(version.elseBlock()->getTerminator());
    ++numNestsCollapsed;
  }
};
} // namespace
