"""Stages the fuzz cases that take the stencil choice (2026-11-29): each
seed given, compiled with the default options into
.device/check/fzchoice, its reference run on the CPU, and a
threadbind-run --check line for it in commands.txt there; run from the
repository root with /usr/bin/python3."""
import re, shlex, subprocess, sys
from pathlib import Path
sys.path.insert(0, "fuzz")
from loopnest_gen import Case, mlir_symbol
out = Path(".device/check/fzchoice")
out.mkdir(parents=True, exist_ok=True)
lines = []
for seed in map(int, sys.argv[1:]):
    case = Case(seed)
    case.build()
    text = case.text()
    name = case.bundle_name or case.name
    if case.bundle_name:
        text = text.replace(mlir_symbol(case.name) + "(", mlir_symbol(name) + "(")
    text = re.sub(r"func\.func @threadbind_max_resident_blocks.*?\n}\n", "", text, flags=re.S)
    src = out / f"case-{seed}.mlir"; src.write_text(text)
    so = out / f"case-{seed}.so"
    r = subprocess.run(["build/bin/threadbind-compile", str(src), "--emit", "bundle", "--chip", "sm_90", "-o", str(so)], capture_output=True, text=True)
    if r.returncode: print(seed, "compile failed", r.stderr[-500:]); continue
    arrays = dict(case.arrays)
    names = [n for n, _ in case.arrays] + [n for n, _, _ in case.scalars]
    args = []
    for i, arg in enumerate(names):
        if arg in arrays:
            args += ["--shape", f"{i}=" + "x".join(map(str, arrays[arg])) if arrays[arg] else f"{i}="]
    for n_, ty, value in case.scalars:
        args += ["--scalar", f"{names.index(n_)}={value}"]
    r = subprocess.run(["build/bin/threadbind-run", str(so), "--entry", name, *args, "--reference-only"], capture_output=True, text=True)
    print(seed, "reference", r.returncode)
    lines.append(" ".join(shlex.quote(c) for c in [so.name, "--entry", name, *args, "--check"]))
(out / "commands.txt").write_text("\n".join(lines) + "\n")
