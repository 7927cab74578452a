#!/usr/bin/env python3
"""Fuzzing of threadbind-compile's options over real programs.

loopnest_fuzz.py makes random loop nests; this takes the programs people
wrote (by default every test program with a @main: the corpus of
test/Integration/Programs and the new-user forms of
test/Integration/NewUsers) and compiles each under random combinations of
every option that keeps a program's meaning: the block (threads, `auto`
or a shape of one to three dimensions), grid policy, tail strategy, grid
cap, vector width and unroll, and each on/off switch of the mapping, the
kernel rewrites and the reductions. Options that change results on
purpose (`--fp-contract`, atomic cross-block sums) are left out.

A trial passes when threadbind-compile either binds the program or
refuses it with a diagnostic (an exit status of 1 and an `error:` line;
counted apart, since an option such as `--sequential-fallback=false` may
refuse a program by design), the bound IR run in CPU emulation prints the
numbers the program as written prints (within a relative 1e-4, since
reductions may add in another order), and the input file is unchanged.
A crash, a hang, a failure to emulate or a different number fails it; its
command and output are kept under --out. So does a program that does not
run as written (its trials could not fail).

usage: option_fuzz.py [--trials N] [--seed S] [--jobs J] [--out DIR]
                      [PROGRAM.mlir ...]
Uses $THREADBIND_BUILD_DIR/bin (default build/bin) and LLVM in
$LLVM_PREFIX (default /usr/lib/llvm-22); lowers and runs programs as
loopnest_fuzz.py does (each command has 120 s).
"""

import argparse
import hashlib
import os
import random
import re
import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import loopnest_fuzz
from loopnest_fuzz import ROOT, run

BIN = Path(os.environ.get("THREADBIND_BUILD_DIR", ROOT / "build")) / "bin"
# What the programs' RUN lines add before the usual lowering, together:
# linalg as loops, complex ops in parts, hand-written launches emulated,
# math ops without an LLVM intrinsic as libm calls.
PREPARE = ["-convert-linalg-to-loops", "-convert-complex-to-standard",
           "-threadbind-test-emulate-gpu-launch", "-convert-math-to-llvm",
           "-convert-math-to-libm"]
SWITCHES = ["collapse-nests", "loop-reductions", "narrow-indices",
            "predicate", "unswitch", "read-only-loads", "register-tiles",
            "shared-tiles", "stage-transposes", "stencil-cover",
            "widen-nested-loops", "sequential-fallback",
            "reduction-split-columns", "reduction-warp-rows"]
NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf)")


def random_options(rng):
    """One random combination of the options that keep meaning."""
    flags = []
    block = rng.random()
    if block < 0.4:
        flags.append("--threads-per-block=%s" % rng.choice(
            ["32", "64", "96", "128", "256", "512", "1024", "auto"]))
    elif block < 0.8:
        rank = rng.randint(1, 3)
        dims, threads = [], 1
        for _ in range(rank):
            d = rng.choice([1, 2, 3, 4, 8, 16, 32])
            if threads * d > 1024:
                d = 1
            dims.append(d)
            threads *= d
        flags.append("--block-shape=" + ",".join(map(str, dims)))
    flags.append("--grid-policy=" + rng.choice(["grid-stride", "cover"]))
    flags.append("--tail=" + rng.choice(["split", "keep", "pad"]))
    if rng.random() < 0.3:
        flags.append("--max-blocks=%d" % rng.choice([1, 2, 3, 7, 100]))
    flags.append("--vector-bytes=%d" % rng.choice([0, 4, 8, 16]))
    flags.append("--widen-unroll=%d" % rng.choice([1, 2, 4]))
    flags.append("--reduction-unroll=%d" % rng.choice([0, 1, 2, 4, 16]))
    for switch in SWITCHES:
        if rng.random() < 0.35:
            flags.append("--%s=%s" % (switch, rng.choice(["true", "false"])))
    return flags


def numbers(text):
    return NUMBER.findall(text)


def agree(expected, got):
    """Whether two runs printed the same numbers, within 1e-4."""
    a, b = numbers(expected), numbers(got)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if fx != fx or fy != fy:  # a NaN on one side only
            return False
        if abs(fx - fy) > 1e-4 * max(1.0, abs(fx), abs(fy)):
            return False
    return True


