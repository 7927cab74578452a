//===- Uniformity.cpp - Which values agree across threads -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Analysis/Uniformity.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Lattice
//===----------------------------------------------------------------------===//

StringRef threadbind::stringify(UniformityLevel level) {
  switch (level) {
  case UniformityLevel::Uniform:
    return "uniform";
  case UniformityLevel::BlockUniform:
    return "block-uniform";
  case UniformityLevel::WarpUniform:
    return "warp-uniform";
  case UniformityLevel::Divergent:
    return "divergent";
  }
  llvm_unreachable("unknown uniformity level");
}

UniformityValue UniformityValue::join(const UniformityValue &lhs,
                                      const UniformityValue &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  // Ties keep the left source, so a value's reported cause is stable.
  return rhs.getLevel() > lhs.getLevel() ? rhs : lhs;
}

void UniformityValue::print(raw_ostream &os) const {
  if (isUninitialized()) {
    os << "<uninitialized>";
    return;
  }
  os << stringify(getLevel());
  if (source)
    os << " (from '" << source->getName() << "')";
}

//===----------------------------------------------------------------------===//
// Thread geometry
//===----------------------------------------------------------------------===//

std::optional<std::array<int64_t, 3>>
threadbind::getKnownBlockSize(Operation *op) {
  auto launch = dyn_cast<gpu::LaunchOp>(op);
  if (!launch)
    launch = op->getParentOfType<gpu::LaunchOp>();
  if (launch) {
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    std::optional<int64_t> x = getConstantIntValue(block.x),
                           y = getConstantIntValue(block.y),
                           z = getConstantIntValue(block.z);
    if (x && y && z)
      return std::array<int64_t, 3>{*x, *y, *z};
    return std::nullopt;
  }
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>())
    if (std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize())
      if (known->size() == 3)
        return std::array<int64_t, 3>{(*known)[0], (*known)[1], (*known)[2]};
  return std::nullopt;
}

/// What one thread-id dimension is across a warp, given the block shape
/// around `anchor`. Consecutive linear thread ids (x fastest) form a warp.
static UniformityValue classifyThreadId(unsigned dim, Operation *anchor,
                                        Operation *source) {
  std::optional<std::array<int64_t, 3>> block = getKnownBlockSize(anchor);
  if (!block)
    return {UniformityLevel::Divergent, source};
  int64_t warp = 32;
  if ((*block)[dim] == 1)
    return {UniformityLevel::Uniform};
  // All threads of a warp share threadIdx.y when a row of the block (x) is
  // a whole number of warps; threadIdx.z when an x-y plane is.
  int64_t below = dim == 0 ? 1 : dim == 1 ? (*block)[0]
                                          : (*block)[0] * (*block)[1];
  if (dim > 0 && below % warp == 0)
    return {UniformityLevel::WarpUniform, source};
  return {UniformityLevel::Divergent, source};
}

/// The gpu.launch whose entry block `arg` belongs to, if it does.
static gpu::LaunchOp getLaunchOfArgument(BlockArgument arg) {
  Block *block = arg.getOwner();
  auto launch = dyn_cast_or_null<gpu::LaunchOp>(block->getParentOp());
  if (!launch || block != &launch.getBody().front())
    return nullptr;
  return launch;
}

/// Whether `value` is threadIdx.x itself (a gpu.thread_id x or the launch's
/// thread-id argument), possibly through index casts.
static bool isThreadIdX(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
      return tid.getDimension() == gpu::Dimension::x;
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      return false;
    value = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(value);
  gpu::LaunchOp launch = getLaunchOfArgument(arg);
  return launch && arg == launch.getThreadIds().x;
}

