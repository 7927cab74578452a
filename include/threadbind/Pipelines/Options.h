//===- Options.h - The options of each pipeline stage -----------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// One struct per stage of the pipeline, with named fields and their
// defaults, each declaring its options once in `bindOptions`. The same
// declaration is bound to a registered pass pipeline
// (`threadbind-opt --threadbind-to-ptx='...'`, BoundPipelineOptions) and
// to threadbind-compile's command line (CommandLineBinder,
// OptionsBinding.h), so the driver and the pipeline take the same
// spellings, descriptions and defaults and build the same passes.
//
// A binder `b` is anything with
//   b.option(field, "name", llvm::cl modifiers...)  // a single value
//   b.list(field, "name", llvm::cl modifiers...)    // comma-separated
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_PIPELINES_OPTIONS_H
#define THREADBIND_PIPELINES_OPTIONS_H

#include "threadbind/Target/Target.h"
#include "threadbind/Transforms/PassEnums.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::threadbind {

/// Threads a block: a positive count, or `auto`, which only
/// threadbind-compile resolves (it weighs the occupancy of each candidate
/// size from the registers ptxas reports).
struct BlockThreads {
  /// 0 means auto.
  int64_t count = kDefaultThreadsPerBlock;

  bool isAuto() const { return count == 0; }
};
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, BlockThreads threads);

/// How parallel loops are bound to blocks and threads
/// (threadbind-map-loops-to-threads).
struct MappingOptions {
  BlockThreads threadsPerBlock;
  /// Explicit block shape (x, y, z); overrides threadsPerBlock.
  SmallVector<int64_t, 3> blockShape;
  /// Loop dimensions, as written, for x, y, z in that order.
  SmallVector<int64_t, 3> dimOrder;
  GridPolicy gridPolicy = GridPolicy::GridStride;
  /// Static cap on a grid-stride grid; 0 asks the host at run time.
  int64_t maxBlocks = 0;
  /// Run what cannot be bound in parallel on one thread, with a warning,
  /// instead of refusing the program.
  bool sequentialFallback = true;
  /// Run scf.for loops that only accumulate as parallel reductions.
  bool loopReductions = true;
  /// Stage transposes and permutations through workgroup memory.
  bool stageTransposes = true;
  /// Run contiguous nests as one loop where the sizes allow.
  bool collapseNests = true;
  /// Several outputs a thread for matmul-shaped nests.
  bool registerTiles = true;
  /// Register-tiled k loops staged through workgroup memory.
  bool sharedTiles = true;
  /// Give stencil nests a cover launch for widening, beside the
  /// grid-stride one.
  bool stencilCover = true;

  template <typename Binder> void bindOptions(Binder &b) {
    namespace cl = llvm::cl;
    b.option(threadsPerBlock, "threads-per-block",
             cl::desc("Threads per block, or 'auto' (threadbind-compile "
                      "only): the size the ptxas-reported registers let "
                      "keep the most threads resident. Reductions take it "
                      "in whole warps (rounded down, at least 32)"),
             cl::value_desc("n|auto"));
    b.list(blockShape, "block-shape",
           cl::desc("Explicit block shape x,y,z (overrides "
                    "threads-per-block); a loop of fewer dimensions folds "
                    "the rest into its last (8,8 runs a 1-D loop in "
                    "64x1x1 blocks); reductions take its threads in whole "
                    "warps (rounded down, at least 32)"));
    b.list(dimOrder, "dim-order",
           cl::desc("Loop dimensions, as written, to bind to x, y, z in that "
                    "order (overrides the coalescing analysis); a loop "
                    "without a dimension it names is left to the analysis "
                    "when another loop of the program has them"));
    b.option(gridPolicy, "grid-policy",
             cl::desc("How the grid covers the loop"),
             cl::values(clEnumValN(GridPolicy::GridStride, "grid-stride",
                                   "occupancy-sized grid, every thread loops"),
                        clEnumValN(GridPolicy::Cover, "cover",
                                   "ceil-div grid, one guarded iteration per "
                                   "thread")));
    b.option(maxBlocks, "max-blocks",
             cl::desc("Static cap on the blocks of a grid-stride grid; 0 "
                      "asks the host at run time"));
    b.option(sequentialFallback, "sequential-fallback",
             cl::desc("Run a loop that cannot be bound in parallel, and host "
                      "code that touches memref data, on one GPU thread with "
                      "a warning; false refuses such loops and leaves host "
                      "code on the host, which a bundle or header then "
                      "refuses where it touches memref data"));
    b.option(loopReductions, "loop-reductions",
             cl::desc("Run scf.for loops that only accumulate (iter_args, "
                      "or an accumulator in memory as linalg's loops keep "
                      "one) as parallel reductions; float sums and products "
                      "then round in the reduction's order (on by default; "
                      "=false keeps such loops as written, bit for bit)"));
    b.option(stageTransposes, "stage-transposes",
             cl::desc("Run a nest whose loads and stores walk memory "
                      "contiguously along different loop dimensions (a "
                      "transpose, a permutation) through tiles in "
                      "workgroup memory, so both sides coalesce"));
    b.option(registerTiles, "register-tiles",
             cl::desc("Give each thread of a matmul-shaped 2-D nest (each "
                      "output a loop over k reading one array along its row "
                      "and one along its column) a 4x2 tile of outputs, "
                      "sharing each k's row and column loads across it"));
    b.option(sharedTiles, "shared-tiles",
             cl::desc("Run the k loop of a register-tiled 2-D nest through "
                      "workgroup memory where its tiles fill the device: a "
                      "block reads each k step's rows and columns once, "
                      "coalesced, and each thread computes 8x8 outputs "
                      "from them"));
    b.option(stencilCover, "stencil-cover",
             cl::desc("Under grid-policy=grid-stride, give a 2-D or 3-D "
                      "nest that reads rows at shifted offsets along x (a "
                      "stencil's j-1, j, j+1) a cover launch too, widened "
                      "to a vector a thread, which the host runs where "
                      "every row starts alike and the grid fits; the "
                      "grid-stride launch runs otherwise; "
                      "threadbind-widen-accesses keeps the cover launch "
                      "where it widens it and drops it elsewhere "
                      "(vector-bytes=0 keeps one launch)"));
    b.option(collapseNests, "collapse-nests",
             cl::desc("Run a nest whose accesses all walk row-major "
                      "memrefs in the loop's order as one loop over the "
                      "product of its extents, when the memrefs' inner "
                      "sizes equal the extents at run time"));
  }
};

