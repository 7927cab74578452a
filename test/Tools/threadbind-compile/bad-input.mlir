// Bad input: a clear message, a non-zero exit, and no output file left.
// RUN: rm -rf %t && mkdir -p %t

// RUN: not threadbind-compile %S/Inputs/parse-error.mlir -o %t/parse.ptx 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not ls %t/parse.ptx
// PARSE: parse-error.mlir:1:{{[0-9]+}}: error:

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --chip sm_50 -o %t/chip.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ls %t/chip.ptx
// CHIP: error: unsupported chip 'sm_50'; supported: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --emit cubin --cuda-path %t/no-cuda -o %t/missing.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not ls %t/missing.cubin %t/missing.manifest.json
// NOPTXAS: error: ptxas not found (looked for {{.*}}no-cuda/bin/ptxas); install the CUDA toolkit or pass --cuda-path

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --emit cubin --cuda-path %S/Inputs/fake-cuda -o %t/failing.cubin 2>&1 | FileCheck %s --check-prefix=FAILING
// RUN: not ls %t/failing.cubin %t/failing.manifest.json
// FAILING: error: ptxas failed
// FAILING-NEXT: ptxas fatal : this is the fake ptxas of the ThreadBind tests

// RUN: not threadbind-compile %S/Inputs/kernels.mlir -o %t/no-such-dir/out.ptx 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: {{.*}}no-such-dir/out.ptx{{.*}}No such file or directory

// RUN: not threadbind-compile %S/Inputs/nothing-to-map.mlir -o %t/nothing.ptx 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not ls %t/nothing.ptx %t/nothing.manifest.json
// NOTHING: nothing-to-map.mlir:{{[0-9]+}}:{{[0-9]+}}: error: nothing to map: no scf.parallel, scf.forall, affine.parallel or linalg op on memrefs outside a gpu.launch

// RUN: not threadbind-compile %t/does-not-exist.mlir -o %t/x.ptx 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: error: cannot open input file '{{.*}}does-not-exist.mlir'

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --grid-policy=diagonal 2>&1 | FileCheck %s --check-prefix=POLICY
// POLICY: Cannot find option named 'diagonal'

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --block-shape=64,32 -o %t/shape.ptx 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not ls %t/shape.ptx
// SHAPE: block-shape has 2048 threads, more than 1024

// A bundle of a module whose only function is the CPU harness.
// RUN: not threadbind-compile %S/Inputs/only-main.mlir --emit bundle -o %t/b.so 2>&1 | FileCheck %s --check-prefix=BUNDLE
// RUN: not ls %t/b.so
// BUNDLE: error: nothing to bundle: no public function with a body other than main

// An output naming the input would truncate it before it is read (and a
// failed run would then delete it); two outputs naming one file would
// overwrite each other. Both are refused before anything is opened.
// RUN: cp %S/Inputs/kernels.mlir %t/in.mlir
// RUN: not threadbind-compile %t/in.mlir --emit mlir -o %t/in.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// SAME: error: -o names the input file {{.*}}in.mlir
// RUN: cd %t && not threadbind-compile in.mlir -o out.ptx --save-mlir ./in.mlir 2>&1 | FileCheck %s --check-prefix=SAVE-SAME
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// SAVE-SAME: error: --save-mlir names the input file in.mlir
// RUN: not threadbind-compile %t/in.mlir -o %t/k.ptx --save-ptx %t/k.ptx 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not ls %t/k.ptx
// CLASH: error: -o and --save-ptx both name {{.*}}k.ptx
// RUN: not threadbind-compile %t/in.mlir --emit mlir -o %t/m.mlir --save-ptx %t/m.ptx 2>&1 | FileCheck %s --check-prefix=SAVE-EMIT
// SAVE-EMIT: error: --save-ptx and --save-cubin need --emit ptx, cubin or bundle
// RUN: not threadbind-compile %t/in.mlir -o %t/c.ptx --save-cubin %t/c.cubin --cuda-path %t/no-cuda 2>&1 | FileCheck %s --check-prefix=SAVE-PTXAS
// RUN: not ls %t/c.ptx %t/c.cubin
// SAVE-PTXAS: error: --save-cubin: ptxas not found
