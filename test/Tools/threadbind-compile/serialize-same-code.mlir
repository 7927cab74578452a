// threadbind-compile splits independent kernels into modules of their own
// and compiles them on separate LLVM contexts, in parallel. Checked here on
// every program of the examples, the benchmarks and the integration suite,
// and with the options that add kernels: the PTX is the same code that
// upstream's gpu-module-to-binary makes of the whole module (allowing only
// for where groups of kernels stand and per-module label numbers; see
// canonical-ptx.py), and the same bytes with threads as without.
// REQUIRES: libdevice
// RUN: %python %S/../../compare-serializers.py %t %S/../../../examples %S/../../../bench %S/../../Integration | FileCheck %s
// RUN: %python %S/../../compare-serializers.py %t/options --flags="--narrow-indices --read-only-loads --stage-transposes --reduction-split-columns" %S/../../../examples %S/../../Integration/Programs | FileCheck %s
// CHECK-NOT: DIFFERENT
// CHECK-NOT: FAILED
// CHECK: {{[1-9][0-9]*}} files: {{.*}} 0 bad
