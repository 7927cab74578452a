//===- AccessPattern.cpp - Which loop walks memory contiguously -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/AccessPattern.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::threadbind;

/// Index expressions deeper than this are treated as non-affine; real loop
/// bodies stay far below it and the bound keeps pathological IR cheap.
static constexpr unsigned kMaxDepth = 32;

std::optional<int64_t> IndexCoefficients::get(Value index) {
  return compute(index, 0);
}

/// Coefficient of an affine expression given the coefficients of its dims
/// and symbols; std::nullopt if the expression is not linear in them.
static std::optional<int64_t>
exprCoefficient(AffineExpr expr, ArrayRef<std::optional<int64_t>> dims,
                ArrayRef<std::optional<int64_t>> symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[sym.getPosition()];
  if (isa<AffineConstantExpr>(expr))
    return 0;
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = exprCoefficient(bin.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = exprCoefficient(bin.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *lhs + *rhs;
  case AffineExprKind::Mul: {
    // Affine multiplication has a constant on at least one side.
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return *lhs * c.getValue();
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return *rhs * c.getValue();
    if (*lhs == 0 && *rhs == 0)
      return 0;
    return std::nullopt;
  }
  default:
    // floordiv, ceildiv and mod are only linear when the iv is absent.
    if (*lhs == 0 && *rhs == 0)
      return 0;
    return std::nullopt;
  }
}

std::optional<int64_t> IndexCoefficients::compute(Value index,
                                                  unsigned depth) {
  if (index == iv)
    return 1;
  auto it = cache.find(index);
  if (it != cache.end())
    return it->second;
  if (depth > kMaxDepth)
    return std::nullopt;

  std::optional<int64_t> result;
  Operation *def = index.getDefiningOp();
  if (!def) {
    // Block arguments: other induction variables, function arguments and
    // loop-carried values do not move with `iv` unless they are `iv`.
    result = 0;
  } else if (matchPattern(index, m_Constant())) {
    result = 0;
  } else if (auto add = dyn_cast<arith::AddIOp>(def)) {
    auto l = compute(add.getLhs(), depth + 1);
    auto r = compute(add.getRhs(), depth + 1);
    if (l && r)
      result = *l + *r;
  } else if (auto sub = dyn_cast<arith::SubIOp>(def)) {
    auto l = compute(sub.getLhs(), depth + 1);
    auto r = compute(sub.getRhs(), depth + 1);
    if (l && r)
      result = *l - *r;
  } else if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    auto l = compute(mul.getLhs(), depth + 1);
    auto r = compute(mul.getRhs(), depth + 1);
    APInt c;
    if (l && r && *l == 0 && *r == 0)
      result = 0;
    else if (r && matchPattern(mul.getLhs(), m_ConstantInt(&c)))
      result = c.getSExtValue() * *r;
    else if (l && matchPattern(mul.getRhs(), m_ConstantInt(&c)))
      result = c.getSExtValue() * *l;
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp>(def)) {
    result = compute(def->getOperand(0), depth + 1);
  } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<std::optional<int64_t>> dims, syms;
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
      if (i < map.getNumDims())
        dims.push_back(compute(operand, depth + 1));
      else
        syms.push_back(compute(operand, depth + 1));
    }
    result = exprCoefficient(map.getResult(0), dims, syms);
  } else {
    // Any other op: independent of `iv` if all its operands are.
    bool independent = llvm::all_of(def->getOperands(), [&](Value operand) {
      std::optional<int64_t> c = compute(operand, depth + 1);
      return c && *c == 0;
    });
    if (independent && def->getNumRegions() == 0)
      result = 0;
  }
  cache[index] = result;
  return result;
}

std::optional<unsigned> threadbind::getUnitStrideDim(MemRefType type) {
  if (type.getRank() == 0)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    if (strides[d] == 1)
      return static_cast<unsigned>(d);
  return std::nullopt;
}

namespace {
/// One memory access, reduced to what coalescing depends on.
struct Access {
  MemRefType type;
  /// The index of the unit-stride dimension: a plain SSA value, or for affine
  /// accesses the map result over `mapOperands`.
  Value index;
  AffineExpr expr;
  ValueRange mapOperands;
  unsigned numMapDims = 0;
  int64_t bytes = 0;
  /// Every index (for affine accesses, every map operand): whether the
  /// address moves with a dimension at all.
  ValueRange allIndices;
};
} // namespace

