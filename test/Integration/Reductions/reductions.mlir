// Every combiner and element type threadbind-map-reductions takes, each a
// full 1-D reduction of x into out[0] from an init value that is not the
// identity, so an init dropped or counted twice shows. Here: each compiles
// to PTX that ptxas accepts, with shuffles and shared memory. On a GPU,
// scripts/gpu-check.sh --reductions runs every entry at 0, 1, 31, 32, 33,
// 2^20+7 and 2^28 elements (sum_f16 stops at 2^20+7, see there) against
// the CPU reference, and again compiled with --reduction-cross-block=atomic.
// REQUIRES: ptxas
// RUN: threadbind-compile %s --chip sm_90 -o %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// The host bundle links too (its CPU reference of the f16 maxima calls
// libm's fmaxf).
// RUN: threadbind-compile %s --chip sm_90 --emit bundle -o %t.so
// RUN: grep -c "^.visible .entry" %t.ptx | FileCheck %s --check-prefix=ENTRIES
// RUN: FileCheck %s < %t.ptx
// The manifest names the per-block scratch the first kernel writes and the
// second reads, with its size.
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.so.manifest.json
// MANIFEST: "name": "sum_f32",
// MANIFEST: "scratch": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "element_type": "f32",
// MANIFEST-NEXT: "element_bytes": 4,
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: {"op":"maxu","args":[{"op":"minu","args":[{"op":"ceildivu","args":[{"op":"max","args":[{"dim":[0,0]},0]},256]},{"op":"resident_blocks","args":[256],"kernel":"sum_f32_kernel"}]},1]}
// MANIFEST: "launchable": true
// MANIFEST: "name": "sum_f32_kernel",
// MANIFEST: "field": "aligned_ptr",
// MANIFEST: "field": "aligned_ptr",
// MANIFEST-NEXT: "mlir_type": "memref<?xf32>",
// MANIFEST-NEXT: "source": {"scratch":0}
// MANIFEST: "name": "sum_f32_kernel_0",
// MANIFEST: "source": {"scratch":0}
// Two kernels a reduction: 28 single ones, a dot product and a loop with
// two; and two each (one-warp and 256-thread blocks) for the row sums,
// maxima and magnitudes, each of those also with a copy counting and
// addressing in 32 bits (threadbind-narrow-indices).
// ENTRIES: 72
// CHECK: .shared
// CHECK: shfl.sync.bfly
// CHECK: bar.sync
// With atomics, the f32 and f64 sums and the integer kinds combine their
// blocks with red/atom instructions, and their second kernels fold nothing.
// RUN: threadbind-compile %s --chip sm_90 --reduction-cross-block=atomic -o %t.atomic.ptx
// RUN: ptxas -arch=sm_90 %t.atomic.ptx -o %t.atomic.cubin
// RUN: FileCheck %s --check-prefix=ATOMIC < %t.atomic.ptx
// ATOMIC-LABEL: .entry sum_f32_kernel(
// ATOMIC: {{(red|atom)}}.global.add.f32
// ATOMIC-LABEL: .entry sum_f64_kernel(
// ATOMIC: {{(red|atom)}}.global.add.f64
// ATOMIC-LABEL: .entry maxsi_i64_kernel(
// ATOMIC: {{(red|atom)}}.global.max.s64

