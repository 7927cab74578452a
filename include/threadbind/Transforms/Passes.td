//===- Passes.td - ThreadBind transformation passes --------*- tablegen -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Every ThreadBind pass is declared here, with typed options and statistics.
// The generated markdown (docs/Passes.md) is built from this file.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TRANSFORMS_PASSES
#define THREADBIND_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def MapLoopsToThreadsPass : Pass<"threadbind-map-loops-to-threads",
                                 "ModuleOp"> {
  let summary = "Bind outermost scf.parallel loops to GPU blocks and threads";
  let description = [{
    Turns every outermost `scf.parallel` of every function (not one already
    inside a `gpu.launch`) into a `gpu.launch` whose threads run the loop's
    iterations.

    The loop dimension that goes to threadIdx.x is chosen from the loads and
    stores in the body: the one whose induction variable walks a memref's
    unit-stride dimension one element at a time, weighted by the bytes those
    accesses move, so a warp's accesses coalesce. Ties go to the innermost
    dimension; `dim-order` forces a choice. The next dimensions go to y and
    z; with more than three, all but the first two are linearised onto z and
    delinearised inside the kernel.

    The default block has 256 threads: 256 in 1-D, 32x8 in 2-D and, in 3-D,
    64x4x1 where the body reads at most 16 elements an iteration (loads in
    inner loops counted by their static trip counts) and 32x4x2 where it
    reads more or an inner loop's trip count is not static (blocks over two
    planes keep more of a dense neighbourhood in L1); shrunk along a
    dimension whose static extent is smaller (the freed threads move to the
    other dimensions).

    With `grid-policy=grid-stride` (the default) every thread loops with
    stride gridDim * blockDim along each dimension, so any extent runs on a
    grid sized for the device. That grid is the work's ceil-div capped by
    `max-blocks`, or, when it is 0, by what the host function
    `threadbind_max_resident_blocks(threads per block)` returns at run time
    (occupancy x SM count; the runtime library provides it, and a module may
    define its own). Dimensions take what they need of the cap x first. A
    3-D stencil (a body that reads some memref at two places) in blocks one
    plane deep also tries an even split of the last two (the last promised
    up to 16 blocks) and keeps the grid whose blocks walk fewer tiles: a
    382^3 stencil gets 6 x 11 x 16 of 1056 resident blocks rather than
    6 x 96 x 1. Streams keep the greedy grid, which walks one plane at a
    time. threadbind-widen-accesses lifts that run-time cap for the loops
    it widens alone in their launch (see there). With `grid-policy=cover`
    the grid covers the loop with one guarded iteration per thread along
    every dimension. The x extent must fit in 2^31 - 1 blocks: a static one
    that does not is an error. Grids stay within 65535 blocks along y and
    z, so a cover launch of a 2-D or 3-D loop has a copy that loops along
    them, and the host runs it where the sizes need more blocks there (a
    static size that fits, or that does not, leaves only the launch it
    needs); the loops' set-up in every thread cost PolyBench conv3d's
    kernel 7% of its time. Index arithmetic is 64-bit.

    With `stencil-cover` (which the pipelines set by default), a nest of
    two or three dimensions that reads one row of a memref at two offsets
    along x (a stencil's `a[i][j-1]` and `a[i][j+1]`) becomes two launches
    under the grid-stride policy when `vector-bytes` holds two elements of
    its widest type and `max-blocks` is 0: a cover launch (with guards
    along every dimension; in 3-D, without `block-shape`, in blocks 16
    threads wide, 64 elements once widened, which on an H200 ran 318-wide
    rows 11-18% faster than 64x4x1 blocks:
    bench/results/2026-11-29-stencil-choice-blocks-h200.log) in the
    then-branch of a host `scf.if` that
    holds where every outer stride of each memref the nest accesses is a
    whole number of vectors and the cover grid fits, and the grid-stride
    launch in the else-branch. threadbind-widen-accesses widens stencils
    in cover launches only; it keeps the cover launch where it widens it
    and drops it elsewhere (until it runs, both launches are there, each
    right). On an H200 the widened cover launch ran 1.05-1.6x faster than
    the grid-stride one, which ran faster at odd row lengths, where no
    vector start serves every row
    (bench/results/2026-11-29-stencil-widen-h200.md). Static sizes settle
    the test when the IR is canonicalized.

    A function whose loops cannot all run on the device (calls to host
    functions, allocation, ops with unknown side effects, reductions, values
    a kernel cannot take, gpu ops other than `gpu.printf`, tensors, memref
    layouts that are not strided, arithmetic on floats other than f16, bf16,
    f32 and f64) gets an error at the offending op and is left as it was.
    Linalg ops on tensors stay on the host, with a warning. A store whose
    element a load of another iteration reads (`A[i] = A[i - 1] + ...`, a
    sum into `b[j]` over a parallel `i`) gets a warning, with a note at the
    load: scf.parallel promises independent iterations, and the loop is
    mapped as written.

    Nested `scf.parallel` loops that canonicalization could not merge into
    one (the inner bounds depend on the outer induction variables, or there
    is code between the loops) run one outer iteration per block, with a
    grid-stride loop over blocks, and the nested loop's iterations over the
    block's threads, its dimensions chosen as above; pure code between the
    loops is computed by every thread. When the code between has side
    effects, the nested loop instead runs sequentially inside each thread,
    which keeps the meaning. `dim-order` then applies to the nested loop.

    A nest whose stores all walk one loop dimension S with unit stride while
    some loads (of arrays of rank 2 or more, which S moves across rows) walk
    another, L, such as a transpose, a 3-D or 4-D permutation or an
    NCHW-to-NHWC change, cannot coalesce both with one mapping. With
    `stage-transposes` (the default), and neither `block-shape` nor
    `dim-order` given, it runs one 32x32 tile of (L, S) a block (the other
    dimensions and the tiles linearised onto blockIdx.x): the loads are read
    with threadIdx.x along L into workgroup memory (rows padded to 33
    elements against bank conflicts), a `gpu.barrier`, then the body runs
    with threadIdx.x along S, its stores coalesced. Blocks are 32 threads
    wide and have as few rows as give each thread 4 rows of the tile in a
    2-D nest, 16 in a deeper one and 32 in a packed tile (below), at most
    threads-per-block / 32, as measured fastest on an H200. Each row is
    checked against the loop's bounds, so ragged and empty extents need
    nothing more; a thread loads up to 8 rows before it stores any. A loop
    dimension that walks the next memref dimension out of L's (NCHW's h
    beside w) is walked with L as one position, and likewise beside S, so
    a short contiguous dimension still fills the tile. With elements of 1
    or 2 bytes (and `vector-bytes` at least 4), each thread moves 4 bytes'
    worth of contiguous elements a global access, over a tile of
    (32 * 4 / bytes)^2 elements: one vector access where a run-time check
    finds the elements inside the loop, contiguous in memory and aligned,
    one element at a time otherwise; in between, each thread transposes
    4-byte blocks in registers, so workgroup memory is accessed 4 bytes at
    a time too (the tile XOR-swizzled against bank conflicts). Such a nest
    whose elements all have one width, and a deeper-than-2-D nest of
    4-byte elements, with `vector-bytes` at least 16, gets a second launch
    of the same tile that the host runs where every access's chunks of 16
    bytes along the tile are contiguous and start on 16 bytes (outer
    strides and first elements on 16 bytes, or an axis of two dimensions
    whose rows follow each other): each thread moves 16 bytes an access on
    both sides in 32x8 blocks, one element at a time only at the loop's
    edges or where a pointer is off 16 bytes. A 2-D nest of 4-byte
    elements (and `vector-bytes` at least 8) gets two launches: 64x64
    tiles of two elements a thread an access in 32x8 blocks, which the
    host runs where every access's rows start on 8 bytes (its first
    element and its memref's outer strides), and otherwise tiles of 128
    positions of S by 32 of L in which each thread stores 4 elements 32
    apart in each row, where the nest stages one load.

    A 2-D nest each of whose outputs runs a loop over k (an `scf.for`
    carrying values, or an `scf.parallel` reducing them; bounds the nest
    does not vary) that loads from one array along the row dimension and
    from another along the column dimension (the one the stores walk
    contiguously), as gemm and the products of 2mm and 3mm do, gets
    register tiles with `register-tiles` (the default), and neither
    `block-shape` nor `dim-order` given: blocks of 32 x (threads-per-block /
    32) threads, each thread computing 4 rows (threads-per-block / 32
    apart) by 2 columns (32 apart) of a block's tile, the tiles grid-stride
    over blockIdx.x. The k loop runs once a thread, carrying every output's
    values in k order; at each k an op of its body that depends on the row
    alone runs once a row of the tile, on the column alone once a column,
    and the rest once an output: gemm makes 6 loads for 8 multiply-adds
    instead of 16. Rows and columns past the end are computed on the last
    row or column, so every load stays inside what the loop reads, and are
    not stored. The host runs the tiles while they are at least as many as
    the device holds blocks (`threadbind_max_resident_blocks`, or
    `max-blocks`); with fewer, a thread an output fills the device better,
    and the nest is mapped as any other.

    Triangular nests get the same tiles: an `scf.parallel` over rows whose
    body is a single `scf.parallel` over columns (and pure code for its
    bounds), the column bounds linear in the row (syrk's `j <= i`,
    covariance's `j >= i`; step 1 where the lower bound moves), each index
    of every load depending on the row or the column but not both. The
    tiles cover the rectangle around the triangle; a thread none of whose
    outputs lies inside skips the k loop, and only outputs inside are
    stored. With fewer tiles than resident blocks, the same blocks run an
    output a thread.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "func::FuncDialect", "gpu::GPUDialect",
    "memref::MemRefDialect", "scf::SCFDialect", "vector::VectorDialect"
  ];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           "::mlir::threadbind::kDefaultThreadsPerBlock",
           "Threads per block, shaped 256, 32x8, 64x4x1 or 32x4x2 style "
           "by the number of bound dimensions">,
    ListOption<"blockShape", "block-shape", "int64_t",
               "Explicit block shape x,y,z (overrides threads-per-block); "
               "a loop of fewer dimensions folds the rest into its last "
               "(8,8 runs a 1-D loop in 64x1x1 blocks)">,
    ListOption<"dimOrder", "dim-order", "int64_t",
               "Loop dimensions to bind to x, y, z in that order (overrides "
               "the access analysis); a loop without a dimension it names "
               "is left to the analysis when another loop of the module "
               "has them">,
    Option<"gridPolicy", "grid-policy", "mlir::threadbind::GridPolicy",
           "mlir::threadbind::GridPolicy::GridStride",
           "How the grid covers the iteration space",
           [{::llvm::cl::values(
             clEnumValN(mlir::threadbind::GridPolicy::GridStride,
                        "grid-stride",
                        "occupancy-sized grid, every thread loops"),
             clEnumValN(mlir::threadbind::GridPolicy::Cover, "cover",
                        "ceil-div grid, one guarded iteration per thread "
                        "(with a copy looping along y and z past 65535 "
                        "blocks there)"))}]>,
    Option<"maxBlocks", "max-blocks", "int64_t", "0",
           "Static cap on a grid-stride grid's blocks; 0 asks the host at run "
           "time">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Emit a remark per loop stating the binding and why">,
    Option<"sequentialFallback", "sequential-fallback", "bool", "false",
           "Leave a loop that can run on the device but not in parallel "
           "(reductions, ops with unknown effects) to "
           "threadbind-sequential-kernels, with a warning, instead of "
           "refusing it">,
    Option<"stageTransposes", "stage-transposes", "bool", "true",
           "Run a nest whose loads walk memory contiguously along another "
           "loop dimension than its stores (a transpose, a permutation) "
           "through tiles in workgroup memory, both sides coalesced">,
    Option<"stencilCover", "stencil-cover", "bool", "false",
           "Under grid-policy=grid-stride, give a nest that reads rows at "
           "shifted offsets along x (a stencil's) a cover launch too, which "
           "the host runs where every row starts alike, for "
           "threadbind-widen-accesses to widen or drop (the pipelines set "
           "it unless told stencil-cover=false)">,
    Option<"vectorBytes", "vector-bytes", "unsigned",
           "::mlir::threadbind::kDefaultVectorBytes",
           "Widest vector access a staged tile may use: tiles of 1- and "
           "2-byte elements move 4 bytes a thread an access, and 16 where "
           "every chunk is aligned (chosen on the host), as do 4-byte "
           "elements in nests deeper than 2-D; 4-byte elements in 2-D "
           "nests move 8 where every row is aligned; where memory "
           "is contiguous and aligned, checked at run time (0 or below 4 "
           "moves one element)">,
    Option<"registerTiles", "register-tiles", "bool", "true",
           "Give each thread of a matmul-shaped 2-D or triangular nest "
           "(each output a loop over k reading one array along its row and "
           "one along its column) a 4x2 tile of outputs, sharing each k's "
           "row and column loads across it, while the tiles fill the "
           "device">,
    Option<"sharedTiles", "shared-tiles", "bool", "true",
           "Run the k loop of a register-tiled 2-D nest through workgroup "
           "memory where the tiles fill the device: a block reads each k "
           "step's rows and columns of its tile once, coalesced, and each "
           "thread computes 8x8 outputs (8x4 for 8-byte values) from them">
  ];
  let statistics = [
    Statistic<"numLoopsMapped", "loops-mapped",
              "Number of scf.parallel loops turned into gpu.launch">,
    Statistic<"numLoopsLinearised", "loops-linearised",
              "Number of loops with more than three dimensions linearised">
  ];
}

