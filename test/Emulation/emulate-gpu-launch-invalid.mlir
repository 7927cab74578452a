// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch -split-input-file -verify-diagnostics

func.func @barrier_in_if(%out: memref<4xf32>, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %out[%tx] : memref<4xf32>
    // A barrier in the launch body or in loops of it splits it into
    // phases; one under a condition would need the condition split too.
    scf.if %flag {
      // expected-error @below {{cannot emulate 'gpu.barrier' on the host: threads run one after another there}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// The host runs a loop of phases once for the whole block.
func.func @barrier_loop_per_thread(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @below {{cannot emulate on the host: this loop holds an all-reduce or barrier, so all threads of a block must run it alike, but its bounds are not computed from block ids, sizes and values from outside the launch alone}}
    scf.for %k = %c1 to %tx step %c1 {
      memref.store %f, %out[%k] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

func.func @barrier_loop_carries_memref(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @below {{cannot emulate on the host: this loop holds an all-reduce or barrier and carries a value of type 'memref<4xf32>', and only scalars can wait for the other threads there}}
    %m = scf.for %k = %c1 to %c4 step %c1 iter_args(%v = %out) -> memref<4xf32> {
      gpu.barrier
      scf.yield %v : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

func.func @shuffle(%out: memref<32xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @below {{cannot emulate 'gpu.shuffle'}}
    %s, %valid = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
    memref.store %s, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @async() {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-error @below {{cannot be emulated on the host: asynchronous launches are not supported}}
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}

// -----

func.func @workgroup_memory(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{cannot be emulated on the host: memory attributions are supported only as workgroup memory of a launch with barriers}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%shared : memref<4xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %shared[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Phases run one after another for every thread; only a scalar can wait
// for the other threads in a buffer, not a thread's stack memory.
func.func @memref_across_barrier(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @below {{cannot emulate on the host: a value of type 'memref<1xf32>' crosses an all-reduce or barrier}}
    %scratch = memref.alloca() : memref<1xf32>
    memref.store %one, %scratch[%c0] : memref<1xf32>
    gpu.barrier
    %v = memref.load %scratch[%c0] : memref<1xf32>
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// An all-reduce inside control flow is not a phase of the block.
func.func @nested_all_reduce(%out: memref<4xf32>, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.if %flag {
      // expected-error @below {{cannot emulate 'gpu.all_reduce' on the host}}
      %s = gpu.all_reduce add %one uniform {} : (f32) -> f32
      memref.store %s, %out[%tx] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}
