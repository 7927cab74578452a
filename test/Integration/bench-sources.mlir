// The benchmark sources (bench/polybench, bench/triton, bench/kernels) stay
// compilable: each compiles to a cubin that ptxas assembles for sm_90, with
// no kernel spilling.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in %S/../../bench/polybench/*.mlir %S/../../bench/triton/*.mlir %S/../../bench/kernels/*.mlir; do threadbind-compile $f --chip sm_90 --emit cubin -o %t/out.cubin --manifest %t/$(basename $f).json || exit 1; done
// RUN: not grep -h '"spill_[a-z]*_bytes": [1-9]' %t/*.json
// RUN: cat %t/*.json | FileCheck %s
// CHECK: "spill_store_bytes": 0