func.func @sum_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.5 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @sum_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -2.25 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @prod_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.mulf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @maxnum_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.25 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @minnum_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.5 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.minnumf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @maximum_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -4.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.maximumf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @minimum_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.75 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.minimumf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @sum_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 7 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @sum_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -7 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @prod_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.muli %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @and_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.andi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @or_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1024 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.ori %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @xor_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 5 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.xori %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @maxsi_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1000 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.maxsi %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @minsi_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1000 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.minsi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @maxui_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.maxui %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @minui_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.minui %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @dot_f32(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %a, %b : f32
    scf.reduce(%p : f32) {
    ^bb0(%l: f32, %r2: f32):
      %s = arith.addf %l, %r2 : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// Two results from one loop: the sum and the largest magnitude.
func.func @sum_and_absmax_f32(%x: memref<?xf32>, %sum: memref<1xf32>,
                              %absmax: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s, %m = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%zero, %zero) -> (f32, f32) {
    %v = memref.load %x[%i] : memref<?xf32>
    %a = math.absf %v : f32
    scf.reduce(%v, %a : f32, f32) {
    ^bb0(%l: f32, %r2: f32):
      %t = arith.addf %l, %r2 : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%l: f32, %r2: f32):
      %t = arith.maximumf %l, %r2 : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %sum[%c0] : memref<1xf32>
  memref.store %m, %absmax[%c0] : memref<1xf32>
  return
}

// f16 values: a sum of -1, 0 and 1 (x rounded after scaling by 0.55, so
// about 9% are not 0) keeps every partial sum an integer far below 2048,
// exact in f16 in any order up to 2^20 elements; at 2^28 the in-order
// reference itself loses count, so the GPU check stops at 2^20+7.
func.func @sum_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.5 : f16
  %scale = arith.constant 0.55 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    %s = arith.mulf %v, %scale : f16
    %q = math.roundeven %s : f16
    scf.reduce(%q : f16) {
    ^bb0(%a: f16, %b: f16):
      %t = arith.addf %a, %b : f16
      scf.reduce.return %t : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

func.func @maxnum_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -2.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %t = arith.maxnumf %a, %b : f16
      scf.reduce.return %t : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

// Combiner regions: no identity is known, so partial values carry a flag.
func.func @absmax_region_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.25 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %aa = math.absf %a : f16
      %bb = math.absf %b : f16
      %t = arith.maxnumf %aa, %bb : f16
      scf.reduce.return %t : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

func.func @absmax_region_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.25 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %aa = math.absf %a : f32
      %bb = math.absf %b : f32
      %t = arith.maxnumf %aa, %bb : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// Bitwise or spelt (a ^ b) + (a & b).
func.func @or_region_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 4096 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %xor = arith.xori %a, %b : i32
      %and = arith.andi %a, %b : i32
      %t = arith.addi %xor, %and : i32
      scf.reduce.return %t : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

// 8- and 16-bit integers and bf16: the block combine carries them in
// 32-bit shuffles, and no sub-word atomic combines the blocks. The i8 sum
// wraps, as the CPU reference's does.
func.func @sum_i8(%x: memref<?xi8>, %out: memref<1xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 7 : i8
  %n = memref.dim %x, %c0 : memref<?xi8>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i8 {
    %v = memref.load %x[%i] : memref<?xi8>
    scf.reduce(%v : i8) {
    ^bb0(%a: i8, %b: i8):
      %t = arith.addi %a, %b : i8
      scf.reduce.return %t : i8
    }
  }
  memref.store %r, %out[%c0] : memref<1xi8>
  return
}

func.func @maxsi_i8(%x: memref<?xi8>, %out: memref<1xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -100 : i8
  %n = memref.dim %x, %c0 : memref<?xi8>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i8 {
    %v = memref.load %x[%i] : memref<?xi8>
    scf.reduce(%v : i8) {
    ^bb0(%a: i8, %b: i8):
      %t = arith.maxsi %a, %b : i8
      scf.reduce.return %t : i8
    }
  }
  memref.store %r, %out[%c0] : memref<1xi8>
  return
}

func.func @minsi_i16(%x: memref<?xi16>, %out: memref<1xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1000 : i16
  %n = memref.dim %x, %c0 : memref<?xi16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i16 {
    %v = memref.load %x[%i] : memref<?xi16>
    scf.reduce(%v : i16) {
    ^bb0(%a: i16, %b: i16):
      %t = arith.minsi %a, %b : i16
      scf.reduce.return %t : i16
    }
  }
  memref.store %r, %out[%c0] : memref<1xi16>
  return
}

func.func @maxui_i16(%x: memref<?xi16>, %out: memref<1xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3 : i16
  %n = memref.dim %x, %c0 : memref<?xi16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i16 {
    %v = memref.load %x[%i] : memref<?xi16>
    scf.reduce(%v : i16) {
    ^bb0(%a: i16, %b: i16):
      %t = arith.maxui %a, %b : i16
      scf.reduce.return %t : i16
    }
  }
  memref.store %r, %out[%c0] : memref<1xi16>
  return
}

// The value of largest magnitude, its sign kept (of equal ones, the
// positive: a combiner must be commutative, or lanes that combine in
// other orders disagree), through a region that takes its zero from
// outside (where canonicalisation puts constants).
func.func @absmax_region_i16(%x: memref<?xi16>, %out: memref<1xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1 : i16
  %zero = arith.constant 0 : i16
  %n = memref.dim %x, %c0 : memref<?xi16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i16 {
    %v = memref.load %x[%i] : memref<?xi16>
    scf.reduce(%v : i16) {
    ^bb0(%a: i16, %b: i16):
      %na = arith.subi %zero, %a : i16
      %nb = arith.subi %zero, %b : i16
      %ma = arith.maxsi %a, %na : i16
      %mb = arith.maxsi %b, %nb : i16
      %bigger = arith.cmpi sgt, %ma, %mb : i16
      %smaller = arith.cmpi slt, %ma, %mb : i16
      %high = arith.maxsi %a, %b : i16
      %tie = arith.select %smaller, %b, %high : i16
      %t = arith.select %bigger, %a, %tie : i16
      scf.reduce.return %t : i16
    }
  }
  memref.store %r, %out[%c0] : memref<1xi16>
  return
}

func.func @maxnum_bf16(%x: memref<?xbf16>, %out: memref<1xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -0.5 : bf16
  %n = memref.dim %x, %c0 : memref<?xbf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> bf16 {
    %v = memref.load %x[%i] : memref<?xbf16>
    scf.reduce(%v : bf16) {
    ^bb0(%a: bf16, %b: bf16):
      %t = arith.maxnumf %a, %b : bf16
      scf.reduce.return %t : bf16
    }
  }
  memref.store %r, %out[%c0] : memref<1xbf16>
  return
}

// One block a row: out[i] = sum over j of m[i, j].
func.func @row_sums_f32(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// out[i] = max(-1000, max over j of m[i, j]).
func.func @row_max_i32(%m: memref<?x?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1000 : i32
  %r = memref.dim %m, %c0 : memref<?x?xi32>
  %c = memref.dim %m, %c1 : memref<?x?xi32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%init) -> i32 {
      %v = memref.load %m[%i, %j] : memref<?x?xi32>
      scf.reduce(%v : i32) {
      ^bb0(%a: i32, %b: i32):
        %t = arith.maxsi %a, %b : i32
        scf.reduce.return %t : i32
      }
    }
    memref.store %s, %out[%i] : memref<?xi32>
  }
  return
}

// out[i] = max(0.125, largest magnitude in row i), through a region.
func.func @row_absmax_region_f32(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.125 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%init) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %aa = math.absf %a : f32
        %bb = math.absf %b : f32
        %t = arith.maxnumf %aa, %bb : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}
