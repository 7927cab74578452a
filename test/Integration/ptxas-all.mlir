// Every shipped example and every kernel shape the mapping tests bind (1-D
// to 5-D, nests, each input form, each grid policy) compiles to PTX that
// CUDA's ptxas assembles for sm_80 and sm_90, and so do the predicated and
// unswitched kernels (min/max and abs included) and the cover kernels with
// their bounds checks split.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t

// RUN: threadbind-compile %S/../../examples/vector-add.mlir --chip sm_80 -o %t/vector-add.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/vector-add.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/../../examples/vector-add.mlir --chip sm_90 -o %t/vector-add.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/vector-add.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/../../examples/matrix-add.mlir --chip sm_80 -o %t/matrix-add.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/matrix-add.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/../../examples/matrix-add.mlir --chip sm_90 -o %t/matrix-add.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/matrix-add.sm90.ptx -o %t/a.o
// The matmul's shared tiles (8x8 outputs a thread) fit the registers a
// 256-thread bound leaves: nothing spills.
// RUN: threadbind-compile %S/../../examples/matmul.mlir --chip sm_80 -o %t/matmul.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t/matmul.sm80.ptx -o %t/a.o > %t/matmul.sm80.txt 2>&1
// RUN: FileCheck %s --check-prefix=SHARED < %t/matmul.sm80.txt
// RUN: not grep -E "[1-9][0-9]* bytes spill" %t/matmul.sm80.txt
// RUN: threadbind-compile %S/../../examples/matmul.mlir --chip sm_90 -o %t/matmul.sm90.ptx
// RUN: ptxas -arch=sm_90 -v %t/matmul.sm90.ptx -o %t/a.o > %t/matmul.sm90.txt 2>&1
// RUN: FileCheck %s --check-prefix=SHARED < %t/matmul.sm90.txt
// RUN: not grep -E "[1-9][0-9]* bytes spill" %t/matmul.sm90.txt
// SHARED: used 1 barriers, 10240 bytes smem

// RUN: threadbind-compile %S/MapLoops/map-1d.mlir --chip sm_80 -o %t/map-1d.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/map-1d.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/map-1d.mlir --chip sm_90 --grid-policy=cover -o %t/map-1d.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/map-1d.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/map-2d.mlir --chip sm_80 --block-shape=33,3 -o %t/map-2d.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/map-2d.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/map-2d.mlir --chip sm_90 -o %t/map-2d.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/map-2d.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/map-nd.mlir --chip sm_80 -o %t/map-nd.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/map-nd.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/map-nd.mlir --chip sm_90 --grid-policy=cover -o %t/map-nd.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/map-nd.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/nested.mlir --chip sm_80 -o %t/nested.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/nested.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/nested.mlir --chip sm_90 -o %t/nested.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/nested.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/input-forms.mlir --chip sm_80 -o %t/input-forms.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/input-forms.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/MapLoops/input-forms.mlir --chip sm_90 -o %t/input-forms.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/input-forms.sm90.ptx -o %t/a.o

// RUN: threadbind-compile %S/Predicate/predicate.mlir --chip sm_80 -o %t/predicate.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/predicate.sm80.ptx -o %t/a.o
// RUN: threadbind-compile %S/Unswitch/unswitch.mlir --chip sm_90 -o %t/unswitch.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/unswitch.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/TailChecks/tail-checks.mlir --chip sm_90 --grid-policy=cover -o %t/tail.sm90.ptx
// RUN: ptxas -arch=sm_90 %t/tail.sm90.ptx -o %t/a.o
// RUN: threadbind-compile %S/TailChecks/pad.mlir --chip sm_80 --grid-policy=cover --tail=pad -o %t/pad.sm80.ptx
// RUN: ptxas -arch=sm_80 %t/pad.sm80.ptx -o %t/a.o
// RUN: FileCheck %s --check-prefix=PRED < %t/predicate.sm80.ptx
// PRED: max.f32
// PRED: abs.f32
// PRED: max.s32

// Each PTX holds one entry per mapped loop, and one per helper (@fill, in
// both files) that touches memory without a parallel loop; @summarise's
// loop (both files), an f64 sum and an index count, is a reduction of two
// kernels; map-nd's three multi-dimensional nests and nested's four
// also have a copy counting and addressing in 32 bits
// (threadbind-narrow-indices), and map-nd's, compiled for cover grids, a
// copy each looping along y and z for grids past 65535 blocks there.
// RUN: grep -c "^.visible .entry" %t/map-nd.sm90.ptx | FileCheck %s --check-prefix=ND
// RUN: grep -c "^.visible .entry" %t/nested.sm90.ptx | FileCheck %s --check-prefix=NESTED
// ND: 15
// NESTED: 11
