// linalg.transpose (NCHW->NHWC), broadcast, reduce (sum over dim), fill, copy, map with math ops.
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

func.func @nchw_to_nhwc(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  linalg.transpose ins(%in : memref<?x?x?x?xf32>) outs(%out : memref<?x?x?x?xf32>) permutation = [0, 2, 3, 1]
  return
}

// out[i, j] = bias[j]  then  out[i, j] += rowsum(in)[i]
func.func @bcast_reduce(%in: memref<?x?xf32>, %bias: memref<?xf32>, %rs: memref<?xf32>, %out: memref<?x?xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%rs : memref<?xf32>)
  linalg.reduce ins(%in : memref<?x?xf32>) outs(%rs : memref<?xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  linalg.broadcast ins(%bias : memref<?xf32>) outs(%out : memref<?x?xf32>) dimensions = [0]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?x?xf32>
  %m = memref.dim %out, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %o = memref.load %out[%i, %j] : memref<?x?xf32>
    %r = memref.load %rs[%i] : memref<?xf32>
    %v = arith.addf %o, %r : f32
    memref.store %v, %out[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// column sum via linalg.reduce over dim 0
func.func @colsum(%in: memref<?x?xf32>, %cs: memref<?xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%cs : memref<?xf32>)
  linalg.reduce ins(%in : memref<?x?xf32>) outs(%cs : memref<?xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return
}

func.func @maps(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %tmp: memref<?x?xf32>, %o: memref<?x?xf32>) {
  linalg.copy ins(%a : memref<?x?xf32>) outs(%tmp : memref<?x?xf32>)
  // o = floor(sqrt(|a * b|) * 4) + exp2(b mod-ish)
  linalg.map ins(%tmp, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%o : memref<?x?xf32>)
    (%x: f32, %y: f32, %unused: f32) {
      %p = arith.mulf %x, %y : f32
      %q = math.absf %p : f32
      %r = math.sqrt %q : f32
      %four = arith.constant 4.0 : f32
      %t = arith.mulf %r, %four : f32
      %f = math.floor %t : f32
      %e = math.exp2 %y : f32
      %s = arith.addf %f, %e : f32
      linalg.yield %s : f32
    }
  return
}

func.func @fill2d(%m: memref<?x?xf32>, %a: index, %b: index, %mod: index, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %x = arith.muli %i, %a : index
      %y = arith.muli %j, %b : index
      %s = arith.addi %x, %y : index
      %r = arith.remui %s, %mod : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %v = arith.subf %rf, %off : f32
      memref.store %v, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %f3 = arith.constant 3.0 : f32
  %f0 = arith.constant 0.0 : f32

  // transpose 2x3x5x7 -> 2x5x7x3
  %T = memref.alloc(%c2, %c3, %c5, %c7) : memref<?x?x?x?xf32>
  scf.for %n = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c3 step %c1 {
      scf.for %h = %c0 to %c5 step %c1 {
        scf.for %w = %c0 to %c7 step %c1 {
          %a0 = arith.muli %n, %c3 : index
          %a1 = arith.addi %a0, %c : index
          %a2 = arith.muli %a1, %c5 : index
          %a3 = arith.addi %a2, %h : index
          %a4 = arith.muli %a3, %c7 : index
          %a5 = arith.addi %a4, %w : index
          %ai = arith.index_cast %a5 : index to i32
          %af = arith.sitofp %ai : i32 to f32
          memref.store %af, %T[%n, %c, %h, %w] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  %TT = memref.alloc(%c2, %c5, %c7, %c3) : memref<?x?x?x?xf32>
  call @nchw_to_nhwc(%T, %TT) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %TTu = memref.cast %TT : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%TTu) : (memref<*xf32>) -> ()

  // broadcast + reduce on 37x29
  %A = memref.alloc(%c37, %c29) : memref<?x?xf32>
  call @fill2d(%A, %c3, %c5, %c7, %f3) : (memref<?x?xf32>, index, index, index, f32) -> ()
  %bias = memref.alloc(%c29) : memref<?xf32>
  scf.for %j = %c0 to %c29 step %c1 {
    %t = arith.muli %j, %c7 : index
    %r = arith.remui %t, %c11 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    memref.store %rf, %bias[%j] : memref<?xf32>
  }
  %rs = memref.alloc(%c37) : memref<?xf32>
  %O = memref.alloc(%c37, %c29) : memref<?x?xf32>
  call @bcast_reduce(%A, %bias, %rs, %O) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  %rsu = memref.cast %rs : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%rsu) : (memref<*xf32>) -> ()
  %Ou = memref.cast %O : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()

  %cs = memref.alloc(%c29) : memref<?xf32>
  call @colsum(%A, %cs) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %csu = memref.cast %cs : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%csu) : (memref<*xf32>) -> ()

  // 0-extent reduce: 5x0 -> row sums all 0; broadcast into 5x0 output (nothing)
  %E = memref.alloc(%c5, %c0) : memref<?x?xf32>
  %Eb = memref.alloc(%c0) : memref<?xf32>
  %Ers = memref.alloc(%c5) : memref<?xf32>
  %EO = memref.alloc(%c5, %c0) : memref<?x?xf32>
  call @bcast_reduce(%E, %Eb, %Ers, %EO) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  %Ersu = memref.cast %Ers : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%Ersu) : (memref<*xf32>) -> ()
  // size-1 colsum of a 1x1
  %S = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @fill2d(%S, %c3, %c5, %c7, %f0) : (memref<?x?xf32>, index, index, index, f32) -> ()
  %Scs = memref.alloc(%c1) : memref<?xf32>
  call @colsum(%S, %Scs) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %Scsu = memref.cast %Scs : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%Scsu) : (memref<*xf32>) -> ()

  // maps on 11x7
  %MA = memref.alloc(%c11, %c7) : memref<?x?xf32>
  %MB = memref.alloc(%c11, %c7) : memref<?x?xf32>
  %MT = memref.alloc(%c11, %c7) : memref<?x?xf32>
  %MO = memref.alloc(%c11, %c7) : memref<?x?xf32>
  call @fill2d(%MA, %c3, %c5, %c7, %f3) : (memref<?x?xf32>, index, index, index, f32) -> ()
  call @fill2d(%MB, %c5, %c2, %c5, %f0) : (memref<?x?xf32>, index, index, index, f32) -> ()
  call @maps(%MA, %MB, %MT, %MO) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %MOu = memref.cast %MO : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%MOu) : (memref<*xf32>) -> ()
  return
}
