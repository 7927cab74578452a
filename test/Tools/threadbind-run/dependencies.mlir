// The runtime library, the runner and a bundle depend on no LLVM or MLIR
// shared library, so they run where only the CUDA driver is installed; nor
// do they link libcuda (the runtime opens it at run time).
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so
// RUN: llvm-readelf -d %t/entries.so | FileCheck %s --check-prefix=BUNDLE --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libcuda
// RUN: llvm-readelf -d %threadbind_runner | FileCheck %s --check-prefix=RUNNER --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libcuda
// RUN: llvm-readelf -d %threadbind_runtime | FileCheck %s --check-prefix=RUNTIME --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libcuda

// BUNDLE: (NEEDED) Shared library: [libThreadBindRuntime.so]
// BUNDLE: (RUNPATH) {{.*}}$ORIGIN
// RUNNER: (NEEDED) Shared library: [libThreadBindRuntime.so]
// RUNTIME: (NEEDED) Shared library: [libstdc++.so.6]
