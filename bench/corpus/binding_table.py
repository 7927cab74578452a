"""How ThreadBind binds each loop of the corpus programs
(test/Integration/Programs): compiles each program to PTX with --remarks
and sorts the remarks and warnings at lines of its kernel functions (the
lines before @main) into grid-stride, row reduction, full reduction, block
per outer iteration and sequential fallback, with the reason. Prints a
Markdown table and the count of loops left on one thread.

  /usr/bin/python3 bench/corpus/binding_table.py [--build build]
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

KINDS = [
    ("one block per outer iteration", "block per outer iteration"),
    ("row reduction mapped", "row reduction"),
    ("reduction mapped", "full reduction"),
    ("bound to gpu.launch", "grid-stride"),
]


def kernel_lines(path):
    """The last line of the kernel functions: everything before @main."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("func.func @main"):
            return number
    return 10**9


def bindings(build, path):
    source = path
    with tempfile.TemporaryDirectory() as tmp:
        if path.stem.endswith("-affine"):
            # The affine forms are mapped after upstream's parallelizer; the
            # parallelized file keeps the source's locations.
            source = pathlib.Path(tmp) / path.name
            subprocess.run([str(build / "bin/threadbind-opt"), str(path),
                            "-affine-parallelize=parallel-reductions=1",
                            "-mlir-print-debuginfo", "-o", str(source)],
                           check=True)
        out = subprocess.run(
            [str(build / "bin/threadbind-compile"), str(source), "--emit",
             "ptx", "-o", str(pathlib.Path(tmp) / "out.ptx"), "--remarks"],
            capture_output=True, text=True)
    last = kernel_lines(path)
    loops = collections.OrderedDict()
    for line in out.stderr.splitlines():
        m = re.match(r".*?\.mlir:(\d+):\d+: (remark|warning): (.*)", line)
        if not m or int(m.group(1)) >= last:
            continue
        where, text = int(m.group(1)), m.group(3)
        if m.group(2) == "warning" and "one GPU thread" in text:
            reason = text.split(": ", 1)[-1]
            loops[where] = ("sequential fallback", reason)
            continue
        if "runs on one GPU thread" in text and where not in loops:
            loops[where] = ("sequential fallback", text.split(": ", 1)[-1])
            continue
        for key, kind in KINDS:
            if key in text and where not in loops:
                loops[where] = (kind, "")
                break
    return loops, out.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=str(ROOT / "build"))
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    programs = sorted((ROOT / "test/Integration/Programs").glob("*.mlir"))
    print("| program | loops, by line: binding | sequential |")
    print("|---|---|---|")
    total = collections.Counter()
    for path in programs:
        loops, rc = bindings(build, path)
        cells = []
        sequential = 0
        for where, (kind, reason) in loops.items():
            total[kind] += 1
            if kind == "sequential fallback":
                sequential += 1
                short = reason if len(reason) < 90 else reason[:87] + "..."
                cells.append(f"{where}: sequential ({short})")
            else:
                cells.append(f"{where}: {kind}")
        status = "" if rc == 0 else " (compile failed)"
        print(f"| {path.stem}{status} | {'; '.join(cells)} | {sequential} |")
    print()
    print("Loops by binding: " + ", ".join(
        f"{kind} {count}" for kind, count in total.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
