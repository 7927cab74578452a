// Memrefs of vectors of an odd width: memref<?xvector<3xf32>>, 12 bytes of
// data padded to 16 a slot in memory on both sides; a lane is extracted,
// doubled and inserted back in the loop body.
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

// MAPPED-LABEL: func.func @double_middle
// MAPPED: gpu.launch
// MAPPED: vector.insert
// WIDEN: remark: not widened
// PTX: .entry double_middle_kernel
// CHECK: sizes = [3, 3]
// CHECK-NEXT: {{\[}}[0,   2,   2],
// CHECK-NEXT: [3,   8,   5],
// CHECK-NEXT: [6,   14,   8]]

func.func @double_middle(%a: memref<?xvector<3xf32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xvector<3xf32>>
    %m = vector.extract %v[1] : f32 from vector<3xf32>
    %d = arith.addf %m, %m : f32
    %w = vector.insert %d, %v[1] : f32 into vector<3xf32>
    memref.store %w, %a[%i] : memref<?xvector<3xf32>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %base = arith.constant dense<[0.0, 1.0, 2.0]> : vector<3xf32>
  %a = memref.alloc(%c3) : memref<?xvector<3xf32>>
  scf.for %i = %c0 to %c3 step %c1 {
    %r = arith.muli %i, %c3 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %rv = vector.broadcast %rf : f32 to vector<3xf32>
    %v = arith.addf %base, %rv : vector<3xf32>
    memref.store %v, %a[%i] : memref<?xvector<3xf32>>
  }
  call @double_middle(%a, %c3) : (memref<?xvector<3xf32>>, index) -> ()
  %out = memref.alloc() : memref<3x3xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %a[%i] : memref<?xvector<3xf32>>
    vector.store %v, %out[%i, %c0] : memref<3x3xf32>, vector<3xf32>
  }
  %u = memref.cast %out : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
