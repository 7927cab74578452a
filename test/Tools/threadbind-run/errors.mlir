// Argument errors: a message and exit status 2; a missing or foreign bundle:
// status 1; bundle building errors at the offending op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: error: --entry is required

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: no entry 'nope' in {{.*}}entries.so (entries: iota, affine_grid, add_f16)

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --reference-only 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: error: argument 0 needs a size for dynamic dimension 0: give --size with at least 1 sizes, or --shape 0=...

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --shape 0=4x9 --reference-only 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: argument 0 has the static size 8 in dimension 1, not 9

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4x4 2>&1 | FileCheck %s --check-prefix=BADSIZE
// BADSIZE: error: --size needs non-negative sizes

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4 --frobnicate 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: unknown option '--frobnicate'

// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4 --on-stream --reference-only 2>&1 | FileCheck %s --check-prefix=STREAM-CPU
// STREAM-CPU: error: --on-stream needs the GPU; it cannot go with --reference-only

// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/missing.so --entry iota 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot open {{.*}}missing.so

// Options naming arguments that are not there, or not of their kind, and
// values that do not fit their type: usage errors, before any run.
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --scalar 2=abc --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR-TEXT
// SCALAR-TEXT: error: --scalar 2: 'abc' is not an integer
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --scalar 1=1.5x --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR-FLOAT
// SCALAR-FLOAT: error: --scalar 1: '1.5x' is not a number
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --scalar 2=9223372036854775808 --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR-RANGE
// SCALAR-RANGE: error: --scalar 2: 9223372036854775808 does not fit in i64 (-9223372036854775808 to 9223372036854775807)
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --scalar 7=1 --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR-INDEX
// SCALAR-INDEX: error: --scalar 7: affine_grid has 3 arguments
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --scalar 0=1 --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR-MEMREF
// SCALAR-MEMREF: error: --scalar 0: argument 0 is a memref
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --shape 99=4 --reference-only 2>&1 | FileCheck %s --check-prefix=SHAPE-INDEX
// SHAPE-INDEX: error: --shape 99: iota has 1 arguments
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --shape abc=4 --reference-only 2>&1 | FileCheck %s --check-prefix=SHAPE-NAME
// SHAPE-NAME: error: --shape needs ARG=AxB..., an argument number and non-negative sizes, not 'abc=4'
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry affine_grid --shape 1=4 --reference-only 2>&1 | FileCheck %s --check-prefix=SHAPE-SCALAR
// SHAPE-SCALAR: error: --shape 1: argument 1 is a scalar

// Sizes past what memory or an address can hold: an error, not a crash.
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 99999999999999999999 --reference-only 2>&1 | FileCheck %s --check-prefix=HUGE-TEXT
// HUGE-TEXT: error: --size needs non-negative sizes that fit in 64 bits
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/entries.so --entry iota --size 4611686018427387904 --reference-only 2>&1 | FileCheck %s --check-prefix=HUGE-BYTES
// HUGE-BYTES: error: argument 0 of shape 4611686018427387904 has more bytes than an address can count
// RUN: threadbind-compile %S/Inputs/data.mlir --emit bundle -o %t/data.so
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/data.so --entry scale2d --size 4294967296,4294967296 --reference-only 2>&1 | FileCheck %s --check-prefix=HUGE-2D
// HUGE-2D: error: argument 0 of shape 4294967296x4294967296 has more bytes than an address can count
// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/entries.so --entry iota --size 1099511627776 --reference-only 2>&1 | FileCheck %s --check-prefix=HUGE-MEMORY
// HUGE-MEMORY: error: the arguments need {{.*}} GB of host memory (inputs, reference and GPU results), more than this machine's

// A truncated bundle is refused before dlopen maps it (which dies of
// SIGBUS), and so is a file that is no shared object.
// RUN: head -c 20000 %t/entries.so > %t/truncated.so
// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/truncated.so --list 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: {{.*}}truncated.so is cut short
// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %S/Inputs/entries.mlir --list 2>&1 | FileCheck %s --check-prefix=NOT-ELF
// NOT-ELF: error: {{.*}}entries.mlir is not a 64-bit ELF shared object

// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %threadbind_runtime --entry iota 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: is not a ThreadBind bundle (no threadbind_bundle_entries)

// Host code that reads device memory runs in a one-thread kernel, and the
// value comes back to the host; without the fallback it stays on the host,
// which a bundle refuses.
// RUN: threadbind-compile %S/Inputs/host-access.mlir --emit bundle -o %t/host.so
// RUN: threadbind-run %t/host.so --list | FileCheck %s --check-prefix=HOST-OK
// HOST-OK: reads_on_host
// RUN: not threadbind-compile %S/Inputs/host-access.mlir --sequential-fallback=false --emit bundle -o %t/host-refused.so 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not ls %t/host-refused.so
// HOST: host-access.mlir:4:12: error: 'memref.load' op accesses memref data on the host, outside any parallel loop

// RUN: not threadbind-compile %S/Inputs/prints.mlir --emit bundle -o %t/prints.so 2>&1 | FileCheck %s --check-prefix=PRINTS
// RUN: not ls %t/prints.so
// PRINTS: prints.mlir:4:3: error: 'vector.print' op cannot run in a bundle, which does not link MLIR's runner utilities