static int64_t bytesOf(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * bytesOf(vec.getElementType());
  // Index is 64 bits on every target ThreadBind compiles for.
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return 0;
}

/// Returns the access performed by `op`, if it is a load or store we know.
static std::optional<Access> getAccess(Operation *op, unsigned &unanalysed) {
  auto make = [&](Value memref, ValueRange indices,
                  Type valueType) -> std::optional<Access> {
    auto type = dyn_cast<MemRefType>(memref.getType());
    std::optional<unsigned> dim = type ? getUnitStrideDim(type) : std::nullopt;
    if (!dim) {
      ++unanalysed;
      return std::nullopt;
    }
    Access access;
    access.type = type;
    access.index = indices[*dim];
    access.bytes = bytesOf(valueType);
    access.allIndices = indices;
    return access;
  };
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return make(load.getMemRef(), load.getIndices(), load.getType());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return make(store.getMemRef(), store.getIndices(),
                store.getValueToStore().getType());
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return make(load.getBase(), load.getIndices(), load.getType());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return make(store.getBase(), store.getIndices(),
                store.getValueToStore().getType());
  auto makeAffine = [&](Value memref, AffineMap map, ValueRange operands,
                        Type valueType) -> std::optional<Access> {
    auto type = cast<MemRefType>(memref.getType());
    std::optional<unsigned> dim = getUnitStrideDim(type);
    if (!dim) {
      ++unanalysed;
      return std::nullopt;
    }
    Access access;
    access.type = type;
    access.expr = map.getResult(*dim);
    access.numMapDims = map.getNumDims();
    access.mapOperands = operands;
    access.bytes = bytesOf(valueType);
    access.allIndices = operands;
    return access;
  };
  if (auto load = dyn_cast<affine::AffineLoadOp>(op))
    return makeAffine(load.getMemRef(), load.getAffineMap(),
                      load.getMapOperands(), load.getType());
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return makeAffine(store.getMemRef(), store.getAffineMap(),
                      store.getMapOperands(),
                      store.getValueToStore().getType());
  return std::nullopt;
}

LoopAccessPattern threadbind::analyzeAccessPattern(scf::ParallelOp loop) {
  LoopAccessPattern pattern;
  pattern.dims.resize(loop.getNumLoops());

  SmallVector<Access> accesses;
  loop.getBody()->walk([&](Operation *op) {
    if (std::optional<Access> access = getAccess(op, pattern.numUnanalysed))
      accesses.push_back(*access);
  });
  pattern.numAccesses = accesses.size() + pattern.numUnanalysed;

  for (auto [d, iv] : llvm::enumerate(loop.getInductionVars())) {
    IndexCoefficients coefficients(iv);
    // A dynamic step is assumed to be 1, the common case for normalised loops.
    int64_t step = 1;
    if (std::optional<int64_t> s = getConstantIntValue(loop.getStep()[d]))
      step = *s;
    DimAccessSummary &summary = pattern.dims[d];
    for (const Access &access : accesses) {
      std::optional<int64_t> c;
      if (access.index) {
        c = coefficients.get(access.index);
      } else {
        SmallVector<std::optional<int64_t>> dims, syms;
        for (auto [i, operand] : llvm::enumerate(access.mapOperands))
          (i < access.numMapDims ? dims : syms)
              .push_back(coefficients.get(operand));
        c = exprCoefficient(access.expr, dims, syms);
      }
      if (c && std::abs(*c * step) == 1) {
        summary.contiguousBytes += access.bytes;
        ++summary.contiguousAccesses;
      } else if (!c || *c != 0) {
        ++summary.stridedAccesses;
      }
      if (llvm::any_of(access.allIndices, [&](Value index) {
            return coefficients.get(index) != 0;
          }))
        ++summary.movingAccesses;
    }
  }
  return pattern;
}

namespace {
/// The ranking keys of one loop dimension, compared in order.
struct DimKeys {
  const DimAccessSummary *summary;
  std::optional<int64_t> trips;

