"""What a call costs from Python, beyond its kernel: the wall time of a call
(back to back, many of them) less the kernel's own time (CUDA events), for
a tiny vector add, through every way of launching one in one process:

  threadbind.torch op      the custom op, in place (torch.ops namespace),
                           its CUDA kernel the native one (C++)
  threadbind.torch out     its functional form (allocates the output)
  ... Python impl          the same two, their kernel the Launcher called
                           from Python (custom_op(native=False))
  Launcher                 program.launcher("add") on torch tensors
  bundle                   program.load()["add"] (synchronises each call)
  CuPy RawKernel           the same PTX kernel and launch, through CuPy
  torch.add                PyTorch's own add, out=
  Triton                   a Triton kernel of the same work

Then two streams running ThreadBind kernels at once (event timings show the
overlap). Prints RESULT lines; run it on the GPU machine with the program
compiled there or beforehand (threadbind.compile(..., output_dir=...)).
"""

import argparse
import statistics
import time

import torch

import threadbind
import threadbind.torch


def wall_per_call(call, calls):
    """Microseconds a call, over `calls` calls back to back."""
    for _ in range(50):
        call()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        call()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / calls * 1e6


def kernel_time(call, runs=50):
    """The median microseconds between events around one call's kernels,
    queued behind a kernel that keeps the GPU busy until the call is made,
    so that the events time the GPU's work and not the call's (the call
    must not wait for the device)."""
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(1_000_000)
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e3)
    return statistics.median(times)


def library_op(launcher):
    """The add as an operator defined with torch.library.define and impl
    (no custom_op wrapper), to see what each layer of PyTorch's dispatch
    costs."""
    torch.library.define("tbbench::add_lib",
                         "(Tensor x, Tensor y, Tensor(a!) out) -> ()")

    @torch.library.impl("tbbench::add_lib", "cuda")
    def add(x, y, out):
        launcher(x, y, out)

    return torch.ops.tbbench.add_lib.default


def empty_custom_op():
    @torch.library.custom_op("tbbench::nothing", mutates_args=["out"],
                             device_types="cuda")
    def nothing(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:
        pass
    return nothing


def cupy_call(program, x, y, out):
    """The launch the Launcher makes, through CuPy's RawModule: the same
    PTX kernel, grid, block and parameters."""
    import cupy
    import numpy as np
    import tempfile
    launcher = program.launcher("add")
    values, device, _ = launcher._check((x, y, out), None)
    (index, grid, block, shared, params), = launcher.plan(values, device)
    late = launcher._formats[index][1]
    kernel_args = []
    formats = launcher._formats[index][0].replace("x", "")[1:]
    for value, slot, code in zip(params, late, formats):
        if slot is not None:
            value = values[slot[1]].pointer
        kernel_args.append(np.uint64(value) if code == "Q" else
                           np.int64(value) if code == "q" else
                           np.float32(value))
    with tempfile.NamedTemporaryFile(suffix=".ptx") as handle:
        handle.write(program.ptx.encode())
        handle.flush()
        module = cupy.RawModule(path=handle.name)
        function = module.get_function(launcher.kernels[index]["name"])
        function.kernel  # loaded while the file is there
    kernel_args = tuple(kernel_args)
    try:
        stream = cupy.cuda.Stream.from_external(torch.cuda.current_stream())
    except (AttributeError, TypeError, ValueError):
        stream = cupy.cuda.ExternalStream(
            torch.cuda.current_stream().cuda_stream)

    def call():
        function(grid, block, kernel_args, shared_mem=shared, stream=stream)
    return call


def triton_call(x, y, out):
    import triton
    import triton.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) +
                 tl.load(y_ptr + offsets, mask=mask), mask=mask)

    n = x.numel()
    grid = (triton.cdiv(n, 1024),)

    def call():
        add_kernel[grid](x, y, out, n, BLOCK=1024)
    return call


