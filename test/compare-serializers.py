"""Checks that threadbind-serialize-kernels compiles kernels to the same code
as upstream's gpu-module-to-binary.

For each MLIR file (directories are searched for *.mlir), threadbind-compile
writes the PTX and the bound MLIR, and prints its pass pipeline; the outline
and lower stages of that pipeline then run again in threadbind-opt on the
bound MLIR, with threadbind-split-kernel-modules left out and
threadbind-serialize-kernels replaced by gpu-module-to-binary (one LLVM
module, one thread). The two PTX files must have the same canonical form
(canonical-ptx.py: the same instructions, directives and names, allowing
for where groups of kernels stand and the block-label numbers LLVM counts
per module). Also checks that --mlir-disable-threading changes no byte.

Files without a func.func (lit drivers of RUN lines) are skipped.

usage: compare-serializers.py OUTDIR [--flags=FLAGS] PATH...
Exits 1 if any file differs or fails to compile.
"""

import concurrent.futures
import importlib.util
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(
        name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


canonical = load("canonical-ptx").canonical
extract = load("extract-gpu-binary")


def upstream_lower_stage(stage):
    """The lower stage as it was: one module, upstream's serialiser."""
    stage = stage.replace("threadbind-split-kernel-modules,", "")
    match = re.search(r"threadbind-serialize-kernels\{([^}]*)\}", stage)
    options = dict(o.split("=", 1) for o in match.group(1).split())
    binary = "gpu-module-to-binary{format=%s toolkit=%s}" % (
        options["format"], options["toolkit"])
    return stage[:match.start()] + binary + stage[match.end():]


def inner(stage):
    stage = stage.strip().rstrip(",")
    assert stage.startswith("builtin.module(") and stage.endswith(")")
    return stage[len("builtin.module("):-1]


def compare(path, out, flags):
    stem = os.path.join(out, re.sub(r"[^A-Za-z0-9]+", "_", path))
    ours, bound = stem + ".ptx", stem + ".bound.mlir"
    run = subprocess.run(
        ["threadbind-compile", path, "-o", ours, "--manifest", os.devnull,
         "--save-mlir", bound, "--print-pipeline"] + flags,
        capture_output=True, text=True)
    if run.returncode != 0:
        return "FAILED to compile: %s\n%s" % (path, run.stderr[-2000:])
    stages = [line for line in run.stderr.splitlines()
              if line.startswith("builtin.module(")]
    pipeline = "builtin.module(%s,%s)" % (
        inner(stages[-2]), inner(upstream_lower_stage(stages[-1])))
    upstream = subprocess.run(
        ["threadbind-opt", bound, "--pass-pipeline=" + pipeline],
        capture_output=True, text=True)
    if upstream.returncode != 0:
        return "FAILED upstream's pipeline: %s\n%s" % (
            path, upstream.stderr[-2000:])
    objects = re.findall(r'#gpu\.object<.*?assembly = "((?:[^"\\]|\\.)*)"',
                         upstream.stdout, re.S)
    theirs = extract.unescape(objects[0]).decode()
    with open(ours) as f:
        mine = f.read()
    serial = subprocess.run(
        ["threadbind-compile", path, "-o", "-", "--mlir-disable-threading"]
        + flags, capture_output=True, text=True)
    if serial.stdout != mine:
        return "DIFFERENT without threads: %s" % path
    if mine == theirs:
        return "identical: %s" % path
    if canonical(mine) == canonical(theirs):
        return "same code: %s" % path
    with open(stem + ".upstream.ptx", "w") as f:
        f.write(theirs)
    return "DIFFERENT: %s (%s vs %s)" % (path, ours, stem + ".upstream.ptx")


def main():
    out, args = sys.argv[1], sys.argv[2:]
    flags = []
    if args and args[0].startswith("--flags="):
        flags = shlex.split(args.pop(0)[len("--flags="):])
    paths = []
    for arg in args:
        if os.path.isdir(arg):
            for root, _, files in sorted(os.walk(arg)):
                paths += [os.path.join(root, f) for f in sorted(files)
                          if f.endswith(".mlir")]
        else:
            paths.append(arg)
    # Lit drivers that only hold RUN lines have nothing to compile.
    paths = [p for p in paths if "func.func" in open(p).read()]
    os.makedirs(out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda p: compare(p, out, flags), paths))
    bad = [r for r in results if not r.startswith(("identical", "same"))]
    for line in results:
        print(line)
    print("%d files: %d byte-identical, %d the same code, %d bad" % (
        len(results), sum(r.startswith("identical") for r in results),
        sum(r.startswith("same") for r in results), len(bad)))
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main())