/// threadIdx.x / 32k, threadIdx.x >> (5 or more) and threadIdx.x & ~31 are
/// warp-uniform when blockDim.x is a multiple of 32: a warp is then 32
/// consecutive x of one row, starting at a multiple of 32.
static bool isWarpIndexOfThreadX(Operation *op) {
  if (!isa<arith::DivUIOp, arith::DivSIOp, arith::ShRUIOp, arith::ShRSIOp,
           arith::AndIOp>(op) ||
      !isThreadIdX(op->getOperand(0)))
    return false;
  std::optional<std::array<int64_t, 3>> block = getKnownBlockSize(op);
  APInt rhs;
  if (!block || (*block)[0] % 32 != 0 ||
      !matchPattern(op->getOperand(1), m_ConstantInt(&rhs)))
    return false;
  int64_t c = rhs.getSExtValue();
  if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    return c > 0 && c % 32 == 0;
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op))
    return c >= 5;
  return (c & 31) == 0;
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// The memory space of a memref value, as the GPU dialect names it.
static std::optional<gpu::AddressSpace> getAddressSpace(Value memref) {
  auto type = dyn_cast<BaseMemRefType>(memref.getType());
  if (!type)
    return std::nullopt;
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

LogicalResult UniformityAnalysis::visitOperation(
    Operation *op, ArrayRef<const UniformityLattice *> operands,
    ArrayRef<UniformityLattice *> results) {
  auto setAll = [&](UniformityValue value) {
    for (UniformityLattice *result : results)
      propagateIfChanged(result, result->join(value));
  };
  UniformityValue joined(UniformityLevel::Uniform);
  for (const UniformityLattice *operand : operands)
    joined = UniformityValue::join(joined, operand->getValue());

  // Where thread-level differences come from.
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
    setAll(classifyThreadId(static_cast<unsigned>(tid.getDimension()), op,
                            op));
    return success();
  }
  if (isa<gpu::LaneIdOp, gpu::GlobalIdOp, gpu::ShuffleOp>(op)) {
    setAll({UniformityLevel::Divergent, op});
    return success();
  }
  if (isa<gpu::BlockIdOp, gpu::ClusterIdOp>(op)) {
    setAll({UniformityLevel::BlockUniform, op});
    return success();
  }
  if (isa<gpu::GridDimOp, gpu::BlockDimOp, gpu::ClusterDimOp,
          gpu::SubgroupSizeOp>(op)) {
    setAll({UniformityLevel::Uniform});
    return success();
  }
  // Collectives give every participant the same answer.
  if (isa<gpu::SubgroupReduceOp>(op)) {
    setAll(UniformityValue::join(joined,
                                 {UniformityLevel::WarpUniform, op}));
    return success();
  }
  if (isa<gpu::AllReduceOp>(op)) {
    setAll({UniformityLevel::BlockUniform, op});
    return success();
  }
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)) {
    setAll({UniformityLevel::Divergent, op});
    return success();
  }
  // Each thread's own scratch memory: what it holds is its own.
  if (isa<memref::AllocaOp>(op)) {
    setAll({UniformityLevel::Divergent, op});
    return success();
  }
  if (isWarpIndexOfThreadX(op)) {
    setAll({UniformityLevel::WarpUniform, op->getOperand(0).getDefiningOp()
                                              ? op->getOperand(0).getDefiningOp()
                                              : op});
    return success();
  }
  // Loads: the same address gives the same value, unless the memory is
  // private to each thread; workgroup memory differs between blocks.
  if (isa<memref::LoadOp, affine::AffineLoadOp, vector::LoadOp,
          vector::TransferReadOp>(op)) {
    std::optional<gpu::AddressSpace> space = getAddressSpace(op->getOperand(0));
    if (space == gpu::AddressSpace::Private) {
      setAll({UniformityLevel::Divergent, op});
      return success();
    }
    if (space == gpu::AddressSpace::Workgroup)
      joined = UniformityValue::join(joined,
                                     {UniformityLevel::BlockUniform, op});
    setAll(joined);
    return success();
  }
  // Anything else without side effects computes the same from the same.
  if (isMemoryEffectFree(op) || isa<memref::DimOp>(op)) {
    setAll(joined);
    return success();
  }
  setAll({UniformityLevel::Divergent, op});
  return success();
}

