// Bad input: a clear message, a non-zero exit, no output written or left
// behind, an existing output untouched and the input unchanged (%refused
// checks all of it; test/refused.py).
// RUN: rm -rf %t && mkdir -p %t

// RUN: %refused threadbind-compile %S/Inputs/parse-error.mlir -o %t/parse.ptx 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: parse-error.mlir:1:{{[0-9]+}}: error:

// RUN: %refused threadbind-compile %S/Inputs/kernels.mlir --chip sm_50 -o %t/chip.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unsupported chip 'sm_50'; supported: sm_75, sm_80, {{.*}}sm_90{{.*}}

// RUN: %refused threadbind-compile %S/Inputs/kernels.mlir --emit cubin --cuda-path %t/no-cuda -o %t/missing.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: error: ptxas not found (looked for {{.*}}no-cuda/bin/ptxas); install the CUDA toolkit or pass --cuda-path

// RUN: %refused threadbind-compile %S/Inputs/kernels.mlir --emit cubin --cuda-path %S/Inputs/fake-cuda -o %t/failing.cubin 2>&1 | FileCheck %s --check-prefix=FAILING
// FAILING: error: ptxas failed
// FAILING-NEXT: ptxas fatal : this is the fake ptxas of the ThreadBind tests

// RUN: not threadbind-compile %S/Inputs/kernels.mlir -o %t/no-such-dir/out.ptx 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: cannot write '{{.*}}no-such-dir/out.ptx': no folder

// RUN: %refused threadbind-compile %S/Inputs/nothing-to-map.mlir -o %t/nothing.ptx 2>&1 | FileCheck %s --check-prefixes=NOTHING,NOHINT
// NOTHING: {{nothing-to-map|sequential-only}}.mlir:{{[0-9]+}}:{{[0-9]+}}: error: nothing to map: no scf.parallel, scf.forall, affine.parallel or linalg op on memrefs outside a gpu.launch

// A function with no parallel loop runs on one GPU thread, with a warning;
// without the fallback there is nothing to map.
// RUN: threadbind-compile %S/Inputs/sequential-only.mlir -o %t/sequential.ptx 2>&1 | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: grep -c "^.visible .entry" %t/sequential.ptx | FileCheck %s --check-prefix=ONE
// SEQUENTIAL: sequential-only.mlir:1:1: warning: has no parallel loop, so all of its code that touches memory runs on one GPU thread
// ONE: 1
// RUN: %refused threadbind-compile %S/Inputs/sequential-only.mlir --sequential-fallback=false -o %t/nothing.ptx 2>&1 | FileCheck %s --check-prefixes=NOTHING,HINT
// NOHINT-NOT: sequential-fallback
// HINT-SAME: (--sequential-fallback=false keeps sequential code on the host; with it, code that touches memory runs on one GPU thread)

// RUN: not threadbind-compile %t/does-not-exist.mlir -o %t/x.ptx 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: error: cannot open input file '{{.*}}does-not-exist.mlir'

// RUN: not threadbind-compile %S/Inputs/kernels.mlir --grid-policy=diagonal 2>&1 | FileCheck %s --check-prefix=POLICY
// POLICY: Cannot find option named 'diagonal'

// RUN: %refused threadbind-compile %S/Inputs/kernels.mlir --block-shape=64,32 -o %t/shape.ptx 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: block-shape has 2048 threads, more than 1024

// A bundle of a module whose only function is the CPU harness.
// RUN: %refused threadbind-compile %S/Inputs/only-main.mlir --emit bundle -o %t/b.so 2>&1 | FileCheck %s --check-prefix=BUNDLE
// BUNDLE: error: nothing to bundle: no public function with a body other than main

