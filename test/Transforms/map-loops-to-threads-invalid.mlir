// RUN: threadbind-opt %s -threadbind-map-loops-to-threads -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func private @host_helper(f32) -> f32

func.func @calls_host(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %y = func.call @host_helper(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @allocates(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @below {{cannot run on the device: 'memref.alloc' manages heap memory}}
    %t = memref.alloc() : memref<4xf32>
    %x = memref.load %t[%c0] : memref<4xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @unknown_effects(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @below {{cannot run in parallel: 'test.opaque' has unknown side effects}}
    "test.opaque"(%i) : (index) -> ()
  }
  return
}

// -----

func.func @reduction(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'scf.parallel' op has reductions, which threadbind-map-loops-to-threads does not map}}
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<?xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// -----

func.func @captures_tensor(%t: tensor<4xf32>, %a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @below {{cannot run on the device: it uses a value of type 'tensor<4xf32>' defined outside the loop, which a kernel cannot take as an argument}}
    %x = tensor.extract %t[%c0] : tensor<4xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @launches_inside(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @below {{cannot bind the enclosing loop to the GPU: its body already launches a kernel}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
  }
  return
}

// -----

// expected-error @below {{'threadbind_max_resident_blocks' must be a function of type '(index) -> index': grid-stride launches call it to size their grid}}
func.func private @threadbind_max_resident_blocks(i32) -> i32

func.func @wrong_query_type(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