void UniformityAnalysis::setToEntryState(UniformityLattice *lattice) {
  auto arg = dyn_cast<BlockArgument>(lattice->getAnchor());
  if (arg) {
    Operation *owner = arg.getOwner()->getParentOp();
    // Kernel arguments are the same for every thread.
    if (auto func = dyn_cast_or_null<gpu::GPUFuncOp>(owner)) {
      if (func.isKernel() && arg.getOwner() == &func.getBody().front() &&
          arg.getArgNumber() < func.getNumArguments()) {
        propagateIfChanged(lattice,
                           lattice->join({UniformityLevel::Uniform}));
        return;
      }
    }
    if (gpu::LaunchOp launch = getLaunchOfArgument(arg)) {
      unsigned index = arg.getArgNumber();
      UniformityValue value(UniformityLevel::Divergent, launch);
      if (index < 3) // block ids
        value = {UniformityLevel::BlockUniform, launch};
      else if (index < 6) // thread ids
        value = classifyThreadId(index - 3, launch, launch);
      else if (index < launch.getNumConfigRegionAttributes()) // sizes
        value = {UniformityLevel::Uniform};
      else if (index < launch.getNumConfigRegionAttributes() +
                           launch.getNumWorkgroupAttributions())
        value = {UniformityLevel::BlockUniform, launch}; // workgroup buffers
      propagateIfChanged(lattice, lattice->join(value));
      return;
    }
    // Values flowing in from outside any kernel (a gpu.launch captures
    // host values) are the same for every thread.
    if (!owner || (!owner->getParentOfType<gpu::LaunchOp>() &&
                   !isa<gpu::LaunchOp>(owner) &&
                   !owner->getParentOfType<gpu::GPUFuncOp>() &&
                   !isa<gpu::GPUFuncOp>(owner))) {
      propagateIfChanged(lattice, lattice->join({UniformityLevel::Uniform}));
      return;
    }
  }
  // Unknown: assume the worst.
  propagateIfChanged(lattice,
                     lattice->join({UniformityLevel::Divergent,
                                    arg ? arg.getOwner()->getParentOp()
                                        : lattice->getAnchor().getDefiningOp()}));
}

/// What a region-branching op's control flow depends on, read with a
/// dependency on `point` so a change re-visits it.
template <typename GetLattice>
static std::optional<UniformityValue>
controlUniformity(Operation *op, GetLattice getLattice) {
  auto of = [&](ValueRange values) {
    UniformityValue joined(UniformityLevel::Uniform);
    for (Value v : values)
      joined = UniformityValue::join(joined, getLattice(v));
    return joined;
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return of(ifOp.getCondition());
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return of({forOp.getLowerBound(), forOp.getUpperBound(),
               forOp.getStep()});
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return of(whileOp.getConditionOp().getCondition());
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return of(switchOp.getArg());
  return std::nullopt;
}

void UniformityAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<UniformityLattice *> argLattices, unsigned firstIndex) {
  // Induction variables: as uniform as the bounds (a loop from a thread id
  // walks different values in each thread).
  UniformityValue bounds(UniformityLevel::Uniform);
  ProgramPoint *point = getProgramPointAfter(op);
  auto read = [&](Value v) {
    return getLatticeElementFor(point, v)->getValue();
  };
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (Value v :
         {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()})
      bounds = UniformityValue::join(bounds, read(v));
  } else if (isa<scf::ParallelOp, scf::ForallOp, affine::AffineForOp,
                 affine::AffineParallelOp>(op)) {
    for (Value v : op->getOperands())
      bounds = UniformityValue::join(bounds, read(v));
  } else {
    return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
  }
  for (auto [i, lattice] : llvm::enumerate(argLattices)) {
    if (i >= firstIndex && i < firstIndex + successor.getSuccessorInputs().size())
      continue;
    propagateIfChanged(lattice, lattice->join(bounds));
  }
}

