// Front-end IR with what bufferization turns into host state: a constant
// tensor (a memref.global the kernels must read from their own module), a
// scalar result (a 0-d out-parameter) and a tensor result (an appended
// out-parameter). The mapped program, run in CPU emulation, prints what
// the original, bufferized by upstream's One-Shot Bufferize, prints.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s -one-shot-bufferize="bufferize-function-boundaries" -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s --emit ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED-LABEL: func.func @biased_dot(
// MAPPED-SAME: %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32> {threadbind.result = 0 : i64}, %{{.*}}: memref<f32> {threadbind.result = 1 : i64})
// MAPPED: gpu.launch
// MAPPED: memref.get_global @__constant_4xf32
// The table is in the device code, not read from a host address.
// PTX: .global .align {{[0-9]+}} .b8 __constant_4xf32
// CHECK: sum 10
// CHECK: dot 12

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>

// (a + bias, sum of (a + bias) * b)
func.func @biased_dot(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %bias : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %se = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %dot = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%sum, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %d = tensor.extract %dot[] : tensor<f32>
  return %sum, %d : tensor<4xf32>, f32
}

func.func @main() {
  %a = arith.constant dense<[0.0, 1.0, -1.0, 0.0]> : tensor<4xf32>
  %b = arith.constant dense<[1.0, 1.0, 2.0, 1.0]> : tensor<4xf32>
  %s, %d = call @biased_dot(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, f32)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %total = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = tensor.extract %s[%i] : tensor<4xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  vector.print str "sum "
  vector.print %total : f32
  vector.print str "dot "
  vector.print %d : f32
  return
}
