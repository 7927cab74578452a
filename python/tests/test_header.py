"""The C launcher header (threadbind-compile --emit header) and the Python
launcher evaluate the same manifest: for the same arguments they must launch
the same kernels with the same grids, blocks and parameter bytes. Checked
without a GPU by linking the header against a stand-in driver that prints
each launch instead of making it."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import threadbind
from threadbind._launch import Launcher

from test_launch import CAI, LAUNCHER_SOURCE, FakeDevice, FakeDriver

CUDA_INCLUDE = Path(os.environ.get("CUDA_PATH", "/usr/local/cuda")) / "include"

# The stand-in driver: the limits FakeDevice has, 4 resident blocks a
# multiprocessor for any kernel, and each launch printed as the Python side
# records it.
STAND_IN = r"""
#include <stdio.h>
#include <string.h>

static const char *kernel_names_seen[64];
static int param_counts[64];
static const int *param_sizes[64];

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) { *device = 0; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                      CUdevice device) {
  (void)device;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = @SMS@; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *value = @THREADS@; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *value = @BLOCKS@; break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) {
  (void)image; *module = (CUmodule)1; return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleUnload(CUmodule module) { (void)module; return CUDA_SUCCESS; }
CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *name) {
  int i;
  (void)module;
  for (i = 0; i < 64 && kernel_names_seen[i]; ++i) {}
  kernel_names_seen[i] = name;
  *function = (CUfunction)(uintptr_t)(i + 1);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *blocks, CUfunction function, int threads, size_t shared) {
  (void)function; (void)threads; (void)shared; *blocks = 4; return CUDA_SUCCESS;
}
CUresult CUDAAPI cuFuncSetAttribute(CUfunction function, CUfunction_attribute a,
                                    int value) {
  (void)function; (void)a; (void)value; return CUDA_SUCCESS;
}
static int allocations;
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes,
                                 CUstream stream) {
  *pointer = 0x40000000 + 0x1000000 * (CUdeviceptr)allocations++;
  printf("alloc %lu %lu\n", (unsigned long)bytes,
         (unsigned long)(uintptr_t)stream);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  printf("free %#lx %lu\n", (unsigned long)pointer,
         (unsigned long)(uintptr_t)stream);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy,
                                unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream stream,
                                void **params, void **extra) {
  int k = (int)(uintptr_t)function - 1, p, count = 0, i, b;
  const char *name = kernel_names_seen[k];
  (void)extra;
  for (i = 0; i < 64 && param_sizes[i]; ++i)
    if (!strcmp(@NAMES@[i], name)) { count = param_counts[i]; break; }
  printf("%s %u %u %u %u %u %u %u %lu", name, gx, gy, gz, bx, by, bz, shared,
         (unsigned long)(uintptr_t)stream);
  for (p = 0; p < count; ++p) {
    printf(" ");
    for (b = 0; b < param_sizes[i][p]; ++b)
      printf("%02x", ((const unsigned char *)params[p])[b]);
  }
  printf("\n");
  return CUDA_SUCCESS;
}
"""

SIZES = {"u64": 8, "u32": 4, "u16": 2, "u8": 1, "f64": 8, "f32": 4,
         "b16": 2}


def c_program(manifest, calls):
    """A C program over the header: the stand-in driver, each kernel's
    parameter sizes, and `calls` (C statements) in main."""
    kernels = manifest["kernels"]
    tables = []
    for i, kernel in enumerate(kernels):
        sizes = ", ".join(str(SIZES[p["ptx_type"]]) for p in kernel["params"])
        tables.append(f"static const int sizes_{i}[] = {{{sizes or '0'}}};")
    fill = "\n".join(
        f"  param_sizes[{i}] = sizes_{i}; param_counts[{i}] = "
        f"{len(k['params'])};" for i, k in enumerate(kernels))
    stand_in = (STAND_IN.replace("@SMS@", str(FakeDevice.limits[
        "multiprocessors"])).replace("@THREADS@", str(FakeDevice.limits[
            "max_threads_per_multiprocessor"])).replace(
                "@BLOCKS@", str(FakeDevice.limits[
                    "max_blocks_per_multiprocessor"])).replace(
                        "@NAMES@", "kernels_kernel_names"))
    body = "\n".join(f"  if ({call} != CUDA_SUCCESS) printf(\"refused\\n\");"
                     for call in calls)
    return (f'#include "kernels.h"\n{stand_in}\n' + "\n".join(tables) +
            f"\nint main(void) {{\n  kernels_module m;\n{fill}\n"
            f"  kernels_load(&m);\n{body}\n  return 0;\n}}\n")


def pointer(value, ctype="float"):
    return f"({ctype} *)(uintptr_t){value:#x}"


# (function, Python arguments, C arguments after the module and stream).
CASES = []
for n in (0, 1, 1000, 1000003, (1 << 31) + 5):
    CASES.append(("saxpy", (2.5, CAI((n,)), CAI((n,), pointer=0x8000000)),
                  f"2.5f, {pointer(0x7000000)}, {n}, "
                  f"{pointer(0x8000000)}, {n}"))
for rows, cols in ((1000, 777), (1, 1), (0, 5), (40000, 40000),
                   (70000, 3)):
    CASES.append(("transpose", (CAI((rows, cols)), CAI((cols, rows))),
                  f"{pointer(0x7000000)}, {rows}, {cols}, "
                  f"{pointer(0x7000000)}, {cols}, {rows}"))
for rows, cols in ((300, 1000), (17, 3), (5, 100000), (0, 10), (100, 512),
                   (100, 513)):
    CASES.append(("row_sums", (CAI((rows, cols), "<f8"),
                               CAI((rows,), "<f8")),
                  f"{pointer(0x7000000, 'double')}, {rows}, {cols}, "
                  f"{pointer(0x7000000, 'double')}, {rows}"))
for rows, cols, s0, s1 in ((37, 250, 800, 1), (37, 250, 800, 3),
                           (6, 5, -10, 2), (50000, 50000, 50001, 1),
                           (3, 70000, 1, 3)):
    CASES.append(("scale_view",
                  (CAI((rows, cols), strides=(4 * s0, 4 * s1)),
                   CAI((rows, cols), strides=(4 * (cols + 5), 4),
                       pointer=0x8000000), 0.5),
                  f"{pointer(0x7000000)}, {rows}, {cols}, {s0}, {s1}, "
                  f"{pointer(0x8000000)}, {rows}, {cols}, {cols + 5}, 0.5f"))


for n in (0, 1, 1000, 1 << 24, 3 << 30):
    CASES.append(("sum", (CAI((n,), "<i4"), CAI((1,), "<i4",
                                              pointer=0x8000000)),
                  f"{pointer(0x7000000, 'int32_t')}, {n}, "
                  f"{pointer(0x8000000, 'int32_t')}"))


def python_launches(program):
    lines = []
    driver = FakeDriver()  # one for all, numbering its allocations as C does
    for function, args, _ in CASES:
        start = len(driver.log)
        try:
            Launcher(program, function, driver=driver)(*args)
        except threadbind.ThreadBindError:
            lines.append("refused")
            continue
        for event in driver.log[start:]:
            if isinstance(event, str):
                lines.append(event)
                continue
            launch = driver.launches[event]
            grid, block = launch["grid"], launch["block"]
            # The packed buffer, cut into the parameters the C side prints.
            kernel = next(k for k in program.manifest["kernels"]
                          if k["name"] == launch["kernel"])
            params, offset = [], 0
            for param in kernel["params"]:
                size = SIZES[param["ptx_type"]]
                offset += -offset % size
                params.append(launch["params"][offset:offset + size].hex())
                offset += size
            lines.append(" ".join(
                [launch["kernel"], *map(str, grid), *map(str, block),
                 str(launch["shared"]), str(launch["stream"]), *params]))
    return lines


@pytest.mark.skipif(not (CUDA_INCLUDE / "cuda.h").is_file() or
                    not shutil.which("cc"),
                    reason="needs cuda.h and a C compiler")
def test_the_header_launches_what_python_launches(tmp_path):
    program = threadbind.compile(LAUNCHER_SOURCE)
    compiler = threadbind.find_compiler()
    subprocess.run([compiler, str(LAUNCHER_SOURCE), "--emit", "header",
                    "-o", str(tmp_path / "kernels.h")], check=True)
    calls = [f"kernels_{function}(&m, (CUstream)0, {c_args})"
             for function, _, c_args in CASES]
    (tmp_path / "main.c").write_text(c_program(program.manifest, calls))
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", f"-I{tmp_path}",
                    f"-I{CUDA_INCLUDE}", str(tmp_path / "main.c"), "-o",
                    str(tmp_path / "main")], check=True)
    c_lines = subprocess.run([str(tmp_path / "main")], check=True,
                             capture_output=True,
                             text=True).stdout.splitlines()
    py_lines = python_launches(program)
    assert len(c_lines) > len(CASES) // 2
    for c_line, py_line in zip(c_lines, py_lines):
        assert c_line == py_line
    assert len(c_lines) == len(py_lines)
