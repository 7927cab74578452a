#!/usr/bin/env python3
"""Turns a benchmark log (scripts/gpu-check.sh --bench) into a results page
and plots.

Writes <out-dir>/<date>-<gpu>.md with, for every kernel and size, each
system's median time and bandwidth and ThreadBind's ratio to the copy
limit, to the hand-written CUDA twin and to upstream MLIR; and two PNG plots:
bandwidth against size for every 1-D kernel and system, and ThreadBind's
ratios at the largest size of every kernel. All figures come from the one
run in the log: ratios are never taken across runs.

usage: report.py LOG [--out-dir bench/results]
"""

import argparse
import collections
import os
import re
import sys

SYSTEMS = ["threadbind", "hand-cuda", "upstream-tiled", "upstream", "copy"]
RESULT = re.compile(r"^RESULT (.*)$", re.M)


def parse(text):
    results = collections.OrderedDict()
    for line in RESULT.findall(text):
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "kernel" not in fields:  # a threadbind-run timing, not the suite's
            continue
        key = (fields["kernel"], fields["size"])
        results.setdefault(key, {})[fields["system"]] = fields
    date = re.search(r"^DATE (\S+)", text, re.M)
    gpu = re.search(r"^GPU ([^,\n]+)", text, re.M)
    device = re.search(r'^DEVICE name="([^"]+)" sm=(\d+) sms=(\d+)', text, re.M)
    failures = re.search(r"^DONE failures=(\d+)", text, re.M)
    return {
        "results": results,
        "date": date.group(1) if date else "unknown-date",
        "gpu": gpu.group(1).strip() if gpu else (device.group(1) if device else "GPU"),
        "device": device.groups() if device else None,
        "failures": int(failures.group(1)) if failures else None,
        "mismatches": re.findall(r"^MISMATCH .*$", text, re.M),
    }


def elements(size):
    n = 1
    for part in size.split("x"):
        n *= int(part)
    return n


def ms(row, system):
    r = row.get(system)
    if not r or r["check"] != "ok":
        return None
    return float(r["median_ms"])


def gbps(row, system):
    r = row.get(system)
    if not r or r["check"] != "ok":
        return None
    return float(r["gbps"])


def fmt(value, spec):
    return "-" if value is None else spec % value


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def write_markdown(data, path, plots):
    r = data["results"]
    lines = ["# Benchmark suite on %s, %s" % (data["gpu"], data["date"]), ""]
    if data["device"]:
        lines.append("Device: %s, sm_%s, %s SMs. " % data["device"])
    lines += [
        "Every system ran in one process on the same buffers "
        "(`scripts/gpu-check.sh --bench`, harness `threadbind-bench`), each checked "
        "against the CPU reference before it was timed; a failed check shows "
        "as `-`. Times are CUDA-event kernel times, median of 30 runs after "
        "5 warm-up runs (5 runs for upstream's default mapping above 1 GB "
        "moved). GB/s counts the bytes each array moves (read and/or "
        "written); the copy limit is a device-to-device copy of the largest "
        "array.",
        "",
        "Ratios are speed ratios from this run: above 1 means ThreadBind is "
        "faster (for `vs copy`, its bandwidth over the copy's).",
        "",
    ]
    for plot in plots:
        lines.append("![%s](%s)" % (os.path.basename(plot), os.path.basename(plot)))
    lines += ["", "| kernel | size | ThreadBind ms | GB/s | hand CUDA GB/s | "
              "upstream tiled GB/s | upstream GB/s | copy GB/s | vs copy | "
              "vs hand | vs tiled | vs upstream |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (kernel, size), row in r.items():
        tb = ms(row, "threadbind")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            kernel, size, fmt(tb, "%.4f"),
            fmt(gbps(row, "threadbind"), "%.0f"),
            fmt(gbps(row, "hand-cuda"), "%.0f"),
            fmt(gbps(row, "upstream-tiled"), "%.0f"),
            fmt(gbps(row, "upstream"), "%.1f"),
            fmt(gbps(row, "copy"), "%.0f"),
            fmt(ratio(gbps(row, "threadbind"), gbps(row, "copy")), "%.2f"),
            fmt(ratio(ms(row, "hand-cuda"), tb), "%.2f"),
            fmt(ratio(ms(row, "upstream-tiled"), tb), "%.2f"),
            fmt(ratio(ms(row, "upstream"), tb), "%.0f")))
    if data["mismatches"]:
        lines += ["", "Mismatches against the CPU reference:", ""]
        lines += ["- `%s`" % m for m in data["mismatches"]]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def plot(data, prefix):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found (Debian: python3-matplotlib): no plots",
              file=sys.stderr)
        return []
    r = data["results"]
    kernels = list(collections.OrderedDict.fromkeys(k for k, _ in r))
    one_d = [k for k in kernels
             if sum(1 for kk, s in r if kk == k) > 1 and "x" not in
             next(s for kk, s in r if kk == k)]
    paths = []
    if one_d:
        cols = 4
        rows = (len(one_d) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows),
                                 squeeze=False)
        for ax, kernel in zip(axes.flat, one_d):
            sizes = [s for k, s in r if k == kernel]
            xs = [elements(s) for s in sizes]
            for system in SYSTEMS:
                ys = [gbps(r[(kernel, s)], system) for s in sizes]
                if any(y is not None for y in ys):
                    ax.plot(xs, [y if y is not None else float("nan") for y in ys],
                            marker="o", label=system)
            ax.set_xscale("log", base=2)
            ax.set_title(kernel)
            ax.set_xlabel("elements")
            ax.set_ylabel("GB/s")
            ax.grid(True, alpha=0.3)
        for ax in list(axes.flat)[len(one_d):]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.suptitle("Bandwidth against size, %s, %s" % (data["gpu"], data["date"]))
        fig.tight_layout()
        path = prefix + "-bandwidth.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)

    largest = collections.OrderedDict()
    for (kernel, size) in r:
        if kernel not in largest or elements(size) > elements(largest[kernel]):
            largest[kernel] = size
    names = list(largest)
    series = [("vs copy", lambda row: ratio(gbps(row, "threadbind"), gbps(row, "copy"))),
              ("vs hand CUDA", lambda row: ratio(ms(row, "hand-cuda"), ms(row, "threadbind"))),
              ("vs upstream tiled", lambda row: ratio(ms(row, "upstream-tiled"), ms(row, "threadbind")))]
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 0.9), 4))
    width = 0.8 / len(series)
    for i, (label, fn) in enumerate(series):
        values = [fn(r[(k, largest[k])]) or 0 for k in names]
        ax.bar([x + i * width for x in range(len(names))], values, width,
               label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width for x in range(len(names))])
    ax.set_xticklabels(["%s\n%s" % (k, largest[k]) for k in names], fontsize=7)
    ax.set_ylabel("ThreadBind speed ratio")
    ax.set_title("ThreadBind at the largest size, %s, %s" % (data["gpu"], data["date"]))
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = prefix + "-ratios.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    paths.append(path)
    return paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--out-dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results"))
    args = parser.parse_args()
    data = parse(open(args.log).read())
    if not data["results"]:
        sys.exit("no RESULT lines in %s" % args.log)
    slug = re.sub(r"[^a-z0-9]+", "-", data["gpu"].lower()).strip("-")
    prefix = os.path.join(args.out_dir, "%s-%s" % (data["date"], slug))
    plots = plot(data, prefix)
    write_markdown(data, prefix + ".md", plots)
    print(prefix + ".md")
    for p in plots:
        print(p)


if __name__ == "__main__":
    main()
