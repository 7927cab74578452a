"""Opening a ThreadBind bundle with ctypes and calling its entries.

A bundle (threadbind-compile --emit bundle) is a host shared library whose
``threadbind_bundle_entries`` lists every function of the source, each with
a GPU version (launches the kernels) and a CPU reference (the loops as
written), both taking an array of pointers: to a memref descriptor for each
memref argument, to the value for each scalar (include/threadbind/Runtime/
Bundle.h).

A memref argument with the identity layout takes row-major data; one with a
strided layout (``memref<?x?xf32, strided<[?, 1], offset: ?>>``) takes a
view, whose strides and offset the call passes in the descriptor.
"""

import contextlib
import ctypes
import os
import shutil
import tempfile
from pathlib import Path
from typing import NamedTuple, Optional, Tuple

import numpy as np

from ._abi import (
    DYNAMIC,
    ENTRY_FUNCTION as _ENTRY_FUNCTION,
    Access,
    ElementType,
    EntryStruct as _Entry,
    LaunchRecordStruct as _LaunchRecord,
    TermKind,
)
from ._arrays import element_strides, row_major as _row_major


class ThreadBindError(RuntimeError):
    """A compile, load or launch failed, with the reason."""


class Launch(NamedTuple):
    """One kernel launch of a GPU call, as Bundle.record_launches saw it."""
    kernel: str
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    registers: int  # per thread
    local_bytes: int  # per thread: spills and stack
    shared_bytes: int  # static plus dynamic, per block
    occupancy: float  # resident threads over the most an SM holds
    milliseconds: Optional[float]  # CUDA events around it; None untimed


# ThreadBindElementType -> (name, NumPy dtype or None, ctypes scalar type).
_TYPES = {
    ElementType.F16: ("f16", np.dtype(np.float16), None),
    ElementType.BF16: ("bf16", None, None),
    ElementType.F32: ("f32", np.dtype(np.float32), ctypes.c_float),
    ElementType.F64: ("f64", np.dtype(np.float64), ctypes.c_double),
    ElementType.I8: ("i8", np.dtype(np.int8), ctypes.c_int8),
    ElementType.I16: ("i16", np.dtype(np.int16), ctypes.c_int16),
    ElementType.I32: ("i32", np.dtype(np.int32), ctypes.c_int32),
    ElementType.I64: ("i64", np.dtype(np.int64), ctypes.c_int64),
    ElementType.INDEX: ("index", np.dtype(np.int64), ctypes.c_int64),
    ElementType.I1: ("i1", np.dtype(np.bool_), ctypes.c_bool),
}


class _DeviceArray:
    """What __cuda_array_interface__ says of an array in device memory."""

    def __init__(self, obj):
        cai = obj.__cuda_array_interface__
        self.pointer = cai["data"][0]
        self.shape = tuple(cai["shape"])
        self.dtype = np.dtype(cai["typestr"])
        self.strides = cai.get("strides")  # bytes; None when C-contiguous
        contiguous = tuple(s * self.dtype.itemsize
                           for s in _row_major(self.shape))
        self.contiguous = self.strides is None or tuple(
            s for s, n in zip(self.strides, self.shape) if n > 1) == tuple(
                c for c, n in zip(contiguous, self.shape) if n > 1)




def _format_layout(strides):
    """Strides as MLIR writes them: [?, 1]."""
    return "[" + ", ".join("?" if s == DYNAMIC else str(s)
                           for s in strides) + "]"


def _view_layout(where, shape, byte_strides, itemsize, fixed_strides,
                 fixed_offset):
    """The descriptor strides and offset, in elements, for a strided memref
    argument given in place: a view with `byte_strides` (None when
    C-contiguous) whose element [0, ..., 0] is at its data pointer (negative
    strides included), for a type that fixes `fixed_strides` and
    `fixed_offset` (DYNAMIC where the caller chooses). The view's strides
    must match the fixed ones, except in dimensions of one element and in
    empty views, where strides are never used and the fixed ones are
    passed. The offset is the fixed one, or 0: the aligned pointer is then
    the data pointer less that many elements."""
    strides = element_strides(shape, byte_strides, itemsize, where)
    empty = 0 in shape
    passed = []
    for n, stride, fixed in zip(shape, strides, fixed_strides):
        if fixed == DYNAMIC:
            passed.append(stride)
        elif stride == fixed or n == 1 or empty:
            passed.append(fixed)
        else:
            raise ValueError(
                f"{where}: strides {tuple(strides)} (in elements), but its "
                f"type needs {_format_layout(fixed_strides)} (? where any)")
    return tuple(passed), 0 if fixed_offset == DYNAMIC else fixed_offset


