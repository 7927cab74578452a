// A runner that is killed (here by timeout) takes its CPU reference, which
// runs in a child process, with it: the fuzzer's timeouts used to leave
// such children spinning for hours.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/spin-reference.so
// Only the runner is killed, as Python's subprocess timeouts do (timeout(1)
// would kill the whole process group).
// RUN: bash -c 'threadbind-run %t/spin-reference.so --entry spin --size 4 --reference-only >/dev/null 2>&1 & sleep 2; kill -9 $!; sleep 1'
// RUN: not pgrep -f "threadbind-run %t/[s]pin-reference.so"

func.func @spin(%a: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi64>
  %forever = arith.constant 4611686018427387904 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %k = %c0 to %forever step %c1 {
      %v = arith.index_cast %k : index to i64
      memref.store %v, %a[%i] : memref<?xi64>
    }
  }
  return
}
