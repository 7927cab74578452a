// conv_2d_nhwc_hwcf (stride 1 and 2, plus dilation 2) and pooling_nhwc_max (stride 1 and 2), N=2 H=W=9 C=3 F=4.
// From the new-user rounds of 2026-11-29: a program in a form the other
// tests did not cover, written as someone new to ThreadBind writes it.
// Checked in CPU emulation against the original, as threadbind-compile
// binds it under the defaults, a cover grid of 64-thread blocks with split
// tails, and a 3-D block shape of at most 3 blocks with kept tails and
// unrolled widening; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// REF: {{[0-9]}}

func.func private @printMemrefF32(memref<*xf32>)

func.func @fill4d(%m: memref<?x?x?x?xf32>, %w0: index, %w1: index, %w2: index, %w3: index, %mod: index, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?x?x?xf32>
  %d2 = memref.dim %m, %c2 : memref<?x?x?x?xf32>
  %d3 = memref.dim %m, %c3 : memref<?x?x?x?xf32>
  scf.for %a = %c0 to %d0 step %c1 {
    scf.for %b = %c0 to %d1 step %c1 {
      scf.for %c = %c0 to %d2 step %c1 {
        scf.for %d = %c0 to %d3 step %c1 {
          %x0 = arith.muli %a, %w0 : index
          %x1 = arith.muli %b, %w1 : index
          %x2 = arith.muli %c, %w2 : index
          %x3 = arith.muli %d, %w3 : index
          %s0 = arith.addi %x0, %x1 : index
          %s1 = arith.addi %s0, %x2 : index
          %s2 = arith.addi %s1, %x3 : index
          %r = arith.remui %s2, %mod : index
          %ri = arith.index_cast %r : index to i32
          %rf = arith.sitofp %ri : i32 to f32
          %v = arith.subf %rf, %off : f32
          memref.store %v, %m[%a, %b, %c, %d] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  return
}

func.func @conv_s1(%I: memref<?x?x?x?xf32>, %K: memref<?x?x?x?xf32>, %O: memref<?x?x?x?xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%O : memref<?x?x?x?xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %K : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%O : memref<?x?x?x?xf32>)
  return
}

func.func @conv_s2(%I: memref<?x?x?x?xf32>, %K: memref<?x?x?x?xf32>, %O: memref<?x?x?x?xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%O : memref<?x?x?x?xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %K : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%O : memref<?x?x?x?xf32>)
  return
}

func.func @conv_d2(%I: memref<?x?x?x?xf32>, %K: memref<?x?x?x?xf32>, %O: memref<?x?x?x?xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%O : memref<?x?x?x?xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
    ins(%I, %K : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%O : memref<?x?x?x?xf32>)
  return
}

func.func @pool_s1(%I: memref<?x?x?x?xf32>, %O: memref<?x?x?x?xf32>) {
  %ninf = arith.constant -1.0e+30 : f32
  %win = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%O : memref<?x?x?x?xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %win : memref<?x?x?x?xf32>, memref<3x3xf32>) outs(%O : memref<?x?x?x?xf32>)
  memref.dealloc %win : memref<3x3xf32>
  return
}

func.func @pool_s2(%I: memref<?x?x?x?xf32>, %O: memref<?x?x?x?xf32>) {
  %ninf = arith.constant -1.0e+30 : f32
  %win = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%O : memref<?x?x?x?xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %win : memref<?x?x?x?xf32>, memref<3x3xf32>) outs(%O : memref<?x?x?x?xf32>)
  memref.dealloc %win : memref<3x3xf32>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %f3 = arith.constant 3.0 : f32
  %f2 = arith.constant 2.0 : f32
  %I = memref.alloc(%c2, %c9, %c9, %c3) : memref<?x?x?x?xf32>
  %K = memref.alloc(%c3, %c3, %c3, %c4) : memref<?x?x?x?xf32>
  call @fill4d(%I, %c5, %c3, %c5, %c2, %c7, %f3) : (memref<?x?x?x?xf32>, index, index, index, index, index, f32) -> ()
  call @fill4d(%K, %c2, %c3, %c1, %c3, %c5, %f2) : (memref<?x?x?x?xf32>, index, index, index, index, index, f32) -> ()

  %c13 = arith.constant 13 : index
  %c31 = arith.constant 31 : index
  %f15 = arith.constant 15.0 : f32
  %J = memref.alloc(%c2, %c9, %c9, %c3) : memref<?x?x?x?xf32>
  call @fill4d(%J, %c7, %c11, %c13, %c3, %c31, %f15) : (memref<?x?x?x?xf32>, index, index, index, index, index, f32) -> ()
  %O1 = memref.alloc(%c2, %c7, %c7, %c4) : memref<?x?x?x?xf32>
  call @conv_s1(%I, %K, %O1) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %O1u = memref.cast %O1 : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%O1u) : (memref<*xf32>) -> ()

  %O2 = memref.alloc(%c2, %c4, %c4, %c4) : memref<?x?x?x?xf32>
  call @conv_s2(%I, %K, %O2) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %O2u = memref.cast %O2 : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%O2u) : (memref<*xf32>) -> ()

  // dilation 2: effective kernel 5x5; H out = 9-4 = 5 (stride 1), W out = (9-5)/2+1 = 3
  %O3 = memref.alloc(%c2, %c5, %c3, %c4) : memref<?x?x?x?xf32>
  call @conv_d2(%I, %K, %O3) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %O3u = memref.cast %O3 : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%O3u) : (memref<*xf32>) -> ()

  %P1 = memref.alloc(%c2, %c7, %c7, %c3) : memref<?x?x?x?xf32>
  call @pool_s1(%J, %P1) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %P1u = memref.cast %P1 : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%P1u) : (memref<*xf32>) -> ()

  %P2 = memref.alloc(%c2, %c4, %c4, %c3) : memref<?x?x?x?xf32>
  call @pool_s2(%J, %P2) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %P2u = memref.cast %P2 : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%P2u) : (memref<*xf32>) -> ()
  return
}
