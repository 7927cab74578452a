"""ThreadBind from Python: compile MLIR parallel loops for NVIDIA GPUs and
call them on NumPy arrays (copied to and from the device), on objects with
``__cuda_array_interface__`` (CuPy, PyTorch, Numba: used in place), or on the
CPU through the reference the bundle carries.

    import threadbind
    program = threadbind.compile("kernels.mlir", threads_per_block=128)
    saxpy = program.load()["saxpy"]
    saxpy(2.0, x, y)            # on the GPU
    saxpy.reference(2.0, x, y)  # on the CPU, the loops as written
    program.launcher("saxpy")(2.0, xd, yd)  # on device arrays, on their
                                            # stream, without waiting

``threadbind-compile`` is found from ``THREADBIND_COMPILE``, then the build
tree this package sits in (``build/bin``), then ``PATH``.
"""

from ._compile import Program, compile, find_compiler, open_program
from ._bundle import Bundle, Entry, Launch, ThreadBindError
from ._launch import Launcher
from ._ptx import launch_ptx

__all__ = [
    "Bundle",
    "Entry",
    "Launch",
    "Launcher",
    "Program",
    "ThreadBindError",
    "compile",
    "find_compiler",
    "launch_ptx",
    "open_program",
]