  /// Whether the dimension can give every lane of a warp an iteration.
  bool fillsWarp() const { return !trips || *trips >= 32; }
};
} // namespace

DimRanking
threadbind::rankDimsForCoalescing(const LoopAccessPattern &pattern,
                                  ArrayRef<std::optional<int64_t>> trips) {
  unsigned numDims = pattern.dims.size();
  SmallVector<DimKeys> keys;
  for (unsigned d = 0; d < numDims; ++d)
    keys.push_back({&pattern.dims[d],
                    d < trips.size() ? trips[d] : std::nullopt});
  // Which key tells a and b apart (0 to 2), or 3 when only their position
  // does.
  auto decidingKey = [&](unsigned a, unsigned b) {
    const DimKeys &ka = keys[a], &kb = keys[b];
    if (ka.summary->contiguousBytes != kb.summary->contiguousBytes)
      return 0;
    if (ka.fillsWarp() != kb.fillsWarp())
      return 1;
    if (ka.summary->stridedAccesses != kb.summary->stridedAccesses)
      return 2;
    return 3;
  };
  DimRanking ranking;
  ranking.order = llvm::to_vector(llvm::seq<unsigned>(0, numDims));
  // A total order (ties end on the dimension index), so no stable sort.
  llvm::sort(ranking.order, [&](unsigned a, unsigned b) {
    const DimKeys &ka = keys[a], &kb = keys[b];
    switch (decidingKey(a, b)) {
    case 0:
      return ka.summary->contiguousBytes > kb.summary->contiguousBytes;
    case 1:
      return ka.fillsWarp();
    case 2:
      return ka.summary->stridedAccesses < kb.summary->stridedAccesses;
    default:
      return a > b;
    }
  });

  unsigned x = ranking.order.front();
  const DimAccessSummary &xs = pattern.dims[x];
  llvm::raw_string_ostream why(ranking.reason);
  if (numDims == 1) {
    why << "it is the loop's only dimension";
    // Nothing to choose, but a user may want to know why it is slow: the
    // layout (an array of structures, a matrix walked down its columns)
    // is theirs to change.
    if (xs.contiguousAccesses == 0 && xs.movingAccesses > 0)
      why << ", though none of the " << xs.movingAccesses
          << " accesses that move with it walks a unit-stride memref "
             "dimension one element an iteration, so a warp's accesses do "
             "not coalesce";
    else if (xs.contiguousAccesses < xs.movingAccesses)
      why << ", though only " << xs.contiguousAccesses << " of the "
          << xs.movingAccesses
          << " accesses that move with it walk a unit-stride memref "
             "dimension one element an iteration (the others do not "
             "coalesce)";
    return ranking;
  }
  unsigned next = ranking.order[1];
  auto walks = [&] {
    why << "it walks the unit-stride dimension of " << xs.contiguousAccesses
        << " of " << pattern.numAccesses << " accesses, "
        << xs.contiguousBytes << " bytes per iteration";
  };
  switch (decidingKey(x, next)) {
  case 0:
    walks();
    break;
  case 1:
    if (xs.contiguousBytes > 0) {
      walks();
      why << " as dimension " << next << " does, and ";
    } else {
      why << "no dimension walks a unit-stride memref dimension, and ";
    }
    why << "it has " << (keys[x].trips ? "" : "a dynamic number of ")
        << "iterations";
    if (keys[x].trips)
      why << " (" << *keys[x].trips << ")";
    why << " to fill a warp, where dimension " << next << " has only "
        << *keys[next].trips;
    break;
  case 2:
    if (xs.contiguousBytes > 0) {
      walks();
      why << " as dimension " << next << " does, and ";
    } else {
      why << "no dimension walks a unit-stride memref dimension, and ";
    }
    why << "fewer of its accesses are strided (" << xs.stridedAccesses
        << ", against " << pattern.dims[next].stridedAccesses
        << " for dimension " << next << ")";
    break;
  default:
    if (xs.contiguousBytes > 0) {
      walks();
      why << ", as dimension " << next
          << " does, and ties go to the innermost dimension";
    } else {
      why << "no dimension walks a unit-stride memref dimension, so the "
             "innermost one is used";
    }
    break;
  }
  return ranking;
}
