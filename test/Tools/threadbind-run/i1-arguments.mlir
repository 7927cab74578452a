// i1 arguments in a bundle: a scalar flag and a mask memref (one byte an
// element, 0 or 1). The manifest names them i1, threadbind-run reads and
// fills them, and refuses a scalar that is not 0 or 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/masked.so --manifest %t/masked.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/masked.json
// RUN: threadbind-run %t/masked.so --list | FileCheck %s --check-prefix=LIST
// RUN: threadbind-run %t/masked.so --entry masked --size 7 --scalar 2=1 --reference-only --print | FileCheck %s --check-prefix=FLAG1
// RUN: threadbind-run %t/masked.so --entry masked --size 7 --scalar 2=0 --reference-only --print | FileCheck %s --check-prefix=FLAG0
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/masked.so --entry masked --size 7 --scalar 2=2 --reference-only 2>&1 | FileCheck %s --check-prefix=RANGE

// MANIFEST: "element_type": "i1"
// LIST: masked(memref<?xf32>, memref<?xi1>, i1)

// a[i] = mask[i] xor flag ? 100 : a[i], on the runner's seeded inputs: the
// mask is 1 at elements 0 and 3, so those become 100 with the flag clear,
// and all the others with it set.
// FLAG0: reference arg0: sum {{.*}}, first [100, 0.491563529, 0.942005515, 100, -0.111470595, 0.525788784, 0.754697382]
// FLAG0-NEXT: reference arg1: sum 2, first [1, 0, 0, 1, 0, 0, 0]
// FLAG1: reference arg0: sum {{.*}}, first [0.133123145, 100, 100, -0.111281566, 100, 100, 100]
// FLAG1-NEXT: reference arg1: sum 2, first [1, 0, 0, 1, 0, 0, 0]
// RANGE: error: --scalar 2: 2 does not fit in i1 (0 or 1)

func.func @masked(%a: memref<?xf32>, %mask: memref<?xi1>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %hundred = arith.constant 100.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %m = memref.load %mask[%i] : memref<?xi1>
    %take = arith.xori %m, %flag : i1
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.select %take, %hundred, %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
