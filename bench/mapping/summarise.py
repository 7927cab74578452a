#!/usr/bin/env python3
"""Turns the log of `scripts/gpu-check.sh --bench` into a markdown table.

Every figure comes from one run of the script on one device; ratios are
taken between rows of that run only.

usage: summarise.py LOG [--date YYYY-MM-DD] > results.md
"""

import argparse
import re
import sys

ROWS = [
    ("vadd-threadbind", "2^28 f32 vector add, ThreadBind (grid-stride)"),
    ("vadd-threadbind-cover", "2^28 f32 vector add, ThreadBind (cover)"),
    ("vadd-upstream-tiled", "2^28 f32 vector add, upstream tiled 256 then mapped"),
    ("vadd-upstream", "2^28 f32 vector add, upstream default mapping"),
    ("add2d-rows", "8192^2 2-D add, loops in the coalesced order"),
    ("add2d-columns-outer", "8192^2 2-D add, loops in the other order"),
    ("add2d-rows-forced-outer", "8192^2 2-D add, outer dimension forced onto x"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--date", default="")
    args = parser.parse_args()
    text = open(args.log).read()
    gpu = re.search(r"^GPU (.*)$", text, re.M)
    results, kernels, status = {}, {}, {}
    for block in text.split("--- ")[1:]:
        label = block.split(":", 1)[0].strip()
        r = re.search(r"RESULT .*median_ms=([0-9.]+).*gbps=([0-9.]+)", block)
        if r:
            results[label] = (float(r.group(1)), float(r.group(2)))
        k = re.search(r"kernel \S+: (grid \S+, block \S+), (\d+) registers", block)
        if k:
            kernels[label] = "%s, %s regs" % (k.group(1), k.group(2))
        s = re.search(r"LABEL \S+ (ok|FAILED)", block)
        if s:
            status[label] = s.group(1)

    out = ["# Mapping benchmark on %s" % (gpu.group(1) if gpu else "a GPU"), ""]
    out.append("Taken %s with `scripts/stage-gpu.sh` here, then "
               "`scripts/gpu-check.sh --bench --sanitize` on the device. Each "
               "row is checked against the CPU reference before it is timed; "
               "times are kernel time from CUDA events, median of 30 runs "
               "after 3 warm-up runs (5 runs for upstream's default mapping)."
               % (args.date or "on the date in the file name"))
    out += ["", "| kernel | check | launch | median ms | GB/s |",
            "|---|---|---|---|---|"]
    for label, title in ROWS:
        if label not in results:
            continue
        ms, gbps = results[label]
        out.append("| %s | %s | %s | %.4f | %.1f |" % (
            title, status.get(label, "?"), kernels.get(label, ""), ms, gbps))

    def ratio(a, b):
        if a in results and b in results:
            return results[b][0] / results[a][0]
        return None

    out += ["", "Ratios, same run:"]
    for a, b, what in [
        ("vadd-threadbind", "vadd-upstream",
         "ThreadBind vs upstream default mapping, 2^28 vector add (goal >= 150x)"),
        ("vadd-threadbind", "vadd-upstream-tiled",
         "ThreadBind vs upstream tiled-256 recipe (goal >= 1.0x)"),
        ("add2d-rows", "add2d-columns-outer",
         "2-D add, coalesced order vs other loop order, time ratio (goal within 5%)"),
        ("add2d-rows", "add2d-rows-forced-outer",
         "2-D add, ThreadBind's choice vs outer dimension forced onto x"),
    ]:
        r = ratio(a, b)
        if r is not None:
            out.append("- %s: %.3fx" % (what, r))
    print("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
