//===- PredicateDivergentBranches.cpp - Small divergent ifs to selects ----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A divergent branch makes a warp run both of its sides in turn, masked,
// plus the branch and the reconvergence. For small sides it is cheaper to
// run both unconditionally and select: that is what this pass does, for
// conditions the uniformity analysis calls divergent and sides that can be
// speculated. Uniform branches are left alone; they split no warp.
//
// Selects between the two operands of their own comparison then become the
// min/max (or abs) operation they spell, which is how ReLU and clamp are
// written as branches.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/Uniformity.h"
#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/Passes.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::threadbind {
#define GEN_PASS_DEF_PREDICATEDIVERGENTBRANCHESPASS
#include "threadbind/Transforms/Passes.h.inc"
} // namespace mlir::threadbind

using namespace mlir;
using namespace mlir::threadbind;

namespace {

//===----------------------------------------------------------------------===//
// Speculation safety
//===----------------------------------------------------------------------===//

/// Whether `access` (a memref.load or memref.store) touches `memref` at
/// exactly `indices`, the same SSA values.
bool accessesSameAddress(Operation *access, Value memref, ValueRange indices) {
  if (auto load = dyn_cast<memref::LoadOp>(access))
    return load.getMemRef() == memref && load.getIndices() == indices;
  if (auto store = dyn_cast<memref::StoreOp>(access))
    return store.getMemRef() == memref && store.getIndices() == indices;
  return false;
}

/// Whether `load`, inside a side of `ifOp`, may run even when its side is
/// not taken: its address is valid whenever `ifOp` runs. That holds when
/// the indices are constants inside a static shape, or when an access to
/// the same memref at the same index values sits directly in a block that
/// runs whenever `ifOp` does (the block of `ifOp` or of one of its
/// ancestors, before or after it: structured control flow has no early
/// exits).
bool isProvablyInBounds(memref::LoadOp load, scf::IfOp ifOp) {
  MemRefType type = load.getMemRefType();
  bool constantInShape = true;
  for (auto [dim, index] : llvm::enumerate(load.getIndices())) {
    APInt value;
    if (type.isDynamicDim(dim) || !matchPattern(index, m_ConstantInt(&value)) ||
        value.isNegative() || value.sge(type.getDimSize(dim))) {
      constantInShape = false;
      break;
    }
  }
  if (constantInShape)
    return true;

  // Index values defined inside the branch cannot match an access outside.
  for (Value index : load.getIndices())
    if (ifOp->isAncestor(index.getParentBlock()->getParentOp()))
      return false;
  Value memref = load.getMemRef();
  for (Operation *user : memref.getUsers()) {
    if (ifOp->isAncestor(user) ||
        !user->getBlock()->findAncestorOpInBlock(*ifOp))
      continue;
    if (accessesSameAddress(user, memref, load.getIndices()))
      return true;
  }
  return false;
}

/// What a side of a divergent if holds, and whether it can run
/// unconditionally.
struct SideSummary {
  /// Operations in the side, the terminator excluded.
  unsigned numOps = 0;
  /// The side's store, which must be its last operation.
  memref::StoreOp store;
  /// Why the side cannot run unconditionally; empty if it can.
  std::string whyNot;
};

SideSummary summarizeSide(Block *side, scf::IfOp ifOp) {
  SideSummary summary;
  if (!side)
    return summary;
  for (Operation &op : side->without_terminator()) {
    // Nested operations count too: a side is as big as all it runs once.
    op.walk([&](Operation *nested) {
      if (!nested->hasTrait<OpTrait::IsTerminator>())
        ++summary.numOps;
    });
    if (!summary.whyNot.empty())
      continue;
    if (isa<LoopLikeOpInterface>(op)) {
      summary.whyNot = ("it holds a loop ('" + op.getName().getStringRef() +
                        "'), whose cost its size does not bound")
                           .str();
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(&op)) {
      if (summary.store || &op != side->getTerminator()->getPrevNode())
        summary.whyNot = "it stores to memory other than in its last "
                         "operation";
      summary.store = store;
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(&op)) {
      if (!isProvablyInBounds(load, ifOp))
        summary.whyNot = "it holds a 'memref.load' at an address not "
                         "proven in bounds";
      continue;
    }
    if (op.getNumRegions() != 0 || !isPure(&op))
      summary.whyNot = ("it holds '" + op.getName().getStringRef() +
                        "', which is not safe to run unconditionally")
                           .str();
  }
  return summary;
}

/// Why the stores of the two sides prevent predication; empty if they do
/// not (no store at all, or one store per side to the same address).
std::string checkStores(const SideSummary &thenSide,
                        const SideSummary &elseSide) {
  if (!thenSide.store && !elseSide.store)
    return "";
  if (!thenSide.store || !elseSide.store)
    return "only one side stores; a store under a divergent condition stays "
           "guarded";
  memref::StoreOp a = thenSide.store, b = elseSide.store;
  if (!accessesSameAddress(b, a.getMemRef(), a.getIndices()))
    return "the sides store to different addresses; a store under a "
           "divergent condition stays guarded";
  if (a->getAttrDictionary() != b->getAttrDictionary())
    return "the two stores carry different attributes";
  return "";
}

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

/// Replaces `ifOp` by both of its sides followed by selects: one per
/// result, and one for the value of the sides' common store, which is then
/// made once. The sides must have been checked by summarizeSide and
/// checkStores.
void predicate(RewriterBase &rewriter, scf::IfOp ifOp) {
  Location loc = ifOp.getLoc();
  Value cond = ifOp.getCondition();
  SmallVector<Value> thenValues, elseValues;
  memref::StoreOp thenStore, elseStore;
  auto takeSide = [&](Block *side, SmallVectorImpl<Value> &values,
                      memref::StoreOp &store) {
    if (!side)
      return;
    Operation *yield = side->getTerminator();
    llvm::append_range(values, yield->getOperands());
    rewriter.eraseOp(yield);
    if (!side->empty())
      store = dyn_cast<memref::StoreOp>(side->back());
    rewriter.inlineBlockBefore(side, ifOp);
  };
  takeSide(ifOp.thenBlock(), thenValues, thenStore);
  takeSide(ifOp.elseBlock(), elseValues, elseStore);

  rewriter.setInsertionPoint(ifOp);
  auto pick = [&](Value t, Value e) -> Value {
    if (t == e)
      return t;
    return arith::SelectOp::create(rewriter, loc, cond, t, e);
  };
  SmallVector<Value> results;
  for (auto [t, e] : llvm::zip_equal(thenValues, elseValues))
    results.push_back(pick(t, e));
  if (thenStore) {
    // Both stores were inlined with their sides; keep the then-side's one,
    // now storing the selected value after both sides, and drop the other.
    Value stored = pick(thenStore.getValueToStore(),
                        elseStore.getValueToStore());
    rewriter.modifyOpInPlace(thenStore, [&] {
      thenStore.getValueMutable().assign(stored);
    });
    rewriter.moveOpBefore(thenStore, ifOp);
    rewriter.eraseOp(elseStore);
  }
  rewriter.replaceOp(ifOp, results);
}

/// Whether `value` is known not to be NaN: a non-NaN float constant.
bool isKnownNotNaN(Value value) {
  FloatAttr attr;
  return matchPattern(value, m_Constant(&attr)) && !attr.getValue().isNaN();
}

/// Whether `value` is a float constant other than zero.
bool isNonZeroConstant(Value value) {
  FloatAttr attr;
  return matchPattern(value, m_Constant(&attr)) && !attr.getValue().isZero();
}

/// Whether `value` is a float constant zero, of either sign.
bool isZeroConstant(Value value) {
  FloatAttr attr;
  return matchPattern(value, m_Constant(&attr)) && attr.getValue().isZero();
}

/// The predicate that compares as `pred` does with its operands swapped.
arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::sgt: return P::slt;
  case P::sge: return P::sle;
  case P::slt: return P::sgt;
  case P::sle: return P::sge;
  case P::ugt: return P::ult;
  case P::uge: return P::ule;
  case P::ult: return P::ugt;
  case P::ule: return P::uge;
  default: return pred; // eq, ne
  }
}

