# -*- Python -*-
# ThreadBind lit configuration: tool substitutions and the optional features
# (ptxas from the CUDA toolkit, mlir-runner from mlir-22-tools).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ThreadBind"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.threadbind_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lib", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.threadbind_tools_dir, append_path=True)

tool_dirs = [config.threadbind_tools_dir, config.llvm_tools_dir]
tools = ["threadbind-opt", "threadbind-compile", "threadbind-run", "mlir-opt"]

if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")):
    config.available_features.add("mlir-runner")
    tools.append("mlir-runner")

if config.ptxas_executable and os.path.exists(config.ptxas_executable):
    config.available_features.add("ptxas")
    tools.append(ToolSubst("ptxas", config.ptxas_executable))

llvm_config.add_tool_substitutions(tools, tool_dirs)

# cuda.h from the toolkit ptxas belongs to: tests compile launcher headers
# (--emit header) against it, and CMake builds examples/launcher with it.
if config.ptxas_executable:
    cuda_include = os.path.join(
        os.path.dirname(os.path.dirname(config.ptxas_executable)), "include")
    if os.path.exists(os.path.join(cuda_include, "cuda.h")):
        config.available_features.add("cuda-header")
        config.substitutions.append(("%cuda_include", cuda_include))
    # libdevice, which kernels calling math functions link.
    cuda_root = os.path.dirname(os.path.dirname(config.ptxas_executable))
    if os.path.exists(os.path.join(cuda_root, "nvvm", "libdevice",
                                   "libdevice.10.bc")):
        config.available_features.add("libdevice")
        config.substitutions.append(("%cuda_root", cuda_root))

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%threadbind_obj_root",
                             config.threadbind_obj_root))
# The contract for refused input (refused.py says what it checks).
config.substitutions.append(
    ("%refused", "{} {}".format(config.python_executable,
                                os.path.join(config.test_source_root,
                                             "refused.py"))))
config.excludes += ["check-manifest.py", "expect-exit.py"]

# A machine with an NVIDIA GPU and its driver: tests that assume there is
# none are skipped there.
if os.path.exists("/dev/nvidiactl") or shutil.which("nvidia-smi"):
    config.available_features.add("cuda-device")

shlib = config.llvm_shlib_ext
config.substitutions.append(("%shlibext", shlib))
config.substitutions.append(
    ("%threadbind_runtime",
     os.path.join(config.threadbind_lib_dir, "libThreadBindRuntime" + shlib)))
config.substitutions.append(
    ("%threadbind_launcher_example",
     os.path.join(config.threadbind_tools_dir, "threadbind-launcher-example")))
config.substitutions.append(
    ("%threadbind_runner",
     os.path.join(config.threadbind_tools_dir, "threadbind-run")))
config.substitutions.append(
    ("%threadbind_test_plugin",
     os.path.join(config.threadbind_lib_dir, "ThreadBindTestPlugin" + shlib)))
config.substitutions.append(
    ("%threadbind_plugin",
     os.path.join(config.threadbind_lib_dir, "ThreadBindPlugin" + shlib)))
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_runner_utils" + shlib)))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils" + shlib)))

# Lowers host code (func, scf, affine, arith, math, memref) to the LLVM
# dialect so mlir-runner can execute it; used by every CPU semantics test.
# Strided metadata first: expanding a subview or reshape with dynamic
# offsets or sizes leaves affine.apply ops, which lower-affine then takes.
config.substitutions.append(
    ("%lower_to_cpu",
     "-canonicalize -expand-strided-metadata -lower-affine -convert-scf-to-cf "
     "-convert-to-llvm -reconcile-unrealized-casts"))

# Runs the @main of lowered IR on the CPU; the address printMemref* reports
# is stripped so two runs of the same data compare equal. A kernel that
# writes out of bounds can corrupt the heap and leave the runner waiting on
# a lock forever, so it gets five minutes (lit's own timeout needs psutil,
# which Debian's Python lacks).
config.substitutions.append(
    ("%run_cpu",
     "timeout --kill-after=10 300 mlir-runner -e main -entry-point-result=void -shared-libs={},{}"
     " | sed -e 's/base@ = 0x[0-9a-f]*//'".format(
         os.path.join(config.mlir_lib_dir, "libmlir_runner_utils" + shlib),
         os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils" + shlib))))

# A sanitized build: its libraries cannot be loaded into programs built
# without the sanitizer runtime.
if getattr(config, "threadbind_sanitizers", ""):
    config.available_features.add("sanitizers")