/// How loops with reductions are bound (threadbind-map-reductions).
struct ReductionOptions {
  /// Elements a thread folds an iteration (0: as many as keep 8 loads in
  /// flight).
  int64_t unroll = 0;
  CrossBlockCombine crossBlock = CrossBlockCombine::SecondKernel;
  /// Rows short enough for one warp get one-warp blocks.
  bool warpRows = true;
  /// Column reductions with few outputs split each over a block's rows.
  bool splitColumns = true;

  template <typename Binder> void bindOptions(Binder &b) {
    namespace cl = llvm::cl;
    b.option(unroll, "reduction-unroll",
             cl::desc("Elements a thread folds per iteration of a "
                      "reduction's main loop (1 to 16); 0 chooses"));
    b.option(crossBlock, "reduction-cross-block",
             cl::desc("How the blocks of a full reduction combine"),
             cl::values(clEnumValN(CrossBlockCombine::SecondKernel,
                                   "second-kernel",
                                   "a second kernel folds the blocks' "
                                   "results in order (the same result every "
                                   "run)"),
                        clEnumValN(CrossBlockCombine::Atomic, "atomic",
                                   "hardware atomics where the combiner has "
                                   "one (float sums then vary with block "
                                   "order)")));
    b.option(warpRows, "reduction-warp-rows",
             cl::desc("Give reduction rows of up to 512 elements one-warp "
                      "blocks"));
    b.option(splitColumns, "reduction-split-columns",
             cl::desc("Split each of a loop of column reductions (column "
                      "sums, A^T x) over a block's rows of threads while "
                      "the outputs are fewer than the device holds "
                      "threads"));
  }
};

/// Divergence-aware clean-up and widening of the bound kernels.
struct KernelOptions {
  /// What to do with a cover launch's bounds check that is not provably
  /// dead.
  TailStrategy tail = TailStrategy::Pad;
  /// Hoist uniform, loop-invariant conditions out of GPU loops.
  bool unswitch = true;
  /// Turn small divergent branches into selects and min/max.
  bool predicate = true;
  /// Vectors a thread handles an iteration in widened loops.
  unsigned widenUnroll = 1;
  /// Also widen thread loops nested in other loops (2-D rows).
  bool widenNested = true;
  /// Give launches a copy counting and addressing in 32 bits, run where
  /// the host finds the sizes small enough.
  bool narrowIndices = true;

  template <typename Binder> void bindOptions(Binder &b) {
    namespace cl = llvm::cl;
    b.option(tail, "tail",
             cl::desc("Bounds checks of cover launches that are not provably "
                      "dead"),
             cl::values(clEnumValN(TailStrategy::Pad, "pad",
                                   "threads past the end run on padding "
                                   "(arguments marked threadbind.padded_to, "
                                   "allocations the function owns); else "
                                   "the check stays"),
                        clEnumValN(TailStrategy::Split, "split",
                                   "full blocks run without the check"),
                        clEnumValN(TailStrategy::Keep, "keep",
                                   "the check stays")));
    b.option(unswitch, "unswitch",
             cl::desc("Hoist uniform, loop-invariant conditions out of GPU "
                      "loops"));
    b.option(predicate, "predicate",
             cl::desc("Turn small divergent branches in kernels into selects "
                      "and min/max"));
    b.option(widenUnroll, "widen-unroll",
             cl::desc("Vectors a thread handles an iteration in widened "
                      "loops"));
    b.option(widenNested, "widen-nested-loops",
             cl::desc("Also widen thread loops nested in other loops (2-D "
                      "rows), rebalancing the grid where it can"));
    b.option(narrowIndices, "narrow-indices",
             cl::desc("Give each launch with nested loops or "
                      "multi-dimensional accesses a copy that counts and "
                      "addresses in 32 bits, run when the host finds every "
                      "size it assumed and every accessed memref below 2^31 "
                      "elements (doubles those kernels)"));
  }
};