void UniformityAnalysis::visitRegionSuccessors(
    ProgramPoint *point, RegionBranchOpInterface branch,
    RegionSuccessor successor,
    ArrayRef<dataflow::AbstractSparseLattice *> lattices) {
  // The framework's own propagation (private in MLIR 22, so spelled out):
  // join what every known predecessor forwards, and let
  // visitNonControlFlowArguments set what no predecessor forwards.
  const auto *predecessors =
      getOrCreateFor<dataflow::PredecessorState>(point, point);
  for (Operation *predecessor : predecessors->getKnownPredecessors()) {
    std::optional<OperandRange> operands;
    if (predecessor == branch.getOperation())
      operands = branch.getEntrySuccessorOperands(successor);
    else if (auto terminator =
                 dyn_cast<RegionBranchTerminatorOpInterface>(predecessor))
      operands = terminator.getSuccessorOperands(successor);
    if (!operands)
      return AbstractSparseForwardDataFlowAnalysis::setAllToEntryStates(
          lattices);
    ValueRange inputs = predecessors->getSuccessorInputs(predecessor);
    unsigned firstIndex = 0;
    if (inputs.size() != lattices.size()) {
      if (!inputs.empty())
        firstIndex = point->isBlockStart()
                         ? cast<BlockArgument>(inputs.front()).getArgNumber()
                         : cast<OpResult>(inputs.front()).getResultNumber();
      SmallVector<UniformityLattice *> typed = llvm::map_to_vector(
          lattices, [](dataflow::AbstractSparseLattice *lattice) {
            return static_cast<UniformityLattice *>(lattice);
          });
      visitNonControlFlowArguments(branch, successor, typed, firstIndex);
    }
    for (auto [lattice, operand] :
         llvm::zip(lattices.drop_front(firstIndex), *operands))
      join(lattice, *getLatticeElementFor(point, operand));
  }

  // Control dependence: values merged after a divergent branch (the
  // results of an scf.if on a divergent condition, of a loop whose threads
  // leave at different times) differ between threads whatever was yielded.
  if (point->isBlockStart() && !isa<scf::WhileOp>(branch))
    return;
  std::optional<UniformityValue> control =
      controlUniformity(branch, [&](Value v) {
        return getLatticeElementFor(point, v)->getValue();
      });
  if (!control || control->getLevel() == UniformityLevel::Uniform)
    return;
  for (dataflow::AbstractSparseLattice *abstract : lattices) {
    auto *lattice = static_cast<UniformityLattice *>(abstract);
    propagateIfChanged(lattice, lattice->join(*control));
  }
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

void threadbind::loadUniformityAnalysis(DataFlowSolver &solver) {
  dataflow::loadBaselineAnalyses(solver);
  solver.load<UniformityAnalysis>();
}

UniformityValue threadbind::getUniformity(const DataFlowSolver &solver,
                                          Value value) {
  const UniformityLattice *lattice =
      solver.lookupState<UniformityLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return {UniformityLevel::Divergent};
  return lattice->getValue();
}

bool threadbind::isWarpUniform(const DataFlowSolver &solver, Value value) {
  return getUniformity(solver, value).getLevel() !=
         UniformityLevel::Divergent;
}

std::optional<UniformityValue>
threadbind::getBranchUniformity(const DataFlowSolver &solver, Operation *op) {
  auto read = [&](Value v) { return getUniformity(solver, v); };
  if (std::optional<UniformityValue> control = controlUniformity(op, read))
    return control;
  if (auto condBr = dyn_cast<cf::CondBranchOp>(op))
    return read(condBr.getCondition());
  if (auto switchOp = dyn_cast<cf::SwitchOp>(op))
    return read(switchOp.getFlag());
  return std::nullopt;
}

FailureOr<SmallVector<DivergentBranch>>
threadbind::findDivergentBranches(Operation *root) {
  DataFlowSolver solver;
  loadUniformityAnalysis(solver);
  if (failed(solver.initializeAndRun(root)))
    return failure();
  SmallVector<DivergentBranch> branches;
  // Pre-order, so a report reads in source order, outer loops first.
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!op->getParentOfType<gpu::LaunchOp>() &&
        !op->getParentOfType<gpu::GPUFuncOp>())
      return;
    std::optional<UniformityValue> decision = getBranchUniformity(solver, op);
    if (decision && decision->getLevel() == UniformityLevel::Divergent)
      branches.push_back({op, *decision});
  });
  return branches;
}