def MapReductionsPass : Pass<"threadbind-map-reductions", "ModuleOp"> {
  let summary = "Map scf.parallel reductions to shuffles, block trees "
                "and a cross-block combine";
  let description = [{
    A reduction over several dimensions (an outermost one, or the reduction
    of a row below) is first rewritten into a 1-D one over its iterations
    numbered in row-major order, the last dimension varying fastest so a
    row-major walk stays coalesced; the induction variables are recomputed
    from that number by unsigned division, from trip counts that are exact
    for any bounds.

    An outermost 1-D `scf.parallel` with `scf.reduce`, outside any kernel,
    becomes two launches:
    - `threads-per-block` threads a block, as many blocks as the extent
      needs up to the resident ones (as grid-stride mapping sizes them):
      each thread folds its grid-stride share of the iterations into
      registers, starting from the combiner's identity, `unroll` elements
      an iteration into as many accumulators (loads in flight are what a
      memory-bound reduction needs; by default as many elements as keep 8
      loads in flight), then the rest one at a time;
      `gpu.all_reduce`
      combines the block (warp shuffles, then the warps' results through
      shared memory, never a divergent modulo pattern); thread 0 stores the
      block's result in a device scratch buffer (`gpu.alloc`);
    - one block folds those partial results the same way, combines the init
      value exactly once, and does what the host did with the results: the
      pure ops computed from them (`arith.addf %init, %red` as upstream's
      `-affine-parallelize` emits, a `math.sqrt`, a mean) and the stores of
      those, which follow the loop in its block with nothing between that
      touches memory.
    Blocks never race for the result, so floating-point results are the
    same from run to run. With `cross-block=atomic`, a combiner with a
    hardware atomic (integer add, and, or, xor, min and max; f32 and f64
    add) has each block combine its result into one accumulator, set to the
    identity by 32-bit memsets, with `memref.atomic_rmw`; the second kernel
    then only reads it. Integer results are the same either way; float
    sums then depend on the order in which blocks finish.

    A 1-D `scf.parallel` without reductions whose body is pure operations
    and loads, one such reduction loop, and the pure ops and stores its
    results go to
    (row sums, row maxima, a row's mean and norm) becomes one launch with one block a row: the block's threads
    fold a strided share of the row the same way, `gpu.all_reduce`
    combines them, and thread 0 combines the init value and does the rest.
    The
    host launches it only when there is a row. Where the row's bounds do
    not depend on the row, the host also chooses by its length: rows of
    up to 512 elements get blocks of one warp (`warp-rows`), whose
    all-reduce is the warp's shuffles, so short rows leave no threads
    idle.

    Where the reduced loop has step 1 and its body loads at the induction
    variable from the last, unit-stride dimension of a memref, each thread
    folds through vector loads of `vector-bytes` (`ld.global.v4` and
    friends): vectors a grid (or block) stride apart, `unroll` elements'
    worth an iteration, element by element into an accumulator a vector,
    then the elements past the last whole vector. Vector loads must be
    aligned, so a run-time check of every such load's first element, the
    same for every thread of the loop, picks that fold or the scalar one.

    Combiners: `addf`, `mulf`, `maxnumf`, `minnumf`, `maximumf`, `minimumf`
    on f16, bf16, f32 and f64; `addi`, `muli`, `andi`, `ori`, `xori`,
    `maxsi`, `minsi`, `maxui`, `minui` on i8, i16, i32, i64, index and i1
    (index reduces in i64 and i1 in i8, cast back after); and any
    region of pure ops on values of up to 32 bits. A region has no identity
    to start from, so each partial value carries a flag saying whether it
    holds anything, and the block combine moves value and flag together in
    one 64-bit shuffle; 8- and 16-bit values travel as 32 bits. Several
    results in one loop.

    Results that code the second kernel cannot take uses (a use in another
    block such as a later loop or a host loop's `scf.yield`, a value
    combined with one loaded after the loop, memory touched before the
    result is stored) come back to the host: the kernel stores each to a
    one-element device buffer, which is copied to a host buffer marked
    `threadbind.host_readback` that the host code reads (with `remarks`, a
    remark says so).

    A 1-D `scf.parallel` of the same shape whose reduction reads memory
    along the outer loop instead (column sums; the transposed halves of
    atax, bicg and mvt) coalesces with a thread an output, but a few
    thousand outputs with long reductions leave most of the GPU idle. While
    there are fewer outputs than the device holds threads (the host asks
    the resident blocks at run time, or takes `max-blocks`), such a loop
    runs blocks of 32 x (threads a block / 32) threads, one block for each
    32 outputs: each row of the block's threads folds every (threads a
    block / 32)-th element of the 32 reductions, its loads coalesced across
    the outputs, the partial results meet in workgroup memory after a
    `gpu.barrier`, and the first row combines them in order, adds the init
    value and does what the loop did with the result. An output's body may
    end in a 1-D parallel loop that follows the reduction (Gram-Schmidt's
    update of the column with the projection): the first row then leaves
    the result in workgroup memory, and after a second barrier the rows of
    threads share that loop's iterations. With more outputs the host runs
    the loop as it was, a thread an output, by the loop mapping.
    `split-columns=false` leaves every such loop to the loop mapping.

    A parallel loop whose iterations each run a program over a row runs one
    block per iteration: its body may hold several 1-D reductions (each
    folded by the block's threads and combined across the block, every
    thread getting the result), nested loops without reductions (their
    iterations shared among the block's threads), code every thread can run
    (pure, or only reading memory), and plain stores (run by thread 0), with
    a `gpu.barrier` between phases that share memory. It takes such a loop
    when it has a reduction, two nested loops, or a store besides a loop,
    unless a nested loop reads memory along the rows (a thread a row
    coalesces then), every nested loop is shorter than 32, or a loop or
    branch between them writes memory (thread 0 alone would run it).
    Softmax and layernorm rows and PolyBench's doitgen take this mapping.

    A reduction that cannot be mapped is an error at the offending op, and
    the module is left as it was (with the pipelines' sequential fallback,
    a warning, and the loop runs on one thread).
  }];
  let dependentDialects = [
    "arith::ArithDialect", "func::FuncDialect", "gpu::GPUDialect",
    "memref::MemRefDialect", "scf::SCFDialect", "vector::VectorDialect"
  ];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           "::mlir::threadbind::kDefaultThreadsPerBlock",
           "Threads in a block of each kernel (a multiple of 32)">,
    Option<"maxBlocks", "max-blocks", "int64_t", "0",
           "Most blocks of the first kernel; 0 asks the host for the "
           "resident ones at run time">,
    Option<"unroll", "unroll", "int64_t", "0",
           "Elements a thread folds per iteration of its main loop, each "
           "into its own accumulator (1 to 16); 0 chooses 8 loads in "
           "flight">,
    Option<"crossBlock", "cross-block", "mlir::threadbind::CrossBlockCombine",
           "mlir::threadbind::CrossBlockCombine::SecondKernel",
           "How the blocks of a full reduction combine",
           [{::llvm::cl::values(
             clEnumValN(mlir::threadbind::CrossBlockCombine::SecondKernel,
                        "second-kernel",
                        "a second kernel folds the blocks' results in order "
                        "(the same result every run)"),
             clEnumValN(mlir::threadbind::CrossBlockCombine::Atomic, "atomic",
                        "hardware atomics where the combiner has one (float "
                        "sums then vary with block order)"))}]>,
    Option<"warpRows", "warp-rows", "bool", "true",
           "Give rows of up to 512 elements one-warp blocks">,
    Option<"splitColumns", "split-columns", "bool", "true",
           "Split each reduction of a loop of column reductions over a "
           "block's rows of threads while the outputs are fewer than the "
           "device holds threads">,
    Option<"registerTiles", "register-tiles", "bool", "true",
           "Leave to threadbind-map-loops-to-threads, which register-tiles "
           "it, a triangular matmul-shaped nest whose outer body also "
           "stores (correlation's diagonal), instead of giving it a block "
           "an outer iteration">,
    Option<"vectorBytes", "vector-bytes", "int64_t",
           "::mlir::threadbind::kDefaultVectorBytes",
           "Fold through vector loads of up to this many bytes where the "
           "loop has step 1 and memory is aligned, checked at run time (4, "
           "8 or 16; 0 keeps scalar loads)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report each mapped reduction as a remark">,
    Option<"sequentialFallback", "sequential-fallback", "bool", "false",
           "Leave a reduction this pass cannot map, but the device can run, "
           "to threadbind-sequential-kernels, with a warning, instead of "
           "refusing it; a row reduction it cannot map runs in each thread "
           "of the loop mapping">
  ];
  let statistics = [
    Statistic<"numReductionsMapped", "reductions-mapped",
              "Number of reduction loops mapped to kernels">,
    Statistic<"numRowReductionsMapped", "row-reductions-mapped",
              "Number of loops of row reductions mapped a block a row">,
    Statistic<"numColumnReductionsMapped", "column-reductions-mapped",
              "Number of loops of column reductions split over block rows">,
    Statistic<"numBlockRowsMapped", "block-rows-mapped",
              "Number of loops whose iterations each run on a block">,
    Statistic<"numResultsReadBack", "results-read-back",
              "Number of reductions whose results come back to the host">
  ];
}

