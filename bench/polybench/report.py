#!/usr/bin/env python3
"""Turns a PolyBench/GPU-style suite log (scripts/gpu-check.sh --polybench,
harness polybench-bench) into a results page and a plot.

Writes <out-dir>/<prefix>.md, a table with, for every benchmark at its
standard size, the hand-written CUDA twin's time, ThreadBind's time over the
whole benchmark and over its kernels alone (from the runtime's launch
records), the twin's time over ThreadBind's (above 1: ThreadBind is
faster), cuBLAS where the suite times it, and the checks; and
<out-dir>/<prefix>-speedup.png, those ratios as bars on a log scale. All
figures come from the one run in the log. The prefix defaults to
<date>-polybench-<gpu>.

usage: report.py LOG [--out-dir bench/results] [--prefix NAME]
"""

import argparse
import collections
import os
import re
import sys


def fields(line):
    return dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)


def parse(text):
    results = collections.OrderedDict()
    checks = collections.defaultdict(list)
    for line in text.splitlines():
        if line.startswith("RESULT "):
            f = fields(line)
            if "bench" in f:
                results.setdefault(f["bench"], {})[f["system"]] = f
        elif line.startswith("CHECK "):
            f = fields(line)
            checks[f["bench"]].append(f)
    date = re.search(r"^DATE (\S+)", text, re.M)
    gpu = re.search(r"^GPU ([^,\n]+)", text, re.M)
    device = re.search(r'^DEVICE name="([^"]+)" sm=(\d+) sms=(\d+)', text, re.M)
    done = re.search(r"^DONE failures=(\d+)", text, re.M)
    return {
        "results": results,
        "checks": checks,
        "date": date.group(1) if date else "unknown-date",
        "gpu": gpu.group(1).strip() if gpu else (device.group(1) if device else "GPU"),
        "device": device.groups() if device else None,
        "failures": int(done.group(1)) if done else None,
        "problems": re.findall(r"^(?:MISMATCH|ERROR) .*$", text, re.M),
    }


def ms(row, system, key="median_ms"):
    """A time, or None where the side did not run; a side that ran but
    failed a check keeps its time, and the check column says so."""
    r = row.get(system)
    if not r or key not in r or float(r.get("median_ms", 0)) <= 0:
        return None
    return float(r[key])


def on_stream(row):
    """ThreadBind's call on the twin's stream; logs from before
    threadbind_use_stream have only the plain call."""
    tb = ms(row, "threadbind-stream")
    return tb if tb is not None else ms(row, "threadbind")


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def fmt(value, spec):
    return "-" if value is None else spec % value


def check_status(checks):
    """'ok', or which system failed against what at which size."""
    bad = ["%s vs %s (%s)" % (c["system"], c.get("against", "-"), c["size"])
           for c in checks if c.get("status") != "ok"]
    if not checks:
        return "no checks"
    return "ok" if not bad else "FAILED: " + ", ".join(bad)


def worst_std_difference(checks):
    values = [float(c["max_rel"]) for c in checks
              if c["size"] == "std"
              and c.get("system", "").startswith("threadbind")
              and "max_rel" in c]
    return max(values) if values else None


