// Rodinia pathfinder: the cheapest path down a grid, by dynamic programming a row at a time.
// Source: Rodinia 3.1, pathfinder (the row loop of run() in pathfinder.cpp, as dynproc_kernel in pathfinder.cu computes it, without its pyramid tiling)
// Translated to MLIR by hand as a user writes it: an scf.parallel over the columns of a row inside a host scf.for over the rows, the src and dst buffers swapped through the loop's memref iter_args, neighbours clamped at the edges; i32 data.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: result 
// BUNDLE: --entry kernel --shape 0=100x100000 --shape 1=100000 --shape 2=100000

func.func @kernel(%wall: memref<?x?xi32>, %result: memref<?xi32>, %temp: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %wall, %c0 : memref<?x?xi32>
  %cols = memref.dim %wall, %c1 : memref<?x?xi32>
  %lastc = arith.subi %cols, %c1 : index
  // The first row is the cost of reaching it.
  scf.parallel (%j) = (%c0) to (%cols) step (%c1) {
    %w = memref.load %wall[%c0, %j] : memref<?x?xi32>
    memref.store %w, %temp[%j] : memref<?xi32>
  }
  // Row by row, src and dst swap each step as pathfinder's pointers do.
  %fin:2 = scf.for %t = %c1 to %rows step %c1 iter_args(%src = %temp, %dst = %result) -> (memref<?xi32>, memref<?xi32>) {
    scf.parallel (%j) = (%c0) to (%cols) step (%c1) {
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %l = arith.maxsi %jm, %c0 : index
      %r = arith.minsi %jp, %lastc : index
      %a = memref.load %src[%l] : memref<?xi32>
      %b = memref.load %src[%j] : memref<?xi32>
      %c = memref.load %src[%r] : memref<?xi32>
      %m1 = arith.minsi %a, %b : i32
      %m = arith.minsi %m1, %c : i32
      %w = memref.load %wall[%t, %j] : memref<?x?xi32>
      %v = arith.addi %w, %m : i32
      memref.store %v, %dst[%j] : memref<?xi32>
    }
    scf.yield %dst, %src : memref<?xi32>, memref<?xi32>
  }
  // The last row written holds the costs; leave them in result.
  scf.parallel (%j) = (%c0) to (%cols) step (%c1) {
    %v = memref.load %fin#0[%j] : memref<?xi32>
    memref.store %v, %result[%j] : memref<?xi32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 13 : index
  %cols = arith.constant 41 : index
  %wall = memref.alloc(%rows, %cols) : memref<?x?xi32>
    scf.for %wall_i0 = %c0 to %rows step %c1 {
      scf.for %wall_i1 = %c0 to %cols step %c1 {
        %wall_w0 = arith.constant 3 : index
        %wall_p0 = arith.muli %wall_i0, %wall_w0 : index
        %wall_w1 = arith.constant 5 : index
        %wall_p1 = arith.muli %wall_i1, %wall_w1 : index
        %wall_s1 = arith.addi %wall_p0, %wall_p1 : index
        %wall_m = arith.constant 10 : index
        %wall_r = arith.remui %wall_s1, %wall_m : index
        %wall_ri = arith.index_cast %wall_r : index to i32
        %wall_h = arith.constant 0 : i32
        %wall_v = arith.subi %wall_ri, %wall_h : i32
        memref.store %wall_v, %wall[%wall_i0, %wall_i1] : memref<?x?xi32>
      }
    }
  %result = memref.alloc(%cols) : memref<?xi32>
    scf.for %result_i0 = %c0 to %cols step %c1 {
      %result_w0 = arith.constant 3 : index
      %result_p0 = arith.muli %result_i0, %result_w0 : index
      %result_m = arith.constant 3 : index
      %result_r = arith.remui %result_p0, %result_m : index
      %result_ri = arith.index_cast %result_r : index to i32
      %result_h = arith.constant 1 : i32
      %result_v = arith.subi %result_ri, %result_h : i32
      memref.store %result_v, %result[%result_i0] : memref<?xi32>
    }
  %temp = memref.alloc(%cols) : memref<?xi32>
    scf.for %temp_i0 = %c0 to %cols step %c1 {
      %temp_w0 = arith.constant 3 : index
      %temp_p0 = arith.muli %temp_i0, %temp_w0 : index
      %temp_m = arith.constant 3 : index
      %temp_r = arith.remui %temp_p0, %temp_m : index
      %temp_ri = arith.index_cast %temp_r : index to i32
      %temp_h = arith.constant 1 : i32
      %temp_v = arith.subi %temp_ri, %temp_h : i32
      memref.store %temp_v, %temp[%temp_i0] : memref<?xi32>
    }
  call @kernel(%wall, %result, %temp) : (memref<?x?xi32>, memref<?xi32>, memref<?xi32>) -> ()
  %result_zero = arith.constant 0.0 : f32
  %result_a0 = scf.for %result_k0 = %c0 to %cols step %c1 iter_args(%result_c0 = %result_zero) -> f32 {
    %result_ld = memref.load %result[%result_k0] : memref<?xi32>
    %result_ldf = arith.sitofp %result_ld : i32 to f32
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %result_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %result_ldf, %wf : f32
    %sum = arith.addf %result_c0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "result "
  vector.print %result_a0 : f32
  return
}
