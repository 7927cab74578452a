"""Launching a host function's kernels from Python, on a stream, without
waiting: what ``program.launcher(name)``, ``launch_ptx`` and
``threadbind.torch`` call.

A Launcher stands in for one host function the manifest says a caller can
launch (docs/Manifest.md). It takes device arrays in place (PyTorch tensors,
anything with ``__cuda_array_interface__`` or ``__dlpack__``) and numbers,
checks them against the function's arguments, and launches the kernels in
order with cuLaunchKernel on the stream given, else the arrays' own (the
current PyTorch stream of their device, the CUDA array interface's
"stream"), else the legacy default stream. Nothing synchronises.

What the manifest's expression trees say for a call (which kernels run,
with which grids and parameters) is cached by the arguments' shapes and
strides (and integer scalars, and pointers where a launch condition
compares arrays' bytes), so that a repeated call with arrays of the same
shapes only packs pointers and launches.
"""

import ctypes
import struct
import threading

import numpy as np

from ._arrays import _TORCH_TYPES, Array, _torch_array, as_array
from ._bundle import ThreadBindError
from ._driver import default_driver
from ._abi import DYNAMIC
from ._ptx import (MAX_RESIDENT_BLOCKS, _Evaluator, check_manifest_version,
                   host_function)

# The element types each manifest type takes: MLIR integers are signless, so
# either signedness of the width; i1 is stored a byte.
_ACCEPTED = {
    "f16": {"float16"}, "bf16": {"bfloat16"}, "f32": {"float32"},
    "f64": {"float64"}, "i1": {"bool", "int8", "uint8"},
    "i8": {"int8", "uint8"}, "i16": {"int16", "uint16"},
    "i32": {"int32", "uint32"}, "i64": {"int64", "uint64"},
    "index": {"int64", "uint64"},
}
# struct formats of scalar parameters by MLIR type, and of descriptor
# fields: pointers, then the 64-bit offset, sizes and strides.
_SCALAR_FORMAT = {"f16": "H", "bf16": "H", "f32": "f", "f64": "d",
                  "i1": "?", "i8": "b", "i16": "h", "i32": "i", "i64": "q",
                  "index": "q"}
_PTX_SIZE = {"u64": 8, "u32": 4, "u16": 2, "u8": 1, "f64": 8, "f32": 4,
             "b16": 2}


def _parameter_format(kernel):
    """The struct format of `kernel`'s packed parameters (each aligned to
    its size, as the PTX entry lays them out), for each parameter whether
    it is a late slot, filled in on every call: a pointer ("ptr",
    argument), device scratch ("scratch", index) or a bare scalar ("arg",
    argument), and each parameter's byte offset."""
    fmt, offset, late, offsets = "<", 0, [], []
    for param in kernel["params"]:
        size = _PTX_SIZE[param["ptx_type"]]
        padding = -offset % size
        fmt += "x" * padding
        offsets.append(offset + padding)
        offset += padding + size
        source, field = param["source"], param.get("field")
        bare = isinstance(source, dict) and set(source) == {"arg"}
        if field in ("allocated_ptr", "aligned_ptr"):
            fmt += "Q"
            late.append(("scratch", source["scratch"]) if "scratch" in source
                        else ("ptr", source["arg"]))
        elif field is not None:
            fmt += "q"
            late.append(None)
        else:
            code = _SCALAR_FORMAT.get(param["mlir_type"])
            if code is None:
                raise ThreadBindError(f"{kernel['name']}: cannot pass a "
                                      f"{param['mlir_type']} parameter")
            fmt += code
            late.append(("arg", source["arg"]) if bare else None)
    return fmt, late, offsets


def _has_operator(manifest_part, name):
    """Whether an expression tree anywhere in `manifest_part` (the
    manifest's JSON, or a part of it) applies operator `name`."""
    if isinstance(manifest_part, dict):
        return manifest_part.get("op") == name or any(
            _has_operator(value, name) for value in manifest_part.values())
    if isinstance(manifest_part, list):
        return any(_has_operator(value, name) for value in manifest_part)
    return False


def _fixed_layout(argument):
    """The strides and offset a memref argument's strided type fixes
    (DYNAMIC where the caller chooses), from its manifest entry; None for
    a scalar or the identity layout."""
    if "strides" not in argument:
        return None

    def fixed(value):
        return DYNAMIC if value is None else value

    return (tuple(fixed(s) for s in argument["strides"]),
            fixed(argument["offset"]))


