// A 2-D convolution, NHWC input and HWCF filter, as a front end emits it:
// linalg on tensors, a new tensor returned.
// Source: the 2-D convolution definition, as torch.nn.functional.conv2d computes
// it (stride 1, dilation 1, no padding), in the NHWC/HWCF layout of
// TensorFlow's tf.nn.conv2d: out[n][oh][ow][f] = sum over (kh, kw, c) of
// in[n][oh+kh][ow+kw][c] * filter[kh][kw][c][f]
// Translated to MLIR by hand as a user writes it: linalg.conv_2d_nhwc_hwcf on tensors, its output
// a tensor.empty filled with zero by linalg.fill.
// Checked in CPU emulation against the original, bufferized by upstream's
// One-Shot Bufferize, under the default options, a cover grid with
// 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?x?x?xf32>, %{{.*}}: memref<?x?x?x?xf32>, %{{.*}}: memref<?x?x?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: out 
// BUNDLE: --entry kernel --shape 0=4x66x66x32 --shape 1=3x3x32x64 --shape 2=4x64x64x64

func.func @kernel(%in: tensor<?x?x?x?xf32>, %filter: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %in, %c0 : tensor<?x?x?x?xf32>
  %h = tensor.dim %in, %c1 : tensor<?x?x?x?xf32>
  %w = tensor.dim %in, %c2 : tensor<?x?x?x?xf32>
  %kh = tensor.dim %filter, %c0 : tensor<?x?x?x?xf32>
  %kw = tensor.dim %filter, %c1 : tensor<?x?x?x?xf32>
  %f = tensor.dim %filter, %c3 : tensor<?x?x?x?xf32>
  // A valid convolution: the output is (h - kh + 1) x (w - kw + 1).
  %hk = arith.subi %h, %kh : index
  %oh = arith.addi %hk, %c1 : index
  %wk = arith.subi %w, %kw : index
  %ow = arith.addi %wk, %c1 : index
  %empty = tensor.empty(%n, %oh, %ow, %f) : tensor<?x?x?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %out : tensor<?x?x?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nb = arith.constant 2 : index
  %ih = arith.constant 9 : index
  %iw = arith.constant 11 : index
  %c = arith.constant 3 : index
  %kh = arith.constant 3 : index
  %kw = arith.constant 4 : index
  %f = arith.constant 5 : index
  %oh = arith.constant 7 : index
  %ow = arith.constant 8 : index
  %inb = memref.alloc(%nb, %ih, %iw, %c) : memref<?x?x?x?xf32>
  scf.for %inb_i0 = %c0 to %nb step %c1 {
    scf.for %inb_i1 = %c0 to %ih step %c1 {
      scf.for %inb_i2 = %c0 to %iw step %c1 {
        scf.for %inb_i3 = %c0 to %c step %c1 {
          %inb_w0 = arith.constant 3 : index
          %inb_p0 = arith.muli %inb_i0, %inb_w0 : index
          %inb_w1 = arith.constant 5 : index
          %inb_p1 = arith.muli %inb_i1, %inb_w1 : index
          %inb_s1 = arith.addi %inb_p0, %inb_p1 : index
          %inb_w2 = arith.constant 7 : index
          %inb_p2 = arith.muli %inb_i2, %inb_w2 : index
          %inb_s2 = arith.addi %inb_s1, %inb_p2 : index
          %inb_w3 = arith.constant 9 : index
          %inb_p3 = arith.muli %inb_i3, %inb_w3 : index
          %inb_s3 = arith.addi %inb_s2, %inb_p3 : index
          %inb_m = arith.constant 5 : index
          %inb_r = arith.remui %inb_s3, %inb_m : index
          %inb_ri = arith.index_cast %inb_r : index to i32
          %inb_rf = arith.sitofp %inb_ri : i32 to f32
          %inb_h = arith.constant 2.0 : f32
          %inb_v = arith.subf %inb_rf, %inb_h : f32
          memref.store %inb_v, %inb[%inb_i0, %inb_i1, %inb_i2, %inb_i3] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  %fb = memref.alloc(%kh, %kw, %c, %f) : memref<?x?x?x?xf32>
  scf.for %fb_i0 = %c0 to %kh step %c1 {
    scf.for %fb_i1 = %c0 to %kw step %c1 {
      scf.for %fb_i2 = %c0 to %c step %c1 {
        scf.for %fb_i3 = %c0 to %f step %c1 {
          %fb_w0 = arith.constant 3 : index
          %fb_p0 = arith.muli %fb_i0, %fb_w0 : index
          %fb_w1 = arith.constant 5 : index
          %fb_p1 = arith.muli %fb_i1, %fb_w1 : index
          %fb_s1 = arith.addi %fb_p0, %fb_p1 : index
          %fb_w2 = arith.constant 7 : index
          %fb_p2 = arith.muli %fb_i2, %fb_w2 : index
          %fb_s2 = arith.addi %fb_s1, %fb_p2 : index
          %fb_w3 = arith.constant 9 : index
          %fb_p3 = arith.muli %fb_i3, %fb_w3 : index
          %fb_s3 = arith.addi %fb_s2, %fb_p3 : index
          %fb_m = arith.constant 5 : index
          %fb_r = arith.remui %fb_s3, %fb_m : index
          %fb_ri = arith.index_cast %fb_r : index to i32
          %fb_rf = arith.sitofp %fb_ri : i32 to f32
          %fb_h = arith.constant 2.0 : f32
          %fb_v = arith.subf %fb_rf, %fb_h : f32
          memref.store %fb_v, %fb[%fb_i0, %fb_i1, %fb_i2, %fb_i3] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  %in = bufferization.to_tensor %inb restrict : memref<?x?x?x?xf32> to tensor<?x?x?x?xf32>
  %filter = bufferization.to_tensor %fb restrict : memref<?x?x?x?xf32> to tensor<?x?x?x?xf32>
  %y = call @kernel(%in, %filter) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %out = bufferization.to_buffer %y read_only : tensor<?x?x?x?xf32> to memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
  %out_zero = arith.constant 0.0 : f32
  %out_acc0 = scf.for %out_k0 = %c0 to %nb step %c1 iter_args(%out_a0 = %out_zero) -> f32 {
    %out_acc1 = scf.for %out_k1 = %c0 to %oh step %c1 iter_args(%out_a1 = %out_a0) -> f32 {
      %out_acc2 = scf.for %out_k2 = %c0 to %ow step %c1 iter_args(%out_a2 = %out_a1) -> f32 {
        %out_acc3 = scf.for %out_k3 = %c0 to %f step %c1 iter_args(%out_a3 = %out_a2) -> f32 {
          %v = memref.load %out[%out_k0, %out_k1, %out_k2, %out_k3] : memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
          %c7 = arith.constant 7 : index
          %w = arith.remui %out_k3, %c7 : index
          %w1 = arith.addi %w, %c1 : index
          %wi = arith.index_cast %w1 : index to i32
          %wf = arith.sitofp %wi : i32 to f32
          %prod = arith.mulf %v, %wf : f32
          %sum = arith.addf %out_a3, %prod : f32
          scf.yield %sum : f32
        }
        scf.yield %out_acc3 : f32
      }
      scf.yield %out_acc2 : f32
    }
    scf.yield %out_acc1 : f32
  }
  vector.print str "out "
  vector.print %out_acc0 : f32
  return
}
