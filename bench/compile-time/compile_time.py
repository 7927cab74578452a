#!/usr/bin/env python3
"""Compile-time benchmark for threadbind-compile.

Generates modules of 1, 10, 100 and 1000 elementwise kernels (one host
function each, c[i] = a[i] * k + b[i]), compiles each to PTX in one process
with `--timing`, and reports MLIR's own "Total Execution Time" (parse,
every pass, serialisation to PTX; process start-up and ptxas excluded),
with MLIR's multithreading on and off. Median of --repeat runs.

usage: compile_time.py [--build DIR] [--repeat N] [--out FILE.md]
"""

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile

KERNEL = """
func.func @k{i}(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {i}.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {{
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %p = arith.mulf %x, %k : f32
    %s = arith.addf %p, %y : f32
    memref.store %s, %c[%i] : memref<?xf32>
  }}
  return
}}
"""

TOTAL = re.compile(r"Total Execution Time: ([0-9.]+) seconds")


def compile_seconds(tool, path, threads):
    cmd = [tool, path, "-o", os.devnull, "--timing"]
    if not threads:
        cmd.append("--mlir-disable-threading")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return float(TOTAL.search(out.stderr).group(1))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--sizes", default="1,10,100,1000")
    parser.add_argument("--out", help="write a markdown report here")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "threadbind-compile")
    sizes = [int(s) for s in args.sizes.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = os.path.join(tmp, "k%d.mlir" % n)
            with open(path, "w") as f:
                f.write("".join(KERNEL.format(i=i) for i in range(n)))
            row = {"kernels": n}
            for threads in (True, False):
                runs = [compile_seconds(tool, path, threads)
                        for _ in range(args.repeat)]
                row["threads" if threads else "serial"] = statistics.median(runs)
            rows.append(row)
            print("%5d kernels: %8.1f ms threaded, %8.1f ms serial, "
                  "%6.2f ms/kernel" % (n, row["threads"] * 1e3,
                                       row["serial"] * 1e3,
                                       row["threads"] * 1e3 / n),
                  flush=True)

    if args.out:
        base = rows[0]
        lines = [
            "# threadbind-compile: compile time to PTX",
            "",
            "Taken %s on %s (%d CPUs), `%s`." % (
                datetime.date.today().isoformat(), platform.node() or "?",
                os.cpu_count(), " ".join(["bench/compile-time/compile_time.py"]
                                         + sys.argv[1:])),
            "In-process MLIR timing (parse, all passes, NVPTX to PTX); process "
            "start-up and ptxas excluded. Median of %d runs." % args.repeat,
            "",
            "| kernels | threaded (ms) | serial (ms) | ms per kernel | vs 1 kernel, per kernel |",
            "|---|---|---|---|---|",
        ]
        for r in rows:
            lines.append("| %d | %.1f | %.1f | %.2f | %.2f |" % (
                r["kernels"], r["threads"] * 1e3, r["serial"] * 1e3,
                r["threads"] * 1e3 / r["kernels"],
                r["threads"] / r["kernels"] / base["threads"]))
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
