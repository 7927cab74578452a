// scripts/sanitize-shared.py picks, from a staged tree, the programs whose
// kernels use shared memory or barriers, and runs the corpus ones at
// ragged sizes shrunk from their BUNDLE lines'. Here on a made-up stage,
// --list: which runs it would make, with what arguments.
// RUN: rm -rf %t && mkdir -p %t/scripts %t/corpus %t/examples
// RUN: cp %S/../../scripts/sanitize-shared.py %t/scripts/
// RUN: echo '{"kernels": [{"name": "k", "resources": {"shared_bytes": 4352, "barriers": 1}}]}' > %t/corpus/staged.so.manifest.json
// RUN: echo '{"kernels": [{"name": "k", "resources": {"shared_bytes": 0, "barriers": 0}}]}' > %t/corpus/plain.so.manifest.json
// RUN: echo '{"kernels": [{"name": "k", "resources": {"shared_bytes": 0, "barriers": 1}}]}' > %t/examples/transpose.so.manifest.json
// RUN: touch %t/examples/transpose.so
// RUN: echo 'staged.so --entry kernel --shape 0=512x513 --shape 1=513x512 --size 37 --scalar 2=4096' > %t/corpus/commands.txt
// RUN: echo 'plain.so --entry kernel --shape 0=512x512' >> %t/corpus/commands.txt
// RUN: %python %t/scripts/sanitize-shared.py --list | FileCheck %s
// RUN: %python %t/scripts/sanitize-shared.py --list --only examples | FileCheck %s --check-prefix=ONLY

// Extents from 64 up shrink (512 -> 67, 513 -> 68), smaller ones and
// scalars stay; the bundle without shared memory or barriers is left out.
// CHECK: corpus-staged-0 {{.*}}/bin/threadbind-run {{.*}}/corpus/staged.so --entry kernel --shape 0=67x68 --shape 1=68x67 --size 37 --scalar 2=4096 --check --rtol 1e-3 --atol 1e-3
// CHECK-NOT: plain
// CHECK: examples-transpose-0 {{.*}}/examples/transpose.so --entry transpose --shape 0=100x67 --shape 1=67x100 --check
// CHECK: examples-transpose-1
// CHECK-NOT: plain

// ONLY-NOT: corpus
// ONLY: examples-transpose-0