def write_markdown(data, path, plot_path):
    r = data["results"]
    lines = ["# PolyBench/GPU-style suite on %s, %s" % (data["gpu"], data["date"]), ""]
    if data["device"]:
        lines.append("Device: %s, sm_%s, %s SMs." % data["device"])
        lines.append("")
    lines += [
        "Every benchmark ran in one process (`scripts/gpu-check.sh "
        "--polybench`, harness `bench/polybench/polybench-bench.cu`): at "
        "small odd sizes ThreadBind and the hand-written CUDA twin (and "
        "cuBLAS) were checked against the CPU reference; at the standard "
        "size ThreadBind's outputs were compared with the twin's (`max rel` "
        "is the largest difference over the array's largest magnitude). "
        "Times are of the whole benchmark, every launch of it, bracketed by "
        "CUDA events on the legacy default stream, each run from the same "
        "inputs: the median of the runs. `hand ms` is the twin's launches "
        "on a stream, returning once they are queued; `ThreadBind ms` is "
        "the bundle's call made the same way, on the same stream "
        "(`threadbind_use_stream`). `hand waited` is the twin's call "
        "followed by a synchronise of its stream, and `TB waited` the "
        "bundle's plain call, which returns with its work done: both end "
        "with the results ready for the host. `TB kernels` is the sum of "
        "ThreadBind's kernel times from the runtime's launch records (no "
        "launch overhead). A ratio above 1 means ThreadBind is faster.",
        "",
    ]
    if plot_path:
        lines += ["![speedups](%s)" % os.path.basename(plot_path), ""]
    lines += ["| benchmark | standard size | hand ms | ThreadBind ms | "
              "hand/TB | hand waited ms | TB waited ms | waited/TB | "
              "TB kernels ms | TB launches | hand/TB kernels | cuBLAS ms | "
              "max rel | check |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for bench, row in r.items():
        any_row = next(iter(row.values()))
        hand = ms(row, "hand")
        tb = on_stream(row)
        tb_waited = ms(row, "threadbind")
        tbk = ms(row, "threadbind", "kernel_ms")
        waited = ms(row, "hand", "waited_ms")
        launches = row.get("threadbind", {}).get("launches", "-")
        lines.append("| %s |" % " | ".join([
            bench, any_row.get("dims", "-").replace(",", ", "),
            fmt(hand, "%.3f"), fmt(tb, "%.3f"), fmt(ratio(hand, tb), "%.2f"),
            fmt(waited, "%.3f"), fmt(tb_waited, "%.3f"),
            fmt(ratio(waited, tb_waited), "%.2f"), fmt(tbk, "%.3f"),
            launches, fmt(ratio(hand, tbk), "%.2f"),
            fmt(ms(row, "cublas"), "%.3f"),
            fmt(worst_std_difference(data["checks"][bench]), "%.1e"),
            check_status(data["checks"][bench])]))
    host_rows = [(b, row) for b, row in r.items()
                 if ms(row, "threadbind-stream", "host_ms") is not None]
    if host_rows:
        lines += ["", "How long each call took to return on the host, "
                  "queueing its launches on the stream (`host ms`, the "
                  "median): where it nears the call's time on the GPU, the "
                  "side is bound by launching, not by its kernels.", "",
                  "| benchmark | launches | hand host ms | TB host ms | "
                  "hand ms | ThreadBind ms |", "|---|---|---|---|---|---|"]
        for bench, row in host_rows:
            lines.append("| %s |" % " | ".join([
                bench, row.get("threadbind", {}).get("launches", "-"),
                fmt(ms(row, "hand", "host_ms"), "%.3f"),
                fmt(ms(row, "threadbind-stream", "host_ms"), "%.3f"),
                fmt(ms(row, "hand"), "%.3f"), fmt(on_stream(row), "%.3f")]))
    if data["failures"] is not None:
        lines += ["", "The harness reported %d failure(s)." % data["failures"]]
    if data["problems"]:
        lines += ["", "Mismatches and errors:", ""]
        lines += ["- `%s`" % p for p in data["problems"]]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def plot(data, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found (Debian: python3-matplotlib): no plot",
              file=sys.stderr)
        return None
    r = data["results"]
    names = list(r)
    series = [
        ("whole benchmark", lambda row: ratio(ms(row, "hand"), on_stream(row))),
        ("whole benchmark, waited",
         lambda row: ratio(ms(row, "hand", "waited_ms"), ms(row, "threadbind"))),
        ("ThreadBind kernels only",
         lambda row: ratio(ms(row, "hand"), ms(row, "threadbind", "kernel_ms"))),
    ]
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 0.75), 4.5))
    width = 0.8 / len(series)
    for i, (label, fn) in enumerate(series):
        values = [fn(r[n]) for n in names]
        xs = [x + i * width for x, v in zip(range(len(names)), values) if v]
        ax.bar(xs, [v for v in values if v], width, label=label)
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width / 2 for x in range(len(names))])
    ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("hand CUDA time / ThreadBind time")
    ax.set_title("ThreadBind against PolyBench/GPU-style CUDA, %s, %s"
                 % (data["gpu"], data["date"]))
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--out-dir", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results"))
    parser.add_argument("--prefix", help="file name prefix "
                        "(default <date>-polybench-<gpu>)")
    args = parser.parse_args()
    data = parse(open(args.log).read())
    if not data["results"]:
        sys.exit("no RESULT lines in %s" % args.log)
    slug = re.sub(r"[^a-z0-9]+", "-", data["gpu"].lower()).strip("-")
    os.makedirs(args.out_dir, exist_ok=True)
    prefix = os.path.join(args.out_dir, args.prefix or
                          "%s-polybench-%s" % (data["date"], slug))
    plot_path = plot(data, prefix + "-speedup.png")
    write_markdown(data, prefix + ".md", plot_path)
    print(prefix + ".md")
    if plot_path:
        print(plot_path)


if __name__ == "__main__":
    main()