// Beside an entry the bundle can hold, a function that prints is left out
// of it, with every function that calls it, each with a warning; the rest
// is bundled and runs.
// RUN: threadbind-compile %S/Inputs/prints-helpers.mlir --emit bundle -o %t/prints-helpers.so 2>&1 | FileCheck %s --check-prefix=PRINTS-LEFT
// PRINTS-LEFT: prints-helpers.mlir:18:3: warning: 'vector.print' op cannot run in a bundle, which does not link MLIR's runner utilities; print from the program that calls the bundle (left out of the bundle with 'show' and every function that calls it)
// PRINTS-LEFT: prints-helpers.mlir:22:3: warning: left out of the bundle: 'report' calls host code a bundle cannot run
// PRINTS-LEFT: prints-helpers.mlir:38:8: warning: left out of the bundle: 'handle' refers to host code a bundle cannot run
// PRINTS-LEFT-NOT: error
// RUN: threadbind-run %t/prints-helpers.so --list | FileCheck %s --check-prefix=PRINTS-LIST
// PRINTS-LIST-NOT: {{report|handle}}
// PRINTS-LIST: scale(memref<?xf32>, memref<?xf32>)
// PRINTS-LIST-NOT: {{report|handle}}
// RUN: threadbind-run %t/prints-helpers.so --entry scale --size 1000 --reference-only | FileCheck %s --check-prefix=PRINTS-RAN
// PRINTS-RAN: reference: ran scale_reference on the CPU

// An entry's result leaves through an argument it gains, a scalar through a
// 0-d memref; the run shows it holding the size the entry returns.
// RUN: threadbind-compile %S/Inputs/returns.mlir --emit bundle -o %t/returns.so
// RUN: threadbind-run %t/returns.so --list | FileCheck %s --check-prefix=RETURNS
// RETURNS: returns(memref<?xf32>, memref<index>)
// RUN: threadbind-run %t/returns.so --entry returns --size 100 --reference-only --print | FileCheck %s --check-prefix=RETURNED
// RETURNED: reference arg1: sum 100, first [100]
// A public function the module itself calls keeps its results, so the
// bundle, which cannot return them, leaves it out of its entries, with a
// warning, and bundles the function that calls it.
// RUN: threadbind-compile %S/Inputs/returns-helper.mlir --emit bundle -o %t/helper.so 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER: returns-helper.mlir:1:1: warning: 'func.func' op cannot be a bundle entry: it returns values; write results to memref arguments instead (left out of the bundle)
// RUN: threadbind-run %t/helper.so --list | FileCheck %s --check-prefix=HELPER-LIST
// HELPER-LIST-NOT: fill
// HELPER-LIST: twice(memref<?xf32>)
// HELPER-LIST-NOT: fill


// Addresses from random data fall outside the source: the CPU reference
// crashes in a child process, and the runner says what to do. With the
// data given as .npy files, it runs.
// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/data.so --entry gather --shape 0=4 --shape 1=1000 --shape 2=1000 --reference-only 2>&1 | FileCheck %s --check-prefix=GATHER-RANDOM
// GATHER-RANDOM: error: the CPU reference of gather crashed ({{.*}}): it read or wrote outside an argument. Check that the sizes agree with each other; where addresses come from the data, give that data with --input
// A divisor that came from a scalar not given (0): the reference traps on
// the division, and the runner says so rather than blaming the sizes.
// RUN: %python %S/Inputs/expect-exit.py 1 threadbind-run %t/data.so --entry bucket --shape 0=5 --reference-only 2>&1 | FileCheck %s --check-prefix=DIV-ZERO
// DIV-ZERO: error: the CPU reference of bucket crashed ({{.*}}): an integer division or remainder by zero. Check the --scalar values (an index scalar not given is 0) and the sizes the divisors come from
// RUN: threadbind-run %t/data.so --entry bucket --shape 0=5 --scalar 1=3 --reference-only --print | FileCheck %s --check-prefix=DIV-THREE
// DIV-THREE: arg0 memref<5 x index>
// RUN: %python -c "import numpy as np; np.save('%t/src.npy', np.arange(4, dtype=np.float32) * 10); np.save('%t/idx.npy', np.array([3, 0, 2, 2, 1], dtype=np.int32))"
// RUN: threadbind-run %t/data.so --entry gather --input 0=%t/src.npy --input 1=%t/idx.npy --shape 2=5 --reference-only --print | FileCheck %s --check-prefix=GATHER-NPY
// GATHER-NPY: arg0 memref<4 x f32> read, from --input
// GATHER-NPY: reference arg2: sum 80, first [30, 0, 20, 20, 10]
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/data.so --entry gather --input 0=%t/idx.npy --input 1=%t/idx.npy --shape 2=5 --reference-only 2>&1 | FileCheck %s --check-prefix=NPY-DTYPE
// NPY-DTYPE: error: --input 0: {{.*}}idx.npy holds '<i4' elements, where the argument takes f32
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/data.so --entry gather --input 1=%t/missing.npy --size 4 --reference-only 2>&1 | FileCheck %s --check-prefix=NPY-MISSING
// A --shape beside an --input for one argument must agree with the file.
// RUN: %python %S/Inputs/expect-exit.py 2 threadbind-run %t/data.so --entry gather --input 0=%t/src.npy --shape 0=7 --input 1=%t/idx.npy --shape 2=5 --reference-only 2>&1 | FileCheck %s --check-prefix=NPY-SHAPE
// NPY-SHAPE: error: --input 0: {{.*}}src.npy has shape 4, but --shape 0 gives 7
// RUN: threadbind-run %t/data.so --entry gather --input 0=%t/src.npy --shape 0=4 --input 1=%t/idx.npy --shape 2=5 --reference-only --print | FileCheck %s --check-prefix=GATHER-NPY
// NPY-MISSING: error: --input 1: cannot open {{.*}}missing.npy