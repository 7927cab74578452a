#!/usr/bin/env python3
"""Differential fuzzing of ThreadBind's passes: random parallel loop nests,
compiled by the mapping and kernel passes and run on the CPU through the
gpu.launch emulation, must print what the loops print as written.

    fuzz/loopnest_fuzz.py --cases 100 --seed 1           # a bounded batch
    fuzz/loopnest_fuzz.py --cases 10000 --seed 1 --jobs 2 # a long run

Each case is reproducible from its seed (`--seed S --cases 1`); a mismatch
or a crash is written to --out (default fuzz/failures) with the commands
that show it. Needs a ThreadBind build (threadbind-opt) and mlir-runner.

What a case holds (all drawn from the seed):
- a parallel loop of 1 to 4 dimensions, each with its own lower bound
  (0 to 3), step (1 to 3) and extent, dynamic or static;
- an output indexed by a permutation of the induction variables (every
  iteration writes its own element), inputs read at affine indices (a
  permutation, offsets, a scale), of one element type (f16, f32, f64, i8,
  i16, i32, i64), values small integers so every order of arithmetic is
  exact (integers wrap, which no order changes);
- a body of arithmetic with uniform conditions (on a scalar argument) and
  divergent ones (on an induction variable or a loaded value), stores in
  one side or both;
- or a reduction (sum, max, min) over 1 dimension, full or per row (a
  row along or across memory), the row then updated with the result;
- or a loop of 1 or 2 dimensions whose bounds and steps sit near the
  ends of the index type (steps up to 2^62, bounds at -2^63, 2^31, 2^32,
  2^62 and INT64_MAX), static or passed in, storing at its iteration
  number or summing over it;
- in-place accumulation (`out[i] += ...`), which shows an iteration run
  twice; a private helper the host code calls; an input read through a
  subview at a dynamic offset; a kernel with a name PTX cannot spell or
  one that clashes with libc or the runtime;
- mapping options: threads a block or an explicit block shape of any rank
  (more dimensions than the loop has, too), a dimension order, a static
  block cap, grid policy, tail strategy, widening with or without nested
  loops and unroll.

A case whose kernel has an odd name or a helper, and one case in ten
besides, is also compiled to a host bundle: its PTX must assemble (when
ptxas is found), and threadbind-run must run its CPU reference at the
case's sizes, which the size requirements must accept. With --bundle-dir
those bundles are kept with a list of threadbind-run --check commands, to
run on a GPU.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from loopnest_gen import Case, mlir_symbol

ROOT = Path(__file__).resolve().parents[1]
LLVM = Path(os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22"))
LOWER = ["-canonicalize", "-expand-strided-metadata", "-lower-affine",
         "-convert-scf-to-cf", "-convert-to-llvm",
         "-reconcile-unrealized-casts"]


def run(cmd, stdin=None, timeout=120):
    """Runs `cmd`; one that runs past `timeout` seconds is a failure (a
    hang), reported like any other. Bytes that are not UTF-8 (printMemref
    prints i8 elements as characters) come back as escapes, so outputs
    still compare exactly."""
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True,
                              text=True, errors="backslashreplace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(
            cmd, -1, "", f"timed out after {timeout} s: {' '.join(cmd)}")


def execute(opt, text, passes):
    """Lowers `text` (after `passes`) and runs it; returns (ok, output)."""
    lowered = run([opt, "-", *passes, *LOWER], stdin=text)
    if lowered.returncode != 0:
        return False, "threadbind-opt failed:\n" + lowered.stderr[-4000:]
    runner = run([str(LLVM / "bin/mlir-runner"), "-e", "main",
                  "-entry-point-result=void",
                  f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,"
                  f"{LLVM}/lib/libmlir_c_runner_utils.so"],
                 stdin=lowered.stdout)
    if runner.returncode != 0:
        return False, "mlir-runner failed:\n" + runner.stderr[-4000:]
    return True, re.sub(r"base@ = 0x[0-9a-f]*", "", runner.stdout)


def compile_flags(case):
    """The case's pass options as threadbind-compile flags."""
    o = case.options
    flags = [f"--{kv}" for kv in o["map"].split()]
    flags.append(f"--tail={o['tail']}")
    for kv in o["widen"].split():
        key, _, value = kv.partition("=")
        flags.append({"nested-loops": "--widen-nested-loops",
                      "unroll": f"--widen-unroll={value}",
                      "vector-bytes": f"--vector-bytes={value}"}[key])
    if "nested-loops" not in o["widen"]:
        flags.append("--widen-nested-loops=false")
    if not o["narrow"]:
        flags.append("--narrow-indices=false")
    return flags


