#!/usr/bin/env python3
"""Compile-time benchmark for threadbind-compile.

Generates modules of 1, 10, 100 and 1000 elementwise kernels (one host
function each, c[i] = a[i] * k + b[i]), compiles each with `--timing` to
PTX and to a bundle, with MLIR's threading on and off, and reports MLIR's
own "Total Execution Time" (parse, every pass, serialisation, and for a
bundle ptxas, the host object and the link; process start-up excluded).
Median of --repeat runs. With --scalar, the same for --vector-bytes=0
(one loop a kernel instead of the widened kernel's four). With --out, a
markdown table and, beside it, a plot of milliseconds per kernel; the
one-kernel PTX compile is also run ten times more for its median and its
`--timing` breakdown.

usage: /usr/bin/python3 compile_time.py [--build DIR] [--repeat N]
       [--sizes 1,10,100,1000] [--emit ptx,bundle] [--scalar] [--out FILE.md]
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


def write_module(directory, kernels):
    path = os.path.join(directory, "k%d.mlir" % kernels)
    with open(path, "w") as f:
        f.write("".join(KERNEL.format(i=i) for i in range(kernels)))
    return path


def compile_seconds(tool, path, emit, threads, extra=(), timing=False):
    """MLIR's total time for one compile; with timing, also its report."""
    output = os.path.join(os.path.dirname(path),
                          "out." + ("so" if emit == "bundle" else emit))
    cmd = [tool, path, "--emit", emit, "-o", output, "--manifest",
           os.devnull, "--timing"] + list(extra)
    if not threads:
        cmd.append("--mlir-disable-threading")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    seconds = float(TOTAL.search(out.stderr).group(1))
    return (seconds, out.stderr) if timing else seconds


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (emit, variant), series in sorted(group(rows).items()):
        for threads, style in (("threads", "-o"), ("serial", "--s")):
            xs = [r["kernels"] for r in series]
            ys = [r[threads] * 1e3 / r["kernels"] for r in series]
            ax.plot(xs, ys, style, label="%s%s, %s" % (
                emit, " " + variant if variant else "", threads))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("kernels in the module")
    ax.set_ylabel("ms per kernel")
    ax.set_title("threadbind-compile, %d CPUs" % (os.cpu_count() or 0))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def group(rows):
    groups = {}
    for r in rows:
        groups.setdefault((r["emit"], r["variant"]), []).append(r)
    return groups


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="1,10,100,1000")
    parser.add_argument("--emit", default="ptx,bundle")
    parser.add_argument("--scalar", action="store_true",
                        help="also time --vector-bytes=0 kernels (PTX)")
    parser.add_argument("--out", help="write a markdown report here")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "threadbind-compile")
    sizes = [int(s) for s in args.sizes.split(",")]
    variants = [(emit, "", ()) for emit in args.emit.split(",")]
    if args.scalar:
        variants.append(("ptx", "scalar", ("--vector-bytes=0",)))

    rows = []
    breakdown = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = write_module(tmp, n)
            for emit, variant, extra in variants:
                row = {"kernels": n, "emit": emit, "variant": variant}
                for threads in (True, False):
                    runs = [compile_seconds(tool, path, emit, threads, extra)
                            for _ in range(args.repeat)]
                    row["threads" if threads else "serial"] = \
                        statistics.median(runs)
                rows.append(row)
                print("%-6s %-6s %5d kernels: %9.1f ms threaded, %9.1f ms "
                      "serial, %6.2f ms/kernel" % (
                          emit, variant, n, row["threads"] * 1e3,
                          row["serial"] * 1e3, row["threads"] * 1e3 / n),
                      flush=True)
        if args.out:
            path = write_module(tmp, 1)
            single = [compile_seconds(tool, path, "ptx", True, timing=True)
                      for _ in range(10)]
            single.sort(key=lambda r: r[0])
            breakdown = single[len(single) // 2]

    if not args.out:
        return
    png = os.path.splitext(args.out)[0] + ".png"
    plot(rows, png)
    lines = [
        "# threadbind-compile: compile time",
        "",
        "Taken %s on %s (%d CPUs), `%s`." % (
            datetime.date.today().isoformat(), platform.node() or "?",
            os.cpu_count(), " ".join(["bench/compile-time/compile_time.py"]
                                     + sys.argv[1:])),
        "In-process MLIR timing (parse, every pass, serialisation; for a "
        "bundle also ptxas, the host object and the link); process start-up "
        "excluded. Median of %d runs. \"serial\" is "
        "`--mlir-disable-threading`." % args.repeat,
        "",
        "![ms per kernel](%s)" % os.path.basename(png),
        "",
        "| output | kernels | threaded (ms) | serial (ms) | ms per kernel, "
        "threaded | threaded / serial |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append("| %s%s | %d | %.1f | %.1f | %.2f | %.2f |" % (
            r["emit"], " (%s)" % r["variant"] if r["variant"] else "",
            r["kernels"], r["threads"] * 1e3, r["serial"] * 1e3,
            r["threads"] * 1e3 / r["kernels"], r["threads"] / r["serial"]))
    seconds, report = breakdown
    lines += [
        "",
        "One kernel to PTX, ten runs: median %.1f ms. Its `--timing` "
        "report, lines of 0.2 ms or more:" % (seconds * 1e3),
        "",
        "```",
    ] + [line for line in report.strip("\n").splitlines()
         if not re.match(r"\s+[0-9.]+ \(", line)
         or float(line.split()[0]) >= 0.0002] + [
        "```",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