def SequentialKernelsPass
    : Pass<"threadbind-sequential-kernels", "ModuleOp"> {
  let summary = "Run what the mappers left, and host code that touches "
                "memory, in one-thread kernels";
  let description = [{
    The fallback that keeps a file compiling when a loop cannot be bound in
    parallel. Runs after threadbind-map-reductions and
    threadbind-map-loops-to-threads (the pipelines add it unless
    `sequential-fallback=false`) and moves into a `gpu.launch` of one block
    of one thread:

    - every `scf.parallel` still outside a kernel: the mapping passes leave
      the ones they cannot bind in parallel (a reduction they cannot map,
      an op with unknown effects), each with a warning naming why;
    - host code that reads or writes memref data, in a function that
      launches kernels, has loops left or takes memrefs: in a bundle,
      memrefs live in device memory, so the host cannot touch them. Other
      functions (a test harness that fills buffers and calls entries) stay
      as they are.

    Consecutive such ops of one block, with the pure ops between them, make
    one kernel; pure ops that need nothing from it stay on the host. A
    scalar (integer, index or float) that the kernel makes and host code
    uses afterwards is stored to device scratch and copied back. Host
    `memref.alloc` and `memref.alloca` buffers that kernels use become
    `gpu.alloc`, freed where the original was (at the end of its block for
    an alloca).

    Refused, with an error at the op and the module left as it was: code
    that cannot run on the device at all (calls to host functions, heap
    allocation, host runtimes, values a kernel cannot take), and results of
    other types that host code uses after the kernel.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "gpu::GPUDialect", "memref::MemRefDialect"
  ];
  let options = [
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report each one-thread kernel, and the parallelism a loop lost, "
           "as a remark">
  ];
  let statistics = [
    Statistic<"numLoopsSerialised", "loops-serialised",
              "Number of scf.parallel loops run on one thread">,
    Statistic<"numHostKernels", "host-kernels",
              "Number of one-thread kernels made from host code">
  ];
}

def ForallToParallelPass : Pass<"threadbind-forall-to-parallel"> {
  let summary = "Turn scf.forall loops on memrefs into scf.parallel";
  let description = [{
    What upstream `scf-forall-to-parallel` does, for the loops it can: an
    `scf.forall` without `shared_outs` becomes an `scf.parallel` over the
    same iteration space, for `threadbind-map-loops-to-threads` to bind.
    One with `shared_outs` works on tensors, which have no memory for a
    kernel to write until they are bufferized; it gets a warning and stays
    as it is, where the upstream pass fails without a word.
  }];
  let dependentDialects = ["scf::SCFDialect"];
  let statistics = [
    Statistic<"numConverted", "foralls-converted",
              "Number of scf.forall loops turned into scf.parallel">
  ];
}

def StripInternalMarksPass : Pass<"threadbind-strip-internal-marks"> {
  let summary = "Drop the marks ThreadBind's passes leave for each other "
                "from the input";
  let description = [{
    Some passes act on marks an earlier pass left: `threadbind.tail_guard`
    (the bounds check of a cover launch, which
    `threadbind-remove-tail-checks` may remove or split),
    `threadbind.grid_policy` (which widening and the manifest read) and
    `threadbind.unswitch_rejected`. Such a mark in the input would be a
    promise nobody checked, so this pass removes each one with a warning
    at its op. The pipelines (`threadbind-normalize` and everything built
    on it, and `threadbind-compile`) run it first; passes run one by one
    still see the marks, which is how their tests feed them.
  }];
  let statistics = [
    Statistic<"numMarksStripped", "marks-stripped",
              "Number of internal marks removed from the input">
  ];
}

def ExpandShapesToViewsPass : Pass<"threadbind-expand-shapes-to-views"> {
  let summary = "Rewrite reshapes MLIR 22 cannot lower as the views they "
                "are";
  let description = [{
    A `memref.expand_shape` whose `output_shape` gives more than one
    dynamic size in a reassociation group (a 1-D buffer viewed as an r x c
    matrix, both dynamic) crashes MLIR 22's expand-strided-metadata, which
    the host and device lowerings run (llvm-project issue 186830, fixed
    after that release). This pass replaces each such op with the
    `memref.reinterpret_cast` of its source that the lowering would have
    made: the source's offset, the output shape as sizes, and in each group
    strides from the innermost dimension's (the source dimension's stride)
    outwards, each the one inside it times that dimension's size. Other
    expand_shapes are left to the lowering. The normalisation pipeline runs
    it right after bufferization.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "expand_shapes rewritten as reinterpret_casts">
  ];
}

def BufferizeEntriesPass
    : Pass<"threadbind-bufferize-entries", "ModuleOp"> {
  let summary = "Bufferize tensors and return entry results through "
                "arguments";
  let description = [{
    Brings what front ends emit to what a bundle entry takes: memrefs with
    the identity layout and scalars in, nothing returned.

    A module that holds tensors goes through upstream's One-Shot Bufferize
    across function boundaries, with identity layouts on every signature
    and wherever bufferization must choose a layout (a strided view that
    crosses a boundary is copied). Destinations are written in place where
    the analysis allows, so a function in destination-passing style writes
    its `outs` argument.

    Then the results of entry functions (public, with a body, other than
    `main`) become arguments. A result that is one of the function's
    arguments is dropped: the caller holds that buffer already. A scalar
    result is stored to a 0-d memref. Memref results are appended as
    arguments in result order (upstream's buffer-results-to-out-params);
    the buffer the function allocated for one is replaced by the argument
    when its size is static or given by arguments, and copied into it
    otherwise. Each such argument gets `threadbind.result`, the index of
    the result it holds as written, which the manifest reports. Calls in
    the module to an entry with a dynamically shaped result are inlined,
    since only the callee knows the size to allocate; a call that cannot be
    inlined is an error at the call. Results of other types are an error at
    the function.

    In a module it changed, the pass frees at the end of each one-block
    function the buffers allocated at its top that nothing frees, returns,
    stores or hands on, such as those of intermediate tensors.
  }];
  let dependentDialects = [
    "bufferization::BufferizationDialect", "memref::MemRefDialect"
  ];
  let statistics = [
    Statistic<"numModulesBufferized", "modules-bufferized",
              "Number of modules whose tensors were bufferized">,
    Statistic<"numResultsPassedOut", "results-passed-out",
              "Number of results turned into out-parameters">,
    Statistic<"numBuffersFreed", "buffers-freed",
              "Number of deallocations added for temporary buffers">
  ];
}

def InlineLoopCallsPass : Pass<"threadbind-inline-loop-calls", "ModuleOp"> {
  let summary = "Inline the functions that parallel loops call";
  let description = [{
    A kernel cannot call a function of the host program, so the mapping
    refuses a loop whose body calls one. This pass replaces each call in
    the body of an `scf.parallel`, `scf.forall` or `affine.parallel`
    outside any kernel by the body of the `func.func` it calls, again for
    the calls that brings in, up to 16 levels. A function stays for its
    other callers; a private one that no call is left to is erased (its
    code lives on in the loops). A callee of several blocks (an early
    `return`) is inlined into an `scf.execute_region` that takes the call's
    place, since a loop's body is one block. A call stays where the callee
    is a declaration (a host or library function) or can call itself
    (directly or through other functions); the mapping then refuses the
    loop, saying which. A call of a C math library function the module
    declares (`expf`, `sqrt`, `fabsf`, `powf`, `fmin`, `fma`, ...: the
    double version by its name, the float one with an `f`) becomes the
    `math` or `arith` op that computes the same, which kernels can run. The
    affine dialect takes no inlined calls into an `affine.parallel`, so the
    pipelines run this after `-lower-affine`.
  }];
  let dependentDialects = ["arith::ArithDialect", "cf::ControlFlowDialect",
                           "math::MathDialect", "scf::SCFDialect"];
  let statistics = [
    Statistic<"numCallsInlined", "calls-inlined",
              "Number of calls in parallel loops replaced by their callee">,
    Statistic<"numMathCallsReplaced", "math-calls-replaced",
              "Number of C math library calls in parallel loops replaced by "
              "math ops">,
    Statistic<"numHelpersErased", "helpers-erased",
               "Number of private functions erased once no call was left">
  ];
}

def ParallelizeLoopReductionsPass
    : Pass<"threadbind-parallelize-loop-reductions"> {
  let summary = "Turn scf.for loops that only accumulate into scf.parallel "
                "reductions";
  let description = [{
    Reductions written as sequential loops become `scf.parallel` reductions,
    which threadbind-map-reductions maps (a whole reduction over the grid,
    or one a row over a block or a warp). Innermost loops first, outside
    kernels:

    1. An accumulator in memory, as linalg's loops keep one (a load and a
       store of one element at indices fixed in the loop, before and after
       the update), becomes an iter_args value loaded before the loop and
       stored after it. Every write of the body must be such a store, and
       nothing else in the body may access the accumulator's memref or a
       view of it. Distinct function arguments and allocations are taken
       not to alias, as the mapping of parallel loops takes them.
    2. An `scf.for` over an index whose body writes no memory, and each of
       whose iter_args is used only by one op that combines it with the
       iteration's value and is yielded, becomes an `scf.parallel` with
       that op as the combiner: integer add, mul, and, or, xor, min and
       max; float min and max; and, unless `floats=false`, float add and
       mul, whose rounding then follows the reduction's order rather than
       the loop's.
    3. An `scf.for` in the body of a parallel loop, without iter_args, whose
       iterations touch elements of their own becomes an `scf.parallel`:
       every write is a `memref.store` directly in the body indexed by the
       induction variable itself in one position and by loop-invariant
       values in the others, and the body reads a memref it stores to (or
       a view of it) only where a store of it writes. Such are the
       elementwise loops of a softmax or layernorm row, which a block's
       threads can then share. Host loops stay sequential.
  }];
  let dependentDialects = ["memref::MemRefDialect", "scf::SCFDialect"];
  let options = [
    Option<"floats", "floats", "bool", "true",
           "Also reassociate float sums and products">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report each loop made a parallel reduction as a remark">
  ];
  let statistics = [
    Statistic<"numAccumulatorsPromoted", "accumulators-promoted",
              "Number of loops whose accumulators in memory became "
              "iter_args">,
    Statistic<"numLoopsParallelized", "loops-parallelized",
              "Number of scf.for loops made parallel reductions">,
    Statistic<"numLoopsMadeParallel", "loops-made-parallel",
              "Number of scf.for loops of independent iterations made "
              "scf.parallel">
  ];
}

def FoldTrivialParallelDimsPass
    : Pass<"threadbind-fold-trivial-parallel-dims"> {
  let summary = "Drop scf.parallel dimensions that run once, and loops "
                "that run no iteration, but keep a loop that runs once";
  let description = [{
    An `scf.parallel` with a dimension whose static trip count is 0 is
    replaced by its init values; dimensions with one trip are dropped, their
    induction variables replaced by their lower bounds. Unlike upstream's
    canonicalization, a loop whose every dimension runs once keeps one of
    them, and a loop that runs no iteration and whose results are only
    stored is kept whole:
    each stays a loop, so it still becomes a kernel (the second one writing
    its init values), rather than code on the host. `threadbind-normalize` runs this in place of upstream's
    folding.
  }];
  let dependentDialects = ["scf::SCFDialect"];
  let statistics = [
    Statistic<"numDimsFolded", "loops-folded",
              "Number of scf.parallel loops with trivial dimensions folded">
  ];
}

def AllowFPContractionPass : Pass<"threadbind-allow-fp-contraction"> {
  let summary = "Let floating-point multiplies and adds in kernels fuse into FMA";
  let description = [{
    Adds the `contract` fast-math flag to every `arith.mulf`, `arith.addf`
    and `arith.subf` inside a `gpu.launch` body or a `gpu.func`, so the NVPTX
    backend may fuse a multiply and a dependent add into one `fma.rn`
    instruction: one rounding instead of two, half the latency. This is
    what nvcc does by default (`--fmad=true`); results can differ from an
    unfused computation in the last bits. Host code is left alone, so a CPU
    reference keeps its own rounding.
  }];
  let statistics = [
    Statistic<"numOpsMarked", "ops-marked",
              "Number of float ops given the contract flag">
  ];
}

def SinkGlobalsPass : Pass<"threadbind-sink-globals"> {
  let summary = "Make kernels read globals from their own module";
  let description = [{
    A `memref.get_global` computed on the host and used in a `gpu.launch`
    (a constant tensor after bufferization, a lookup table) would give the
    kernel a host address. This pass re-creates it, and the pure views taken
    of it, at the start of each launch that uses it, so that kernel
    outlining copies the `memref.global` into the `gpu.module` and the
    kernel reads the device's copy. Host code that reads or writes a global
    runs in kernels too (threadbind-sequential-kernels), so there is one
    copy that the program touches.

    What stays on the host (a call that takes the global, say) touches the
    host's copy, which kernels never see: a global without `constant` that
    kernels and host code both use, one side writing it (anything but loads,
    `memref.dim` and pure views), is an error at the host's use, with a note
    at the kernel's, and the pass fails. A global neither side writes is
    left to both.
  }];
  let dependentDialects = ["memref::MemRefDialect"];
  let statistics = [
    Statistic<"numGlobalsSunk", "globals-sunk",
              "Number of globals (or views of them) re-created in kernels">
  ];
}

def CollapseContiguousNestsPass
    : Pass<"threadbind-collapse-contiguous-nests", "func::FuncOp"> {
  let summary = "Run contiguous parallel nests as one loop";
  let description = [{
    An outermost `scf.parallel` nest from 0 by 1 whose body is a straight
    line of pure ops and loads and stores of row-major memrefs of the nest's
    rank, each indexed by the induction variables alone, in the same order
    in every access (the induction variables used for nothing else), walks
    every memref in one linear order when the memrefs' inner sizes equal the
    nest's extents. It is versioned on that: when they do at run time, a
    one-dimensional `scf.parallel` over the product of the extents runs on
    `memref.collapse_shape` views, which maps to one grid-stride loop of
    vector accesses with no per-row peel or tail (an 8191x8191 add is a
    67,092,481-element vector add); otherwise the nest runs as written.
    threadbind-compile runs it unless `collapse-nests` is off or a block
    shape or dimension order is given.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect"];
  let statistics = [
    Statistic<"numNestsCollapsed", "nests-collapsed",
              "Number of nests given a one-loop version">
  ];
}

def VersionUnitStridesPass
    : Pass<"threadbind-version-unit-strides", "func::FuncOp"> {
  let summary = "Give functions over views a copy for unit innermost strides";
  let description = [{
    A memref argument whose innermost stride is known only at run time
    (`strided<[?, ?], offset: ?>`, as a slice `x[:, a:b]` from PyTorch
    arrives) defeats coalescing and vector accesses: the mapper cannot tell
    which loop dimension walks memory contiguously. Nearly always the
    stride is 1. This pass versions such a function on it: when every such
    argument's innermost stride is 1 at run time, a copy of the body runs
    on the arguments cast to a type with a static unit innermost stride,
    which the mapper binds and widens as it would a contiguous array;
    otherwise the body runs as written.

    Functions with a single block that return nothing, hold an
    `scf.parallel`, and take such an argument are versioned; others are
    left alone.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect"];
  let statistics = [
    Statistic<"numFunctionsVersioned", "functions-versioned",
              "Number of functions given a unit-innermost-stride copy">
  ];
}

def ScopeLoopStackPass : Pass<"threadbind-scope-loop-stack"> {
  let summary = "Give the stack a loop iteration takes back at its end";
  let description = [{
    Host and CPU-reference code that allocates on the stack in a loop body
    grows the stack on every iteration: a `memref.alloca`, a `memref.copy`
    or an unranked memref (both lower through stack descriptors), and each
    `gpu.launch_func`, whose arguments are packed into stack arrays. A host
    loop that launches kernels 16384 times, as PolyBench doitgen's does,
    then overflows an 8 MiB stack. This pass brackets the body of each such
    loop (each region of a `LoopLikeOpInterface` op: `scf.for`, `scf.while`,
    `scf.parallel`, `affine.for`, ...) with `llvm.intr.stacksave` and
    `llvm.intr.stackrestore`, so an iteration gives back what it took.
    (`memref.alloca_scope` says the same, but must be lowered before the
    loops inside it are, which the host pipelines do not do.) Kernels
    (`gpu.launch` bodies and `gpu.module`s) are left alone. A loop whose
    body hands a memref it defines to the next iteration or out of the loop
    keeps its stack, as the memref may live on it.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numLoopsScoped", "loops-scoped",
              "Number of loop bodies given a stack save and restore">
  ];
}

def NarrowIndicesPass : Pass<"threadbind-narrow-indices", "ModuleOp"> {
  let summary = "Give launches a copy that counts and addresses in 32 bits, "
                "run where the host finds the sizes small enough";
  let description = [{
    Kernels count their loops and compute addresses in `index`, 64 bits on
    the device, so that no loop wraps. ptxas schedules 64-bit address
    arithmetic poorly: the same CUDA gemm kernel keeps a dozen loads in
    flight with `int` indices and two with `long` ones. For each
    `gpu.launch` in host code, this pass builds
    `scf.if (test) { copy } else { launch }`, where the copy
      - counts in i32 every `scf.for` and sequential `scf.parallel` of the
        kernel (the latter becoming `scf.for` nests) whose lower bound,
        upper bound and step, evaluated as intervals over constants, the
        launch's block and grid, enclosing loops' counters and host values
        (host arithmetic is followed, the runtime's resident-block queries
        answer at most 2^20, and what remains is assumed to lie in
        [-2^30, 2^30]), keep the counter and its last increment inside i32
        (a grid the host cannot bound is assumed to have at most 2^30
        threads a dimension);
      - addresses each `memref.load`, `memref.store`, `vector.load` and
        `vector.store` of a memref the host passes (a function argument, a
        `memref.reinterpret_cast` of host values, or a memref whose type
        fixes its layout) through a one-dimensional view of its base
        buffer, at `offset + sum(index * stride)`: the last dimension's
        term and the sum of the others each computed in i32, widened, then
        added (so that a row read at several invariant columns shares one
        address). Indices of an access of a valid program are in bounds, so
        every partial sum lies between 0 and the memref's largest offset.
        A constant in the last index (`%j - 1`, times a constant stride, at
        most 2^16) is added last, so that it folds into the access's
        immediate; the sum before it may pass those bounds by as much;
    and the test holds when every assumed host value lies in its interval
    and every such memref's offset, sizes, strides, each size times its
    stride, and the offset plus those products lie in [0, 2^31) (the last
    below 2^31 less the largest such constant). The
    manifest shows the test as the launch's condition. Where nothing needs
    testing (static shapes, grids the host bounds), the launch itself is
    narrowed, without a copy. A launch whose
    accesses are all one-dimensional and whose only loops are not nested
    (an elementwise kernel: one 64-bit add a thread) is left alone.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report for each launch whether it got a copy, and what it "
           "narrowed">
  ];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect"];
  let statistics = [
    Statistic<"numLaunchesNarrowed", "launches-narrowed",
              "Launches given a 32-bit index copy behind a run-time test">
  ];
}

def VersionReadOnlyLaunchesPass
    : Pass<"threadbind-version-read-only-launches", "ModuleOp"> {
  let summary = "Launch kernels whose inputs do not overlap their outputs "
                "with loads through the read-only cache";
  let description = [{
    A kernel that only reads a memref could load it through the read-only
    data cache (`ld.global.nc`), as nvcc does for a `const __restrict__`
    pointer: with plain loads, gemm's inner loop at 512 runs 2.3 times
    slower on an H100-class device. That is only sound while nothing the
    kernel writes overlaps what it reads that way, which the host alone
    can tell. For each `gpu.launch` in host code whose captured memrefs
    are function arguments, some only loaded (`memref.load`,
    `vector.load`, `vector.transfer_read`, `vector.maskedload`, through
    views) and some written, the host tests at run time that the byte
    range of each read-only memref is disjoint from that of each written
    one (a call of a private `threadbind_disjoint_*` helper the pass adds,
    which the manifest shows as `disjoint(argA, argB)`), and launches a
    copy of the kernel whose loads of the read-only memrefs are marked
    (`threadbind.read_only_load`) where they are; otherwise the kernel as
    it was. A launch that writes no memref is marked without a test.
    threadbind-mark-read-only-arguments and
    threadbind-noalias-read-only-arguments carry the marks to the kernel's
    parameters once it is outlined and lowered.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "func::FuncDialect", "memref::MemRefDialect",
    "scf::SCFDialect"
  ];
  let statistics = [
    Statistic<"numLaunchesVersioned", "launches-versioned",
              "Launches given a read-only copy behind a run-time test">,
    Statistic<"numLaunchesMarked", "launches-marked",
              "Launches whose read-only loads are marked without a test">
  ];
}

def MarkReadOnlyArgumentsPass
    : Pass<"threadbind-mark-read-only-arguments", "ModuleOp"> {
  let summary = "Mark kernel parameters that only marked loads read";
  let description = [{
    After outlining: a `gpu.func` kernel's memref parameter whose every
    access is a load marked `threadbind.read_only_load` (by
    threadbind-version-read-only-launches) gets the `llvm.readonly`
    parameter attribute, which the NVVM lowering gives both its pointers,
    and the kernel the internal mark `threadbind.noalias_read_only`. The
    load marks are removed.
  }];
  let statistics = [
    Statistic<"numArgumentsMarked", "arguments-marked",
              "Kernel parameters marked read-only">
  ];
}

def NoAliasReadOnlyArgumentsPass
    : Pass<"threadbind-noalias-read-only-arguments", "gpu::GPUModuleOp"> {
  let summary = "Give the read-only pointer parameters of marked kernels "
                "noalias";
  let description = [{
    After the NVVM lowering: in an `llvm.func` marked
    `threadbind.noalias_read_only`, every pointer parameter with
    `llvm.readonly` also gets `llvm.noalias`. NVPTX then loads through
    such a parameter with `ld.global.nc`. The host only launches such a
    kernel when its read-only memrefs do not overlap any it writes, which
    is what makes `noalias` true.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def BindGridQueriesPass : Pass<"threadbind-bind-grid-queries", "ModuleOp"> {
  let summary = "Tell each grid-size query which kernel it sizes";
  let description = [{
    A grid-stride launch sizes its grid with
    `threadbind_max_resident_blocks(threads per block)`, asked before the
    kernel exists. Once kernels are outlined, this pass rewrites each query
    that feeds exactly one `gpu.launch_func` into
    `threadbind_kernel_resident_blocks(threads per block, kernel name)`, so
    the runtime can answer from that kernel's own occupancy (registers and
    shared memory included) instead of the SM's thread limit alone. The
    name is a private string global. Queries that feed no launch, or more
    than one, are left as they are.
  }];
  let dependentDialects = ["func::FuncDialect", "LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numQueriesBound", "queries-bound",
              "Number of grid-size queries bound to their kernel">
  ];
}

def UnswitchUniformConditionsPass
    : Pass<"threadbind-unswitch-uniform-conditions"> {
  let summary = "Hoist uniform, loop-invariant conditions out of GPU loops";
  let description = [{
    Versions a loop in GPU code (`scf.for`, `scf.while`, the grid-stride
    loops of a bound kernel) on the condition of an `scf.if` inside it
    when that condition is loop-invariant and not divergent:
    `scf.if %c { loop with the then-side } else { loop with the else-side }`.
    The check then runs once per thread instead of once per iteration, and
    each version's body is straight-line code that LLVM can schedule and
    vectorise. Because the condition is the same across a warp, the two
    versions never split a warp.

    The condition is hoisted out of the outermost loop it is invariant to.
    The uniformity analysis is rerun after each change. A loop is versioned
    only while it holds at most `max-loop-ops` operations, and at most
    `max-conditions` conditions are hoisted per kernel. Zero-trip loops keep
    their meaning: neither version runs an iteration. With `remarks`, every
    decision is reported: unswitched, or left alone and why.
  }];
  let dependentDialects = ["scf::SCFDialect"];
  let options = [
    Option<"maxLoopOps", "max-loop-ops", "unsigned", "200",
           "Largest loop, in operations, that may be duplicated">,
    Option<"maxConditions", "max-conditions", "unsigned", "4",
           "Most conditions hoisted per kernel">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report every decision as a remark">
  ];
  let statistics = [
    Statistic<"numUnswitched", "loops-unswitched",
              "Number of loops versioned on a uniform condition">
  ];
}

def PredicateDivergentBranchesPass
    : Pass<"threadbind-predicate-divergent-branches"> {
  let summary = "Turn small divergent branches in GPU code into selects";
  let description = [{
    A warp whose threads disagree on an `scf.if` runs both sides one after
    the other with part of the warp masked off, paying for the branch on
    top. When the condition is divergent (by the uniformity analysis) and
    both sides are small and safe to run unconditionally, this pass runs
    both and picks the results with `arith.select`: straight-line code, no
    reconvergence.

    A side is safe to run unconditionally when every operation in it is
    pure (`arith` and friends; integer division is not, as it may trap), or
    is a `memref.load` proven in bounds: the same memref at the same index
    values is accessed in a block that runs whenever the `scf.if` runs, or
    the indices are constants inside a static shape. A store under a
    divergent condition stays guarded, except when both sides end with a
    store to the same address: one store of the selected value replaces
    them. Sides larger than `max-ops-per-side` operations stay a branch
    (CUDA's guidance is that the compiler predicates up to about seven
    instructions), and so do branches whose condition is warp-uniform:
    they split no warp and skip the other side's work.

    Selects in GPU code between the two operands of their own comparison
    then become min/max operations (`arith.maxnumf`, `arith.minimumf`,
    `arith.maxsi`, ... and `math.absf` for `x < 0 ? -x : x`), which is the
    ReLU and clamp shape. Integer forms are exact. Float forms keep NaN
    results exactly: the non-propagating `maxnumf`/`minnumf` is used where
    the compared operand that a NaN leaves selected is known not to be NaN
    (a constant, or an `nnan` comparison), `maximumf`/`minimumf` where the
    other one is. As with nvcc's `fmaxf`, a zero result may then carry the
    other sign (`-0.0` for `+0.0`, which compare equal); with
    `exact-signed-zeros` a float form is used only when a zero tie cannot
    happen (a nonzero constant operand) or the comparison is `nsz`.

    With `remarks`, every decision is reported: predicated, left as a
    branch and why, and each select turned into a min/max.
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect"];
  let options = [
    Option<"maxOpsPerSide", "max-ops-per-side", "unsigned", "7",
           "Largest side, in operations, run unconditionally">,
    Option<"exactSignedZeros", "exact-signed-zeros", "bool", "false",
           "Form float min/max only where the sign of a zero result cannot "
           "change">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report every decision as a remark">
  ];
  let statistics = [
    Statistic<"numPredicated", "branches-predicated",
              "Number of divergent scf.if turned into selects">,
    Statistic<"numMinMax", "selects-to-min-max",
              "Number of selects turned into min/max/abs operations">
  ];
}

def RemoveTailChecksPass : Pass<"threadbind-remove-tail-checks"> {
  let summary = "Remove the per-thread bounds check of cover launches";
  let description = [{
    A cover-policy launch runs one iteration per thread along x, guarded by
    `start < end`, because the grid is a whole number of blocks and the
    extent need not be. Only the last block can hold threads past the end.
    Grid-stride launches have no such check: their loop condition is their
    only compare.

    Each check (the `scf.if` the mapping marks `threadbind.tail_guard`) is
    handled in turn:
    - proven always true by integer range analysis (static extents that
      the grid covers exactly): removed;
    - with `pad` (the default): the check goes and the threads past the
      extent, up to the grid's end, run on padding. This needs a loop from
      0 with step 1 whose every memory access from such a thread stays in
      padding: each load or store indexed by the thread's position goes to
      a 1-D memref that is padded (an argument marked
      `threadbind.padded_to = P` with the block's x extent dividing P, or a
      `memref.alloc` of the same function, which the pass enlarges) and is
      accessed unconditionally at that position, which proves its size
      reaches the extent; stores go nowhere else; nothing else has effects,
      and nothing that could trap sees a padding value. The kernel indexes
      a view of each such memref that spans its padded size, and the host
      launches it only for a non-empty extent. Where padding is not
      possible, a remark says why and the check stays;
    - with `split`: the top-level operation of the launch that holds the
      check is versioned on whether the whole block is in bounds, a
      condition the same for every thread of the block: full blocks run a
      copy without the check, the last block keeps it. Whether the block is
      full is the check evaluated for the block's last thread, which has
      the largest start, as steps are positive. With NVPTX this rarely
      pays: in 1-D LLVM merges the two copies back into one guarded by
      both tests, and in 2-D it hoists the check, invariant in the loop
      over rows, by itself (measurements:
      bench/results/2026-11-22-tails-h200.md);
    - with `keep`, the check stays: one compare and exit per thread.
    `threadbind.tail = "pad"`, `"split"` or `"keep"` on an `scf.parallel`
    (carried to its launch by the mapping) overrides the option for that
    loop. With `remarks`, every check's fate is reported. A malformed
    `threadbind.tail` or `threadbind.padded_to` is an error and leaves the
    IR as it was.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect"];
  let options = [
    Option<"strategy", "strategy", "mlir::threadbind::TailStrategy",
           "mlir::threadbind::TailStrategy::Pad",
           "What to do with a check that is not provably dead",
           [{::llvm::cl::values(
             clEnumValN(mlir::threadbind::TailStrategy::Pad, "pad",
                        "threads past the end run on padding; else keep"),
             clEnumValN(mlir::threadbind::TailStrategy::Split, "split",
                        "full blocks run without the check"),
             clEnumValN(mlir::threadbind::TailStrategy::Keep, "keep",
                        "the check stays"))}]>,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report every check's fate as a remark">
  ];
  let statistics = [
    Statistic<"numRemoved", "checks-removed",
              "Number of bounds checks proven always true and removed">,
    Statistic<"numSplit", "checks-split",
              "Number of bounds checks taken out of full blocks">,
    Statistic<"numPadded", "checks-padded",
              "Number of bounds checks replaced by running on padding">
  ];
}

def MergeGPUModulesPass : Pass<"threadbind-merge-gpu-modules", "ModuleOp"> {
  let summary = "Merge every gpu.module into one, so a program is one PTX";
  let description = [{
    Kernel outlining puts each kernel in a `gpu.module` of its own. This pass
    moves every kernel and device function into a single `gpu.module` named
    `module-name` and points every `gpu.launch_func` at it, so the program
    compiles to one PTX file and one cubin, loaded once. A lone module is
    renamed, so the kernels of every program live in a module of a
    predictable name.

    Outlining names every kernel of a host function after that function,
    so symbols can clash once merged: a clashing symbol is renamed (to its
    old module's name, which is unique, when free) and its uses follow.
    Symbols PTX cannot spell as identifiers (outlining names a kernel
    after its function, and a function may be called `vector.add` or
    `a-b`) are renamed the same way, each character PTX does not accept
    replaced by `_`; the manifest keeps the function's own name.

    Outlining copies a host `memref.global` into the module of each kernel
    that uses it; the copies (a global of the host's name and definition)
    become one global of the merged module, so kernels that share a
    mutable global address one variable, as their host functions did.

    Modules without targets (those outlining made) merge with any; modules
    that carry targets are merged only if all carry the same ones, which
    the merged module then carries. Otherwise, or when `module-name` is not
    a PTX identifier, the pass fails and leaves the IR as it was.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
  let options = [
    Option<"moduleName", "module-name", "std::string",
           "\"threadbind_kernels\"", "Name of the merged gpu.module">
  ];
  let statistics = [
    Statistic<"numModulesMerged", "modules-merged",
              "Number of gpu.module ops folded into the merged one">,
    Statistic<"numSymbolsRenamed", "symbols-renamed",
              "Number of clashing symbols renamed while merging">
  ];
}

def AttachNVVMTargetPass
    : Pass<"threadbind-attach-nvvm-target", "ModuleOp"> {
  let summary = "Give every gpu.module the one NVVM target of this run";
  let description = [{
    Sets the targets of every `gpu.module` to one `#nvvm.target` for
    `chip`, with `features` (the PTX version) and `opt-level`. A module
    that already names NVVM targets for the same chip (a hand-written one,
    say) takes the run's instead; one that names any other target is an
    error at the module, and nothing changes. Upstream's
    `nvvm-attach-target` appends to what a module carries, so such a
    module would be serialised twice.
  }];
  let dependentDialects = ["NVVM::NVVMDialect"];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"", "Target chip">,
    Option<"features", "features", "std::string", "\"\"",
           "NVPTX features, such as the PTX version (+ptx78)">,
    Option<"optLevel", "opt-level", "int", "3",
           "LLVM optimisation level for the kernels (0 to 3)">
  ];
}

def LowerAssertsPass : Pass<"threadbind-lower-asserts", "ModuleOp"> {
  let summary = "Lower cf.assert in function bodies to a branch that prints "
                "the message and aborts";
  let description = [{
    Does what upstream's lowering of `cf.assert` to LLVM does (on failure,
    `puts` of the message, then `abort`), for the asserts that sit directly
    in a function's body, so that convert-to-llvm finds none there. The
    reason is cost: upstream names each message's global by looking names
    up in the module one by one, which is quadratic in the number of
    asserts, and runtime verification gives a bundle's CPU reference one
    assert an access. At 2000 functions that was 5 s of a compile. Here
    one symbol table names them all.

    Asserts inside other ops' regions (which may hold a single block) are
    left for upstream's lowering. A symbol named `puts` or `abort` that is
    not that C function (an `llvm.func` of its type) is an error at the
    symbol, and nothing changes.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "cf::ControlFlowDialect"];
  let statistics = [
    Statistic<"numLowered", "asserts-lowered", "Number of cf.assert ops lowered">
  ];
}

def SplitKernelModulesPass
    : Pass<"threadbind-split-kernel-modules", "ModuleOp"> {
  let summary = "Split each gpu.module into modules of kernels that share no "
                "symbol, so they lower and compile in parallel";
  let description = [{
    MLIR runs a pass nested on `gpu.module` ops on several threads only when
    there are several modules, and upstream's serialiser compiles one
    module on one thread. After `threadbind-merge-gpu-modules` a program's
    kernels are one module; this pass splits it again, along the symbols:
    kernels, device functions and globals that refer to each other, however
    indirectly, stay together, and every other group moves to a module of
    its own, named after the original (`threadbind_kernels_1`, ...), with
    the same targets and attributes. Launches follow their kernels.

    Nothing outside a group refers into it, so each new module lowers and
    compiles on its own, and `threadbind-serialize-kernels` joins them into
    one binary of the original name again. A module whose body holds an op
    that is not a symbol (module flags, say), or an op whose symbol uses
    cannot be read, is left whole.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
  let statistics = [
    Statistic<"numModulesCreated", "modules-created",
              "Number of gpu.module ops split off">
  ];
}

def SerializeKernelsPass
    : Pass<"threadbind-serialize-kernels", "ModuleOp"> {
  let summary = "Compile every gpu.module to PTX, in parallel, into one "
                "gpu.binary";
  let description = [{
    Replaces the `gpu.module` ops of the module, which must be lowered to
    the LLVM and NVVM dialects and carry one and the same `#nvvm.target`,
    by one `gpu.binary` named `binary-name` (by default the first module's
    name), and points every `gpu.launch_func` at it. Its object holds the
    PTX of all of them (`format=isa`), or their optimised LLVM bitcode
    linked into one module (`format=llvm`).

    Each module goes through the steps and LLVM pipelines of upstream's
    `gpu-module-to-binary` (translation, libdevice, the optimisation
    pipeline at the target's level, the NVPTX back end), so each kernel's
    PTX is the same; but for PTX the modules compile on LLVM contexts of
    their own, on the context's threads, and their PTX is joined in module
    order, so the result does not depend on the thread count. The target
    machines the optimisation pipeline queries are built once per process
    (code generation takes a fresh one a module, as NVPTX numbers call
    sites per machine). libdevice, from `toolkit`, is read
    once per process and linked only into modules that call `__nv_*`
    functions. A local symbol two modules define (a libdevice helper both
    link in) is renamed in the later one.

    On error (a module without one `#nvvm.target`, modules with different
    ones, two modules defining one external symbol, a name taken by another
    symbol, LLVM failing) the pass fails at the module, and the IR is as it
    was.
  }];
  let dependentDialects = ["gpu::GPUDialect", "LLVM::LLVMDialect",
                           "NVVM::NVVMDialect"];
  let options = [
    Option<"toolkitPath", "toolkit", "std::string", "\"\"",
           "CUDA toolkit whose nvvm/libdevice/libdevice.10.bc resolves "
           "__nv_* calls (none: they stay unresolved)">,
    Option<"format", "format", "mlir::threadbind::KernelObjectFormat",
           "mlir::threadbind::KernelObjectFormat::PTX",
           "What the binary holds",
           [{::llvm::cl::values(
             clEnumValN(mlir::threadbind::KernelObjectFormat::PTX, "isa",
                        "PTX assembly"),
             clEnumValN(mlir::threadbind::KernelObjectFormat::Bitcode, "llvm",
                        "optimised LLVM bitcode"))}]>,
    Option<"binaryName", "binary-name", "std::string", "\"\"",
           "Name of the gpu.binary (default: the first gpu.module's)">
  ];
  let statistics = [
    Statistic<"numModulesSerialized", "modules-serialized",
              "Number of gpu.module ops compiled">
  ];
}

def WidenAccessesPass : Pass<"threadbind-widen-accesses"> {
  let summary = "Give each thread of a GPU loop contiguous vectors of "
                "elements, loaded and stored 128 bits at a time";
  let description = [{
    A loop that the mapping made for the threads along x (grid-stride, from
    `blockIdx.x * blockDim.x + threadIdx.x` by `gridDim.x * blockDim.x`, or
    a block's lanes, from `threadIdx.x` by `blockDim.x`) hands each thread
    one element an iteration: a 4-byte load a thread is a 128-byte line a
    warp, and the memory system wants more bytes in flight than that. This
    pass rewrites such a loop so each thread takes V contiguous elements an
    iteration, with one `vector.load` or `vector.store` (`ld.global.v4.f32`
    and friends) for each access at the loop's position, where V is
    `vector-bytes` over the widest element accessed.

    A loop qualifies when every load or store at its position indexes the
    last dimension of a memref whose last stride is 1 by the induction
    variable plus a loop-invariant offset, the other indices loop-invariant;
    stores are all of that form and at the top of the body; no read follows
    the first store; nothing else in the body writes memory or has unknown
    effects; and the loop yields nothing. Elements of 8 to 64 bits of any
    integer or float type qualify.

    The widened loop runs over whole vectors of the range; a scalar loop,
    with the same threads at the same stride, does the fewer than V elements
    left. A vector access must be aligned to its size, so, unless
    `assume-aligned` says the caller guarantees it, the first elements up
    to a vector boundary are peeled at run time: where every widened
    access's first element (base pointer, offset, invariant indices) lies
    the same number of elements past a boundary, the threads take those
    elements one each, and the vectors start at the boundary. A row of an
    odd-width matrix or a subview one element in is then still widened.
    Where the accesses disagree (one shifted against another) the original
    loop runs. The check is the same for every thread that shares the
    loop.

    Loads of one row (a memref and its outer indices) at constant offsets
    that differ (a stencil's `j-1`, `j`, `j+1`) cannot all be aligned
    vectors. Each such row is loaded from where the stores' vectors start
    (an offset congruent to theirs), in blocks of V elements: a block is
    one aligned vector where at least two of its elements are used and it
    lies inside what the iteration's accesses of that memref span (every
    element of it then valid), and otherwise its used elements are loaded
    one at a time; each load takes its lanes from the blocks. A 5-point
    stencil's row is then a vector and one element either side of it. A
    store at an offset that is not a whole number of vectors from another
    access of its row still leaves the loop as it is. A stencil's loop
    has no scalar loops at its ends: its vectors start on the boundary at
    or below the range's start, and a vector at either end stores only
    its lanes inside the range, loading whole vectors where they lie
    inside their memrefs (the memref's size is tested, and a single
    element past a row's end is not loaded) when the body reads memory
    only through such loads and its other ops may run on any values, and
    otherwise running the iteration as written for those lanes. Where the
    host finds every row start alike (each outer stride a whole number of
    vectors, the first rows agreeing), the grid holds a thread a vector
    and the kernel takes the host's word for the rows' alignment; where it
    finds them disagree, the grid stays a thread an element and the loop
    runs as written. Stencils are widened in cover launches (along x, in
    two and three dimensions too) and in loops alone in a grid-stride
    launch, not in grid-stride nests, where each thread walks rows and on
    an H200 they ran up to 2.5 times slower widened
    (bench/results/2026-11-29-stencil-widen-h200.md). Under the default
    grid-stride policy the mapping gives a stencil nest a cover launch
    too, which the host runs where every row starts alike (see
    threadbind-map-loops-to-threads): where this pass widens that cover
    launch it keeps the host's choice (and needs no copy of the launch as
    it was), and where it cannot, it drops the cover launch and the
    grid-stride launch runs alone. The mapping's
    warp-aligned start (an x loop from below its lower bound whose body
    skips the first iterations in a branch) is widened from the lower
    bound. Ops of the body that are the same in every iteration move out
    of the loop first, so that a row index computed in it (`i + 1`) counts
    as the same for all of a vector's elements.

    `unroll` gives each thread U vectors an iteration, U grid strides apart
    so each stays coalesced, for more bytes in flight.

    A grid-stride launch is sized for one element a thread. Where the
    widened loop is the launch's only loop and its bounds are known on the
    host, the grid shrinks to the blocks its vectors need, when that is
    fewer: small sizes then run no empty blocks. Where its grid was capped
    at the resident blocks the host reports (no static `max-blocks`), the
    cap goes: a thread a vector, up to 2^31 - 1 blocks, ran a 2^26- and a
    2^28-float vector add 6% faster than the resident grid looping over
    vectors on an H200 (bench/results/2026-11-27-grid-size-h200.md). The
    loop stays a grid-stride loop, right on any grid. A loop nested in another
    (the columns of a 2-D grid, a block's lanes over a row) shares threads
    sized for one element each, so widening it alone leaves most of them
    without a vector, slower than the scalar loop. Such loops are widened
    only with `nested-loops`. Then, where the loop is the only loop of a
    grid-stride loop over rows along y, itself the launch's only loop or
    the only loop of a grid-stride loop over planes along z that is, and
    every bound is on the host, x shrinks to the blocks a row's vectors
    need, y takes the blocks x gave up, as far as the rows need them, and z
    what y could not take, as far as the planes need them (the same number
    in all); elsewhere the grid stays.
    The pass leaves nested loops alone by default; the pipelines and
    `threadbind-compile` turn `nested-loops` on (`widen-nested-loops`),
    where the rebalanced grid makes widened rows faster than scalar ones
    (measurements: bench/results/2026-11-23-widen-h200.md).

    A 1-D cover launch (`grid-policy=cover`: one iteration a thread,
    guarded by `blockIdx.x * blockDim.x + threadIdx.x < extent`, the guard
    kept or split off the full blocks by threadbind-remove-tail-checks) is
    widened as the grid-stride loop it equals on its grid, at most one trip
    a thread: each thread takes one vector, the grid shrinks to a thread a
    vector, and the peel and the elements past the last whole vector go to
    the first threads. One iteration a thread over a grid of a block a 256
    elements ran at 0.83 to 0.85 of a float4 kernel on an H200. Launches
    whose check padding removed stay as they are. A cover launch of two or
    three dimensions is widened the same way along x where its guard along
    x is nested only in branches and loops that take no decision on x (the
    guards along y and z, or the loops of its copy that loops along them)
    and nothing else depends on x.

    Anything else is left as it was; with `remarks`, each loop says whether
    it was widened, and if not, why.
  }];
  let dependentDialects = ["arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "vector::VectorDialect"];
  let options = [
    Option<"vectorBytes", "vector-bytes", "unsigned",
           "::mlir::threadbind::kDefaultVectorBytes",
           "Bytes of the widest vector access (4, 8 or 16)">,
    Option<"unroll", "unroll", "unsigned", "1",
           "Vectors a thread handles an iteration (1 to 16)">,
    Option<"nestedLoops", "nested-loops", "bool", "false",
           "Also widen thread loops that share their threads with other "
           "loops or rows (2-D grids, a block's lanes over a row)">,
    Option<"assumeAligned", "assume-aligned", "bool", "false",
           "Trust that every widened access is aligned to its vector size "
           "instead of checking at run time">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Report each candidate loop's fate as a remark">
  ];
  let statistics = [
    Statistic<"numWidened", "loops-widened", "Loops widened to vectors">,
    Statistic<"numRejected", "loops-rejected",
              "Thread loops left scalar">
  ];
}

#endif // THREADBIND_TRANSFORMS_PASSES