arith::CmpFPredicate swapOperands(arith::CmpFPredicate pred) {
  using P = arith::CmpFPredicate;
  switch (pred) {
  case P::OGT: return P::OLT;
  case P::OGE: return P::OLE;
  case P::OLT: return P::OGT;
  case P::OLE: return P::OGE;
  case P::UGT: return P::ULT;
  case P::UGE: return P::ULE;
  case P::ULT: return P::UGT;
  case P::ULE: return P::UGE;
  default: return pred; // the symmetric ones
  }
}

/// The min/max (or abs) operation that `select` spells, built in its place,
/// or null if it spells none or the float form could change its result.
Value buildMinMax(RewriterBase &rewriter, arith::SelectOp select,
                  bool exactSignedZeros) {
  Value t = select.getTrueValue(), f = select.getFalseValue();
  Location loc = select.getLoc();
  rewriter.setInsertionPoint(select);

  if (auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>()) {
    // Normalise to `x P y ? x : y`.
    arith::CmpIPredicate pred = cmp.getPredicate();
    if (cmp.getLhs() == f && cmp.getRhs() == t)
      pred = swapOperands(pred);
    else if (cmp.getLhs() != t || cmp.getRhs() != f)
      return nullptr;
    using P = arith::CmpIPredicate;
    switch (pred) {
    case P::sgt:
    case P::sge:
      return arith::MaxSIOp::create(rewriter, loc, t, f);
    case P::slt:
    case P::sle:
      return arith::MinSIOp::create(rewriter, loc, t, f);
    case P::ugt:
    case P::uge:
      return arith::MaxUIOp::create(rewriter, loc, t, f);
    case P::ult:
    case P::ule:
      return arith::MinUIOp::create(rewriter, loc, t, f);
    default:
      return nullptr;
    }
  }

  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return nullptr;
  arith::FastMathFlags flags = cmp.getFastmath();
  bool noNaNs = bitEnumContainsAll(flags, arith::FastMathFlags::nnan);
  bool noSignedZeros = bitEnumContainsAll(flags, arith::FastMathFlags::nsz);
  using P = arith::CmpFPredicate;
  P pred = cmp.getPredicate();

  // `x < 0 ? -x : x` and its mirror images are abs. NaN stays NaN; only the
  // sign of a zero (and of a NaN) can change.
  auto isNegationOf = [](Value neg, Value x) {
    auto negf = neg.getDefiningOp<arith::NegFOp>();
    return negf && negf.getOperand() == x;
  };
  if (isZeroConstant(cmp.getRhs()) && (!exactSignedZeros || noSignedZeros)) {
    Value x = cmp.getLhs();
    bool lessThan = pred == P::OLT || pred == P::OLE || pred == P::ULT ||
                    pred == P::ULE;
    bool greaterThan = pred == P::OGT || pred == P::OGE || pred == P::UGT ||
                       pred == P::UGE;
    if ((lessThan && isNegationOf(t, x) && f == x) ||
        (greaterThan && t == x && isNegationOf(f, x)))
      return math::AbsFOp::create(rewriter, loc, x);
  }

  // Normalise to `x P y ? x : y`.
  Value x = cmp.getLhs(), y = cmp.getRhs();
  if (x == f && y == t) {
    std::swap(x, y);
    pred = swapOperands(pred);
  } else if (x != t || y != f) {
    return nullptr;
  }
  bool isMax = pred == P::OGT || pred == P::OGE || pred == P::UGT ||
               pred == P::UGE;
  bool isMin = pred == P::OLT || pred == P::OLE || pred == P::ULT ||
               pred == P::ULE;
  if (!isMax && !isMin)
    return nullptr;
  if (exactSignedZeros && !noSignedZeros && !isNonZeroConstant(x) &&
      !isNonZeroConstant(y))
    return nullptr;

  // A NaN makes an ordered comparison false, selecting y, and an unordered
  // one true, selecting x. The non-propagating form (maxnumf) returns the
  // other operand for a NaN, so it matches when the selected-on-NaN operand
  // is not NaN; the propagating form (maximumf) matches when the other one
  // is not NaN.
  bool ordered = pred == P::OGT || pred == P::OGE || pred == P::OLT ||
                 pred == P::OLE;
  Value selectedOnNaN = ordered ? y : x;
  Value other = ordered ? x : y;
  if (noNaNs || isKnownNotNaN(selectedOnNaN))
    return isMax ? Value(arith::MaxNumFOp::create(rewriter, loc, x, y))
                 : Value(arith::MinNumFOp::create(rewriter, loc, x, y));
  if (isKnownNotNaN(other))
    return isMax ? Value(arith::MaximumFOp::create(rewriter, loc, x, y))
                 : Value(arith::MinimumFOp::create(rewriter, loc, x, y));
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct PredicateDivergentBranchesPass
    : threadbind::impl::PredicateDivergentBranchesPassBase<
          PredicateDivergentBranchesPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Why `ifOp`, whose condition has uniformity `level`, stays a branch;
  /// empty if it is predicated.
  std::string decide(scf::IfOp ifOp, UniformityLevel level);
};

} // namespace

