// Functions without bodies: a module of external func.func declarations
// alone. threadbind-opt has nothing to do and leaves them; threadbind-compile
// says there is nothing to map, for PTX and for a bundle (nothing to bundle),
// exits non-zero and writes nothing.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=OPT
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: %refused threadbind-compile %s --emit bundle -o %t.so 2>&1 | FileCheck %s --check-prefix=BUNDLE

// OPT: func.func private @init(memref<?xf32>)
// OPT-NEXT: func.func private @scale(f32) -> f32
// OPT-NOT: threadbind_max_resident_blocks
// PTX: .mlir:0:0: error: nothing to map: no scf.parallel, scf.forall, affine.parallel or linalg op on memrefs outside a gpu.launch
// BUNDLE: .mlir:0:0: error: nothing to bundle: no public function with a body other than main

func.func private @init(memref<?xf32>)
func.func private @scale(f32) -> f32
