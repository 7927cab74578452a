"""threadbind.launch_ptx: launch a program's kernels through CuPy, using
nothing but the PTX (or cubin) and the manifest.

The manifest says, for each kernel of a host function, its PTX parameters in
order (which argument, which descriptor field), its grid and block as
expressions over the arguments, and when it is launched at all. This module
evaluates those expressions and launches each kernel with CuPy's RawModule,
in the order the host function would.
"""

import re

import numpy as np

from ._abi import DYNAMIC
from ._bundle import (ThreadBindError, _DeviceArray, _element_strides,
                      _row_major, _view_layout)

# The most blocks the runtime's resident-block queries answer
# (THREADBIND_MAX_RESIDENT_BLOCKS in Runtime.h).
MAX_RESIDENT_BLOCKS = 1 << 20

_TOKEN = re.compile(
    r'\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9.]*)|("(?:[^"\\]|\\.)*")|'
    r'(&&|\|\||>=|<=|==|!=|[-+*/(),<>!]))')


def _tokens(text):
    position, out = 0, []
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise ThreadBindError(f"cannot read manifest expression {text!r}")
        number, name, string, op = match.groups()
        if number is not None:
            out.append(("num", int(number)))
        elif name is not None:
            out.append(("name", name))
        elif string is not None:
            out.append(("str", string[1:-1]))
        else:
            out.append(("op", op))
        position = match.end()
    return out


