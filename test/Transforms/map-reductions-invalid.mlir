// Reductions the pass does not map: an error at the offending op, and the
// module as it was.
// RUN: threadbind-opt %s -threadbind-map-reductions -split-input-file -verify-diagnostics

func.func @region_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    // expected-error @below {{'scf.reduce' op combiner 0 is a region on 'f64' values; threadbind-map-reductions maps combiner regions on values of up to 32 bits (a flag rides beside the value in a 64-bit shuffle), and addf, mulf, maxnumf, minnumf, maximumf, minimumf, addi, muli, andi, ori, xori, maxsi, minsi, maxui or minui of its two arguments on any type}}
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %m = math.absf %a : f64
      %r = arith.maxnumf %m, %b : f64
      scf.reduce.return %r : f64
    }
  }
  memref.store %s, %out[%c0] : memref<1xf64>
  return
}

// -----

// A combiner runs on empty partial values too, whose result is then
// dropped: a division by a value that may be zero cannot run that way.
func.func @region_divides(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%one) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      // expected-error @below {{'arith.divui' op is in the combiner of a reduction; threadbind-map-reductions evaluates combiners speculatively, so they must be pure ops}}
      %q = arith.divui %a, %b : i32
      scf.reduce.return %q : i32
    }
  }
  memref.store %s, %out[%c0] : memref<1xi32>
  return
}

// -----

// An i1 reduction through a combiner region: only the integer combiners
// take i1 (as i8).
func.func @i1(%x: memref<?xi1>, %out: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %n = memref.dim %x, %c0 : memref<?xi1>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%false) -> i1 {
    %v = memref.load %x[%i] : memref<?xi1>
    // expected-error @below {{'scf.reduce' op reduces a value of type 'i1'; threadbind-map-reductions takes f16, bf16, f32, f64, i8, i16, i32 and i64, and index and i1 with an integer combiner (addi, muli, andi, ori, xori, min, max)}}
    scf.reduce(%v : i1) {
    ^bb0(%a: i1, %b: i1):
      %n1 = arith.xori %a, %b : i1
      %r = arith.ori %n1, %a : i1
      scf.reduce.return %r : i1
    }
  }
  memref.store %s, %out[%c0] : memref<1xi1>
  return
}

// -----

// A combiner region that takes a value from outside other than a constant:
// the block combine runs in gpu.all_reduce's isolated region.
func.func @captured(%x: memref<?xf32>, %out: memref<1xf32>, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    // expected-error @below {{'scf.reduce' op combiner 0 uses a value defined outside it that is not a constant}}
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      %r = arith.minimumf %m, %w : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// -----

func.func @device_call(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %v = func.call @value(%i) : (index) -> f32
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}
func.func private @value(index) -> f32

