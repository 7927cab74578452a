// `cmake --install` makes a prefix that works on its own: its tools run
// (finding LLVM's libraries and the runtime in ../lib), and its Python
// package compiles with the prefix's compiler, with no build tree on PATH
// and nothing set in the environment but HOME.
// UNSUPPORTED: sanitizers
// RUN: rm -rf %t && mkdir -p %t/home
// RUN: cmake --install %threadbind_obj_root --prefix %t/prefix > %t/install.log
// RUN: ls %t/prefix/bin/threadbind-opt %t/prefix/bin/threadbind-compile %t/prefix/bin/threadbind-run %t/prefix/lib/libThreadBindRuntime.so %t/prefix/lib/ThreadBindPlugin.so %t/prefix/include/threadbind/Runtime/Runtime.h %t/prefix/python/threadbind/__init__.py
// RUN: env -i PATH=/usr/bin:/bin %t/prefix/bin/threadbind-compile %S/../../examples/vector-add.mlir --emit bundle -o %t/vadd.so
// RUN: env -i PATH=/usr/bin:/bin %t/prefix/bin/threadbind-run %t/vadd.so --entry vector_add --size 100 --reference-only | FileCheck %s --check-prefix=TOOL
// RUN: env -i PATH=/usr/bin:/bin HOME=%t/home PYTHONPATH=%t/prefix/python %python %S/Inputs/installed.py %t/prefix %S/../../examples/vector-add.mlir | FileCheck %s
// RUN: ls %t/home/.cache/threadbind

// TOOL: ran vector_add_reference on the CPU
// CHECK: compiler in prefix: True
// CHECK: package in prefix: True
// CHECK: runtime from prefix: True
// CHECK: cache under HOME: True
// CHECK: reference: [2.0, 3.0, 4.0, 5.0, 6.0]
// CHECK: again cached: True