class _Evaluator:
    """Evaluates a manifest expression: numbers, argN, dim(argN, k),
    stride(argN, k), offset(argN), disjoint(argA, argB) (no byte shared),
    min, max, ceildiv, select(c, a, b), + - * /, comparisons, && and ||,
    and the grid queries
    (threadbind_kernel_resident_blocks, threadbind_max_resident_blocks),
    answered by `resident(threads, kernel_name_or_None)`."""

    def __init__(self, args, resident):
        self.args = args
        self.resident = resident

    def __call__(self, text):
        if isinstance(text, int):
            return text
        self.tokens, self.i = _tokens(text), 0
        value = self.disjunction()
        if self.i != len(self.tokens):
            raise ThreadBindError(f"cannot read manifest expression {text!r}")
        return value

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None,
                                                                       None)

    def take(self, op=None):
        token = self.peek()
        if op is not None and token != ("op", op):
            raise ThreadBindError(f"expected {op!r} in a manifest expression")
        self.i += 1
        return token

    def disjunction(self):
        value = self.conjunction()
        while self.peek() == ("op", "||"):
            self.take()
            rhs = self.conjunction()
            value = int(bool(value) or bool(rhs))
        return value

    def conjunction(self):
        value = self.comparison()
        while self.peek() == ("op", "&&"):
            self.take()
            rhs = self.comparison()
            value = int(bool(value) and bool(rhs))
        return value

    def comparison(self):
        value = self.sum()
        ops = {">": lambda a, b: a > b, "<": lambda a, b: a < b,
               ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
               "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
        while self.peek()[0] == "op" and self.peek()[1] in ops:
            op = self.take()[1]
            value = int(ops[op](value, self.sum()))
        return value

    def sum(self):
        value = self.product()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            rhs = self.product()
            value = value + rhs if op == "+" else value - rhs
        return value

    def product(self):
        value = self.atom()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            rhs = self.atom()
            value = value * rhs if op == "*" else value // rhs
        return value

    def call_args(self):
        self.take("(")
        values = []
        while self.peek() != ("op", ")"):
            kind, value = self.peek()
            if kind == "str":
                self.take()
                values.append(value)
            else:
                values.append(self.disjunction())
            if self.peek() == ("op", ","):
                self.take()
        self.take(")")
        return values

    def argument(self, name):
        """The host function's argument `name` ("arg2")."""
        index = int(name[3:])
        if index >= len(self.args):
            raise TypeError(f"the manifest refers to {name}, but only "
                            f"{len(self.args)} arguments were given")
        return self.args[index]

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return value
        if kind == "op" and value == "(":
            inner = self.disjunction()
            self.take(")")
            return inner
        if kind == "op" and value == "-":
            return -self.atom()
        if kind == "op" and value == "!":
            # The else branch of an if around a launch.
            return int(not self.atom())
        if kind != "name":
            raise ThreadBindError("cannot read a manifest expression")
        if re.fullmatch(r"arg\d+", value) and self.peek() != ("op", "("):
            arg = self.argument(value)
            if hasattr(arg, "__cuda_array_interface__") or isinstance(
                    arg, np.ndarray):
                raise ThreadBindError(f"{value} is an array where the "
                                      "manifest needs a number")
            return int(arg)
        if value in ("dim", "stride", "offset"):
            # An array's size, or the parts of a view (which
            # threadbind-version-unit-strides tests): as kernel_arguments
            # passes them, the array's own strides in elements and the
            # offset 0 (the data pointer is element [0, ...]).
            self.take("(")
            kind, name = self.take()
            k = None
            if value != "offset":
                self.take(",")
                k = self.disjunction()
            self.take(")")
            arg = self.argument(name)
            if value == "offset":
                return 0
            if hasattr(arg, "__cuda_array_interface__"):
                device = _DeviceArray(arg)
                shape, byte_strides = device.shape, device.strides
                itemsize = device.dtype.itemsize
            else:
                array = np.asarray(arg)
                shape, byte_strides = array.shape, array.strides
                itemsize = array.itemsize
            if value == "dim":
                return int(shape[k])
            return int(_element_strides(name, shape, byte_strides,
                                        itemsize)[k])
        if value == "disjoint":
            # Whether two arrays' bytes are disjoint: a kernel that loads
            # one through the read-only cache runs only when it is.
            self.take("(")
            _, first = self.take()
            self.take(",")
            _, second = self.take()
            self.take(")")
            return int(_disjoint(self.argument(first),
                                 self.argument(second)))
        if value not in ("max", "min", "ceildiv", "select",
                         "threadbind_kernel_resident_blocks",
                         "threadbind_max_resident_blocks"):
            raise ThreadBindError(
                f"the manifest needs {value}(...), which only the bundle can "
                "provide (device scratch, host calls): call the function "
                "through program.load() instead")
        args = self.call_args()
        if value == "max":
            return max(args)
        if value == "min":
            return min(args)
        if value == "ceildiv":
            return -(-args[0] // args[1])
        if value == "select":
            return args[1] if args[0] else args[2]
        # Clamped as the runtime's queries are (Runtime.h's
        # THREADBIND_MAX_RESIDENT_BLOCKS): the compiler relies on the bound.
        if value == "threadbind_kernel_resident_blocks":
            blocks = self.resident(args[0], args[1])
        else:
            blocks = self.resident(args[0], None)
        return min(max(blocks, 1), MAX_RESIDENT_BLOCKS)


_SCALAR_TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
                 "i8": np.int8, "i16": np.int16, "i32": np.int32,
                 "i64": np.int64, "index": np.int64, "i1": np.int8}


_STRIDED = re.compile(
    r"strided<\[([^\]]*)\](?:\s*,\s*offset:\s*([^>\s]+))?\s*>")


def strided_layout(mlir_type):
    """The strides and offset a memref type's strided layout fixes
    ("memref<4x?xf32, strided<[?, 1], offset: ?>>" gives ((DYNAMIC, 1),
    DYNAMIC)), or None for the identity layout."""
    match = _STRIDED.search(mlir_type)
    if match is None:
        return None

    def number(text):
        return DYNAMIC if text.strip() == "?" else int(text)

    strides = tuple(number(t) for t in match.group(1).split(",")
                    if t.strip())
    return strides, number(match.group(2)) if match.group(2) else 0


def _byte_range(array):
    """The bytes `array` spans, [low, high), or None when it is empty."""
    if hasattr(array, "__cuda_array_interface__"):
        device = _DeviceArray(array)
        pointer, shape = device.pointer, device.shape
        itemsize = device.dtype.itemsize
        strides = device.strides
        if strides is None:
            strides = tuple(s * itemsize for s in _row_major(shape))
    else:
        host = np.asarray(array)
        pointer = host.__array_interface__["data"][0]
        shape, strides, itemsize = host.shape, host.strides, host.itemsize
    if any(n == 0 for n in shape):
        return None
    low = high = pointer
    for n, stride in zip(shape, strides):
        span = (n - 1) * stride
        low += min(span, 0)
        high += max(span, 0)
    return low, high + itemsize


def _disjoint(first, second):
    """Whether two arrays share no byte."""
    a, b = _byte_range(first), _byte_range(second)
    return a is None or b is None or a[1] <= b[0] or b[1] <= a[0]


def kernel_arguments(kernel, evaluate):
    """The values of `kernel`'s PTX parameters, in order, for the host
    function's arguments that `evaluate` (an _Evaluator) holds: device
    arrays and numbers. A memref parameter's `mlir_type` is the host
    function argument's type: an array for an identity layout must be
    row-major; one for a strided layout passes its own strides, checked
    against those the type fixes."""
    values = []
    for param in kernel["params"]:
        source = param["source"]
        field = param.get("field")
        if field is None:
            # A bare argument keeps its value (a float stays a float);
            # anything else is an integer expression.
            value = (evaluate.argument(source)
                     if re.fullmatch(r"arg\d+", source) else evaluate(source))
            dtype = _SCALAR_TYPES.get(param["mlir_type"])
            if dtype is None:
                raise ThreadBindError(f"{kernel['name']}: cannot pass a "
                                      f"{param['mlir_type']} parameter")
            values.append(dtype(value))
            continue
        if not re.fullmatch(r"arg\d+", source):
            raise ThreadBindError(
                f"{kernel['name']} takes memory the host function makes "
                f"({source}); call it through program.load() instead")
        arg = evaluate.argument(source)
        if not hasattr(arg, "__cuda_array_interface__"):
            raise TypeError(
                f"{kernel['host_function']}: {source} is "
                f"{type(arg).__name__}, a host array where device memory is "
                "needed (use cupy.asarray or torch.Tensor.cuda)")
        device = _DeviceArray(arg)
        shape, itemsize = device.shape, device.dtype.itemsize
        layout = strided_layout(param["mlir_type"])
        if layout is None:
            if not device.contiguous:
                raise ValueError(f"{kernel['host_function']}: {source} is "
                                 "not contiguous")
            strides, offset = _row_major(shape), 0
        else:
            where = (f"{kernel['host_function']}: {source} "
                     f"({param['mlir_type']})")
            strides, offset = _view_layout(where, shape, device.strides,
                                           itemsize, *layout)
        if field in ("allocated_ptr", "aligned_ptr"):
            # Element [0, ...] lies `offset` elements past the aligned
            # pointer.
            values.append(np.uint64(device.pointer - offset * itemsize))
        elif field == "offset":
            values.append(np.int64(offset))
        elif field == "size":
            values.append(np.int64(shape[param["dim"]]))
        elif field == "stride":
            values.append(np.int64(strides[param["dim"]]))
        else:
            raise ThreadBindError(f"unknown descriptor field {field!r}")
    return values



def launch_ptx(program, function, *args, stream=None):
    """Launches the kernels of host function `function` of `program` (a
    threadbind.Program) through CuPy, on device arrays (CuPy, PyTorch or
    anything with __cuda_array_interface__) and numbers, in the order the
    host function launches them, skipping those whose launch condition is
    false. Functions that need device scratch the host allocates (full
    reductions) must be called through program.load()."""
    try:
        import cupy
    except ImportError as error:
        raise ThreadBindError("launch_ptx needs CuPy") from error
    kernels = [k for k in program.manifest["kernels"]
               if k["host_function"] == function]
    if not kernels:
        raise ThreadBindError(f"no kernel of host function {function!r} in "
                              "the manifest")
    functions = (_functions_from_file(cupy, program.cubin, ".cubin", kernels)
                 if program.cubin is not None else
                 _functions_from_file(cupy, program.ptx.encode(), ".ptx",
                                      kernels))
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]

    def resident(threads, name):
        from cupy.cuda import driver
        function_ptr = functions[name].kernel.ptr if name else \
            functions[kernels[0]["name"]].kernel.ptr
        per_sm = driver.occupancyMaxActiveBlocksPerMultiprocessor(
            function_ptr, threads, 0)
        return max(per_sm, 1) * sms

    evaluate = _Evaluator(args, resident)
    for kernel in kernels:
        condition = kernel.get("launch_if")
        if condition and not evaluate(condition):
            continue
        grid = tuple(max(int(evaluate(g)), 1) for g in kernel["grid"])
        block = tuple(int(evaluate(b)) for b in kernel["block"])
        values = kernel_arguments(kernel, evaluate)
        shared = int(evaluate(kernel.get("dynamic_shared_memory", 0)))
        if stream is None:
            functions[kernel["name"]](grid, block, tuple(values),
                                      shared_mem=shared)
        else:
            with stream:
                functions[kernel["name"]](grid, block, tuple(values),
                                          shared_mem=shared)


def _functions_from_file(cupy, data, suffix, kernels):
    """The kernels' functions from PTX or cubin bytes, through a RawModule
    (which reads either from a file only)."""
    import os
    import tempfile
    handle = tempfile.NamedTemporaryFile(suffix=suffix, delete=False)
    try:
        handle.write(data)
        handle.close()
        module = cupy.RawModule(path=handle.name)
        functions = {k["name"]: module.get_function(k["name"])
                     for k in kernels}
        # RawModule reads the file when a function is first used: make that
        # happen while the file is still there.
        for function in functions.values():
            function.kernel
        return functions
    finally:
        os.unlink(handle.name)
