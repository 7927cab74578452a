#!/usr/bin/env python3
"""Compiles a saxpy with ThreadBind, runs it on PyTorch CUDA tensors in
place, and compares its result and time with PyTorch's own `a * x + y`.

    python3 examples/python/compare_torch.py [N]

Needs a CUDA GPU, PyTorch with CUDA, and a ThreadBind build (or
threadbind-compile on PATH, or THREADBIND_COMPILE). To run where ThreadBind
is not built, compile first where it is and take the folder along:

    python3 examples/python/compare_torch.py --save DIR     # no GPU needed
    python3 examples/python/compare_torch.py --program DIR  # on the GPU
"""

import argparse
import sys
from pathlib import Path

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


def median_ms(measure, repeats=30, warmup=5):
    """Median of `measure()`, a time in ms, over `repeats` calls after
    `warmup` untimed ones."""
    for _ in range(warmup):
        measure()
    return sorted(measure() for _ in range(repeats))[repeats // 2]


def event_ms(run):
    """The time of `run()` on the GPU, from CUDA events around it."""
    import torch

    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    run()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def kernel_ms(bundle, run):
    """The time of the kernels `run()` launches through `bundle`, from the
    CUDA events the runtime records around each launch."""
    with bundle.record_launches() as launches:
        run()
    return sum(launch.milliseconds for launch in launches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=1 << 26,
                        help="elements (default 2^26)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--save", metavar="DIR",
                       help="compile into DIR and stop")
    where.add_argument("--program", metavar="DIR",
                       help="use the program compiled into DIR by --save")
    args = parser.parse_args()
    if args.save:
        threadbind.compile(SAXPY, output_dir=args.save)
        print(f"compiled into {args.save}")
        return
    program = (threadbind.open_program(args.program) if args.program
               else threadbind.compile(SAXPY))
    bundle = program.load()
    saxpy = bundle["saxpy"]

    import torch

    n, a = args.n, 2.5
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")

    expected = a * x + y
    got = y.clone()
    saxpy(a, x, got)
    torch.testing.assert_close(got, expected)
    print(f"saxpy, {n} elements: ThreadBind matches torch")

    scratch = y.clone()
    # The kernel alone; then the whole Python call, which also checks the
    # arguments and synchronises the device before and after.
    kernel = median_ms(lambda: kernel_ms(bundle, lambda: saxpy(a, x, scratch)))
    call = median_ms(lambda: event_ms(lambda: saxpy(a, x, scratch)))
    theirs = median_ms(
        lambda: event_ms(lambda: torch.add(scratch, x, alpha=a, out=scratch)))
    gbytes = 3 * 4 * n / 1e9
    print(f"ThreadBind kernel {kernel:.4f} ms "
          f"({gbytes / kernel * 1e3:.0f} GB/s), torch {theirs:.4f} ms "
          f"({gbytes / theirs * 1e3:.0f} GB/s): ratio {kernel / theirs:.3f}")
    print(f"ThreadBind's whole Python call: {call:.4f} ms "
          f"({(call - kernel) * 1e3:.0f} us over the kernel)")


if __name__ == "__main__":
    main()