class Launcher:
    """Launches the kernels of one host function of a program (see the
    module's docstring). `program` is a threadbind.Program, or anything
    with `manifest`, `ptx` and `cubin`."""

    def __init__(self, program, function, driver=None):
        self.manifest = program.manifest
        check_manifest_version(self.manifest)
        self.function = host_function(self.manifest, function)
        self.name = function
        self.arguments = self.function["arguments"]
        self.kernels = [k for k in self.manifest["kernels"]
                        if k["host_function"] == function]
        # Device scratch the function allocates: the Launcher allocates it
        # on the stream before the launches and frees it after them.
        self._scratch = self.function.get("scratch", [])
        self._kernel_index = {k["name"]: i for i, k in enumerate(self.kernels)}
        self._formats = [_parameter_format(k) for k in self.kernels]
        self._structs = [struct.Struct(fmt) for fmt, _, _ in self._formats]
        # Each kernel's late slots: pointers as (position, argument), and
        # bare scalars likewise.
        self._late_pointers = [
            [(p, slot[1]) for p, slot in enumerate(late)
             if slot and slot[0] == "ptr"] for _, late, _ in self._formats]
        self._late_scalars = [
            [(p, slot[1]) for p, slot in enumerate(late)
             if slot and slot[0] == "arg"] for _, late, _ in self._formats]
        self._late_scratch = [
            [(p, slot[1]) for p, slot in enumerate(late)
             if slot and slot[0] == "scratch"] for _, late, _ in self._formats]
        images = []
        if getattr(program, "cubin", None):
            images.append(bytes(program.cubin))
        images.append(program.ptx.encode() + b"\0")
        self._images = images
        self._driver = driver
        self._modules = {}  # device ordinal -> kernel function handles
        self._resident = {}  # (device, kernel index, threads) -> blocks
        self._cache = {}
        self._lock = threading.Lock()
        self._layouts = [_fixed_layout(a) for a in self.arguments]
        # The offsets strided types fix: the aligned pointer lies that many
        # elements before element [0, ...].
        self._offsets = {i: layout[1] for i, layout in enumerate(self._layouts)
                         if layout and layout[1] >= 0}
        # Pointers matter to the plan where a condition compares bytes.
        self._uses_pointers = _has_operator(self.kernels, "disjoint")
        self._integer_scalars = [
            i for i, a in enumerate(self.arguments)
            if a["kind"] == "scalar" and a["element_type"] not in
            ("f16", "bf16", "f32", "f64")]
        # The strides of strided arguments decide the plan; those of the
        # identity layout follow from the shape.
        self._strided = [i for i, layout in enumerate(self._layouts)
                         if layout is not None]
        # For each memref: the dtypes it takes and its static sizes.
        self._accepted = [_ACCEPTED.get(a["element_type"], set())
                          if a["kind"] == "memref" else None
                          for a in self.arguments]
        self._ranks = [len(a["shape"]) if a["kind"] == "memref" else None
                       for a in self.arguments]
        self._static = [[(k, n) for k, n in enumerate(a["shape"])
                         if n is not None] if a["kind"] == "memref" else None
                        for a in self.arguments]
        self._half = {i: a["element_type"] for i, a in
                      enumerate(self.arguments) if a["kind"] == "scalar" and
                      a["element_type"] in ("f16", "bf16")}

    @property
    def driver(self):
        if self._driver is None:
            self._driver = default_driver()
        return self._driver

    def __repr__(self):
        types = ", ".join(a["type"] for a in self.arguments)
        return f"<threadbind.Launcher {self.name}({types})>"

    # -- arguments --------------------------------------------------------

    def _where(self, i):
        return f"{self.name}: argument {i} ({self.arguments[i]['type']})"

    def _check(self, args, stream):
        """The arguments as Arrays and numbers, checked: how many, arrays
        where memrefs are, element types, ranks, static sizes, layouts and
        devices. Returns (values, device ordinal, stream hint)."""
        if len(args) != len(self.arguments):
            raise TypeError(f"{self.name} takes {len(self.arguments)} "
                            f"arguments ({len(args)} given)")
        values, device, hint = [], None, None
        for i, (arg, info) in enumerate(zip(args, self.arguments)):
            if info["kind"] != "memref":
                if type(arg) not in (float, int, bool) and (
                        as_array(arg) is not None or
                        isinstance(arg, np.ndarray)):
                    raise TypeError(f"{self._where(i)}: an array was given "
                                    "for a scalar")
                values.append(self._scalar(i, arg, info))
                continue
            if isinstance(arg, np.ndarray):
                raise TypeError(
                    f"{self._where(i)}: a NumPy array where device memory "
                    "is needed (use torch.Tensor.cuda or cupy.asarray)")
            try:
                array = (_torch_array(arg) if type(arg) in _TORCH_TYPES
                         else as_array(arg, stream))
            except (TypeError, ValueError) as error:
                raise type(error)(f"{self._where(i)}: {error}") from None
            if array is None:
                raise TypeError(f"{self._where(i)}: {type(arg).__name__} "
                                "given where a device array is needed")
            self._check_array(i, array, info)
            ordinal = array.device
            if ordinal is None:
                ordinal = self._device_of(array.pointer)
            if device is None:
                device = ordinal
            elif ordinal != device:
                raise ValueError(
                    f"{self._where(i)}: on device {ordinal}, but earlier "
                    f"arrays are on device {device}")
            if hint is None:
                hint = array.stream
            values.append(array)
        return values, device, hint

    def _device_of(self, pointer):
        """The ordinal of the device that owns `pointer`; 0 where the driver
        does not say (one device, or memory it does not know)."""
        ordinal = ctypes.c_int(0)
        try:
            # CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
            if self.driver.cuda.cuPointerGetAttribute(
                    ctypes.byref(ordinal), 9, ctypes.c_void_p(pointer)) != 0:
                return 0
        except (AttributeError, ThreadBindError):
            return 0
        return ordinal.value

    def _scalar(self, i, value, info):
        element = info["element_type"]
        if element in ("f16", "bf16", "f32", "f64"):
            try:
                return float(value)
            except (TypeError, ValueError):
                raise TypeError(f"{self._where(i)}: {value!r} is not a "
                                f"{element}") from None
        if isinstance(value, float) and not value.is_integer():
            raise TypeError(f"{self._where(i)}: {value!r} is not an integer")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self._where(i)}: {value!r} is not a "
                            f"{element}") from None

    def _check_array(self, i, array, info):
        if array.dtype not in self._accepted[i]:
            raise TypeError(f"{self._where(i)}: dtype {array.dtype}, "
                            f"expected {' or '.join(sorted(self._accepted[i]))}")
        shape = array.shape
        if len(shape) != self._ranks[i]:
            raise ValueError(f"{self._where(i)}: rank {len(shape)}, expected "
                             f"{self._ranks[i]}")
        for k, n in self._static[i]:
            if shape[k] != n:
                raise ValueError(f"{self._where(i)}: dimension {k} is "
                                 f"{shape[k]}, expected {n}")
        if 0 in shape:
            return
        strides = array.strides
        layout = self._layouts[i]
        if layout is None:
            # Row-major, where a dimension has more than one element.
            expected = 1
            for k in range(len(shape) - 1, -1, -1):
                if shape[k] > 1 and strides[k] != expected:
                    raise ValueError(
                        f"{self._where(i)}: strides {tuple(strides)} (in "
                        "elements) are not row-major; pass a contiguous "
                        "array (.contiguous())")
                expected *= shape[k]
            return
        for k, (n, stride, fixed) in enumerate(zip(shape, strides,
                                                   layout[0])):
            if fixed >= 0 and stride != fixed and n > 1:
                raise ValueError(
                    f"{self._where(i)}: stride {k} is {stride} elements, but "
                    f"its type fixes {fixed}")

    # -- launching --------------------------------------------------------

    def _functions(self, device):
        functions = self._modules.get(device)
        if functions is None:
            with self._lock:
                functions = self._modules.get(device)
                if functions is None:
                    self.driver.device(device).make_current()
                    module = self.driver.load_module(self._images)
                    functions = [self.driver.function(module, k["name"])
                                 for k in self.kernels]
                    self._modules[device] = functions
        return functions

    def plan(self, values, device):
        """What the host function would launch for these arguments (Arrays
        and numbers, checked) on `device`:
        (kernel index, grid, block, shared bytes, parameter values with
        None in the late slots) for each kernel that runs."""
        return self._planned(values, device)[0]

    def _planned(self, values, device):
        """The plan, and the bytes of each device scratch it needs."""
        key = (device,
               tuple([v.shape for v in values if isinstance(v, Array)]),
               tuple([values[i].strides for i in self._strided]),
               tuple([values[i] for i in self._integer_scalars]))
        if self._uses_pointers:
            key += tuple(v.pointer for v in values if isinstance(v, Array))
        found = self._cache.get(key)
        if found is not None:
            return found
        evaluate = _Evaluator(values, self._resident_query(device),
                              self._offsets)
        scratch = []
        for described in self._scratch:
            count = 1
            for size in described["shape"]:
                count *= evaluate(size)
            if count < 0:
                raise ThreadBindError(f"{self.name}: device scratch of "
                                      f"{count} elements")
            scratch.append(count * described["element_bytes"])
        launches = []
        for index, kernel in enumerate(self.kernels):
            if not evaluate(kernel.get("launch_if", 1)):
                continue
            late = self._formats[index][1]
            params = tuple(None if slot else evaluate(param["source"])
                           for param, slot in zip(kernel["params"], late))
            grid = tuple(max(evaluate(g), 1) for g in kernel["grid"])
            if grid[0] > 0x7fffffff or grid[1] > 65535 or grid[2] > 65535:
                raise ThreadBindError(f"{self.name}: grid {grid} is more "
                                      "than the device can launch")
            launches.append((index, grid,
                             tuple(evaluate(b) for b in kernel["block"]),
                             evaluate(kernel.get("dynamic_shared_memory", 0)),
                             params))
        found = (launches, tuple(scratch))
        if len(self._cache) > 1024:
            self._cache.clear()
        self._cache[key] = found
        return found

    # The floating-point scalars a native call fills in, by their codes
    # (threadbind/csrc/torch_native.cpp's Slot::FloatCode).
    _FLOAT_CODES = {"f32": 0, "f64": 1, "f16": 2, "bf16": 3}

    def native_plan(self, device, described):
        """The plan threadbind.torch's native kernel
        (threadbind/csrc/torch_native.cpp) asks for on a call with a new
        key. `described` holds each argument as that kernel sees it: a
        tensor as (pointer, sizes, strides in elements, dtype name,
        itemsize, device ordinal), a scalar as a number; `device` is the
        first tensor's. The arguments are checked as a call checks them.

        Returns (the device's context, launches, device scratch bytes),
        each launch (function handle, grid, block, shared bytes, its
        parameters packed, slots): the slots a call fills in, as (byte
        offset, kind, index, extra) with kind 0 for argument `index`'s
        pointer less `extra` bytes, 1 for floating-point scalar argument
        `index` (`extra` its code) and 2 for device scratch `index`.
        Integer and boolean scalars are packed here: the kernel's key
        holds them, so a plan is made for each value."""
        if len(described) != len(self.arguments):
            raise TypeError(f"{self.name} takes {len(self.arguments)} "
                            f"arguments ({len(described)} given)")
        values = []
        for i, (item, info) in enumerate(zip(described, self.arguments)):
            if info["kind"] != "memref":
                values.append(self._scalar(i, item, info))
                continue
            pointer, shape, strides, dtype, itemsize, ordinal = item
            array = Array(pointer, tuple(shape), tuple(strides), dtype,
                          itemsize, ordinal, "torch")
            self._check_array(i, array, info)
            if ordinal != device:
                raise ValueError(
                    f"{self._where(i)}: on device {ordinal}, but earlier "
                    f"arrays are on device {device}")
            values.append(array)
        launches, scratch = self._planned(values, device)
        functions = self._functions(device) if launches else []
        planned = []
        for index, grid, block, shared, params in launches:
            _, late, offsets = self._formats[index]
            filled, slots = [], []
            for value, slot, offset in zip(params, late, offsets):
                if slot is None:
                    filled.append(value)
                    continue
                kind, i = slot
                if kind == "arg":
                    code = self._FLOAT_CODES.get(
                        self.arguments[i]["element_type"])
                    if code is None:
                        filled.append(values[i])
                        continue
                    slots.append((offset, 1, i, code))
                elif kind == "ptr":
                    slots.append((offset, 0, i, self._offsets.get(i, 0) *
                                  values[i].itemsize))
                else:
                    slots.append((offset, 2, i, 0))
                filled.append(0)
            try:
                packed = self._structs[index].pack(*filled)
            except (struct.error, OverflowError) as error:
                raise OverflowError(
                    f"{self.name}: a parameter of "
                    f"{self.kernels[index]['name']} does not fit its type: "
                    f"{error}") from None
            planned.append((functions[index], grid, block, shared, packed,
                            slots))
        return self.driver.device(device).context, planned, list(scratch)

    def native_key(self):
        """What threadbind.torch's native kernel keys its plans on, beside
        the device and each tensor's dtype, sizes and strides: the scalar
        arguments packed into plans (integers and booleans), and whether
        the pointers matter (a launch condition compares arrays)."""
        return list(self._integer_scalars), self._uses_pointers

    def _resident_query(self, device):
        """The plan function's answer to the resident-block queries on
        `device` (Runtime.h's, which the compiler relies on)."""
        def resident(threads, name):
            kernel = self._kernel_index.get(name) if name else None
            if name and kernel is None:
                raise ThreadBindError(f"the manifest asks about kernel "
                                      f"{name!r}, which it does not list")
            key = (device, kernel, threads)
            blocks = self._resident.get(key)
            if blocks is None:
                limits = self.driver.device(device).limits
                if not 0 < threads <= 1024:
                    raise ThreadBindError(f"{self.name}: a resident-block "
                                          f"query for {threads} threads")
                if kernel is None:
                    per_sm = limits["max_threads_per_multiprocessor"] // \
                        threads
                    if limits["max_blocks_per_multiprocessor"] > 0:
                        per_sm = min(per_sm,
                                     limits["max_blocks_per_multiprocessor"])
                else:
                    per_sm = self.driver.resident_blocks_per_sm(
                        self._functions(device)[kernel], threads)
                blocks = min(max(per_sm * limits["multiprocessors"], 1),
                             MAX_RESIDENT_BLOCKS)
                self._resident[key] = blocks
            return blocks
        return resident

    def __call__(self, *args, stream=None):
        """Launches the function's kernels on `stream` (a CUstream handle,
        or an object with `cuda_stream` or `ptr`, as PyTorch's and CuPy's
        streams have); without one, on the arrays' own stream. Returns
        without waiting."""
        # A stream given is a handle before the arrays are read: DLPack
        # producers are told the stream their data will be used on.
        given = None if stream is None else self._stream(stream, None, 0)
        values, device, hint = self._check(args, given)
        if device is None:
            device = 0
        handle = given if given is not None else \
            self._stream(None, hint, device)
        launches, scratch_bytes = self._planned(values, device)
        if not launches:
            return
        driver = self.driver
        functions = self._functions(device)
        driver.device(device).make_current()
        # The aligned pointers: element [0, ...] less a fixed offset.
        pointers = {i: values[i].pointer - offset * values[i].itemsize
                    for i, offset in self._offsets.items()}
        # Device scratch, allocated and freed in stream order: nothing
        # waits.
        scratch = [driver.alloc_async(n, handle) if n else 0
                   for n in scratch_bytes]
        try:
            for index, grid, block, shared, params in launches:
                filled = list(params)
                for position, i in self._late_pointers[index]:
                    filled[position] = pointers[i] if i in pointers else \
                        values[i].pointer
                for position, i in self._late_scalars[index]:
                    filled[position] = (self._half_bits(i, values[i])
                                        if i in self._half else values[i])
                for position, i in self._late_scratch[index]:
                    filled[position] = scratch[i]
                if shared > 48 * 1024:
                    driver.set_dynamic_shared(functions[index], shared)
                try:
                    driver.launch(functions[index], grid, block, shared,
                                  handle, self._structs[index], filled)
                except (struct.error, OverflowError) as error:
                    raise OverflowError(
                        f"{self.name}: a parameter of "
                        f"{self.kernels[index]['name']} does not fit its "
                        f"type: {error}") from None
        finally:
            for pointer in scratch:
                if pointer:
                    driver.free_async(pointer, handle)

    def _half_bits(self, i, value):
        """An f16 or bf16 scalar parameter's bits."""
        if self._half[i] == "f16":
            return int(np.float16(value).view(np.uint16))
        # bf16: the top half of the f32, rounded to nearest even.
        bits = int(np.float32(value).view(np.uint32))
        if (bits & 0x7fffffff) > 0x7f800000:
            return (bits >> 16) | 0x40  # a quiet NaN
        return (bits + 0x7fff + ((bits >> 16) & 1)) >> 16

    def _stream(self, stream, hint, device):
        """The CUstream handle to launch on."""
        if stream is None:
            if hint == "torch":
                import torch
                raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
                if raw is not None:
                    return raw(device)
                return torch.cuda.current_stream(device).cuda_stream
            return int(hint) if isinstance(hint, int) else 0
        for attribute in ("cuda_stream", "ptr", "handle"):
            if hasattr(stream, attribute):
                return int(getattr(stream, attribute))
        return int(stream)