def overhead(program, n, calls):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    op = threadbind.torch.custom_op(program, "add", name="tbbench::add")
    functional = threadbind.torch.custom_op(program, "add",
                                            name="tbbench::add_out",
                                            outputs={2: 0})
    print("RESULT native kernels:",
          "yes" if threadbind.torch._native is not None else
          f"no ({threadbind.torch._native_problem})")
    python_op = threadbind.torch.custom_op(program, "add",
                                           name="tbbench::add_py",
                                           native=False)
    python_functional = threadbind.torch.custom_op(
        program, "add", name="tbbench::add_out_py", outputs={2: 0},
        native=False)
    launcher = program.launcher("add")
    bundle = program.load()["add"]
    ways = {
        "threadbind.torch op": lambda: op(x, y, out),
        "threadbind.torch out": lambda: functional(x, y),
        "threadbind.torch op, Python impl": lambda: python_op(x, y, out),
        "threadbind.torch out, Python impl": lambda: python_functional(x, y),
        "Launcher": lambda: launcher(x, y, out),
        "bundle": lambda: bundle(x, y, out),
        "torch.add": lambda: torch.add(x, y, out=out),
    }
    for name, make in (("CuPy RawKernel", lambda: cupy_call(program, x, y,
                                                              out)),
                       ("Triton", lambda: triton_call(x, y, out))):
        try:
            ways[name] = make()
        except Exception as error:  # a missing package: say so, go on
            print(f"SKIP {name}: {type(error).__name__}: {error}")
    ways["torch.library define/impl"] = library_op(launcher)
    ways["torch.library define/impl"] = (
        lambda op=ways["torch.library define/impl"]: op(x, y, out))
    nothing = empty_custom_op()
    # The kernels' own times: the ThreadBind ways and CuPy launch the same
    # kernel alike (the bundle waits inside its call, so its kernel is
    # timed through the Launcher).
    ours = kernel_time(lambda: launcher(x, y, out))
    kernels = {name: ours for name in ways}
    kernels["torch.add"] = kernel_time(ways["torch.add"])
    if "Triton" in ways:
        kernels["Triton"] = kernel_time(ways["Triton"])
    rows = {}
    for name, call in ways.items():
        out.zero_()
        call()
        torch.cuda.synchronize()
        result = call() if name.startswith("threadbind.torch out") else out
        torch.testing.assert_close(result, x + y)
        wall = wall_per_call(call, calls)
        rows[name] = (wall, kernels[name], wall - kernels[name])
    empty = wall_per_call(lambda: nothing(x, y, out), calls)
    print(f"RESULT overhead custom_op with an empty body: {empty:.2f} us a "
          "call (PyTorch's dispatch alone)")
    cupy = rows.get("CuPy RawKernel")
    for name, (wall, kernel, extra) in rows.items():
        ratio = f", {extra / cupy[2]:.2f}x CuPy's" if cupy else ""
        print(f"RESULT overhead {name}: {wall:.2f} us a call, kernel "
              f"{kernel:.2f} us, overhead {extra:.2f} us{ratio}")


def two_streams(program, rows, cols):
    """Row sums of two matrices, each a block a row on fewer blocks than
    the GPU has SMs, on two streams: the events show whether they ran at
    once."""
    launcher = program.launcher("row_sums")
    a = torch.randn(rows, cols, device="cuda")
    b = torch.randn(rows, cols, device="cuda")
    sa = torch.empty(rows, device="cuda")
    sb = torch.empty(rows, device="cuda")
    first, second = torch.cuda.Stream(), torch.cuda.Stream()
    for _ in range(3):
        launcher(a, sa, stream=first)
        launcher(b, sb, stream=second)
    torch.cuda.synchronize()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(5)]
    events[0].record()
    torch.cuda.synchronize()
    events[1].record(first)
    launcher(a, sa, stream=first)
    events[2].record(first)
    events[3].record(second)
    launcher(b, sb, stream=second)
    events[4].record(second)
    torch.cuda.synchronize()
    t = [events[0].elapsed_time(e) * 1e3 for e in events[1:]]
    alone = kernel_time(lambda: launcher(a, sa), runs=10)
    overlap = min(t[1], t[3]) - max(t[0], t[2])
    torch.testing.assert_close(sa, a.sum(1), rtol=1e-4, atol=1e-2)
    torch.testing.assert_close(sb, b.sum(1), rtol=1e-4, atol=1e-2)
    print(f"RESULT two streams: row_sums {rows}x{cols} f32 on stream 1 "
          f"{t[0]:.1f}-{t[1]:.1f} us, on stream 2 {t[2]:.1f}-{t[3]:.1f} us, "
          f"overlapping {max(overlap, 0):.1f} us; both done "
          f"{max(t[1], t[3]) - min(t[0], t[2]):.1f} us after the first "
          f"started, one alone {alone:.1f} us")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--program", required=True,
                        help="a folder threadbind.compile wrote ops.mlir to")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    program = threadbind.open_program(args.program)
    print(f"DEVICE {torch.cuda.get_device_name()}, torch {torch.__version__}")
    overhead(program, args.size, args.calls)
    two_streams(program, 64, 1 << 22)


if __name__ == "__main__":
    main()
