#!/usr/bin/env python3
"""compute-sanitizer racecheck and memcheck over every staged program whose
kernels use workgroup memory or barriers (a manifest kernel with
shared_bytes or barriers above 0): staged transposes, layout changes,
shared-memory matmul tiles, block-a-row reductions. Each run is checked
against the CPU reference, so a run passes when the sanitizer reports no
error and no hazard and the results are right.

- corpus/ (test/Integration/Programs): the commands.txt line of each such
  bundle, at sizes shrunk to ragged ones (n -> n/8 + n%8 + 3 for every
  extent from 64 up, so 512 runs as 67 and 513 as 68, and shapes that
  agree still agree); inputs that corpus-inputs.py makes are made at the
  shrunk sizes;
- polybench/: polybench-bench on the spec with every line's standard sizes
  replaced by its check sizes, one process a benchmark, so the hand twins
  and cuBLAS run under the sanitizer too;
- examples/, triton/ and extra/perm*.so: entries at ragged sizes listed
  below.

Run from a staged tree (scripts/stage-gpu.sh; gpu-check.sh --sanitize runs
it):
    python3 scripts/sanitize-shared.py [--jobs N] [--only SUBSTRING] [--list]
Prints a LABEL line per run (ok or FAILED, with the tail of the output) and
a summary; exits 1 if any run failed or none ran.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

STAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(STAGE, "bin", "threadbind-run")
TOOLS = ("racecheck", "memcheck")

# Entries of bundles with no command list of their own: ragged shapes, a
# thread block's worth and a bit, and a degenerate one.
FIXED = {
    "examples/transpose.so": [
        "--entry transpose --shape 0=100x67 --shape 1=67x100",
        "--entry transpose --shape 0=1x33 --shape 1=33x1",
    ],
    "examples/matmul.so": [
        "--entry matmul --shape 0=33x29 --shape 1=29x31 --shape 2=33x31",
        "--entry matmul --shape 0=70x65 --shape 1=65x67 --shape 2=70x67",
    ],
    "triton/kernels.so": [
        "--entry transpose --shape 0=98x34 --shape 1=34x98",
        "--entry transpose --shape 0=257x129 --shape 1=129x257",
        "--entry matmul --shape 0=70x65 --shape 1=65x67 --shape 2=70x67",
    ],
    "extra/perm.so": [
        "--entry transpose --shape 0=100x67 --shape 1=67x100",
        "--entry transpose_add --shape 0=45x77 --shape 1=77x45 --shape 2=77x45",
        "--entry nchw_to_nhwc --shape 0=2x33x5x40 --shape 1=2x5x40x33",
        "--entry nchw_to_nhwc --shape 0=3x130x7x5 --shape 1=3x7x5x130",
        "--entry nhwc_to_nchw --shape 0=3x7x5x130 --shape 1=3x130x7x5",
        "--entry permute3 --shape 0=33x40x70 --shape 1=40x70x33",
        "--entry nchw_to_nhwc_f32 --shape 0=3x130x7x5 --shape 1=3x7x5x130",
        "--entry nhwc_to_nchw_f32 --shape 0=3x7x5x130 --shape 1=3x130x7x5",
    ],
}
FIXED["extra/perm-scalar.so"] = FIXED["extra/perm.so"][2:6]


def uses_shared(manifest):
    """Whether any kernel of the manifest uses shared memory or barriers."""
    try:
        with open(manifest) as f:
            kernels = json.load(f).get("kernels", [])
    except (OSError, ValueError):
        return False
    for k in kernels:
        r = k.get("resources", {})
        if r.get("shared_bytes", 0) > 0 or r.get("barriers", 0) > 0:
            return True
        if k.get("dynamic_shared_memory", 0) not in (0, "0"):
            return True
    return False


def shrink(n):
    return n if n < 64 else n // 8 + n % 8 + 3


def shrink_args(args):
    """The corpus command with every extent of 64 or more shrunk."""
    out = []
    for i, a in enumerate(args):
        if i > 0 and args[i - 1] in ("--shape", "--size"):
            key, sep, dims = a.rpartition("=")
            dims = re.sub(r"\d+", lambda m: str(shrink(int(m.group()))), dims)
            a = key + sep + dims
        out.append(a)
    return out


def corpus_jobs(tmp):
    corpus = os.path.join(STAGE, "corpus")
    commands = os.path.join(corpus, "commands.txt")
    if not os.path.exists(commands):
        return []
    jobs = []
    with open(commands) as f:
        for n, line in enumerate(f):
            words = shlex.split(line)
            if not words:
                continue
            bundle = os.path.join(corpus, words[0])
            if not uses_shared(bundle + ".manifest.json"):
                continue
            args = shrink_args(words[1:])
            if "=@" in line:
                # Well-conditioned inputs, made at the shrunk sizes.
                made = subprocess.run(
                    [sys.executable,
                     os.path.join(STAGE, "scripts", "corpus-inputs.py"), tmp,
                     words[0][:-3]] + args,
                    stdout=subprocess.PIPE, text=True, check=True)
                args = made.stdout.split()
            label = "corpus-%s-%d" % (words[0][:-3], n)
            argv = [RUN, bundle] + args
            argv += ["--check", "--rtol", "1e-3", "--atol", "1e-3"]
            jobs.append((label, argv))
    return jobs


def fixed_jobs():
    jobs = []
    for rel, lines in FIXED.items():
        bundle = os.path.join(STAGE, rel)
        if not os.path.exists(bundle) or not uses_shared(
                bundle + ".manifest.json"):
            continue
        for n, line in enumerate(lines):
            label = "%s-%d" % (rel[:-3].replace("/", "-"), n)
            jobs.append((label, [RUN, bundle] + line.split() + ["--check"]))
    return jobs


def polybench_jobs(tmp):
    pb = os.path.join(STAGE, "polybench")
    spec = os.path.join(pb, "polybench.txt")
    harness = os.path.join(STAGE, "bin", "polybench-bench")
    if not os.path.exists(spec) or not os.path.exists(harness):
        return []
    small = os.path.join(tmp, "polybench-check-sizes.txt")
    names = []
    with open(spec) as f, open(small, "w") as out:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                out.write(line)
                continue
            fields = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            stem = (words[0] if "flags" in fields else
                    fields["file"].rsplit(".", 1)[0])
            if uses_shared(os.path.join(pb, stem + ".so.manifest.json")):
                names.append(words[0])
            out.write(re.sub(r"\bstd=\S+", "std=" + fields["check"], line))
    return [("polybench-" + name,
             [harness, small, "--stage", pb, "--runs", "1", "--warmup", "0",
              "--only", name]) for name in names]


def run(tool, label, argv):
    cmd = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "9",
           "--print-limit", "5"] + argv
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        out = p.stdout
        # racecheck's warnings (hazards it cannot prove harmful) leave the
        # exit status 0: any hazard fails the run here.
        hazards = re.search(r"RACECHECK SUMMARY: ([1-9]\d*) hazard", out)
        ok = p.returncode == 0 and not hazards
    except subprocess.TimeoutExpired:
        ok, out = False, "timed out after 600 s"
    return tool, label, ok, out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true",
                    help="print the runs' commands, run nothing")
    o = ap.parse_args()
    env = os.environ
    env["LD_LIBRARY_PATH"] = os.path.join(STAGE, "lib") + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    with tempfile.TemporaryDirectory() as tmp:
        jobs = corpus_jobs(tmp) + fixed_jobs() + polybench_jobs(tmp)
        jobs = [j for j in jobs if o.only in j[0]]
        if o.list:
            for label, argv in jobs:
                print(label, " ".join(argv))
            return 0
        failed = 0
        with concurrent.futures.ThreadPoolExecutor(o.jobs) as pool:
            futures = [pool.submit(run, tool, label, argv)
                       for label, argv in jobs for tool in TOOLS]
            for fut in concurrent.futures.as_completed(futures):
                tool, label, ok, out = fut.result()
                print("LABEL %s-%s %s" % (tool, label, "ok" if ok else "FAILED"))
                if not ok:
                    failed += 1
                    for line in out.splitlines()[-20:]:
                        print("    " + line)
                sys.stdout.flush()
    runs = 2 * len(jobs)
    print("sanitize-shared: %d runs, %d failed" % (runs, failed))
    return 1 if failed or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
