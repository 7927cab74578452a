// threadbind-compile and threadbind-opt's threadbind-to-ptx pipeline build
// their passes with the same builder from the same options struct, bound
// once to flags and once to pipeline options: the PTX is byte for byte the
// same, for every shipped example and with every kind of option changed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/../../../examples/vector-add.mlir -o %t/vector-add.ptx
// RUN: threadbind-opt %S/../../../examples/vector-add.mlir --threadbind-to-ptx | %python %S/../../extract-gpu-binary.py > %t/vector-add.opt.ptx
// RUN: cmp %t/vector-add.ptx %t/vector-add.opt.ptx
// RUN: threadbind-compile %S/../../../examples/matrix-add.mlir -o %t/matrix-add.ptx
// RUN: threadbind-opt %S/../../../examples/matrix-add.mlir --threadbind-to-ptx | %python %S/../../extract-gpu-binary.py > %t/matrix-add.opt.ptx
// RUN: cmp %t/matrix-add.ptx %t/matrix-add.opt.ptx
// RUN: threadbind-compile %S/../../../examples/transpose.mlir -o %t/transpose.ptx
// RUN: threadbind-opt %S/../../../examples/transpose.mlir --threadbind-to-ptx | %python %S/../../extract-gpu-binary.py > %t/transpose.opt.ptx
// RUN: cmp %t/transpose.ptx %t/transpose.opt.ptx
// RUN: threadbind-compile %S/../../../examples/batched-scale-4d.mlir -o %t/batched.ptx
// RUN: threadbind-opt %S/../../../examples/batched-scale-4d.mlir --threadbind-to-ptx | %python %S/../../extract-gpu-binary.py > %t/batched.opt.ptx
// RUN: cmp %t/batched.ptx %t/batched.opt.ptx
//
// Mapping, reduction, kernel and target options, all away from their
// defaults, on a program with reductions and plain loops.
// RUN: threadbind-compile %s --threads-per-block=128 --grid-policy=cover --max-blocks=7 --reduction-unroll=4 --reduction-cross-block=atomic --reduction-warp-rows=false --tail=split --unswitch=false --predicate=false --vector-bytes=8 --widen-unroll=2 --widen-nested-loops=false --chip=sm_80 --opt-level=2 --fp-contract=false -o %t/options.ptx
// RUN: threadbind-opt %s --threadbind-to-ptx="threads-per-block=128 grid-policy=cover max-blocks=7 reduction-unroll=4 reduction-cross-block=atomic reduction-warp-rows=false tail=split unswitch=false predicate=false vector-bytes=8 widen-unroll=2 widen-nested-loops=false chip=sm_80 opt-level=2 fp-contract=false" | %python %S/../../extract-gpu-binary.py > %t/options.opt.ptx
// RUN: cmp %t/options.ptx %t/options.opt.ptx
// The options changed the code: the same program with the defaults differs.
// RUN: threadbind-compile %s -o %t/defaults.ptx
// RUN: not cmp -s %t/options.ptx %t/defaults.ptx
// RUN: FileCheck %s < %t/options.ptx
// CHECK: .target sm_80
// CHECK: atom.global.add.f32

func.func @sum_and_scale(%x: memref<?xf32>, %y: memref<?xf32>,
                         %total: memref<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %sum, %total[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %y[%i] : memref<?xf32>
  }
  return
}
