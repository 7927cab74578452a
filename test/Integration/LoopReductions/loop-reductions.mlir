// Reductions written as sequential loops (iter_args, and linalg's
// accumulators in memory) become parallel ones and reach the reduction
// mappings: the row mapping for matvec, a linalg.generic row sum and an
// iter_args row max, the full reduction for an iter_args dot product. Run
// through the gpu.launch emulation they print what the originals print,
// under the default options and the option sets that change the mapping.
// Values are small integers, so float sums are exact in any order.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3 reduction-warp-rows=false" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// Without loop reductions, the same programs still run, one thread a row.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="loop-reductions=false" > %t.serial.mlir
// RUN: threadbind-opt %t.serial.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.serial
// RUN: diff %t.ref %t.serial

// REMARKS-DAG: remark: row reduction mapped
// REMARKS-DAG: remark: reduction mapped

// CHECK: matvec 14 38 62 86 110
// CHECK: rowsum 6 22 38 54 70
// CHECK: rowmax 3 7 11 15 19
// CHECK: dot 14
// CHECK: batch 14 38 62 86 110 14 38 62 86 110

#rowsum_map_in = affine_map<(i, k) -> (i, k)>
#rowsum_map_out = affine_map<(i, k) -> (i)>

func.func @matvec(%a: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.matvec ins(%a, %x : memref<?x?xf32>, memref<?xf32>)
                outs(%y : memref<?xf32>)
  return
}

func.func @batch_matvec(%a: memref<?x?x?xf32>, %x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  linalg.batch_matvec ins(%a, %x : memref<?x?x?xf32>, memref<?x?xf32>)
                      outs(%y : memref<?x?xf32>)
  return
}

func.func @rowsum(%a: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#rowsum_map_in, #rowsum_map_out],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}

func.func @rowmax(%a: memref<?x?xi32>, %y: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %low = arith.constant -2147483648 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %low) -> i32 {
      %v = memref.load %a[%i, %k] : memref<?x?xi32>
      %t = arith.maxsi %acc, %v : i32
      scf.yield %t : i32
    }
    memref.store %r, %y[%i] : memref<?xi32>
  }
  return
}

func.func @dot(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %x[%k] : memref<?xf32>
    %b = memref.load %y[%k] : memref<?xf32>
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %p : f32
    scf.yield %t : f32
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}


func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%c5, %c4) : memref<?x?xf32>
  %ai = memref.alloc(%c5, %c4) : memref<?x?xi32>
  %x = memref.alloc(%c4) : memref<?xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %row = arith.muli %i, %c4 : index
      %e = arith.addi %row, %k : index
      %ei = arith.index_cast %e : index to i32
      %ef = arith.sitofp %ei : i32 to f32
      memref.store %ef, %a[%i, %k] : memref<?x?xf32>
      memref.store %ei, %ai[%i, %k] : memref<?x?xi32>
    }
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    memref.store %kf, %x[%k] : memref<?xf32>
  }

  %y = memref.alloc(%c5) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<?xf32>)
  call @matvec(%a, %x, %y) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  vector.print str "matvec"
  scf.for %i = %c0 to %c5 step %c1 {
    %v = memref.load %y[%i] : memref<?xf32>
    vector.print str " "
    vector.print %v : f32 punctuation <no_punctuation>
  }
  vector.print str "\n"

  linalg.fill ins(%zero : f32) outs(%y : memref<?xf32>)
  call @rowsum(%a, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  vector.print str "rowsum"
  scf.for %i = %c0 to %c5 step %c1 {
    %v = memref.load %y[%i] : memref<?xf32>
    vector.print str " "
    vector.print %v : f32 punctuation <no_punctuation>
  }
  vector.print str "\n"

  %yi = memref.alloc(%c5) : memref<?xi32>
  call @rowmax(%ai, %yi) : (memref<?x?xi32>, memref<?xi32>) -> ()
  vector.print str "rowmax"
  scf.for %i = %c0 to %c5 step %c1 {
    %v = memref.load %yi[%i] : memref<?xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print str "\n"

  %d = memref.alloc() : memref<1xf32>
  call @dot(%x, %x, %d) : (memref<?xf32>, memref<?xf32>, memref<1xf32>) -> ()
  %dv = memref.load %d[%c0] : memref<1xf32>
  vector.print str "dot "
  vector.print %dv : f32

  %ba = memref.alloc(%c2, %c5, %c4) : memref<?x?x?xf32>
  %bx = memref.alloc(%c2, %c4) : memref<?x?xf32>
  %by = memref.alloc(%c2, %c5) : memref<?x?xf32>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c5 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %v = memref.load %a[%i, %k] : memref<?x?xf32>
        memref.store %v, %ba[%b, %i, %k] : memref<?x?x?xf32>
      }
      memref.store %zero, %by[%b, %i] : memref<?x?xf32>
    }
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %x[%k] : memref<?xf32>
      memref.store %v, %bx[%b, %k] : memref<?x?xf32>
    }
  }
  call @batch_matvec(%ba, %bx, %by) : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  vector.print str "batch"
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c5 step %c1 {
      %v = memref.load %by[%b, %i] : memref<?x?xf32>
      vector.print str " "
      vector.print %v : f32 punctuation <no_punctuation>
    }
  }
  vector.print str "\n"
  return
}