/// The chip and the device code generation.
struct TargetOptions {
  std::string chip = kDefaultChip.str();
  /// LLVM optimisation level for the device, 0 to 3.
  unsigned optLevel = 3;
  /// Let kernels fuse float multiply-add into FMA, as nvcc does.
  bool fpContract = true;
  /// Load memrefs a kernel only reads through the read-only data cache,
  /// where the host finds them disjoint from what it writes. Off by
  /// default: it doubles the kernels, and on an H200 (2026-11-26) no
  /// PolyBench or Triton-comparison kernel ran faster with it.
  bool readOnlyLoads = false;
  /// The CUDA toolkit to take ptxas and libdevice from; empty: searched
  /// for (getCudaToolkitCandidates).
  std::string cudaPath;

  template <typename Binder> void bindOptions(Binder &b) {
    namespace cl = llvm::cl;
    b.option(chip, "chip", cl::desc("Target chip, e.g. sm_80 or sm_90"));
    b.option(optLevel, "opt-level",
             cl::desc("LLVM optimisation level for the device (0-3)"));
    b.option(fpContract, "fp-contract",
             cl::desc("Let kernels fuse float multiply-add into FMA, as nvcc "
                      "does by default"));
    b.option(readOnlyLoads, "read-only-loads",
             cl::desc("Give each launch that reads some memrefs and writes "
                      "others a copy loading the read-only ones through the "
                      "read-only data cache (ld.global.nc), run when the host "
                      "finds their bytes disjoint from the written ones' "
                      "(doubles those kernels)"));
    b.option(cudaPath, "cuda-path",
             cl::desc("CUDA toolkit to take ptxas and libdevice from "
                      "(default: $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, "
                      "/usr/local/cuda, then the ptxas on PATH)"),
             cl::value_desc("dir"));
  }
};

/// What both the mapping and the kernel stage read.
struct SharedOptions {
  /// Report every decision of every stage as a remark.
  bool remarks = false;
  /// Widest vector access, in bytes, that reductions load through and
  /// thread loops are widened to (4, 8 or 16; 0 keeps them scalar).
  unsigned vectorBytes = kDefaultVectorBytes;

  template <typename Binder> void bindOptions(Binder &b) {
    namespace cl = llvm::cl;
    b.option(remarks, "remarks",
             cl::desc("Emit a remark per loop, reduction and branch stating "
                      "what was done to it and why"));
    b.option(vectorBytes, "vector-bytes",
             cl::desc("Widest vector access reductions and thread loops use "
                      "(4, 8 or 16 bytes; 0 keeps them scalar)"));
  }
};

/// `threadbind-map-to-gpu`: normalise and bind.
struct MapToGPUOptions {
  SharedOptions shared;
  MappingOptions mapping;
  ReductionOptions reductions;

  template <typename Binder> void bindOptions(Binder &b) {
    shared.bindOptions(b);
    mapping.bindOptions(b);
    reductions.bindOptions(b);
  }
  /// A message naming the first bad value, or an empty string.
  std::string verify() const;
};

/// `threadbind-to-ptx` and threadbind-compile: every stage.
struct CompileOptions {
  SharedOptions shared;
  MappingOptions mapping;
  ReductionOptions reductions;
  KernelOptions kernels;
  TargetOptions target;

  template <typename Binder> void bindOptions(Binder &b) {
    shared.bindOptions(b);
    mapping.bindOptions(b);
    reductions.bindOptions(b);
    kernels.bindOptions(b);
    target.bindOptions(b);
  }
  /// A message naming the first bad value, or an empty string. `auto`
  /// threads a block pass only if `allowAutoThreads` (the driver resolves
  /// them before building the pipeline).
  std::string verify(bool allowAutoThreads = false) const;
  MapToGPUOptions getMapToGPUOptions() const {
    return {shared, mapping, reductions};
  }
};

} // namespace mlir::threadbind

namespace llvm::cl {
/// Parses `threads-per-block`: a positive number or `auto`.
template <>
class parser<mlir::threadbind::BlockThreads>
    : public basic_parser<mlir::threadbind::BlockThreads> {
public:
  parser(Option &option) : basic_parser(option) {}
  bool parse(Option &option, StringRef argName, StringRef arg,
             mlir::threadbind::BlockThreads &value);
  StringRef getValueName() const override { return "n|auto"; }
  void printOptionDiff(const Option &option,
                       mlir::threadbind::BlockThreads value,
                       const OptVal &defaultValue, size_t globalWidth) const;
  void anchor() override;
};
} // namespace llvm::cl

#endif // THREADBIND_PIPELINES_OPTIONS_H
