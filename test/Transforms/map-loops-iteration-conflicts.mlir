// A store that another iteration's load reads (a scan or a stencil updated
// in place, a column sum written as a parallel loop) makes the program
// depend on an order that scf.parallel's iterations do not have: the
// mapping warns at the store, with a note at the load, and maps the loop
// as written. Accesses it cannot prove to meet stay quiet: distances that
// are not a multiple of the step or longer than the loop, branches,
// different memrefs, indices it does not follow.
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads -verify-diagnostics -o /dev/null

func.func @scan_in_place(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c1) to (%n) step (%c1) {
    %im = arith.subi %i, %c1 : index
    // expected-note @below {{the load}}
    %x = memref.load %a[%im] : memref<?xf32>
    %y = memref.load %a[%i] : memref<?xf32>
    %s = arith.addf %x, %y : f32
    // expected-warning @below {{iteration (i0) of the enclosing scf.parallel stores to an element that iteration (i0 + 1) loads: an scf.parallel's iterations run in no set order (on the GPU, at once), so what the load reads depends on the order; make that dimension an scf.for, or store to another buffer}}
    memref.store %s, %a[%i] : memref<?xf32>
  }
  return
}

// Every iteration of i adds into the same b[j]: iterations (any i0, i1).
func.func @column_sum_as_parallel(%a: memref<?x?xf32>, %b: memref<?xf32>,
                                  %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    // expected-note @below {{the load}}
    %acc = memref.load %b[%j] : memref<?xf32>
    %s = arith.addf %acc, %x : f32
    // expected-warning @below {{iteration (i0, i1) of the enclosing scf.parallel stores to an element that iteration (any i0, i1) loads}}
    memref.store %s, %b[%j] : memref<?xf32>
  }
  return
}

// An inner loop's induction variable takes the same values in each
// iteration: row i - 1 is read while row i is written.
func.func @rows_in_place(%a: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c1) to (%n) step (%c1) {
    scf.for %j = %c0 to %m step %c1 {
      %im = arith.subi %i, %c1 : index
      // expected-note @below {{the load}}
      %x = memref.load %a[%im, %j] : memref<?x?xf32>
      // expected-warning @below {{iteration (i0) of the enclosing scf.parallel stores to an element that iteration (i0 + 1) loads}}
      memref.store %x, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Red-black: with step 2, iteration i reads i + 1, which no iteration
// writes.
func.func @red_black(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c2) {
    %ip = arith.addi %i, %c1 : index
    %x = memref.load %a[%ip] : memref<?xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}

// One iteration: there is no other to meet.
func.func @one_iteration(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %x = memref.load %a[%c0] : memref<?xf32>
    memref.store %x, %a[%c0] : memref<?xf32>
  }
  return
}

// Three iterations in j, and the distance 3 is past them; i, of one
// iteration, is fixed.
func.func @distance_past_the_end(%b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c3) step (%c1, %c1) {
    %jp = arith.addi %j, %c3 : index
    %y = memref.load %b[%c0, %jp] : memref<?x?xf32>
    memref.store %y, %b[%c0, %j] : memref<?x?xf32>
  }
  return
}

// The same element in every iteration of j; i runs once.
func.func @one_cell_many_iterations(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c3) step (%c1, %c1) {
    // expected-note @below {{the load}}
    %x = memref.load %a[%c0] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    // expected-warning @below {{iteration (i0, i1) of the enclosing scf.parallel stores to an element that iteration (i0, any i1) loads}}
    memref.store %y, %a[%c0] : memref<?xf32>
  }
  return
}

// Under a branch, into another buffer, or through an index the check does
// not follow: quiet.
func.func @quiet(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c1) to (%n) step (%c1) {
    %im = arith.subi %i, %c1 : index
    %x = memref.load %a[%im] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
    %first = arith.cmpi eq, %i, %c1 : index
    scf.if %first {
      memref.store %x, %a[%i] : memref<?xf32>
    }
    %i2 = arith.muli %i, %c2 : index
    %i2p = arith.addi %i2, %c1 : index
    %y = memref.load %b[%i2p] : memref<?xf32>
    memref.store %y, %b[%i2] : memref<?xf32>
  }
  return
}

// Bounds at both ends of the index type: 2^64 - 1 iterations, counted
// without overflow (UBSan once caught the subtraction).
func.func @whole_index_range(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -9223372036854775808 : index
  %hi = arith.constant 9223372036854775807 : index
  scf.parallel (%i) = (%lo) to (%hi) step (%c1) {
    // expected-note @below {{the load}}
    %x = memref.load %a[%c0] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    // expected-warning @below {{iteration (i0) of the enclosing scf.parallel stores to an element that iteration (any i0) loads}}
    memref.store %y, %a[%c0] : memref<?xf32>
  }
  return
}