def check_bundle(case, text, tools, keep):
    """Compiles the case to a bundle, assembles its PTX and runs its CPU
    reference at the case's sizes; returns None or what failed."""
    name = case.bundle_name or case.name
    if case.bundle_name:
        text = text.replace(mlir_symbol(case.name) + "(",
                            mlir_symbol(name) + "(")
    # The emulation's stand-in for the runtime's grid query is not the
    # bundle's business.
    text = re.sub(r"func\.func @threadbind_max_resident_blocks.*?\n}\n", "",
                  text, flags=re.S)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        source = work / f"case-{case.seed}.mlir"
        source.write_text(text)
        bundle = work / f"case-{case.seed}.so"
        ptx = work / f"case-{case.seed}.ptx"
        flags = compile_flags(case)
        built = run([tools["compile"], str(source), "--emit", "bundle",
                     "-o", str(bundle), "--save-ptx", str(ptx), *flags])
        if built.returncode != 0:
            return ("threadbind-compile --emit bundle " + " ".join(flags) +
                    " failed:\n" + built.stderr[-4000:])
        if tools["ptxas"]:
            assembled = run([tools["ptxas"], "-arch=sm_90", str(ptx), "-o",
                             str(work / f"case-{case.seed}.cubin")])
            if assembled.returncode != 0:
                return "ptxas failed:\n" + assembled.stderr[-4000:]
        args = []
        arrays = dict(case.arrays)
        names = [n for n, _ in case.arrays] + [n for n, _, _ in case.scalars]
        for i, arg in enumerate(names):
            if arg in arrays:
                args += ["--shape", f"{i}=" + "x".join(
                    map(str, arrays[arg])) if arrays[arg] else f"{i}="]
        for name_, ty, value in case.scalars:
            args += ["--scalar", f"{names.index(name_)}={value}"]
        command = [tools["run"], str(bundle), "--entry", name, *args]
        ran = run(command + ["--reference-only"])
        if ran.returncode != 0:
            return ("threadbind-run --reference-only failed:\n" +
                    ran.stdout[-2000:] + ran.stderr[-4000:])
        if keep:
            # Relative to the folder, which travels to the GPU machine.
            line = [bundle.name, *command[2:], "--check"]
            with open(Path(keep) / "commands.txt", "a") as commands:
                commands.write(" ".join(shlex.quote(c) for c in line) +
                               "\n")
    return None


def check(seed, tools, out_dir, bundle_dir=None):
    opt = tools["opt"]
    case = Case(seed)
    case.build()
    text = case.text()
    ok, want = execute(opt, case.reference_text(), [])
    if not ok:
        return seed, "invalid", want  # the generator's fault: report it
    passes = [p.replace('"', "") if p.startswith(
        "-threadbind-widen-accesses=") else p for p in case.pipeline()]
    ok, got = execute(opt, text, passes)
    if ok and got == want:
        bundled = (case.name != "kernel" or case.bundle_name or
                   case.helpers or case.rng.random() < 0.1)
        failure = check_bundle(case, text, tools, bundle_dir) \
            if bundled else None
        if failure is None:
            return seed, "ok", ""
        ok, got = False, failure
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"case-{seed}.mlir"
    path.write_text(text)
    if case.reference_lines is not None:
        (directory / f"case-{seed}.reference.mlir").write_text(
            case.reference_text())
    reason = got if not ok else "outputs differ"
    (directory / f"case-{seed}.txt").write_text(
        f"seed {seed}\npasses: {' '.join(case.pipeline())}\n{reason}\n"
        f"--- expected\n{want[:4000]}\n--- got\n{got[:4000]}\n")
    return seed, "crash" if not ok else "mismatch", str(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(ROOT / "fuzz" / "failures"))
    parser.add_argument("--print", action="store_true",
                        help="print the first case's program and stop")
    parser.add_argument("--bundle-dir",
                        help="keep the bundles of the cases that make one "
                             "here, with commands.txt: threadbind-run "
                             "--check lines to run on a GPU")
    args = parser.parse_args()
    build = Path(os.environ.get("THREADBIND_BUILD_DIR", ROOT / "build"))
    tool = lambda name: shutil.which(name) or str(build / "bin" / name)
    cuda = Path(os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    tools = {"opt": tool("threadbind-opt"),
             "compile": tool("threadbind-compile"),
             "run": tool("threadbind-run"),
             "ptxas": shutil.which("ptxas") or (
                 str(cuda / "bin/ptxas")
                 if (cuda / "bin/ptxas").exists() else None)}
    if args.print:
        case = Case(args.seed)
        case.build()
        print(case.text())
        print("// passes:", " ".join(case.pipeline()))
        return 0
    seeds = range(args.seed, args.seed + args.cases)
    counts = {"ok": 0, "mismatch": 0, "crash": 0, "invalid": 0}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, status, detail in pool.map(
                lambda s: check(s, tools, args.out, args.bundle_dir),
                seeds):
            counts[status] += 1
            if status != "ok":
                print(f"seed {seed}: {status} {detail.splitlines()[0] if detail else ''}",
                      flush=True)
    print(f"loopnest_fuzz: {args.cases} cases from seed {args.seed}: "
          f"{counts['ok']} ok, {counts['mismatch']} mismatch, "
          f"{counts['crash']} crash, {counts['invalid']} invalid")
    return 0 if counts["ok"] == args.cases else 1


if __name__ == "__main__":
    sys.exit(main())
