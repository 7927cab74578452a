// Loops that call the C math library through declarations, as C front ends
// emit them: expf, logf, sqrtf, fabsf, powf, fminf, fmaxf, fmodf, fmaf,
// erff, tanhf, roundf, atan2f and copysignf on f32, and exp, log1p, cbrt,
// pow and fma on f64.
// From the new-user rounds of 2026-11-29: every such loop was refused
// ("'func.call' calls a host function"). The calls in loops now become the
// math and arith ops that compute the same; a call the host makes stays a
// call, and so does one whose name or types are not the library's.
// Checked in CPU emulation against the original (which calls libm; the
// emulation's math ops without an LLVM intrinsic become libm calls too), as
// threadbind-compile binds it under the defaults, a cover grid of 64-thread
// blocks with split tails, and a 3-D block shape of at most 3 blocks with
// kept tails and unrolled widening; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch -convert-math-to-llvm -convert-math-to-libm %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch -convert-math-to-llvm -convert-math-to-libm %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch -convert-math-to-llvm -convert-math-to-libm %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// RUN: threadbind-opt %s -threadbind-inline-loop-calls | FileCheck %s --check-prefix=IR
// REF: Unranked Memref

// IR-LABEL: func.func @activations
// IR: math.exp {{.*}} : f32
// IR: math.absf {{.*}} : f32
// IR: math.log {{.*}} : f32
// IR: math.sqrt {{.*}} : f32
// IR: math.powf {{.*}} : f32
// IR: arith.minnumf {{.*}} : f32
// IR: arith.maxnumf {{.*}} : f32
// IR: arith.remf {{.*}} : f32
// IR: math.fma {{.*}} : f32
// IR: math.erf {{.*}} : f32
// IR: math.tanh {{.*}} : f32
// IR: math.round {{.*}} : f32
// IR: math.atan2 {{.*}} : f32
// IR: math.copysign {{.*}} : f32
// IR-NOT: call @
// IR-LABEL: func.func @doubles
// IR: math.exp {{.*}} : f64
// IR: math.log1p {{.*}} : f64
// IR: math.cbrt {{.*}} : f64
// IR: math.powf {{.*}} : f64
// IR: math.fma {{.*}} : f64
// IR-LABEL: func.func @main
// IR: call @expf

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @expf(f32) -> f32
func.func private @logf(f32) -> f32
func.func private @sqrtf(f32) -> f32
func.func private @fabsf(f32) -> f32
func.func private @powf(f32, f32) -> f32
func.func private @fminf(f32, f32) -> f32
func.func private @fmaxf(f32, f32) -> f32
func.func private @fmodf(f32, f32) -> f32
func.func private @fmaf(f32, f32, f32) -> f32
func.func private @erff(f32) -> f32
func.func private @tanhf(f32) -> f32
func.func private @roundf(f32) -> f32
func.func private @atan2f(f32, f32) -> f32
func.func private @copysignf(f32, f32) -> f32
func.func private @exp(f64) -> f64
func.func private @log1p(f64) -> f64
func.func private @cbrt(f64) -> f64
func.func private @pow(f64, f64) -> f64
func.func private @fma(f64, f64, f64) -> f64

func.func @activations(%x: memref<?xf32>, %y: memref<?x14xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %half = arith.constant 0.5 : f32
    %e = func.call @expf(%v) : (f32) -> f32
    %a = func.call @fabsf(%v) : (f32) -> f32
    %one = arith.constant 1.0 : f32
    %a1 = arith.addf %a, %one : f32
    %l = func.call @logf(%a1) : (f32) -> f32
    %s = func.call @sqrtf(%a) : (f32) -> f32
    %p = func.call @powf(%a1, %half) : (f32, f32) -> f32
    %mn = func.call @fminf(%v, %half) : (f32, f32) -> f32
    %mx = func.call @fmaxf(%v, %half) : (f32, f32) -> f32
    %md = func.call @fmodf(%v, %half) : (f32, f32) -> f32
    %fm = func.call @fmaf(%v, %half, %one) : (f32, f32, f32) -> f32
    %er = func.call @erff(%v) : (f32) -> f32
    %th = func.call @tanhf(%v) : (f32) -> f32
    %r = func.call @roundf(%v) : (f32) -> f32
    %at = func.call @atan2f(%v, %a1) : (f32, f32) -> f32
    %cs = func.call @copysignf(%half, %v) : (f32, f32) -> f32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c10 = arith.constant 10 : index
    %c11 = arith.constant 11 : index
    %c12 = arith.constant 12 : index
    %c13 = arith.constant 13 : index
    memref.store %e, %y[%i, %c0] : memref<?x14xf32>
    memref.store %l, %y[%i, %c1] : memref<?x14xf32>
    memref.store %s, %y[%i, %c2] : memref<?x14xf32>
    memref.store %a, %y[%i, %c3] : memref<?x14xf32>
    memref.store %p, %y[%i, %c4] : memref<?x14xf32>
    memref.store %mn, %y[%i, %c5] : memref<?x14xf32>
    memref.store %mx, %y[%i, %c6] : memref<?x14xf32>
    memref.store %md, %y[%i, %c7] : memref<?x14xf32>
    memref.store %fm, %y[%i, %c8] : memref<?x14xf32>
    memref.store %er, %y[%i, %c9] : memref<?x14xf32>
    memref.store %th, %y[%i, %c10] : memref<?x14xf32>
    memref.store %r, %y[%i, %c11] : memref<?x14xf32>
    memref.store %at, %y[%i, %c12] : memref<?x14xf32>
    memref.store %cs, %y[%i, %c13] : memref<?x14xf32>
    scf.reduce
  }
  return
}

func.func @doubles(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = func.call @exp(%v) : (f64) -> f64
    %l = func.call @log1p(%e) : (f64) -> f64
    %c = func.call @cbrt(%v) : (f64) -> f64
    %third = arith.constant 0.3333 : f64
    %p = func.call @pow(%e, %third) : (f64, f64) -> f64
    %f = func.call @fma(%l, %c, %p) : (f64, f64, f64) -> f64
    memref.store %f, %y[%i] : memref<?xf64>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 37 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?x14xf32>
  %xd = memref.alloc(%n) : memref<?xf64>
  %yd = memref.alloc(%n) : memref<?xf64>
  %c18 = arith.constant 18 : index
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.subi %i, %c18 : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    %q = arith.constant 0.23 : f32
    %g = arith.mulf %f, %q : f32
    // A host call of the library stays one.
    %h = func.call @expf(%g) : (f32) -> f32
    %s = arith.constant 1.0e-3 : f32
    %t = arith.mulf %h, %s : f32
    %u = arith.addf %g, %t : f32
    memref.store %u, %x[%i] : memref<?xf32>
    %d = arith.extf %u : f32 to f64
    memref.store %d, %xd[%i] : memref<?xf64>
  }
  call @activations(%x, %y) : (memref<?xf32>, memref<?x14xf32>) -> ()
  call @doubles(%xd, %yd) : (memref<?xf64>, memref<?xf64>) -> ()
  %u = memref.cast %y : memref<?x14xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %yd : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%v) : (memref<*xf64>) -> ()
  return
}
