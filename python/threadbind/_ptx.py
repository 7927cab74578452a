"""threadbind.launch_ptx: launch a program's kernels through CuPy, using
nothing but the PTX (or cubin) and the manifest.

The manifest (docs/Manifest.md) says, for each kernel of a host function,
its PTX parameters in order (which argument, which descriptor field), its
grid and block as expression trees over the arguments, and when it is
launched at all. This module evaluates those trees and launches each kernel
with CuPy's RawModule, in the order the host function would.
"""

import re

import numpy as np

from ._abi import DYNAMIC
from ._bundle import (ThreadBindError, _DeviceArray, _element_strides,
                      _row_major, _view_layout)

# The most blocks the runtime's resident-block queries answer
# (THREADBIND_MAX_RESIDENT_BLOCKS in Runtime.h).
MAX_RESIDENT_BLOCKS = 1 << 20

# The manifest version this module reads (kManifestVersion in Manifest.h).
MANIFEST_VERSION = 2

_MASK = (1 << 64) - 1


def _signed(value):
    """`value` as a 64-bit two's-complement integer, as the host computes
    it."""
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


def _trunc_div(a, b):
    """Division rounding toward zero, as arith.divsi."""
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _ceil_div(a, b):
    """Division rounding up, as arith.ceildivsi."""
    return -((-a) // b)


# The manifest's operators (docs/Manifest.md) on 64-bit values; the "u"
# ones read their operands as unsigned.
_SIGNED = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": _trunc_div,
    "rem": lambda a, b: a - b * _trunc_div(a, b),
    "ceildiv": _ceil_div,
    "min": min, "max": max,
    "eq": lambda a, b: int(a == b), "ne": lambda a, b: int(a != b),
    "lt": lambda a, b: int(a < b), "le": lambda a, b: int(a <= b),
    "gt": lambda a, b: int(a > b), "ge": lambda a, b: int(a >= b),
}
_UNSIGNED = {
    "divu": lambda a, b: a // b,
    "remu": lambda a, b: a % b,
    "ceildivu": lambda a, b: -(-a // b),
    "minu": min, "maxu": max,
    "ltu": lambda a, b: int(a < b), "leu": lambda a, b: int(a <= b),
    "gtu": lambda a, b: int(a > b), "geu": lambda a, b: int(a >= b),
}
_DIVIDING = {"div", "rem", "ceildiv", "divu", "remu", "ceildivu"}


_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "divu": "/u",
          "rem": "%", "remu": "%u", "eq": "==", "ne": "!=", "lt": "<",
          "ltu": "<u", "le": "<=", "leu": "<=u", "gt": ">", "gtu": ">u",
          "ge": ">=", "geu": ">=u", "and": "&&", "or": "||"}


def expression_text(tree):
    """A manifest expression tree in the text form remarks print:
    "ceildivu(dim(arg0, 0), 256)"."""
    if isinstance(tree, int):
        return str(tree)
    if "arg" in tree:
        return f"arg{tree['arg']}"
    for leaf in ("dim", "stride"):
        if leaf in tree:
            return f"{leaf}(arg{tree[leaf][0]}, {tree[leaf][1]})"
    if "offset" in tree:
        return f"offset(arg{tree['offset']})"
    if "opaque" in tree:
        return tree["opaque"]
    name, operands = tree["op"], [expression_text(e) for e in tree["args"]]
    if name == "not":
        return "!" + operands[0]
    if name in _INFIX and len(operands) == 2:
        return f"({operands[0]} {_INFIX[name]} {operands[1]})"
    if "kernel" in tree:
        operands.append(f'"{tree["kernel"]}"')
    return f"{name}({', '.join(operands)})"


def check_manifest_version(manifest):
    """Raises ThreadBindError unless `manifest` has the version this package
    reads."""
    version = manifest.get("threadbind_manifest_version")
    if version != MANIFEST_VERSION:
        raise ThreadBindError(
            f"the manifest has version {version}, this package reads "
            f"version {MANIFEST_VERSION}: compile the program again with "
            "the threadbind-compile of this installation")


