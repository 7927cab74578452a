// The PTX is the same whatever the threads: --num-threads=1 (the main thread
// alone), 3, the default (a thread a core) and --mlir-disable-threading.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/../../Integration/Programs/2mm.mlir --num-threads=1 -o %t/one.ptx
// RUN: threadbind-compile %S/../../Integration/Programs/2mm.mlir --num-threads=3 -o %t/three.ptx
// RUN: threadbind-compile %S/../../Integration/Programs/2mm.mlir -o %t/default.ptx
// RUN: threadbind-compile %S/../../Integration/Programs/2mm.mlir --mlir-disable-threading -o %t/serial.ptx
// RUN: cmp %t/one.ptx %t/three.ptx
// RUN: cmp %t/one.ptx %t/default.ptx
// RUN: cmp %t/one.ptx %t/serial.ptx
// The kernels are compiled apart, and joined under one header.
// RUN: grep -c "^\.target" %t/one.ptx | FileCheck %s --check-prefix=HEADERS
// RUN: grep -c "^\.visible \.entry" %t/one.ptx | FileCheck %s --check-prefix=KERNELS
// HEADERS: {{^1$}}
// KERNELS: {{^([2-9]|[1-9][0-9]+)$}}
// --num-threads=1 assembles on one thread too: the cubin of
// --mlir-disable-threading, byte for byte.
// RUN: %if ptxas %{ threadbind-compile %S/../../Integration/Programs/2mm.mlir --num-threads=1 --emit cubin -o %t/one.cubin %}
// RUN: %if ptxas %{ threadbind-compile %S/../../Integration/Programs/2mm.mlir --mlir-disable-threading --emit cubin -o %t/serial.cubin %}
// RUN: %if ptxas %{ cmp %t/one.cubin %t/serial.cubin %}
