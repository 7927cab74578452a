"""torch.softmax over the rows of a 4096x4096 f32 matrix: the median kernel
time of N runs, with CUDA events, printed as a RESULT line like the ones
threadbind-run --bench prints, so that one run times both on one GPU."""
import argparse
import statistics

import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    x = torch.randn(args.rows, args.cols, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    for _ in range(args.warmup):
        torch.softmax(x, dim=-1, out=y)
    times = []
    for _ in range(args.runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.softmax(x, dim=-1, out=y)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    median = statistics.median(times)
    gbs = 2 * x.numel() * 4 / (median * 1e-3) / 1e9
    print(f"RESULT torch.softmax {args.rows}x{args.cols} f32: "
          f"{median * 1e3:.1f} us median of {args.runs}, {gbs:.0f} GB/s "
          f"({torch.cuda.get_device_name()})")


if __name__ == "__main__":
    main()
