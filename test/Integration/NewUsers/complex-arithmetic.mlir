// Complex arithmetic in kernels: complex<f32> and complex<f64> memrefs,
// mul, div, abs, exp and conj, parts built with create and read with re/im.
// From the new-user rounds of 2026-11-29: kernels with complex ops bound
// and ran in CPU emulation but did not reach PTX (the device lowering left
// complex.mul as an unrealized cast); the device lowering now expands
// complex ops into their parts first.
// Checked in CPU emulation against the original, as threadbind-compile
// binds it under the defaults, a cover grid of 64-thread blocks with split
// tails, and a 3-D block shape of at most 3 blocks with kept tails and
// unrolled widening; its kernels assembled by ptxas. The header has no C
// type for complex elements, and says so without sending the user to a
// bundle, which has none either.
// REQUIRES: mlir-runner

// mlir-runner needs complex ops in parts: -convert-complex-to-standard.
// RUN: threadbind-opt %s -convert-complex-to-standard %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch -convert-complex-to-standard %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch -convert-complex-to-standard %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch -convert-complex-to-standard %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// RUN: threadbind-compile --emit=header %s -o %t.h 2>&1 | FileCheck %s --check-prefix=HEADER
// A bundle takes @phase (f32 parts), whose host code and CPU reference
// compute exp(i theta) in complex arithmetic, and leaves out the others.
// RUN: threadbind-compile --emit=bundle %s -o %t.so 2>&1 | FileCheck %s --check-prefix=BUNDLE
// RUN: threadbind-run %t.so --entry phase --size 37 --scalar 2=0.75 --reference-only --print | FileCheck %s --check-prefix=RAN
// REF: Unranked Memref
// REF-SAME: sizes = [37]
// PTX: .visible .entry cmul_kernel
// PTX: div.rn.f32
// PTX: .visible .entry rotate_kernel
// PTX: .f64
// BUNDLE: warning: 'func.func' op cannot be a bundle entry: argument 0 has type 'memref<?xcomplex<f32>>'; supported are {{.*}} (left out of the bundle)
// BUNDLE: warning: 'func.func' op cannot be a bundle entry: argument 0 has type 'memref<?xcomplex<f64>>'
// RAN: reference: ran phase_reference on the CPU
// HEADER: warning: no launcher for 'cmul' in the header: argument 0 has element type complex<f32>, which neither the header nor a bundle has a C type for{{$}}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)

// c = a * b / (|a| + 1), mag = |c|.
func.func @cmul(%a: memref<?xcomplex<f32>>, %b: memref<?xcomplex<f32>>,
                %c: memref<?xcomplex<f32>>, %mag: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xcomplex<f32>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xcomplex<f32>>
    %y = memref.load %b[%i] : memref<?xcomplex<f32>>
    %p = complex.mul %x, %y : complex<f32>
    %ax = complex.abs %x : complex<f32>
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %d = arith.addf %ax, %one : f32
    %dc = complex.create %d, %zero : complex<f32>
    %q = complex.div %p, %dc : complex<f32>
    memref.store %q, %c[%i] : memref<?xcomplex<f32>>
    %m = complex.abs %q : complex<f32>
    memref.store %m, %mag[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// z = conj(z) * exp(i * theta), in f64.
func.func @rotate(%z: memref<?xcomplex<f64>>, %theta: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %z, %c0 : memref<?xcomplex<f64>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %z[%i] : memref<?xcomplex<f64>>
    %cv = complex.conj %v : complex<f64>
    %zero = arith.constant 0.0 : f64
    %it = complex.create %zero, %theta : complex<f64>
    %e = complex.exp %it : complex<f64>
    %r = complex.mul %cv, %e : complex<f64>
    memref.store %r, %z[%i] : memref<?xcomplex<f64>>
    scf.reduce
  }
  return
}

// (re, im) = (re, im) * exp(i * theta), the rotation built on the host.
func.func @phase(%re: memref<?xf32>, %im: memref<?xf32>, %theta: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %re, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %it = complex.create %zero, %theta : complex<f32>
  %e = complex.exp %it : complex<f32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %re[%i] : memref<?xf32>
    %b = memref.load %im[%i] : memref<?xf32>
    %v = complex.create %a, %b : complex<f32>
    %r = complex.mul %v, %e : complex<f32>
    %rr = complex.re %r : complex<f32>
    %ri = complex.im %r : complex<f32>
    memref.store %rr, %re[%i] : memref<?xf32>
    memref.store %ri, %im[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 37 : index
  %a = memref.alloc(%n) : memref<?xcomplex<f32>>
  %b = memref.alloc(%n) : memref<?xcomplex<f32>>
  %c = memref.alloc(%n) : memref<?xcomplex<f32>>
  %mag = memref.alloc(%n) : memref<?xf32>
  %z = memref.alloc(%n) : memref<?xcomplex<f64>>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %h = arith.constant -0.5 : f32
    %g = arith.mulf %f, %h : f32
    %k = arith.constant 0.25 : f32
    %x = complex.create %f, %g : complex<f32>
    %y = complex.create %k, %f : complex<f32>
    memref.store %x, %a[%i] : memref<?xcomplex<f32>>
    memref.store %y, %b[%i] : memref<?xcomplex<f32>>
    %d = arith.extf %f : f32 to f64
    %e = arith.extf %g : f32 to f64
    %w = complex.create %d, %e : complex<f64>
    memref.store %w, %z[%i] : memref<?xcomplex<f64>>
  }
  call @cmul(%a, %b, %c, %mag) : (memref<?xcomplex<f32>>, memref<?xcomplex<f32>>, memref<?xcomplex<f32>>, memref<?xf32>) -> ()
  %theta = arith.constant 0.75 : f64
  call @rotate(%z, %theta) : (memref<?xcomplex<f64>>, f64) -> ()
  %pre = memref.alloc(%n) : memref<?xf32>
  %pim = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %mag[%i] : memref<?xf32>
    memref.store %v, %pre[%i] : memref<?xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.subf %two, %v : f32
    memref.store %w, %pim[%i] : memref<?xf32>
  }
  %theta32 = arith.constant -1.25 : f32
  call @phase(%pre, %pim, %theta32) : (memref<?xf32>, memref<?xf32>, f32) -> ()
  %parts = memref.alloc(%n) : memref<?xf32>
  %zparts = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %p = memref.load %c[%i] : memref<?xcomplex<f32>>
    %r = complex.re %p : complex<f32>
    %im = complex.im %p : complex<f32>
    %t = arith.constant 1000.0 : f32
    %s = arith.mulf %r, %t : f32
    %u = arith.addf %s, %im : f32
    memref.store %u, %parts[%i] : memref<?xf32>
    %q = memref.load %z[%i] : memref<?xcomplex<f64>>
    %qr = complex.re %q : complex<f64>
    %qi = complex.im %q : complex<f64>
    %tt = arith.constant 1000.0 : f64
    %qs = arith.mulf %qr, %tt : f64
    %qu = arith.addf %qs, %qi : f64
    memref.store %qu, %zparts[%i] : memref<?xf64>
  }
  %u1 = memref.cast %parts : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %mag : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %u4 = memref.cast %pim : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %u3 = memref.cast %zparts : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u3) : (memref<*xf64>) -> ()
  return
}
