// dim-order names a loop's dimensions as written, also when normalisation
// folded some away because they run once (a batch of 1): it used to refer
// to the folded loop, so dim-order=1,2,0 on this 3-D loop was refused as
// naming dimension 2 of a 2-D loop. Remarks name dimensions as written too.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="dim-order=1,2,0 remarks=true" -verify-diagnostics
// RUN: threadbind-opt %s -threadbind-map-to-gpu="remarks=true" 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// RUN: not threadbind-opt %s -threadbind-map-to-gpu="dim-order=3" 2>&1 | FileCheck %s --check-prefix=RANGE
// The bound loop computes what the loop as written does.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="dim-order=1,2,0" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s --check-prefix=OUT

// ANALYSIS: remark: bound to gpu.launch: loop dimension 2 on threadIdx.x because it walks the unit-stride dimension
// ANALYSIS-SAME: its dimensions that run once were folded away
// RANGE: error: 'scf.parallel' op dim-order 3 is not a distinct dimension of this 3-D loop
// OUT: 5

func.func @batch1(%a: memref<1x64x48xf32>, %b: memref<1x64x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{bound to gpu.launch: loop dimension 1 on threadIdx.x because forced by dim-order; block 32x8x1, grid-stride grid; its dimensions that run once were folded away}}
  scf.parallel (%n, %i, %j) = (%c0, %c0, %c0) to (%c1, %c64, %c48) step (%c1, %c1, %c1) {
    %v = memref.load %a[%n, %i, %j] : memref<1x64x48xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.addf %v, %two : f32
    memref.store %w, %b[%n, %i, %j] : memref<1x64x48xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %f3 = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<1x64x48xf32>
  %b = memref.alloc() : memref<1x64x48xf32>
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c48 step %c1 {
      memref.store %f3, %a[%c0, %i, %j] : memref<1x64x48xf32>
    }
  }
  call @batch1(%a, %b) : (memref<1x64x48xf32>, memref<1x64x48xf32>) -> ()
  %s = memref.subview %b[0, 5, 3] [1, 1, 1] [1, 1, 1] : memref<1x64x48xf32> to memref<1x1x1xf32, strided<[3072, 48, 1], offset: 243>>
  %u = memref.cast %s : memref<1x1x1xf32, strided<[3072, 48, 1], offset: 243>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
