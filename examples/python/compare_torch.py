#!/usr/bin/env python3
"""Compiles a saxpy with ThreadBind, runs it on PyTorch CUDA tensors in
place, and compares its result and time with PyTorch's own `a * x + y`.

    PYTHONPATH=python python3 examples/python/compare_torch.py [N]

Needs a CUDA GPU, PyTorch with CUDA, and a ThreadBind build (or
threadbind-compile on PATH, or THREADBIND_COMPILE).
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
import threadbind  # noqa: E402

SAXPY = """
func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %x[%i] : memref<?xf32>
    %yi = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
"""


def median_ms(run, repeats=30):
    """Median time of `run()` on the GPU, from CUDA events."""
    for _ in range(5):
        run()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 26
    saxpy = threadbind.compile(SAXPY).load()["saxpy"]
    a = 2.5
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")

    expected = a * x + y
    got = y.clone()
    saxpy(a, x, got)
    torch.testing.assert_close(got, expected)
    print(f"saxpy, {n} elements: ThreadBind matches torch")

    scratch = y.clone()
    ours = median_ms(lambda: saxpy(a, x, scratch))
    theirs = median_ms(lambda: torch.add(scratch, x, alpha=a, out=scratch))
    gbytes = 3 * 4 * n / 1e9
    print(f"ThreadBind {ours:.4f} ms ({gbytes / ours * 1e3:.0f} GB/s), "
          f"torch {theirs:.4f} ms ({gbytes / theirs * 1e3:.0f} GB/s), "
          f"ratio {ours / theirs:.3f}")
    print("(ThreadBind's time includes the Python call and a device-wide "
          "synchronisation before and after the launch)")


if __name__ == "__main__":
    main()
