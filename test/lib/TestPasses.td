//===- TestPasses.td - ThreadBind test-only passes ---------*- tablegen -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Passes that exist only for the test suites: analysis printers and the CPU
// emulation of GPU launches. They are registered in threadbind-opt and the
// plugin but are not part of the library API.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TEST_PASSES
#define THREADBIND_TEST_PASSES

include "mlir/Pass/PassBase.td"

def TestEmulateGPULaunchPass : Pass<"threadbind-test-emulate-gpu-launch"> {
  let summary = "Rewrite gpu.launch into host loops over block and thread ids";
  let description = [{
    Replaces every `gpu.launch` by a nest of `scf.for` loops over block ids
    (z, y, x) and thread ids (z, y, x), with `gpu.block_id`, `gpu.thread_id`,
    `gpu.grid_dim`, `gpu.block_dim`, `gpu.global_id` and `gpu.lane_id`
    replaced by the loop values. The bound IR can then be lowered for the CPU
    and executed with mlir-runner, so a test can compare its output with the
    original loop's.

    This is only valid when threads cannot observe each other: a launch that
    contains a barrier, a shuffle or any other device-only op gets an error
    at that op, and no launch in the input is rewritten. The exception is a
    `gpu.all_reduce` with a named operation directly in the launch body:
    per block, every thread runs the code before the last all-reduce (which
    must not write memory) and leaves its operands in a buffer, the buffers
    are folded in thread order, and every thread then runs the whole body
    with the reduced values in place of the all-reduces.

    Device scratch on the host side (`gpu.alloc`, `gpu.dealloc` and the
    `gpu.wait` ops that order them) becomes `memref.alloc` and
    `memref.dealloc`.

    It also stands in for the host runtime: a module that declares, without
    defining, `threadbind_max_resident_blocks` (the grid-size query of
    grid-stride launches) gets a definition that returns `resident-blocks`.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "func::FuncDialect", "memref::MemRefDialect",
    "scf::SCFDialect"
  ];
  let options = [
    Option<"residentBlocks", "resident-blocks", "int64_t", "4",
           "What the emulated threadbind_max_resident_blocks returns">
  ];
  let statistics = [
    Statistic<"numLaunchesEmulated", "launches-emulated",
              "Number of gpu.launch ops rewritten into host loops">
  ];
}

def TestPrintUniformityPass : Pass<"threadbind-test-print-uniformity"> {
  let summary = "Report the uniformity analysis as remarks";
  let description = [{
    Runs the uniformity analysis and reports, for every op in GPU code (a
    gpu.launch body or a gpu.func), the uniformity of each result
    (`uniformity: ...`) and, for branching ops, what the branch decides on
    (`branch: ...`), with the operation the level comes from. With
    `tagged-only`, only ops carrying a `tag` attribute are reported.
  }];
  let options = [
    Option<"taggedOnly", "tagged-only", "bool", "false",
           "Report only ops with a `tag` attribute">
  ];
}

#endif // THREADBIND_TEST_PASSES
