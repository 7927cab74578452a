// A 2-D convolution, NHWC input and HWCF filter, as a user writes it in
// scf: a thread an output element.
// Source: the 2-D convolution definition, as torch.nn.functional.conv2d computes
// it (stride 1, dilation 1, no padding), in the NHWC/HWCF layout of
// TensorFlow's tf.nn.conv2d: out[n][oh][ow][f] = sum over (kh, kw, c) of
// in[n][oh+kh][ow+kw][c] * filter[kh][kw][c][f]
// Translated to MLIR by hand as a user writes it: one scf.parallel over (n, oh, ow, f), the
// sum over (kh, kw, c) as three nested scf.for with iter_args.
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
// CHECK: out 
// BUNDLE: --entry kernel --shape 0=4x66x66x32 --shape 1=3x3x32x64 --shape 2=4x64x64x64

func.func @kernel(%in: memref<?x?x?x?xf32>, %filter: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %out, %c0 : memref<?x?x?x?xf32>
  %oh = memref.dim %out, %c1 : memref<?x?x?x?xf32>
  %ow = memref.dim %out, %c2 : memref<?x?x?x?xf32>
  %f = memref.dim %out, %c3 : memref<?x?x?x?xf32>
  %kh = memref.dim %filter, %c0 : memref<?x?x?x?xf32>
  %kw = memref.dim %filter, %c1 : memref<?x?x?x?xf32>
  %c = memref.dim %filter, %c2 : memref<?x?x?x?xf32>
  scf.parallel (%b, %y, %x, %k) = (%c0, %c0, %c0, %c0) to (%n, %oh, %ow, %f) step (%c1, %c1, %c1, %c1) {
    %s = scf.for %p = %c0 to %kh step %c1 iter_args(%a0 = %zero) -> f32 {
      %iy = arith.addi %y, %p : index
      %s1 = scf.for %q = %c0 to %kw step %c1 iter_args(%a1 = %a0) -> f32 {
        %ix = arith.addi %x, %q : index
        %s2 = scf.for %ch = %c0 to %c step %c1 iter_args(%a2 = %a1) -> f32 {
          %v = memref.load %in[%b, %iy, %ix, %ch] : memref<?x?x?x?xf32>
          %g = memref.load %filter[%p, %q, %ch, %k] : memref<?x?x?x?xf32>
          %prod = arith.mulf %v, %g : f32
          %t = arith.addf %a2, %prod : f32
          scf.yield %t : f32
        }
        scf.yield %s2 : f32
      }
      scf.yield %s1 : f32
    }
    memref.store %s, %out[%b, %y, %x, %k] : memref<?x?x?x?xf32>
  }
  return
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
  %in = memref.alloc(%nb, %ih, %iw, %c) : memref<?x?x?x?xf32>
  scf.for %in_i0 = %c0 to %nb step %c1 {
    scf.for %in_i1 = %c0 to %ih step %c1 {
      scf.for %in_i2 = %c0 to %iw step %c1 {
        scf.for %in_i3 = %c0 to %c step %c1 {
          %in_w0 = arith.constant 3 : index
          %in_p0 = arith.muli %in_i0, %in_w0 : index
          %in_w1 = arith.constant 5 : index
          %in_p1 = arith.muli %in_i1, %in_w1 : index
          %in_s1 = arith.addi %in_p0, %in_p1 : index
          %in_w2 = arith.constant 7 : index
          %in_p2 = arith.muli %in_i2, %in_w2 : index
          %in_s2 = arith.addi %in_s1, %in_p2 : index
          %in_w3 = arith.constant 9 : index
          %in_p3 = arith.muli %in_i3, %in_w3 : index
          %in_s3 = arith.addi %in_s2, %in_p3 : index
          %in_m = arith.constant 5 : index
          %in_r = arith.remui %in_s3, %in_m : index
          %in_ri = arith.index_cast %in_r : index to i32
          %in_rf = arith.sitofp %in_ri : i32 to f32
          %in_h = arith.constant 2.0 : f32
          %in_v = arith.subf %in_rf, %in_h : f32
          memref.store %in_v, %in[%in_i0, %in_i1, %in_i2, %in_i3] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  %filter = memref.alloc(%kh, %kw, %c, %f) : memref<?x?x?x?xf32>
  scf.for %filter_i0 = %c0 to %kh step %c1 {
    scf.for %filter_i1 = %c0 to %kw step %c1 {
      scf.for %filter_i2 = %c0 to %c step %c1 {
        scf.for %filter_i3 = %c0 to %f step %c1 {
          %filter_w0 = arith.constant 3 : index
          %filter_p0 = arith.muli %filter_i0, %filter_w0 : index
          %filter_w1 = arith.constant 5 : index
          %filter_p1 = arith.muli %filter_i1, %filter_w1 : index
          %filter_s1 = arith.addi %filter_p0, %filter_p1 : index
          %filter_w2 = arith.constant 7 : index
          %filter_p2 = arith.muli %filter_i2, %filter_w2 : index
          %filter_s2 = arith.addi %filter_s1, %filter_p2 : index
          %filter_w3 = arith.constant 9 : index
          %filter_p3 = arith.muli %filter_i3, %filter_w3 : index
          %filter_s3 = arith.addi %filter_s2, %filter_p3 : index
          %filter_m = arith.constant 5 : index
          %filter_r = arith.remui %filter_s3, %filter_m : index
          %filter_ri = arith.index_cast %filter_r : index to i32
          %filter_rf = arith.sitofp %filter_ri : i32 to f32
          %filter_h = arith.constant 2.0 : f32
          %filter_v = arith.subf %filter_rf, %filter_h : f32
          memref.store %filter_v, %filter[%filter_i0, %filter_i1, %filter_i2, %filter_i3] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  %out = memref.alloc(%nb, %oh, %ow, %f) : memref<?x?x?x?xf32>
  call @kernel(%in, %filter, %out) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %out_zero = arith.constant 0.0 : f32
  %out_acc0 = scf.for %out_k0 = %c0 to %nb step %c1 iter_args(%out_a0 = %out_zero) -> f32 {
    %out_acc1 = scf.for %out_k1 = %c0 to %oh step %c1 iter_args(%out_a1 = %out_a0) -> f32 {
      %out_acc2 = scf.for %out_k2 = %c0 to %ow step %c1 iter_args(%out_a2 = %out_a1) -> f32 {
        %out_acc3 = scf.for %out_k3 = %c0 to %f step %c1 iter_args(%out_a3 = %out_a2) -> f32 {
          %v = memref.load %out[%out_k0, %out_k1, %out_k2, %out_k3] : memref<?x?x?x?xf32>
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
