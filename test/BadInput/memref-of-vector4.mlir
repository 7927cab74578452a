// Memrefs of vectors: memref<?xvector<4xf32>>, each element already 16
// bytes, loaded, added and stored whole. Widening leaves the loop alone
// (its elements are no scalars to pack), and the PTX moves each element
// with one 128-bit access.
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

// MAPPED-LABEL: func.func @add4
// MAPPED: gpu.launch
// MAPPED: arith.addf {{.*}} : vector<4xf32>
// WIDEN: remark: not widened
// PTX: ld.global.v4.{{[bf]}}32
// PTX: st.global.v4.{{[bf]}}32
// CHECK: sizes = [3, 4]
// CHECK-NEXT: {{\[}}[0,   2,   4,   6],
// CHECK-NEXT: [8,   10,   12,   14],
// CHECK-NEXT: [16,   18,   20,   22]]

func.func @add4(%a: memref<?xvector<4xf32>>, %b: memref<?xvector<4xf32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xvector<4xf32>>
    %y = memref.load %b[%i] : memref<?xvector<4xf32>>
    %s = arith.addf %x, %y : vector<4xf32>
    memref.store %s, %b[%i] : memref<?xvector<4xf32>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %base = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : vector<4xf32>
  %a = memref.alloc(%c3) : memref<?xvector<4xf32>>
  %b = memref.alloc(%c3) : memref<?xvector<4xf32>>
  scf.for %i = %c0 to %c3 step %c1 {
    %r = arith.muli %i, %c4 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %rv = vector.broadcast %rf : f32 to vector<4xf32>
    %v = arith.addf %base, %rv : vector<4xf32>
    memref.store %v, %a[%i] : memref<?xvector<4xf32>>
    memref.store %v, %b[%i] : memref<?xvector<4xf32>>
  }
  call @add4(%a, %b, %c3) : (memref<?xvector<4xf32>>, memref<?xvector<4xf32>>, index) -> ()
  %out = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %b[%i] : memref<?xvector<4xf32>>
    vector.store %v, %out[%i, %c0] : memref<3x4xf32>, vector<4xf32>
  }
  %u = memref.cast %out : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
