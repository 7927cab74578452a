"""Where the microseconds of a Launcher call go, on the GPU machine: each
step of program.launcher("add")(x, y, out) timed alone on PyTorch tensors
(timeit, best of 5). Prints RESULT lines."""

import argparse
import timeit

import torch

import threadbind
from threadbind._arrays import as_array


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--program", required=True)
    args = parser.parse_args()
    program = threadbind.open_program(args.program)
    launcher = program.launcher("add")
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    out = torch.empty_like(x)
    launcher(x, y, out)
    values, device, hint = launcher._check((x, y, out), None)
    (index, grid, block, shared, params), = launcher.plan(values, device)
    driver = launcher.driver
    function = launcher._functions(device)[index]
    packer = launcher._structs[index]
    filled = list(params)
    for position, i in launcher._late_pointers[index]:
        filled[position] = values[i].pointer
    packed = packer.pack(*filled)
    raw = driver._launch_function()
    driver.launch(function, grid, block, shared, 0, packer, filled)
    buffer, _, extra, configs = driver._local.state
    config, pointer, handle = next(iter(configs.values()))
    import ctypes
    steps = {
        "whole call": lambda: launcher(x, y, out),
        "as_array, a tensor": lambda: as_array(x),
        "check, three tensors": lambda: launcher._check((x, y, out), None),
        "plan (cached)": lambda: launcher.plan(values, device),
        "stream": lambda: launcher._stream(None, hint, device),
        "make_current": lambda: driver.device(device).make_current(),
        "pack": lambda: packer.pack(*filled),
        "driver.launch (pack, configuration, cuLaunchKernelEx)": lambda: driver.launch(
            function, grid, block, shared, 0, packer, filled),
        "cuLaunchKernelEx, the ctypes call alone": lambda: raw(
            pointer, handle, None, extra),
        "memmove of the parameters": lambda: ctypes.memmove(
            buffer, packed, len(packed)),
        "x.data_ptr()": lambda: x.data_ptr(),
        "torch.cuda.current_stream()": lambda: torch.cuda.current_stream(),
    }
    for name, step in steps.items():
        n = 20000
        best = min(timeit.repeat(step, number=n, repeat=5)) / n * 1e6
        print(f"RESULT launch step {name}: {best:.2f} us")
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
