// Softmax over the rows of a matrix, as a front end emits it: linalg on
// tensors, a new tensor returned.
// Source: torch.softmax(x, dim=-1) in the decomposition torch-mlir and IREE
// lower it to (row max, exp of the difference, row sum, divide), written by
// hand as linalg.generic on tensors.
// Checked in CPU emulation against the original, bufferized by upstream's
// One-Shot Bufferize, under the default options, a cover grid with
// 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4096x4096 --shape 1=4096x4096

// RUN: threadbind-opt %s -one-shot-bufferize="bufferize-function-boundaries" -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// The same with the 32-bit index copies (threadbind-narrow-indices).
// RUN: threadbind-opt %t.default.mlir -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// The entry takes its result as an argument once bufferized.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=ENTRY
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: out

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @kernel(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %rows = tensor.empty(%m) : tensor<?xf32>
  %maxinit = linalg.fill ins(%lowest : f32) outs(%rows : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%maxinit : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maximumf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %full = tensor.empty(%m, %n) : tensor<?x?xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%full : tensor<?x?xf32>) {
  ^bb0(%v: f32, %mx: f32, %o: f32):
    %d = arith.subf %v, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  %suminit = linalg.fill ins(%zero : f32) outs(%rows : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<?x?xf32>) outs(%suminit : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%full : tensor<?x?xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %buf = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c11 = arith.constant 11 : index
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c11 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %quarter = arith.constant 0.25 : f32
      %v = arith.mulf %rf, %quarter : f32
      memref.store %v, %buf[%i, %j] : memref<?x?xf32>
    }
  }
  %x = bufferization.to_tensor %buf restrict : memref<?x?xf32> to tensor<?x?xf32>
  %y = call @kernel(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %ybuf = bufferization.to_buffer %y read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  // A weighted checksum, rounded so that emulation and reference agree.
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%racc = %acc) -> f32 {
      %v = memref.load %ybuf[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c7 = arith.constant 7 : index
      %w = arith.remui %j, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %p = arith.mulf %v, %wf : f32
      %t = arith.addf %racc, %p : f32
      scf.yield %t : f32
    }
    scf.yield %row : f32
  }
  %scale = arith.constant 1000.0 : f32
  %scaled = arith.mulf %sum, %scale : f32
  %rounded = math.roundeven %scaled : f32
  vector.print str "out "
  vector.print %rounded : f32
  return
}