class _Evaluator:
    """Evaluates the manifest's expression trees (docs/Manifest.md) for one
    call of a host function: `args` are its arguments (device arrays and
    numbers), `function` its entry in the manifest's "functions" (None:
    every memref has the identity layout), and `resident(threads,
    kernel_name_or_None)` answers the resident-block queries."""

    def __init__(self, args, resident, function=None):
        self.args = args
        self.resident = resident
        self.function = function

    def argument(self, index):
        """The host function's argument `index`."""
        if not 0 <= index < len(self.args):
            raise TypeError(f"the manifest refers to argument {index}, but "
                            f"{len(self.args)} arguments were given")
        return self.args[index]

    def layout(self, index, mlir_type=None, function_name=None):
        """(pointer, shape, element strides, offset, itemsize) of array
        argument `index` as its kernels see it: element [0, ...] lies
        `offset` elements past `pointer`, the aligned pointer. An identity
        layout needs a row-major array; a strided one passes the array's
        own strides, checked against those its type (`mlir_type`, else the
        function's) fixes. Without a type, the array's own layout."""
        arg = self.argument(index)
        if mlir_type is None and self.function is not None:
            mlir_type = self.function["arguments"][index]["type"]
        if function_name is None and self.function is not None:
            function_name = self.function["name"]
        where = f"argument {index}"
        if mlir_type is not None:
            where += f" ({mlir_type})"
        if function_name is not None:
            where = f"{function_name}: {where}"
        if hasattr(arg, "__cuda_array_interface__"):
            device = _DeviceArray(arg)
            pointer, shape = device.pointer, device.shape
            itemsize, byte_strides = device.dtype.itemsize, device.strides
            contiguous = device.contiguous
        elif isinstance(arg, np.ndarray):
            pointer, shape = arg.ctypes.data, arg.shape
            itemsize, byte_strides = arg.itemsize, arg.strides
            contiguous = arg.flags.c_contiguous
        else:
            raise TypeError(f"{where}: {type(arg).__name__} given where an "
                            "array is needed")
        if mlir_type is None:
            # No type to check against: the array's own layout.
            return (pointer, shape,
                    _element_strides(where, shape, byte_strides, itemsize),
                    0, itemsize)
        fixed = strided_layout(mlir_type)
        if fixed is None:
            if not contiguous:
                raise ValueError(f"{where} is not contiguous")
            strides, offset = _row_major(shape), 0
        else:
            strides, offset = _view_layout(where, shape, byte_strides,
                                           itemsize, *fixed)
        return pointer - offset * itemsize, shape, strides, offset, itemsize

    def scalar(self, index):
        arg = self.argument(index)
        if hasattr(arg, "__cuda_array_interface__") or isinstance(
                arg, np.ndarray):
            raise ThreadBindError(f"argument {index} is an array where the "
                                  "manifest needs a number")
        return int(arg)

    def __call__(self, tree):
        if isinstance(tree, bool) or not isinstance(tree, (int, dict)):
            raise ThreadBindError(f"not a manifest expression: {tree!r}")
        if isinstance(tree, int):
            return tree
        if "arg" in tree:
            return self.scalar(tree["arg"])
        if "dim" in tree:
            index, k = tree["dim"]
            return int(self.layout(index)[1][k])
        if "stride" in tree:
            index, k = tree["stride"]
            return int(self.layout(index)[2][k])
        if "offset" in tree:
            return int(self.layout(tree["offset"])[3])
        if "opaque" in tree:
            raise ThreadBindError(
                f"the launch needs {tree['opaque']}, which only the host "
                "function computes: call it through program.load() instead")
        op, operands = tree.get("op"), tree.get("args", [])
        if op == "select":
            chosen = operands[1] if self(operands[0]) else operands[2]
            return self(chosen)
        if op == "not":
            return int(not self(operands[0]))
        if op in ("and", "or"):
            values = [bool(self(e)) for e in operands]
            return int(all(values) if op == "and" else any(values))
        if op == "disjoint":
            first, second = (self.argument(e["arg"]) for e in operands)
            return int(_disjoint(first, second))
        if op == "resident_blocks":
            # Clamped as the runtime's queries are (Runtime.h's
            # THREADBIND_MAX_RESIDENT_BLOCKS): the compiler relies on it.
            blocks = self.resident(self(operands[0]), tree.get("kernel"))
            return min(max(blocks, 1), MAX_RESIDENT_BLOCKS)
        values = [_signed(self(e)) for e in operands]
        if op in _DIVIDING and values[1] == 0:
            raise ThreadBindError(f"division by zero in the manifest's "
                                  f"{op}: check the arguments' sizes")
        if op in _SIGNED:
            return _signed(_SIGNED[op](*values))
        if op in _UNSIGNED:
            return _signed(_UNSIGNED[op](*(v & _MASK for v in values)))
        raise ThreadBindError(f"unknown manifest operator {op!r}")


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
    arrays and numbers."""
    values = []
    for param in kernel["params"]:
        source = param["source"]
        field = param.get("field")
        if field is None:
            # A bare argument keeps its value (a float stays a float);
            # anything else is an integer expression.
            bare = isinstance(source, dict) and set(source) == {"arg"}
            value = (evaluate.argument(source["arg"]) if bare
                     else evaluate(source))
            dtype = _SCALAR_TYPES.get(param["mlir_type"])
            if dtype is None:
                raise ThreadBindError(f"{kernel['name']}: cannot pass a "
                                      f"{param['mlir_type']} parameter")
            values.append(dtype(value))
            continue
        if field not in ("allocated_ptr", "aligned_ptr"):
            values.append(np.int64(evaluate(source)))
            continue
        if not (isinstance(source, dict) and set(source) == {"arg"}):
            raise ThreadBindError(
                f"{kernel['name']} takes memory the host function makes "
                f"({expression_text(source)}); call it through program.load() "
                "instead")
        arg = evaluate.argument(source["arg"])
        if not hasattr(arg, "__cuda_array_interface__"):
            raise TypeError(
                f"{kernel['host_function']}: argument {source['arg']} is "
                f"{type(arg).__name__}, a host array where device memory is "
                "needed (use cupy.asarray or torch.Tensor.cuda)")
        values.append(np.uint64(evaluate.layout(
            source["arg"], function_name=kernel["host_function"])[0]))
    return values


# NumPy's names for the manifest's element types; bf16 has none (any
# 2-byte type is taken).
_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64",
           "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32",
           "i64": "int64", "index": "int64"}


def check_arguments(function, args):
    """Checks `args` against host function `function` of the manifest: how
    many, arrays where memrefs are and numbers elsewhere, element types,
    ranks and static sizes. Raises TypeError or ValueError naming the
    argument."""
    described = function["arguments"]
    name = function["name"]
    if len(args) != len(described):
        raise TypeError(f"{name} takes {len(described)} arguments "
                        f"({len(args)} given)")
    for index, (arg, info) in enumerate(zip(args, described)):
        where = f"{name}: argument {index} ({info['type']})"
        if hasattr(arg, "__cuda_array_interface__"):
            device = _DeviceArray(arg)
            shape, dtype = device.shape, device.dtype
        elif isinstance(arg, np.ndarray):
            shape, dtype = arg.shape, arg.dtype
        else:
            if info["kind"] == "memref":
                raise TypeError(f"{where}: {type(arg).__name__} given where "
                                "an array is needed")
            continue
        if info["kind"] != "memref":
            raise TypeError(f"{where}: an array was given for a scalar")
        element = info["element_type"]
        if element == "bf16":
            fits = dtype.itemsize == 2
        else:
            fits = dtype == np.dtype(_DTYPES.get(element, "V0")) or (
                element == "i1" and dtype == np.int8)
        if not fits:
            raise TypeError(f"{where}: dtype {dtype}, expected "
                            f"{_DTYPES.get(element, element)}")
        expected = info["shape"]
        if len(shape) != len(expected):
            raise ValueError(f"{where}: rank {len(shape)}, expected "
                             f"{len(expected)}")
        for k, (n, fixed) in enumerate(zip(shape, expected)):
            if fixed is not None and n != fixed:
                raise ValueError(f"{where}: dimension {k} is {n}, expected "
                                 f"{fixed}")


def host_function(manifest, name):
    """The manifest's entry for host function `name`, checked to be one a
    caller can stand in for."""
    check_manifest_version(manifest)
    for function in manifest.get("functions", []):
        if function["name"] == name:
            break
    else:
        raise ThreadBindError(f"no kernel of host function {name!r} in "
                              "the manifest")
    if not function["launchable"]:
        raise ThreadBindError(
            f"{name} cannot be launched from its PTX: "
            f"{function['not_launchable']}; call it through program.load() "
            "instead")
    return function


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
    described = host_function(program.manifest, function)
    check_arguments(described, args)
    kernels = [k for k in program.manifest["kernels"]
               if k["host_function"] == function]
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

    evaluate = _Evaluator(args, resident, described)
    for kernel in kernels:
        if not evaluate(kernel.get("launch_if", 1)):
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
