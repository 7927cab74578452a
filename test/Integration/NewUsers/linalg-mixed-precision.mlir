// Mixed-precision named ops (i8xi8->i32 matmul, f16xf16->f32 matmul), matmul with a transposed-A indexing_maps,
// a variadic linalg.reduce computing argmax (value + index), and a generic with the reduction dim outermost.
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
func.func private @printMemrefI32(memref<*xi32>)

func.func @mm_i8(%A: memref<?x?xi8>, %B: memref<?x?xi8>, %C: memref<?x?xi32>) {
  linalg.matmul ins(%A, %B : memref<?x?xi8>, memref<?x?xi8>) outs(%C : memref<?x?xi32>)
  return
}

func.func @mm_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>) outs(%C : memref<?x?xf32>)
  return
}

#mA = affine_map<(m, n, k) -> (k, m)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @mm_ta(%At: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul indexing_maps = [#mA, #mB, #mC]
    ins(%At, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

func.func @argmax(%x: memref<?x?xf32>, %iv: memref<?x?xi32>, %mv: memref<?xf32>, %mi: memref<?xi32>) {
  linalg.reduce ins(%x, %iv : memref<?x?xf32>, memref<?x?xi32>) outs(%mv, %mi : memref<?xf32>, memref<?xi32>) dimensions = [1]
    (%v: f32, %i: i32, %accv: f32, %acci: i32) {
      %gt = arith.cmpf ogt, %v, %accv : f32
      %eq = arith.cmpf oeq, %v, %accv : f32
      %lt = arith.cmpi slt, %i, %acci : i32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %nv = arith.select %take, %v, %accv : f32
      %ni = arith.select %take, %i, %acci : i32
      linalg.yield %nv, %ni : f32, i32
    }
  return
}

#rp_in = affine_map<(r, p) -> (r, p)>
#rp_out = affine_map<(r, p) -> (p)>
func.func @colmax_generic(%x: memref<?x?xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [#rp_in, #rp_out], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %a, %acc : f32
    linalg.yield %m : f32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c19 = arith.constant 19 : index
  %c23 = arith.constant 23 : index
  // i8: A 13x19 (values up to +-120), B 19x7
  %A8 = memref.alloc(%c13, %c19) : memref<?x?xi8>
  %B8 = memref.alloc(%c19, %c7) : memref<?x?xi8>
  %C32 = memref.alloc(%c13, %c7) : memref<?x?xi32>
  %Ah = memref.alloc(%c13, %c19) : memref<?x?xf16>
  %Bh = memref.alloc(%c19, %c7) : memref<?x?xf16>
  %Cf = memref.alloc(%c13, %c7) : memref<?x?xf32>
  %At = memref.alloc(%c19, %c13) : memref<?x?xf32>
  %Bf = memref.alloc(%c19, %c7) : memref<?x?xf32>
  %Ct = memref.alloc(%c13, %c7) : memref<?x?xf32>
  scf.for %i = %c0 to %c13 step %c1 {
    scf.for %k = %c0 to %c19 step %c1 {
      %a = arith.muli %i, %c7 : index
      %b = arith.muli %k, %c13 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c23 : index
      %ri = arith.index_cast %r : index to i32
      %k11 = arith.constant 11 : i32
      %m = arith.muli %ri, %k11 : i32
      %off = arith.constant 121 : i32
      %v = arith.subi %m, %off : i32
      %v8 = arith.trunci %v : i32 to i8
      memref.store %v8, %A8[%i, %k] : memref<?x?xi8>
      %vh = arith.sitofp %ri : i32 to f16
      memref.store %vh, %Ah[%i, %k] : memref<?x?xf16>
      %vf = arith.sitofp %ri : i32 to f32
      memref.store %vf, %At[%k, %i] : memref<?x?xf32>
    }
  }
  scf.for %k = %c0 to %c19 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      %a = arith.muli %k, %c5 : index
      %b = arith.muli %j, %c3 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c13 : index
      %ri = arith.index_cast %r : index to i32
      %off = arith.constant 6 : i32
      %v = arith.subi %ri, %off : i32
      %k20 = arith.constant 20 : i32
      %v2 = arith.muli %v, %k20 : i32
      %v8 = arith.trunci %v2 : i32 to i8
      memref.store %v8, %B8[%k, %j] : memref<?x?xi8>
      %vh = arith.sitofp %v : i32 to f16
      memref.store %vh, %Bh[%k, %j] : memref<?x?xf16>
      %vf = arith.sitofp %v : i32 to f32
      memref.store %vf, %Bf[%k, %j] : memref<?x?xf32>
    }
  }
  scf.for %i = %c0 to %c13 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      %z = arith.constant 0 : i32
      memref.store %z, %C32[%i, %j] : memref<?x?xi32>
      %zf = arith.constant 0.5 : f32
      memref.store %zf, %Cf[%i, %j] : memref<?x?xf32>
      memref.store %zf, %Ct[%i, %j] : memref<?x?xf32>
    }
  }
  call @mm_i8(%A8, %B8, %C32) : (memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>) -> ()
  %C32u = memref.cast %C32 : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%C32u) : (memref<*xi32>) -> ()
  call @mm_f16(%Ah, %Bh, %Cf) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  %Cfu = memref.cast %Cf : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%Cfu) : (memref<*xf32>) -> ()
  call @mm_ta(%At, %Bf, %Ct) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %Ctu = memref.cast %Ct : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%Ctu) : (memref<*xf32>) -> ()

  // argmax over rows of a 23x19 matrix with ties
  %X = memref.alloc(%c23, %c19) : memref<?x?xf32>
  %IV = memref.alloc(%c23, %c19) : memref<?x?xi32>
  scf.for %i = %c0 to %c23 step %c1 {
    scf.for %j = %c0 to %c19 step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      memref.store %rf, %X[%i, %j] : memref<?x?xf32>
      %ji = arith.index_cast %j : index to i32
      memref.store %ji, %IV[%i, %j] : memref<?x?xi32>
    }
  }
  %MV = memref.alloc(%c23) : memref<?xf32>
  %MI = memref.alloc(%c23) : memref<?xi32>
  scf.for %i = %c0 to %c23 step %c1 {
    %ninf = arith.constant -1.0e+30 : f32
    memref.store %ninf, %MV[%i] : memref<?xf32>
    %big = arith.constant 1000000 : i32
    memref.store %big, %MI[%i] : memref<?xi32>
  }
  call @argmax(%X, %IV, %MV, %MI) : (memref<?x?xf32>, memref<?x?xi32>, memref<?xf32>, memref<?xi32>) -> ()
  %MVu = memref.cast %MV : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%MVu) : (memref<*xf32>) -> ()
  %MIu = memref.cast %MI : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%MIu) : (memref<*xi32>) -> ()

  %CM = memref.alloc(%c19) : memref<?xf32>
  scf.for %j = %c0 to %c19 step %c1 {
    %m = arith.constant 2.5 : f32
    memref.store %m, %CM[%j] : memref<?xf32>
  }
  %Xs = memref.alloc(%c23, %c19) : memref<?x?xf32>
  scf.for %i = %c0 to %c23 step %c1 {
    scf.for %j = %c0 to %c19 step %c1 {
      %a = arith.muli %i, %i : index
      %b = arith.muli %j, %c7 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c19 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      memref.store %rf, %Xs[%i, %j] : memref<?x?xf32>
    }
  }
  call @colmax_generic(%Xs, %CM) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %CMu = memref.cast %CM : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%CMu) : (memref<*xf32>) -> ()
  return
}
