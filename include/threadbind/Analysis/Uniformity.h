//===- Uniformity.h - Which values agree across threads ---------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// A sparse forward data-flow analysis that classifies every SSA value in
// GPU code by how far it agrees across threads: the same in the whole grid,
// the same within each block, the same within each warp, or divergent. A
// branch on a value that is at most warp-uniform costs nothing on SIMT
// hardware; a branch on a divergent value serialises both sides. Predication
// and loop unswitching are driven by these answers.
//
// Unlike LLVM's UniformityAnalysis, which treats every thread id as
// divergent, this one uses the block shape when it is known (constant
// gpu.launch sizes, or known_block_size on a gpu.func): with blockDim.x a
// multiple of 32, threadIdx.y and threadIdx.z, threadIdx.x / 32 and
// threadIdx.x & ~31 are the same across a warp.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_ANALYSIS_UNIFORMITY_H
#define THREADBIND_ANALYSIS_UNIFORMITY_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"

#include <optional>

namespace mlir {
class DataFlowSolver;
} // namespace mlir

namespace mlir::threadbind {

/// How far a value agrees across threads, from most to least uniform.
enum class UniformityLevel : uint8_t {
  /// The same for every thread of the grid: constants, kernel arguments,
  /// gridDim, blockDim.
  Uniform = 0,
  /// The same within each block: blockIdx.
  BlockUniform = 1,
  /// The same within each warp: threadIdx.y when blockDim.x is a multiple
  /// of 32, threadIdx.x / 32, warp reductions.
  WarpUniform = 2,
  /// May differ between threads of one warp.
  Divergent = 3,
};

/// "uniform", "block-uniform", "warp-uniform" or "divergent".
StringRef stringify(UniformityLevel level);

/// The lattice value: a level, and the operation that made the value as
/// non-uniform as it is (a thread id, an atomic, a load from thread-private
/// memory, a divergent branch), for reports.
class UniformityValue {
public:
  UniformityValue() = default;
  UniformityValue(UniformityLevel level, Operation *source = nullptr)
      : level(level), source(level == UniformityLevel::Uniform ? nullptr
                                                               : source) {}

  bool isUninitialized() const { return !level.has_value(); }
  UniformityLevel getLevel() const {
    return level.value_or(UniformityLevel::Divergent);
  }
  Operation *getSource() const { return source; }

  /// The less uniform of the two, keeping that one's source.
  static UniformityValue join(const UniformityValue &lhs,
                              const UniformityValue &rhs);

  bool operator==(const UniformityValue &rhs) const {
    return level == rhs.level && source == rhs.source;
  }
  void print(raw_ostream &os) const;

private:
  std::optional<UniformityLevel> level;
  Operation *source = nullptr;
};

class UniformityLattice : public dataflow::Lattice<UniformityValue> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UniformityLattice)
  using Lattice::Lattice;
};

/// The analysis. Load it with loadUniformityAnalysis, which also loads the
/// dead-code and constant analyses it needs.
class UniformityAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<UniformityLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const UniformityLattice *> operands,
                               ArrayRef<UniformityLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<UniformityLattice *> argLattices,
                                    unsigned firstIndex) override;
  void visitRegionSuccessors(
      ProgramPoint *point, RegionBranchOpInterface branch,
      RegionSuccessor successor,
      ArrayRef<dataflow::AbstractSparseLattice *> lattices) override;
  void setToEntryState(UniformityLattice *lattice) override;
};

/// Loads the dead-code analysis, sparse constant propagation and the
/// uniformity analysis into `solver` (the first two are required: without
/// them the solver visits nothing and every answer is "unknown").
void loadUniformityAnalysis(DataFlowSolver &solver);

/// The uniformity of `value` once the solver has run; values it did not
/// reach are divergent.
UniformityValue getUniformity(const DataFlowSolver &solver, Value value);

/// Whether `value` is the same for every thread of a warp.
bool isWarpUniform(const DataFlowSolver &solver, Value value);

/// What a branching op decides on (the condition of scf.if and
/// cf.cond_br, the bounds of scf.for, the condition of scf.while, the
/// selector of scf.index_switch and cf.switch), or nothing for other ops.
std::optional<UniformityValue> getBranchUniformity(const DataFlowSolver &solver,
                                                   Operation *op);

/// A branch whose threads can take different sides, and why.
struct DivergentBranch {
  Operation *branch;
  UniformityValue cause;
};

/// Runs the analysis on `root` and returns every branching op in GPU code
/// whose decision is divergent, outer ops first. Fails if the solver does.
FailureOr<SmallVector<DivergentBranch>> findDivergentBranches(Operation *root);

/// The block shape of the GPU code around `op`, when it is known: the
/// constant sizes of the enclosing gpu.launch or the known_block_size of
/// the enclosing gpu.func.
std::optional<std::array<int64_t, 3>> getKnownBlockSize(Operation *op);

} // namespace mlir::threadbind

#endif // THREADBIND_ANALYSIS_UNIFORMITY_H
