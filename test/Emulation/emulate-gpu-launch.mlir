// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch -split-input-file | FileCheck %s

// Every id and dimension query becomes a loop value or a launch operand, and
// the loops run blocks outermost, then threads, x fastest.
// CHECK-LABEL: func.func @ids
// CHECK-SAME: (%[[OUT:.*]]: memref<?xindex>, %[[N:.*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[BZ:[^ ]*]] = %{{.*}} to %[[C1]]
// CHECK: scf.for %[[BY:[^ ]*]] = %{{.*}} to %[[C1]]
// CHECK: scf.for %[[BX:[^ ]*]] = %{{.*}} to %[[N]]
// CHECK: scf.for %[[TZ:[^ ]*]] = %{{.*}} to %[[C1]]
// CHECK: scf.for %[[TY:[^ ]*]] = %{{.*}} to %[[C1]]
// CHECK: scf.for %[[TX:[^ ]*]] = %{{.*}} to %[[C4]]
// CHECK: scf.execute_region {
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[C4]]
// CHECK: %[[GID:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK: %[[S0:.*]] = arith.addi %[[GID]], %[[C4]]
// CHECK: %[[S1:.*]] = arith.addi %[[S0]], %[[N]]
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %[[TX]]
// CHECK: memref.store %[[S2]], %[[OUT]][%[[GID]]]
// CHECK: scf.yield
// CHECK-NOT: gpu.
func.func @ids(%out: memref<?xindex>, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %gid = gpu.global_id x
    %bdim = gpu.block_dim x
    %gdim = gpu.grid_dim x
    %t = gpu.thread_id x
    %s0 = arith.addi %gid, %bdim : index
    %s1 = arith.addi %s0, %gdim : index
    %s2 = arith.addi %s1, %t : index
    memref.store %s2, %out[%gid] : memref<?xindex>
    gpu.terminator
  }
  return
}

// -----

// The launch's region arguments are replaced too, and a body with several
// blocks keeps its control flow inside the execute_region.
// CHECK-LABEL: func.func @region_args_and_cfg
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:[^ ]*]] =
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX:[^ ]*]] =
// CHECK: scf.execute_region {
// CHECK: cf.cond_br %{{.*}}, ^[[THEN:.*]], ^[[EXIT:.*]]
// CHECK: ^[[THEN]]:
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[BX]], %[[TX]]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: scf.yield
func.func @region_args_and_cfg(%out: memref<2x8xf32>, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    cf.cond_br %flag, ^then, ^exit
  ^then:
    memref.store %f, %out[%bx, %tx] : memref<2x8xf32>
    cf.br ^exit
  ^exit:
    gpu.terminator
  }
  return
}

// -----

// A declared grid-size query gets a body returning resident-blocks (4).
// CHECK-LABEL: func.func private @threadbind_max_resident_blocks
// CHECK-SAME: (%{{.*}}: index) -> index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: return %[[C4]] : index
func.func private @threadbind_max_resident_blocks(index) -> index
