// Reductions the pass does not map: an error at the offending op, and the
// module as it was.
// RUN: threadbind-opt %s -threadbind-map-reductions -split-input-file -verify-diagnostics

func.func @two_dims(%x: memref<?x?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  // expected-error @below {{'scf.parallel' op reduces over 2 dimensions; threadbind-map-reductions maps 1-D reductions so far}}
  %s = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) init (%zero) -> f32 {
    %v = memref.load %x[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// -----

func.func @region(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    // expected-error @below {{'scf.reduce' op combiner 0 is not one of addf, mulf, maxnumf, minnumf, maximumf, minimumf, addi, muli, andi, ori, xori, maxsi, minsi, maxui or minui of its two arguments}}
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %a : f32
      %r = arith.addf %p, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// -----

func.func @half(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    // expected-error @below {{'scf.reduce' op reduces a value of type 'f16'; threadbind-map-reductions takes f32, f64, i32 and i64}}
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %r = arith.addf %a, %b : f16
      scf.reduce.return %r : f16
    }
  }
  memref.store %s, %out[%c0] : memref<1xf16>
  return
}

// -----

func.func @scalar_use(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  // expected-error @below {{'arith.mulf' op uses a reduction result; threadbind-map-reductions needs every use to be a memref.store of it after the loop}}
  %d = arith.mulf %s, %s : f32
  memref.store %d, %out[%c0] : memref<1xf32>
  return
}

// -----

func.func @in_between(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  // expected-error @below {{'memref.store' op touches memory between a reduction and the store of its result, which the reduction's kernel makes}}
  memref.store %zero, %x[%c0] : memref<?xf32>
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