def execute(text, bufferize=False):
    """Lowers and runs `text` (bufferized first if asked: programs on
    tensors, as written); returns (ok, output)."""
    first = (["-one-shot-bufferize=bufferize-function-boundaries"]
             if bufferize else [])
    return loopnest_fuzz.execute(str(BIN / "threadbind-opt"), text,
                                 first + PREPARE)


class Fuzzer:
    def __init__(self, out):
        self.out = out
        self.references = {}

    def reference(self, program):
        if program not in self.references:
            text = program.read_text()
            result = execute(text)
            if not result[0] and "tensor<" in text:
                result = execute(text, bufferize=True)
            self.references[program] = result
        return self.references[program]

    def trial(self, index, program, flags):
        """Returns (status, detail, command): status 'ok', 'refused' or
        'FAILED'. A program that does not run as written fails: every trial
        of it would otherwise pass whatever the compiler did."""
        ok, expected = self.reference(program)
        if not ok:
            return ("FAILED", "the program as written does not run: " +
                    expected, "")
        before = hashlib.sha256(program.read_bytes()).hexdigest()
        work = self.out / ("trial-%d" % index)
        work.mkdir(parents=True, exist_ok=True)
        bound = work / "bound.mlir"
        cmd = [str(BIN / "threadbind-compile"), "--emit=mlir", *flags,
               str(program), "-o", str(bound)]
        compiled = run(cmd, timeout=300)
        command = " ".join(shlex.quote(c) for c in cmd)
        status, detail = "ok", ""
        crashed = (compiled.returncode not in (0, 1) or
                   re.search(r"Stack dump|LLVM ERROR|Assertion|"
                             r"UNREACHABLE|Sanitizer", compiled.stderr))
        if crashed:
            status, detail = "FAILED", "crash:\n" + compiled.stderr[-4000:]
        elif compiled.returncode == 1:
            if "error:" in compiled.stderr:
                status = "refused"
                detail = compiled.stderr.strip().splitlines()[0][:300]
            else:
                status, detail = "FAILED", "exit 1 without an error"
        else:
            ran, got = execute(bound.read_text())
            if not ran:
                status, detail = "FAILED", got
            elif not agree(expected, got):
                status, detail = "FAILED", "prints other numbers"
                (work / "expected.txt").write_text(expected)
                (work / "got.txt").write_text(got)
        if hashlib.sha256(program.read_bytes()).hexdigest() != before:
            status, detail = "FAILED", "the input file changed"
        (work / "command.txt").write_text(command + "\n")
        if status == "FAILED":
            (work / "detail.txt").write_text(detail + "\n")
        else:
            for f in work.iterdir():
                f.unlink()
            work.rmdir()
        return status, detail, command


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path,
                        default=ROOT / "fuzz" / "failures" / "options")
    parser.add_argument("programs", nargs="*", type=Path)
    args = parser.parse_args()
    programs = args.programs or sorted(
        p for d in ("Programs", "NewUsers")
        for p in (ROOT / "test" / "Integration" / d).glob("*.mlir")
        if "func.func @main" in p.read_text())
    rng = random.Random(args.seed)
    plan = [(i, rng.choice(programs), random_options(rng))
            for i in range(args.trials)]
    fuzzer = Fuzzer(args.out)
    # References first, one a program, so that trials do not race to them.
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(fuzzer.reference, sorted({p for _, p, _ in plan})))
        results = list(pool.map(lambda t: fuzzer.trial(*t), plan))
    counts = {}
    for (index, program, _), (status, detail, command) in zip(plan, results):
        counts[status] = counts.get(status, 0) + 1
        if status != "ok":
            print("%s trial %d %s: %s\n  %s" % (status, index, program.name,
                                                detail.splitlines()[0]
                                                if detail else "", command))
    print("option_fuzz: %d trials from seed %d over %d programs: %s" % (
        args.trials, args.seed, len(set(p for _, p, _ in plan)),
        ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items()))))
    return 1 if counts.get("FAILED") else 0


if __name__ == "__main__":
    sys.exit(main())
