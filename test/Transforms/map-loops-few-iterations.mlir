// A loop whose trip counts are constants and whose iterations, a thread
// each, are fewer than 4096 (16 blocks of 256) cannot keep a GPU busy: the
// mapping's remark says so. At 4096 iterations, or with a size known only
// at run time, it says nothing of the kind.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="remarks collapse-nests=false" -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: bound to gpu.launch: {{.*}}; only 3000 iterations, a thread each: too few to keep a GPU busy (an H100 has 132 SMs of up to 2048 threads), so most of it idles while this kernel runs
// CHECK-NOT: too few
// CHECK: remark: bound to gpu.launch
// CHECK-NOT: too few
// CHECK: remark: bound to gpu.launch
// CHECK-NOT: too few

func.func @few(%a: memref<100x30xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c30 = arith.constant 30 : index
  %c100 = arith.constant 100 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c30) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<100x30xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %a[%i, %j] : memref<100x30xf32>
  }
  return
}

func.func @enough(%a: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<4096xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %a[%i] : memref<4096xf32>
  }
  return
}

func.func @dynamic(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %a[%i] : memref<?xf32>
  }
  return
}