// An output naming the input, however spelled (a path, ./path, a hard
// link, or standard input redirected from the file), would replace it;
// two outputs naming one file would overwrite each other. Both are refused
// before anything is written.
// RUN: cp %S/Inputs/kernels.mlir %t/in.mlir
// RUN: not threadbind-compile %t/in.mlir --emit mlir -o %t/in.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// SAME: error: -o names the input file '{{.*}}in.mlir'
// RUN: cd %t && not threadbind-compile in.mlir -o out.ptx --save-mlir ./in.mlir 2>&1 | FileCheck %s --check-prefix=SAVE-SAME
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// SAVE-SAME: error: --save-mlir names the input file 'in.mlir'
// RUN: ln -f %t/in.mlir %t/link.mlir
// RUN: not threadbind-compile %t/in.mlir -o %t/link.mlir 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// LINK: error: -o names the input file
// RUN: not threadbind-compile - --emit mlir -o %t/in.mlir < %t/in.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: cmp %S/Inputs/kernels.mlir %t/in.mlir
// STDIN: error: -o names the input file (standard input)
// RUN: %refused threadbind-compile %t/in.mlir -o %t/k.ptx --save-ptx %t/k.ptx 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: error: -o and --save-ptx name the same file, '{{.*}}k.ptx'
// RUN: mkdir -p %t/sub
// RUN: %refused threadbind-compile %t/in.mlir -o %t/dup.ptx --save-mlir %t/sub/../dup.ptx 2>&1 | FileCheck %s --check-prefix=DOTS
// DOTS: error: -o and --save-mlir name the same file
// RUN: %refused threadbind-compile %t/in.mlir --emit mlir -o %t/m.mlir --save-ptx %t/m.ptx 2>&1 | FileCheck %s --check-prefix=SAVE-EMIT
// SAVE-EMIT: error: --save-ptx and --save-cubin need --emit ptx, cubin or bundle
// RUN: %refused threadbind-compile %t/in.mlir -o %t/c.ptx --save-cubin %t/c.cubin --cuda-path %t/no-cuda 2>&1 | FileCheck %s --check-prefix=SAVE-PTXAS
// SAVE-PTXAS: error: --save-cubin: ptxas not found

// A device that fails every write: the run fails, and the files it would
// have written beside it (the manifest, the saved MLIR) do not appear.
// RUN: %refused threadbind-compile %t/in.mlir -o /dev/full --manifest %t/full.json --save-mlir %t/full.mlir 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write '/dev/full': No space left on device

// A link failure (here: the host calls a function nothing defines) leaves
// no bundle, and an existing manifest of that name is untouched.
// RUN: %refused threadbind-compile %S/../../BadInput/declaration-called-in-bundle.mlir --emit bundle -o %t/link.so 2>&1 | FileCheck %s --check-prefix=LINKFAIL
// LINKFAIL: error: linking the bundle with {{.*}} failed

// --manifest describes kernels, which --emit mlir never outlines.
// RUN: %refused threadbind-compile %t/in.mlir --emit mlir -o %t/m2.mlir --manifest %t/m2.json 2>&1 | FileCheck %s --check-prefix=MLIR-MANIFEST
// MLIR-MANIFEST: error: --manifest needs --emit llvm, ptx, cubin or bundle

// Standard output and devices get no implicit side file (no
// /dev/null.manifest.json), and the run says so.
// RUN: threadbind-compile %t/in.mlir -o - 2>&1 >/dev/null | FileCheck %s --check-prefix=NOSIDE
// RUN: threadbind-compile %t/in.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSIDE
// RUN: not ls /dev/null.manifest.json
// NOSIDE: note: no manifest written: -o {{-|/dev/null}} is not a regular file; name one with --manifest

// A PTX and a cubin of the same stem keep a manifest each.
// RUN: %if ptxas %{ threadbind-compile %t/in.mlir -o %t/same.ptx --chip sm_80 %}
// RUN: %if ptxas %{ threadbind-compile %t/in.mlir --emit cubin -o %t/same.cubin %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX-MANIFEST < %t/same.ptx.manifest.json %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=CUBIN-MANIFEST < %t/same.cubin.manifest.json %}
// PTX-MANIFEST: "chip": "sm_80"
// CUBIN-MANIFEST: "chip": "sm_90"
