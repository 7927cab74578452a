// A malformed strategy attribute is reported at the launch (the loop's
// location), and the pass fails before it changes anything.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -verify-diagnostics -o /dev/null

func.func @bad(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-error @below {{'threadbind.tail' must be "split" or "keep", not "pad-everything"}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  } {threadbind.tail = "pad-everything"}
  return
}