std::string PredicateDivergentBranchesPass::decide(scf::IfOp ifOp,
                                                  UniformityLevel level) {
  if (level != UniformityLevel::Divergent)
    return ("the condition is " + stringify(level) +
            ", so no warp is split and the branch skips the other side's "
            "work")
        .str();
  SideSummary thenSide = summarizeSide(ifOp.thenBlock(), ifOp);
  SideSummary elseSide = summarizeSide(ifOp.elseBlock(), ifOp);
  for (auto [name, side] :
       {std::pair<StringRef, SideSummary *>{"then", &thenSide},
        std::pair<StringRef, SideSummary *>{"else", &elseSide}}) {
    if (side->numOps > maxOpsPerSide)
      return ("the " + name + " side has " + Twine(side->numOps) +
              " operations, more than max-ops-per-side = " +
              Twine(maxOpsPerSide))
          .str();
  }
  for (auto [name, side] :
       {std::pair<StringRef, SideSummary *>{"then", &thenSide},
        std::pair<StringRef, SideSummary *>{"else", &elseSide}}) {
    if (!side->whyNot.empty())
      return ("the " + name + " side cannot run unconditionally: " +
              side->whyNot)
          .str();
  }
  return checkStores(thenSide, elseSide);
}

void PredicateDivergentBranchesPass::runOnOperation() {
  DataFlowSolver solver;
  loadUniformityAnalysis(solver);
  if (failed(solver.initializeAndRun(getOperation())))
    return signalPassFailure();

  // Conditions are classified on the input, before anything changes: a
  // condition may be the result of an if that is predicated first, and
  // the select replacing it has no lattice state. Branches are then
  // decided innermost first (post-order), so an inner if predicated first
  // leaves its outer one small enough to follow.
  SmallVector<std::pair<scf::IfOp, UniformityLevel>> candidates;
  getOperation()->walk([&](scf::IfOp ifOp) {
    if (getEnclosingKernel(ifOp))
      candidates.emplace_back(
          ifOp, getUniformity(solver, ifOp.getCondition()).getLevel());
  });

  IRRewriter rewriter(&getContext());
  for (auto [ifOp, level] : candidates) {
    std::string whyNot = decide(ifOp, level);
    if (!whyNot.empty()) {
      if (emitRemarks)
        ifOp.emitRemark("left as a branch: ") << whyNot;
      continue;
    }
    if (emitRemarks)
      ifOp.emitRemark("predicated: the condition is divergent and both sides "
                      "are small and safe to run unconditionally");
    predicate(rewriter, ifOp);
    ++numPredicated;
  }

  SmallVector<arith::SelectOp> selects;
  getOperation()->walk([&](arith::SelectOp select) {
    if (getEnclosingKernel(select) && select.getType().isIntOrFloat())
      selects.push_back(select);
  });
  for (arith::SelectOp select : selects) {
    Value minMax = buildMinMax(rewriter, select, exactSignedZeros);
    if (!minMax)
      continue;
    if (emitRemarks)
      select.emitRemark("select became '")
          << minMax.getDefiningOp()->getName() << "'";
    Operation *cmp = select.getCondition().getDefiningOp();
    rewriter.replaceOp(select, minMax);
    if (cmp && cmp->use_empty())
      rewriter.eraseOp(cmp);
    ++numMinMax;
  }
}
