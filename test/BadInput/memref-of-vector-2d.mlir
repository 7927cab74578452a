// Memrefs of vectors in two dimensions: memref<?x?xvector<2xi16>> with
// dynamic shape; the mapping sees a unit-stride dimension of 4-byte
// elements and binds the inner loop dimension to x.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 -threadbind-widen-accesses="nested-loops remarks" -threadbind-test-emulate-gpu-launch %lower_to_cpu 2> %t.widen | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: FileCheck %s --check-prefix=WIDEN < %t.widen
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @twice
// MAPPED: gpu.launch
// MAPPED: arith.addi {{.*}} : vector<2xi16>
// WIDEN: remark: not widened
// PTX: .entry twice_kernel
// CHECK: sizes = [2, 6]
// CHECK-NEXT: {{\[}}[0,   2,   2,   4,   4,   6],
// CHECK-NEXT: [6,   8,   8,   10,   10,   12]]

func.func @twice(%a: memref<?x?xvector<2xi16>>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xvector<2xi16>>
    %y = arith.addi %x, %x : vector<2xi16>
    memref.store %y, %a[%i, %j] : memref<?x?xvector<2xi16>>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %base = arith.constant dense<[0, 1]> : vector<2xi16>
  %a = memref.alloc(%c2, %c3) : memref<?x?xvector<2xi16>>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %r = arith.muli %i, %c3 : index
      %s = arith.addi %r, %j : index
      %si = arith.index_cast %s : index to i16
      %sv = vector.broadcast %si : i16 to vector<2xi16>
      %v = arith.addi %base, %sv : vector<2xi16>
      memref.store %v, %a[%i, %j] : memref<?x?xvector<2xi16>>
    }
  }
  call @twice(%a, %c2, %c3) : (memref<?x?xvector<2xi16>>, index, index) -> ()
  %out = memref.alloc() : memref<2x6xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xvector<2xi16>>
      %w = arith.extsi %v : vector<2xi16> to vector<2xi32>
      %k = arith.muli %j, %c2 : index
      vector.store %w, %out[%i, %k] : memref<2x6xi32>, vector<2xi32>
    }
  }
  %u = memref.cast %out : memref<2x6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
