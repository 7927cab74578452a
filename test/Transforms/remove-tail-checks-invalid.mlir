// Malformed attributes are reported where they are, and the pass fails
// before it changes anything.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -split-input-file -verify-diagnostics -o /dev/null

// A strategy that does not exist, at the launch (the loop's location).
func.func @bad(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-error @below {{'threadbind.tail' must be "split", "pad" or "keep", not "pad-everything"}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  } {threadbind.tail = "pad-everything"}
  return
}

// -----

// expected-error @below {{'func.func' op argument 0: 'threadbind.padded_to' must be a positive integer, not 0 : i64}}
func.func @zero(%a: memref<?xf32> {threadbind.padded_to = 0}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// expected-error @below {{'func.func' op argument 1: 'threadbind.padded_to' must be a positive integer, not "256"}}
func.func @text(%a: memref<?xf32>, %b: memref<?xf32> {threadbind.padded_to = "256"}) {
  return
}

// -----

// Padding a 2-D memref along its rows would move every row after the
// first; the attribute is refused.
// expected-error @below {{'func.func' op argument 0: 'threadbind.padded_to' applies to 1-D memrefs with the identity layout, not 'memref<?x?xf32>'}}
func.func @matrix(%a: memref<?x?xf32> {threadbind.padded_to = 32}) {
  return
}
