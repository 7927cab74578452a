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
  permutation, offsets, a scale), of one element type (f16, f32, f64, i32,
  i64), values small integers so every order of arithmetic is exact;
- a body of arithmetic with uniform conditions (on a scalar argument) and
  divergent ones (on an induction variable or a loaded value), stores in
  one side or both;
- or a reduction (sum, max, min) over 1 dimension, full or per row;
- mapping options: threads a block, grid policy, tail strategy, widening
  with or without nested loops and unroll.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LLVM = Path(os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22"))
LOWER = ["-canonicalize", "-expand-strided-metadata", "-lower-affine",
         "-convert-scf-to-cf", "-convert-to-llvm",
         "-reconcile-unrealized-casts"]
TYPES = ["f32", "f64", "i32", "i64", "f16"]


def is_float(t):
    return t.startswith("f")


class Case:
    """One random program: a kernel function, a @main that fills inputs,
    calls it and prints every output, and the pipeline options."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seed = seed
        self.lines = []
        self.tmp = 0

    def fresh(self, prefix="v"):
        self.tmp += 1
        return f"%{prefix}{self.tmp}"

    def emit(self, line):
        self.lines.append(line)

    # -- values ----------------------------------------------------------
    def const(self, t, value):
        name = self.fresh("k")
        if is_float(t):
            self.emit(f"    {name} = arith.constant {float(value)} : {t}")
        else:
            self.emit(f"    {name} = arith.constant {int(value)} : {t}")
        return name

    def from_index(self, t, iv):
        """An element-typed value of index `iv`."""
        i32 = self.fresh()
        self.emit(f"    {i32} = arith.index_cast {iv} : index to i32")
        if t == "i32":
            return i32
        out = self.fresh()
        if t == "i64":
            self.emit(f"    {out} = arith.extsi {i32} : i32 to i64")
        else:
            self.emit(f"    {out} = arith.sitofp {i32} : i32 to {t}")
        return out

    def binary(self, t, a, b):
        rng = self.rng
        if is_float(t):
            op = rng.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
        else:
            op = rng.choice(["addi", "subi", "muli", "maxsi", "minsi",
                             "andi", "ori", "xori"])
        out = self.fresh()
        self.emit(f"    {out} = arith.{op} {a}, {b} : {t}")
        return self.clamp(t, out) if op in ("mulf", "muli") else out

    def clamp(self, t, v):
        """Keeps magnitudes small (f16 integers are exact below 2048)."""
        lo, hi = self.const(t, -60), self.const(t, 60)
        a, b = self.fresh(), self.fresh()
        mx, mn = ("maximumf", "minimumf") if is_float(t) else ("maxsi",
                                                                "minsi")
        self.emit(f"    {a} = arith.{mx} {v}, {lo} : {t}")
        self.emit(f"    {b} = arith.{mn} {a}, {hi} : {t}")
        return b

    def compare(self, t, a, b):
        out = self.fresh("c")
        pred = self.rng.choice(["lt", "gt", "le", "ge", "eq", "ne"])
        if is_float(t):
            self.emit(f"    {out} = arith.cmpf o{pred}, {a}, {b} : {t}")
        else:
            spred = {"lt": "slt", "gt": "sgt", "le": "sle",
                     "ge": "sge"}.get(pred, pred)
            self.emit(f"    {out} = arith.cmpi {spred}, {a}, {b} : {t}")
        return out

    # -- the program -----------------------------------------------------
    def build(self):
        rng = self.rng
        self.type = rng.choice(TYPES)
        self.options = self.pipeline_options()
        if rng.random() < 0.25:
            return self.build_reduction()
        return self.build_map()

    def pipeline_options(self):
        rng = self.rng
        policy = rng.choice(["grid-stride", "grid-stride", "cover"])
        threads = rng.choice([32, 64, 128, 256])
        return {
            "map": f"threads-per-block={threads} grid-policy={policy}",
            "tail": rng.choice(["pad", "split", "keep"]),
            "widen": " ".join(
                x for x in [
                    rng.choice(["", "nested-loops"]),
                    rng.choice(["", "unroll=2", "unroll=3"]),
                    rng.choice(["", "vector-bytes=8"])] if x),
            "resident": rng.choice([1, 2, 3]),
        }

    def build_map(self):
        rng, t = self.rng, self.type
        dims = rng.choice([1, 1, 2, 2, 3, 4])
        lbs = [rng.choice([0, 0, 1, 3]) for _ in range(dims)]
        steps = [rng.choice([1, 1, 1, 2, 3]) for _ in range(dims)]
        budget = {1: 3000, 2: 60, 3: 14, 4: 7}[dims]
        extents = [rng.randint(0 if rng.random() < 0.1 else 1, budget)
                   for _ in range(dims)]
        perm = list(range(dims))
        rng.shuffle(perm)
        nin = rng.choice([1, 2])
        # Inputs: index k of input j is ivs[q[k]] * scale + offset.
        inputs = []
        for _ in range(nin):
            q = list(range(dims))
            rng.shuffle(q)
            scale = [rng.choice([1, 1, 1, 2]) for _ in range(dims)]
            offset = [rng.choice([0, 0, 1, 2]) for _ in range(dims)]
            shape = [extents[q[k]] * scale[k] + offset[k] + 1
                     for k in range(dims)]
            inputs.append((q, scale, offset, shape))
        out_shape = [extents[perm[k]] for k in range(dims)]
        dynamic = rng.random() < 0.7
        mt = lambda shape: "memref<" + "x".join(
            "?" if dynamic else str(s) for s in shape) + f"x{t}>"
        args = [f"%in{j}: {mt(inputs[j][3])}" for j in range(nin)]
        args += [f"%out: {mt(out_shape)}", "%flag: i1", f"%s: {t}"]
        self.emit(f"func.func @kernel({', '.join(args)}) {{")
        for v in sorted(set(lbs + steps + [0])):
            self.emit(f"    %c{v} = arith.constant {v} : index")
        # Upper bounds: the output's sizes (its dims are the extents).
        ubs = []
        for d in range(dims):
            k = perm.index(d)
            ub = self.fresh("ub")
            if dynamic:
                self.emit(f"    %d{k} = arith.constant {k} : index")
                self.emit(f"    {ub} = memref.dim %out, %d{k} : "
                          f"{mt(out_shape)}")
            else:
                self.emit(f"    {ub} = arith.constant {out_shape[k]} : index")
            ubs.append(ub)
        ivs = [f"%i{d}" for d in range(dims)]
        self.emit(f"    scf.parallel ({', '.join(ivs)}) = "
                  f"({', '.join(f'%c{v}' for v in lbs)}) to "
                  f"({', '.join(ubs)}) step "
                  f"({', '.join(f'%c{v}' for v in steps)}) {{")
        loaded = []
        for j, (q, scale, offset, shape) in enumerate(inputs):
            idx = []
            for k in range(dims):
                v = ivs[q[k]]
                if scale[k] != 1:
                    c = self.fresh("ix")
                    self.emit(f"    {c} = arith.constant {scale[k]} : index")
                    m = self.fresh("ix")
                    self.emit(f"    {m} = arith.muli {v}, {c} : index")
                    v = m
                if offset[k]:
                    c = self.fresh("ix")
                    self.emit(f"    {c} = arith.constant {offset[k]} : index")
                    a = self.fresh("ix")
                    self.emit(f"    {a} = arith.addi {v}, {c} : index")
                    v = a
                idx.append(v)
            val = self.fresh("x")
            self.emit(f"    {val} = memref.load %in{j}[{', '.join(idx)}] : "
                      f"{mt(shape)}")
            loaded.append(val)
        pool = loaded + ["%s", self.from_index(t, rng.choice(ivs))]
        value = rng.choice(pool)
        for _ in range(rng.randint(1, 4)):
            value = self.binary(t, value, rng.choice(pool))
            pool.append(value)
        out_idx = ", ".join(ivs[perm[k]] for k in range(dims))
        store = f"memref.store {{}}, %out[{out_idx}] : {mt(out_shape)}"
        kind = rng.choice(["plain", "uniform", "divergent", "one-sided"])
        if kind == "plain":
            self.emit("    " + store.format(value))
        else:
            if kind == "uniform":
                cond = "%flag"
            else:
                cond = self.compare(t, rng.choice(pool), rng.choice(pool))
            other = self.binary(t, rng.choice(pool), rng.choice(pool))
            self.emit(f"    scf.if {cond} {{")
            self.emit("      " + store.format(value))
            if kind == "one-sided":
                self.emit("    }")
            else:
                self.emit("    } else {")
                self.emit("      " + store.format(other))
                self.emit("    }")
        self.emit("    scf.reduce")
        self.emit("  }")
        self.emit("  return")
        self.emit("}")
        self.arrays = [(f"in{j}", inputs[j][3]) for j in range(nin)]
        self.arrays.append(("out", out_shape))
        self.mt = mt
        self.scalars = [("flag", "i1", rng.choice([0, 1])),
                        ("s", t, rng.randint(-5, 5))]
        self.results = ["out"]
        self.emit_main()

    def build_reduction(self):
        rng = self.rng
        t = self.type if self.type != "f16" else "f32"
        self.type = t
        rows = rng.random() < 0.5
        n = rng.randint(0, 3000 if not rows else 300)
        m = rng.randint(0, 40) if rows else 1
        lb, step = rng.choice([0, 0, 2]), rng.choice([1, 1, 2])
        combiner = rng.choice(["add", "max", "min"])
        op = {("add", True): "addf", ("max", True): "maximumf",
              ("min", True): "minimumf", ("add", False): "addi",
              ("max", False): "maxsi", ("min", False): "minsi"}[
                  (combiner, is_float(t))]
        shape = [m, n] if rows else [n]
        mt = lambda s: "memref<" + "x".join("?" for _ in s) + f"x{t}>"
        outshape = [m] if rows else [1]
        self.emit(f"func.func @kernel(%in0: {mt(shape)}, %out: "
                  f"memref<{'?' if rows else '1'}x{t}>, %flag: i1, "
                  f"%s: {t}) {{")
        self.emit("    %c0 = arith.constant 0 : index")
        self.emit("    %c1 = arith.constant 1 : index")
        self.emit(f"    %lb = arith.constant {lb} : index")
        self.emit(f"    %st = arith.constant {step} : index")
        init = self.const(t, rng.randint(-5, 5))
        last = 1 if rows else 0
        self.emit(f"    %n = memref.dim %in0, %c{last} : {mt(shape)}")
        if rows:
            self.emit(f"    %m = memref.dim %in0, %c0 : {mt(shape)}")
            self.emit("    scf.parallel (%r) = (%c0) to (%m) step (%c1) {")
        self.emit(f"    %red = scf.parallel (%i) = (%lb) to (%n) step (%st) "
                  f"init ({init}) -> {t} {{")
        idx = "%r, %i" if rows else "%i"
        self.emit(f"      %x = memref.load %in0[{idx}] : {mt(shape)}")
        value = self.binary(t, "%x", "%s")
        self.emit(f"      scf.reduce({value} : {t}) {{")
        self.emit(f"      ^bb0(%a: {t}, %b: {t}):")
        self.emit(f"        %y = arith.{op} %a, %b : {t}")
        self.emit(f"        scf.reduce.return %y : {t}")
        self.emit("      }")
        self.emit("    }")
        where = "%r" if rows else "%c0"
        self.emit(f"    memref.store %red, %out[{where}] : "
                  f"memref<{'?' if rows else '1'}x{t}>")
        if rows:
            self.emit("    scf.reduce")
            self.emit("  }")
        self.emit("  return")
        self.emit("}")
        self.arrays = [("in0", shape), ("out", outshape)]
        self.mt = lambda s, rows=rows: (
            mt(s) if s is shape else
            f"memref<{'?' if rows else '1'}x{t}>")
        self.shapes = {"in0": shape, "out": outshape}
        self.scalars = [("flag", "i1", 0), ("s", t, rng.randint(-3, 3))]
        self.results = ["out"]
        self.emit_main()

    def emit_main(self):
        t = self.type
        self.emit("func.func @threadbind_max_resident_blocks(%t: index) -> "
                  "index {")
        self.emit(f"  %r = arith.constant {self.options['resident']} : index")
        self.emit("  return %r : index")
        self.emit("}")
        printer = {"f16": "F16", "f32": "F32", "f64": "F64", "i32": "I32",
                   "i64": "I64"}[t]
        self.emit(f"func.func private @printMemref{printer}(memref<*x{t}>) "
                  "attributes {llvm.emit_c_interface}")
        self.emit("func.func @main() {")
        self.emit("  %c0 = arith.constant 0 : index")
        self.emit("  %c1 = arith.constant 1 : index")
        names = []
        for name, shape in self.arrays:
            static = "memref<" + "x".join(str(s) for s in shape) + f"x{t}>"
            self.emit(f"  %{name}_s = memref.alloc() : {static}")
            total = 1
            for s in shape:
                total *= s
            flat = f"memref<{total}x{t}>"
            if len(shape) > 1:
                groups = "[[" + ", ".join(str(d) for d in range(
                    len(shape))) + "]]"
                self.emit(f"  %{name}_f = memref.collapse_shape %{name}_s "
                          f"{groups} : {static} into {flat}")
            else:
                self.emit(f"  %{name}_f = memref.cast %{name}_s : {static} "
                          f"to {flat}")
            # Small integer values: 7 i mod 23 - 11 (outputs: a sentinel).
            self.emit(f"  %{name}_n = arith.constant {total} : index")
            self.emit(f"  scf.for %i = %c0 to %{name}_n step %c1 {{")
            self.emit("    %i32 = arith.index_cast %i : index to i32")
            self.emit("    %c7 = arith.constant 7 : i32")
            self.emit("    %c23 = arith.constant 23 : i32")
            self.emit("    %c11 = arith.constant 11 : i32")
            if name == "out":
                self.emit("    %v = arith.constant 99 : i32")
            else:
                self.emit("    %m = arith.muli %i32, %c7 : i32")
                self.emit("    %r = arith.remsi %m, %c23 : i32")
                self.emit("    %v = arith.subi %r, %c11 : i32")
            if t == "i32":
                conv = "%v"
            elif t == "i64":
                self.emit(f"    %e = arith.extsi %v : i32 to {t}")
                conv = "%e"
            else:
                self.emit(f"    %e = arith.sitofp %v : i32 to {t}")
                conv = "%e"
            self.emit(f"    memref.store {conv}, %{name}_f[%i] : {flat}")
            self.emit("  }")
            target = self.mt(shape)
            self.emit(f"  %{name} = memref.cast %{name}_s : {static} to "
                      f"{target}")
            names.append((f"%{name}", target))
        for name, ty, value in self.scalars:
            if ty == "i1":
                self.emit(f"  %{name} = arith.constant {'true' if value else 'false'}")
            elif is_float(ty):
                self.emit(f"  %{name} = arith.constant {float(value)} : {ty}")
            else:
                self.emit(f"  %{name} = arith.constant {value} : {ty}")
            names.append((f"%{name}", ty))
        self.emit(f"  call @kernel({', '.join(n for n, _ in names)}) : "
                  f"({', '.join(ty for _, ty in names)}) -> ()")
        for name, shape in self.arrays:
            if name not in self.results:
                continue
            total = 1
            for s in shape:
                total *= s
            if total == 0:
                continue  # printMemref prints garbage for an empty memref
            static = "memref<" + "x".join(str(s) for s in shape) + f"x{t}>"
            self.emit(f"  %{name}_u = memref.cast %{name}_s : {static} to "
                      f"memref<*x{t}>")
            self.emit(f"  call @printMemref{printer}(%{name}_u) : "
                      f"(memref<*x{t}>) -> ()")
        self.emit("  return")
        self.emit("}")

    def text(self):
        return "\n".join(self.lines) + "\n"

    def pipeline(self):
        o = self.options
        widen = f"=\"{o['widen']}\"" if o["widen"] else ""
        return [f"-threadbind-map-to-gpu={o['map']}",
                f"-threadbind-remove-tail-checks=strategy={o['tail']}",
                "-threadbind-unswitch-uniform-conditions",
                "-threadbind-predicate-divergent-branches",
                f"-threadbind-widen-accesses{widen}",
                "-threadbind-test-emulate-gpu-launch"]


def run(cmd, stdin=None, timeout=300):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


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
    import re
    return True, re.sub(r"base@ = 0x[0-9a-f]*", "", runner.stdout)


def check(seed, opt, out_dir):
    case = Case(seed)
    case.build()
    text = case.text()
    ok, want = execute(opt, text, [])
    if not ok:
        return seed, "invalid", want  # the generator's fault: report it
    passes = [p.replace('"', "") if p.startswith(
        "-threadbind-widen-accesses=") else p for p in case.pipeline()]
    ok, got = execute(opt, text, passes)
    if ok and got == want:
        return seed, "ok", ""
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"case-{seed}.mlir"
    path.write_text(text)
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
    args = parser.parse_args()
    build = Path(os.environ.get("THREADBIND_BUILD_DIR", ROOT / "build"))
    opt = shutil.which("threadbind-opt") or str(build / "bin/threadbind-opt")
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
                lambda s: check(s, opt, args.out), seeds):
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