def _fixed_layout(info):
    """The strides and the offset a strided memref argument's type fixes
    (an ArgumentStruct), DYNAMIC where the caller chooses."""
    return tuple(info.strides[k] for k in range(info.rank)), info.offset


def _descriptor(pointer, shape, strides, offset):
    """A memref descriptor over data at `pointer` (allocated and aligned),
    whose element [i0, i1, ...] lies `offset` + sum(i_k * strides[k])
    elements past it."""
    rank = len(shape)
    words = (ctypes.c_int64 * (3 + 2 * rank))()
    words[0] = words[1] = pointer
    words[2] = offset
    for k in range(rank):
        words[3 + k] = shape[k]
        words[3 + rank + k] = strides[k]
    return words


class Entry:
    """One function of a bundle. Calling it runs it on the GPU; `.reference`
    runs the CPU reference. Memref arguments are NumPy arrays (copied to the
    device and, if the function writes them, back) or objects with
    __cuda_array_interface__ (used in place); scalars are Python numbers.

    A memref argument whose type has the identity layout needs row-major
    (C-contiguous) arrays. One with a strided layout (``strided<[?, 1],
    offset: ?>``) also takes views: slices, transposes, negative steps.
    Arrays used in place (every array of the reference, device arrays on
    the GPU) pass their own strides, which must equal those the type fixes
    (in dimensions of more than one element); NumPy arrays on the GPU are
    copied into a device buffer laid out as the type needs, so any view
    does."""

    def __init__(self, bundle, raw, manifest):
        self._bundle = bundle
        self.name = raw.name.decode()
        self._gpu = _ENTRY_FUNCTION(raw.gpu)
        # Null where the function's GPU code cannot run on the CPU.
        self._reference = (_ENTRY_FUNCTION(raw.reference) if raw.reference
                           else None)
        self._no_reference = manifest.get("no_reference",
                                          "its GPU code cannot run on the CPU")
        self._arguments = [raw.arguments[i] for i in range(raw.numArguments)]
        self._requirements = [raw.requirements[r]
                              for r in range(raw.numRequirements)]
        self.types = [a.get("type", "?") for a in manifest.get("arguments", [])]
        if len(self.types) != len(self._arguments):
            self.types = ["memref" if a.isMemRef else "scalar"
                          for a in self._arguments]

    def __repr__(self):
        return f"<threadbind entry {self.name}({', '.join(self.types)})>"

    def _where(self, i):
        return f"{self.name}: argument {i} ({self.types[i]})"

    def _check_count(self, args):
        if len(args) != len(self._arguments):
            raise TypeError(f"{self.name} takes {len(self._arguments)} "
                            f"arguments ({', '.join(self.types)}), "
                            f"{len(args)} given")

    def _check_memref(self, i, info, shape, dtype, contiguous):
        """The dtype, rank and static sizes of an array for memref argument
        `i`, and, for the identity layout, that it is row-major."""
        name, expected, _ = _TYPES[info.elementType]
        if expected is None:
            raise TypeError(f"{self._where(i)}: {name} has no NumPy "
                            "equivalent; it cannot be passed from Python")
        if dtype != expected:
            raise TypeError(f"{self._where(i)}: dtype {dtype}, expected "
                            f"{expected}")
        if len(shape) != info.rank:
            raise ValueError(f"{self._where(i)}: rank {len(shape)}, "
                             f"expected {info.rank}")
        for k in range(info.rank):
            if info.shape[k] >= 0 and info.shape[k] != shape[k]:
                raise ValueError(f"{self._where(i)}: dimension {k} is "
                                 f"{shape[k]}, expected {info.shape[k]}")
        if not info.strided and not contiguous:
            raise ValueError(f"{self._where(i)}: not contiguous (row-major "
                             "layout needed; use numpy.ascontiguousarray or "
                             ".contiguous())")

    def _check_host(self, i, info, array):
        """A NumPy array for memref argument `i`."""
        self._check_memref(i, info, array.shape, array.dtype,
                           array.flags["C_CONTIGUOUS"])
        if info.access & Access.WRITE and not array.flags["WRITEABLE"]:
            raise ValueError(f"{self._where(i)}: the function writes it, but "
                             "the array is read-only")

    def _in_place(self, i, info, pointer, shape, byte_strides, itemsize):
        """(aligned pointer, shape, strides, offset) of the descriptor for an
        array of memref argument `i` used where it lies, its element
        [0, ..., 0] at `pointer`, its strides `byte_strides` (None when
        C-contiguous): row-major for the identity layout (_check_memref saw
        to it), its own strides for a strided one."""
        if not info.strided:
            return pointer, shape, _row_major(shape), 0
        strides, offset = _view_layout(self._where(i), shape, byte_strides,
                                       itemsize, *_fixed_layout(info))
        return pointer - offset * itemsize, shape, strides, offset

    def _staged_layout(self, i, info, shape):
        """(strides, offset, elements) of a device buffer for strided memref
        argument `i` of `shape`: the strides its type fixes, compact
        row-major ones around them elsewhere, its fixed offset or 0, and how
        many elements the buffer needs (0 for an empty view)."""
        fixed_strides, fixed_offset = _fixed_layout(info)
        offset = 0 if fixed_offset == DYNAMIC else fixed_offset
        if offset < 0 or any(f < 0 for f in fixed_strides if f != DYNAMIC):
            raise ValueError(
                f"{self._where(i)}: its type fixes a negative stride or "
                "offset; a NumPy array cannot be copied in for it (pass a "
                "device array laid out for it)")
        # The fixed dimensions span `running` elements; each other one,
        # innermost first, steps over everything inside it, so no two
        # elements share a place.
        running = 1 + sum(f * max(n - 1, 0)
                          for n, f in zip(shape, fixed_strides)
                          if f != DYNAMIC)
        strides = list(fixed_strides)
        for k in reversed(range(len(shape))):
            if strides[k] == DYNAMIC:
                strides[k] = running
                running *= max(shape[k], 1)
        elements = 0 if 0 in shape else offset + 1 + sum(
            (n - 1) * s for n, s in zip(shape, strides))
        return tuple(strides), offset, elements

    def _scalar(self, i, info, value):
        name, dtype, ctype = _TYPES[info.elementType]
        if isinstance(value, np.ndarray) or hasattr(
                value, "__cuda_array_interface__"):
            raise TypeError(f"{self._where(i)}: an array was given for a "
                            f"scalar {name}")
        if ctype is None:
            raise TypeError(f"{self._where(i)}: {name} scalars cannot be "
                            "passed from Python")
        if dtype.kind == "b":
            # An i1: a bool, or the integers 0 and 1.
            if isinstance(value, (bool, np.bool_)) or (
                    isinstance(value, (int, np.integer)) and value in (0, 1)):
                return ctype(bool(value))
            raise TypeError(f"{self._where(i)}: {value!r} is not an i1 "
                            "(a bool, 0 or 1)")
        if dtype.kind == "i":
            # ctypes would wrap a value that does not fit (300 into i8 is
            # 44): refuse it, and anything that is not an integer.
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (int, np.integer)):
                raise TypeError(f"{self._where(i)}: {value!r} is not an "
                                f"integer")
            limits = np.iinfo(dtype)
            if not limits.min <= int(value) <= limits.max:
                raise OverflowError(
                    f"{self._where(i)}: {value} does not fit in {name} "
                    f"({limits.min} to {limits.max})")
            return ctype(int(value))
        if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{self._where(i)}: {value!r} is not a {name}")
        if np.isfinite(value) and abs(float(value)) > np.finfo(dtype).max:
            raise OverflowError(f"{self._where(i)}: {value} does not fit in "
                                f"{name}")
        return ctype(value)

    def _check_requirements(self, shapes, scalars):
        """Raises ValueError where the arguments' sizes break what the
        function's loops need of them (they would read or write out of
        bounds)."""
        def value(term):
            if term.kind == TermKind.DIM:
                return shapes[term.arg][term.dim]
            if term.kind == TermKind.SCALAR:
                return scalars[term.arg]
            return term.value

        def describe(term):
            if term.kind == TermKind.DIM:
                return f"size {term.dim} of argument {term.arg}"
            if term.kind == TermKind.SCALAR:
                return f"argument {term.arg}"
            return "the constant"

        for q in self._requirements:
            if not all(value(q.guards[g].upper) > value(q.guards[g].lower)
                       for g in range(q.numGuards)):
                continue
            needed = value(q.bound) + q.offset
            size = shapes[q.arg][q.dim]
            if size >= needed:
                continue
            plus = (f" + {q.offset}" if q.offset > 0 else
                    f" - {-q.offset}" if q.offset < 0 else "")
            raise ValueError(
                f"{self.name}: the sizes do not fit: argument {q.arg} has "
                f"{size} elements in dimension {q.dim}, but "
                f"{q.where.decode()} needs {needed} "
                f"({describe(q.bound)}{plus})")

    def _pack(self, args, memref):
        """The pointer array an entry function takes: to each scalar's value,
        and to a descriptor over the (aligned pointer, shape, strides,
        offset) that `memref(i, info, value)` gives for each memref
        argument. Returns it with what must outlive the call."""
        self._check_count(args)
        keep, pointers = [], (ctypes.c_void_p * len(args))()
        shapes, scalars = [()] * len(args), [0] * len(args)
        for i, (info, value) in enumerate(zip(self._arguments, args)):
            if info.isMemRef:
                pointer, shapes[i], strides, offset = memref(i, info, value)
                item = _descriptor(pointer, shapes[i], strides, offset)
            else:
                item = self._scalar(i, info, value)
                if isinstance(item.value, int):
                    scalars[i] = item.value
            keep.append(item)
            pointers[i] = ctypes.addressof(item)
        self._check_requirements(shapes, scalars)
        return pointers, keep

    def reference(self, *args):
        """Runs the CPU reference on NumPy arrays, in place (views too, for
        strided arguments)."""
        def host(i, info, value):
            if hasattr(value, "__cuda_array_interface__"):
                raise TypeError(f"{self._where(i)}: device memory given; the "
                                "CPU reference needs a NumPy array")
            if not isinstance(value, np.ndarray):
                raise TypeError(f"{self._where(i)}: expected a NumPy array, "
                                f"got {type(value).__name__}")
            self._check_host(i, info, value)
            return self._in_place(i, info, value.ctypes.data, value.shape,
                                  value.strides, value.itemsize)

        if self._reference is None:
            raise ThreadBindError(f"{self.name} has no CPU reference: "
                                  f"{self._no_reference}")
        pointers, keep = self._pack(args, host)
        self._reference(pointers)
        del keep

    def __call__(self, *args):
        """Runs on the GPU: NumPy arrays are copied in and, where written,
        back (a view of a strided argument through a buffer laid out as its
        type needs); device arrays are used in place. Work already queued on
        the device finishes first, and the call returns when the kernels
        have."""
        self._check_count(args)
        runtime = self._bundle._runtime()
        copies, allocations = [], []

        def on_device(i, info, value):
            if hasattr(value, "__cuda_array_interface__"):
                device = _DeviceArray(value)
                self._check_memref(i, info, device.shape, device.dtype,
                                   device.contiguous)
                if info.paddedTo and info.rank == 1 and \
                        device.shape[0] % info.paddedTo:
                    raise ValueError(
                        f"{self._where(i)}: its allocation must reach a "
                        f"multiple of {info.paddedTo} elements "
                        "(threadbind.padded_to); pass an array of such a "
                        "length, or a NumPy array")
                return self._in_place(i, info, device.pointer, device.shape,
                                      device.strides, device.dtype.itemsize)
            if not isinstance(value, np.ndarray):
                raise TypeError(
                    f"{self._where(i)}: expected a NumPy array or an object "
                    "with __cuda_array_interface__, got "
                    f"{type(value).__name__}")
            self._check_host(i, info, value)
            # The buffer reaches the padded size, where there is one.
            extent = value.shape
            if info.paddedTo and info.rank == 1:
                extent = (-(-value.shape[0] // info.paddedTo) *
                          info.paddedTo,)
            if info.strided:
                # Copy through a host array laid out as the device one.
                strides, offset, elements = self._staged_layout(i, info,
                                                                extent)
                staging = np.zeros(elements, value.dtype)
                view = np.lib.stride_tricks.as_strided(
                    staging[offset:], value.shape,
                    [s * value.itemsize for s in strides])
                view[...] = value
                nbytes = staging.nbytes
            else:
                strides, offset = _row_major(value.shape), 0
                staging = view = value
                nbytes = int(np.prod(extent, dtype=np.int64)) * value.itemsize
            pointer = runtime.malloc(max(nbytes, 1))
            allocations.append(pointer)
            runtime.copy_to_device(pointer, staging, staging.nbytes)
            if info.access & Access.WRITE:
                copies.append((staging, pointer, value, view))
            return pointer, value.shape, strides, offset

        try:
            pointers, keep = self._pack(args, on_device)
            runtime.synchronize()
            self._gpu(pointers)
            runtime.synchronize()
            if not self._bundle._recording:
                runtime.clear_launches()  # no one asked for the records
            for staging, pointer, value, view in copies:
                runtime.copy_to_host(staging, pointer, staging.nbytes)
                if view is not value:
                    value[...] = view
            del keep
        finally:
            for pointer in allocations:
                runtime.free(pointer)


class _Runtime:
    """The libThreadBindRuntime functions the bundle links, through its
    handle."""

    def __init__(self, library):
        self._lib = library
        for name, restype, argtypes in [
            ("threadbind_init", ctypes.c_int, []),
            ("threadbind_last_error", ctypes.c_char_p, []),
            ("threadbind_clear_error", None, []),
            ("threadbind_malloc", ctypes.c_int,
             [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]),
            ("threadbind_free", ctypes.c_int, [ctypes.c_void_p]),
            ("threadbind_copy_to_device", ctypes.c_int,
             [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
            ("threadbind_copy_to_host", ctypes.c_int,
             [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
            ("threadbind_synchronize", ctypes.c_int, []),
            ("threadbind_set_launch_timing", None, [ctypes.c_int]),
            ("threadbind_launch_count", ctypes.c_int64, []),
            ("threadbind_launch_record", ctypes.c_int,
             [ctypes.c_int64, ctypes.POINTER(_LaunchRecord)]),
            ("threadbind_clear_launches", None, []),
        ]:
            function = getattr(library, name)
            function.restype, function.argtypes = restype, argtypes
        status = library.threadbind_init()
        if status != 0:
            raise ThreadBindError("no usable CUDA device: " +
                                  library.threadbind_last_error().decode())

    def _check(self, status, what):
        if status != 0:
            message = self._lib.threadbind_last_error().decode()
            self._lib.threadbind_clear_error()
            raise ThreadBindError(f"{what}: {message}")

    def malloc(self, nbytes):
        pointer = ctypes.c_void_p()
        self._check(self._lib.threadbind_malloc(ctypes.byref(pointer), nbytes),
                    "device allocation")
        return pointer.value

    def free(self, pointer):
        self._lib.threadbind_free(pointer)

    def copy_to_device(self, pointer, array, nbytes):
        self._check(self._lib.threadbind_copy_to_device(
            pointer, array.ctypes.data, nbytes), "copy to the device")

    def copy_to_host(self, array, pointer, nbytes):
        self._check(self._lib.threadbind_copy_to_host(
            array.ctypes.data, pointer, nbytes), "copy to the host")

    def synchronize(self):
        self._check(self._lib.threadbind_synchronize(), "launch")

    def set_launch_timing(self, enabled):
        self._lib.threadbind_set_launch_timing(int(enabled))

    def clear_launches(self):
        self._lib.threadbind_clear_launches()

    def launches(self):
        """The launches recorded since the last clear_launches, in order,
        timed ones waiting for their events: the last 65536 of them (the
        runtime keeps no older records)."""
        launches = []
        index = self._lib.threadbind_launch_count() - 1
        while index >= 0:
            r = _LaunchRecord()
            if self._lib.threadbind_launch_record(index, ctypes.byref(r)):
                break  # older records are no longer kept
            index -= 1
            launches.append(Launch(
                r.kernel.decode(), tuple(r.grid), tuple(r.block), r.registers,
                r.localBytes, r.staticSharedBytes + r.dynamicSharedBytes,
                r.occupancy, r.milliseconds if r.milliseconds >= 0 else None))
        launches.reverse()
        return launches


def _open_library(path):
    """dlopen a bundle under a name of its own.

    The dynamic loader hands back the library already loaded under the
    same path, so a program compiled again into the same folder would run
    the old code. Each load goes through a fresh hard link (or copy) beside
    the file, which keeps $ORIGIN, and the link goes once it is open."""
    path = Path(path)
    if not path.is_file():
        raise ThreadBindError(f"cannot open the bundle {path}: no such file")
    alias = None
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".so",
                                    dir=path.parent)
        os.close(fd)
        alias = Path(name)
        alias.unlink()
        try:
            os.link(path, alias)
        except OSError:
            shutil.copyfile(path, alias)
    except OSError:
        alias = None  # a read-only folder: no other bundle can appear there
    try:
        return ctypes.CDLL(str(alias or path.resolve()))
    except OSError as error:
        raise ThreadBindError(f"cannot open the bundle {path}: {error}")
    finally:
        if alias is not None:
            alias.unlink(missing_ok=True)


class Bundle:
    """An opened bundle: entries by name (bundle["saxpy"]) or as attributes
    (bundle.saxpy)."""

    def __init__(self, path, manifest=None):
        self._lib = _open_library(path)
        try:
            entries = self._lib.threadbind_bundle_entries
        except AttributeError:
            raise ThreadBindError(
                f"{path} is not a ThreadBind bundle: it has no "
                "threadbind_bundle_entries") from None
        entries.restype = ctypes.POINTER(_Entry)
        entries.argtypes = [ctypes.POINTER(ctypes.c_int32)]
        count = ctypes.c_int32()
        table = entries(ctypes.byref(count))
        described = {e["name"]: e for e in (manifest or {}).get("entries", [])}
        self.entries = {}
        for k in range(count.value):
            name = table[k].name.decode()
            self.entries[name] = Entry(self, table[k], described.get(name, {}))
        self._runtime_state = None
        self._recording = False

    @contextlib.contextmanager
    def record_launches(self, timing=True):
        """Records every kernel launch of the GPU calls inside the block,
        timed with CUDA events unless timing is False: the kernels' own time,
        without the call's copies, checks and synchronisation.

            with bundle.record_launches() as launches:
                bundle.saxpy(2.0, x, y)
            kernel_ms = sum(l.milliseconds for l in launches)
        """
        runtime = self._runtime()
        if self._recording:
            raise ThreadBindError("record_launches does not nest")
        launches = []
        runtime.clear_launches()
        runtime.set_launch_timing(timing)
        self._recording = True
        try:
            yield launches
            launches.extend(runtime.launches())
        finally:
            self._recording = False
            runtime.set_launch_timing(False)
            runtime.clear_launches()

    def _runtime(self):
        if self._runtime_state is None:
            self._runtime_state = _Runtime(self._lib)
        return self._runtime_state

    def __getitem__(self, name):
        try:
            return self.entries[name]
        except KeyError:
            raise KeyError(f"no entry {name!r}; the bundle has "
                           f"{', '.join(sorted(self.entries))}") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.entries[name]
        except KeyError:
            raise AttributeError(f"no entry {name!r}") from None

    def __iter__(self):
        return iter(self.entries)
