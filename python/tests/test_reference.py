"""Entries on the CPU reference, and the argument checks every call makes
(no GPU needed)."""

import ctypes
import re

import numpy as np
import pytest

import threadbind
from threadbind._abi import DYNAMIC


def test_entries_by_name_and_attribute(bundle):
    assert set(bundle) == {"axpy", "rows", "total", "twice_f16", "padded",
                           "scale_view", "fixed_view", "shift_by"}
    assert bundle.axpy is bundle["axpy"]
    assert "memref<?xf32>" in repr(bundle.axpy)
    with pytest.raises(KeyError, match="no entry 'nope'; the bundle has"):
        bundle["nope"]


def test_axpy_reference(bundle):
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    bundle.axpy.reference(2.5, x, y)
    np.testing.assert_array_equal(y, 2.5 * np.arange(1000) + 1)


def test_rows_reference_with_a_static_dimension(bundle):
    src = np.random.default_rng(1).standard_normal((4, 37))
    out = np.zeros_like(src)
    bundle.rows.reference(src, out)
    expected = src * np.arange(1, 5)[:, None] + np.arange(37)[None, :]
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def test_reduction_and_f16_reference(bundle):
    x = np.arange(-50, 51, dtype=np.int32)
    total = np.zeros(1, dtype=np.int32)
    bundle.total.reference(x, total)
    assert total[0] == 10
    h = np.linspace(-4, 4, 33).astype(np.float16)
    out = np.zeros_like(h)
    bundle.twice_f16.reference(h, out)
    np.testing.assert_array_equal(out, h * np.float16(2))


def test_empty_arrays(bundle):
    x = np.zeros(0, dtype=np.int32)
    total = np.zeros(1, dtype=np.int32)
    bundle.total.reference(x, total)
    assert total[0] == 10


@pytest.mark.parametrize("args, error, message", [
    ((2.0, np.zeros(3, np.float32)), TypeError, "takes 3 arguments"),
    ((2.0, np.zeros(3, np.float64), np.zeros(3, np.float32)), TypeError,
     r"axpy: argument 1 \(memref<\?xf32>\): dtype float64, expected float32"),
    ((2.0, np.zeros((3, 1), np.float32), np.zeros(3, np.float32)),
     ValueError, r"argument 1 .*rank 2, expected 1"),
    ((2.0, np.zeros(6, np.float32)[::2], np.zeros(3, np.float32)),
     ValueError, r"argument 1 .*not contiguous"),
    ((np.zeros(1, np.float32), np.zeros(3, np.float32),
      np.zeros(3, np.float32)), TypeError,
     r"argument 0 \(f32\): an array was given for a scalar f32"),
    ((2.0, [1.0, 2.0], np.zeros(3, np.float32)), TypeError,
     r"argument 1 .*expected a NumPy array, got list"),
    (("two", np.zeros(3, np.float32), np.zeros(3, np.float32)), TypeError,
     r"argument 0 \(f32\): 'two' is not a f32"),
])
def test_bad_arguments_name_the_argument(bundle, args, error, message):
    with pytest.raises(error, match=message):
        bundle.axpy.reference(*args)


def test_static_dimension_and_read_only_output(bundle):
    with pytest.raises(ValueError, match=r"dimension 0 is 3, expected 4"):
        bundle.rows.reference(np.zeros((3, 5)), np.zeros((3, 5)))
    out = np.zeros((4, 5))
    out.setflags(write=False)
    with pytest.raises(ValueError, match="writes it, but the array is "
                                         "read-only"):
        bundle.rows.reference(np.zeros((4, 5)), out)


class FakeDeviceArray:
    """Claims to live on the device; never dereferenced unless `pointer`
    is host memory (see `device_view`)."""

    def __init__(self, shape, typestr="<f4", strides=None, pointer=0x7000000):
        self.__cuda_array_interface__ = {
            "data": (pointer, False), "shape": shape, "typestr": typestr,
            "strides": strides, "version": 3}


def device_view(array):
    """A FakeDeviceArray over a NumPy array's own memory, strides and all:
    what a GPU call with its kernels replaced by the CPU reference can
    read."""
    return FakeDeviceArray(array.shape, array.dtype.str, array.strides,
                           array.ctypes.data)


def test_device_memory_is_refused_by_the_reference(bundle):
    with pytest.raises(TypeError, match="device memory given; the CPU "
                                        "reference needs a NumPy array"):
        bundle.axpy.reference(1.0, FakeDeviceArray((3,)),
                              np.zeros(3, np.float32))


def op(name, *args, **extra):
    """A manifest operator node."""
    return {"op": name, "args": list(args), **extra}


DIM1 = {"dim": [1, 0]}


def array(shape, pointer=0x1000, strides=None, itemsize=8):
    """An Array (what the evaluator reads of a device array)."""
    from threadbind._arrays import Array, row_major
    return Array(pointer, shape, strides or row_major(shape), "float64",
                 itemsize, 0)


def test_the_manifests_expressions():
    from threadbind._ptx import _Evaluator
    x = array((1000,))
    evaluate = _Evaluator([2.0, x, x, 7], lambda threads, name: 132 * 8)
    # The grid of a widened grid-stride loop: 250 vectors fit one block.
    vectors = op("ceildivu", op("max", DIM1, 0), 4)
    grid = op("min", op("max", op("min", op("ceildivu", vectors, 256),
                                   op("resident_blocks", 256,
                                      kernel="axpy_kernel")), 1),
              2147483647)
    assert evaluate(grid) == 1
    assert evaluate(op("gt", DIM1, 0)) == 1
    assert evaluate(op("or", op("gt", op("sub", DIM1, 1000), 0), 0)) == 0
    assert evaluate(256) == 256
    assert evaluate({"arg": 3}) == 7
    assert evaluate({"stride": [1, 0]}) == 1
    assert evaluate({"offset": 1}) == 0
    assert evaluate(op("select", op("not", 1), 5, 6)) == 6
    # 64-bit arithmetic, signed and unsigned, rounding as the host does.
    assert evaluate(op("div", -7, 2)) == -3
    assert evaluate(op("rem", -7, 2)) == -1
    assert evaluate(op("ceildiv", -7, 2)) == -3
    assert evaluate(op("ceildiv", 7, 2)) == 4
    assert evaluate(op("divu", -2, 2)) == (1 << 63) - 1
    assert evaluate(op("ltu", 1, -1)) == 1
    assert evaluate(op("lt", 1, -1)) == 0
    assert evaluate(op("minu", -1, 3)) == 3
    assert evaluate(op("add", (1 << 63) - 1, 1)) == -(1 << 63)
    # Widening casts: an i1 true sign-extends to -1.
    assert evaluate(op("sext", 1, bits=1)) == -1
    assert evaluate(op("zext", 1, bits=1)) == 1
    assert evaluate(op("zext", -1, bits=8)) == 255
    assert evaluate(op("sext", 0xFFFFFFFF, bits=32)) == -1
    assert evaluate(op("sext", 0x7FFFFFFF, bits=32)) == 0x7FFFFFFF
    with pytest.raises(threadbind.ThreadBindError, match="division by zero"):
        evaluate(op("ceildivu", DIM1, op("sub", DIM1, 1000)))
    with pytest.raises(threadbind.ThreadBindError,
                       match="only the host function computes"):
        evaluate(op("min", {"opaque": "device_scratch(f32, 4)"}, 1))
    with pytest.raises(threadbind.ThreadBindError, match="unknown manifest "
                                                         "operator 'pow'"):
        evaluate(op("pow", 2, 3))
    with pytest.raises(threadbind.ThreadBindError, match="not a manifest "
                                                         "expression"):
        evaluate("dim(arg1, 0)")
    with pytest.raises(threadbind.ThreadBindError, match="array where the "
                                                         "manifest needs"):
        evaluate({"arg": 1})
    with pytest.raises(threadbind.ThreadBindError, match="number where the "
                                                         "manifest needs"):
        evaluate({"dim": [0, 0]})
    with pytest.raises(TypeError, match="refers to argument 9"):
        evaluate({"arg": 9})
    # The resident-block queries answer 1 to 2^20, as the runtime's do: the
    # 32-bit index copies are proven for grids that size.
    huge = _Evaluator([2.0, x, x], lambda threads, name: 1 << 40)
    assert huge(op("resident_blocks", 256)) == 1 << 20
    assert huge(op("resident_blocks", 256, kernel="k")) == 1 << 20
    none = _Evaluator([2.0, x, x], lambda threads, name: 0)
    assert none(op("resident_blocks", 256)) == 1


def test_manifest_version_is_checked(program):
    from threadbind._ptx import check_manifest_version, host_function
    check_manifest_version(program.manifest)
    with pytest.raises(threadbind.ThreadBindError,
                       match="the manifest has version 1, this package "
                             "reads version 2"):
        check_manifest_version({"threadbind_manifest_version": 1})
    assert host_function(program.manifest, "axpy")["launchable"]
    with pytest.raises(threadbind.ThreadBindError, match="no kernel of host "
                                                         "function 'nope'"):
        host_function(program.manifest, "nope")
    unlaunchable = {"threadbind_manifest_version": 2, "functions": [
        {"name": "steps", "arguments": [], "launchable": False,
         "not_launchable": "kernel 'k' is launched inside 'scf.for'"}]}
    with pytest.raises(threadbind.ThreadBindError,
                       match="steps cannot be launched from its PTX: kernel "
                             "'k' is launched inside 'scf.for'"):
        host_function(unlaunchable, "steps")


def test_disjoint_compares_the_bytes_arrays_span():
    from threadbind._ptx import _Evaluator
    four = FakeDeviceArray((4,), pointer=0x1000)  # [0x1000, 0x1010)
    after = FakeDeviceArray((2,), pointer=0x1010)
    inside = FakeDeviceArray((2,), pointer=0x100c)
    # Three elements backwards from 0x2008: [0x2000, 0x200c).
    backwards = FakeDeviceArray((3,), "<f4", (-4,), 0x2008)
    touching = FakeDeviceArray((1,), pointer=0x1ffc)
    overlapping = FakeDeviceArray((1,), pointer=0x2000)
    empty = FakeDeviceArray((0, 5), pointer=0x1000)
    # Rows 64 bytes apart, of which a 2x2 view uses the first 8 bytes.
    rows = FakeDeviceArray((2, 2), "<f4", (64, 4), 0x3000)  # [0x3000, 0x3048)
    last = FakeDeviceArray((1,), pointer=0x3044)
    from threadbind._arrays import as_array
    args = [as_array(a) for a in (four, after, inside, backwards, touching,
                                  overlapping, empty, rows, last, four)]
    evaluate = _Evaluator(args, lambda t, n: 1)

    def disjoint(a, b):
        return evaluate(op("disjoint", {"arg": a}, {"arg": b}))

    assert disjoint(0, 1) == 1
    assert disjoint(0, 2) == 0
    assert disjoint(3, 4) == 1
    assert disjoint(3, 5) == 0
    assert disjoint(0, 6) == 1
    assert disjoint(7, 8) == 0
    assert disjoint(9, 9) == 0
    assert evaluate(op("and", op("gt", {"dim": [0, 0]}, 0),
                       op("not", op("disjoint", {"arg": 0},
                                     {"arg": 2})))) == 1


class HostMemoryRuntime:
    """Stands in for libThreadBindRuntime: 'device' buffers are host
    buffers, so a GPU call's copies and descriptors can be checked without a
    GPU."""

    def __init__(self):
        self.buffers, self.freed, self.sizes = {}, [], []
        self.records, self.timing = [], False

    def set_launch_timing(self, enabled):
        self.timing = enabled

    def clear_launches(self):
        self.records.clear()

    def launches(self):
        return list(self.records)

    def malloc(self, nbytes):
        buffer = np.zeros(nbytes, np.uint8)
        self.buffers[buffer.ctypes.data] = buffer
        self.sizes.append(nbytes)
        return buffer.ctypes.data

    def free(self, pointer):
        self.freed.append(pointer)

    def copy_to_device(self, pointer, array, nbytes):
        import ctypes
        ctypes.memmove(pointer, array.ctypes.data, nbytes)

    def copy_to_host(self, array, pointer, nbytes):
        import ctypes
        ctypes.memmove(array.ctypes.data, pointer, nbytes)

    def synchronize(self):
        pass


def test_gpu_call_copies_in_and_back(program, monkeypatch):
    """A GPU call with its kernels replaced by the CPU reference: inputs are
    copied to fresh buffers, the written ones copied back, padded arguments
    get padded buffers, and every buffer is freed."""
    bundle = threadbind.Bundle(program.bundle_path, program.manifest)
    runtime = HostMemoryRuntime()
    monkeypatch.setattr(bundle, "_runtime", lambda: runtime)
    for entry in bundle.entries.values():
        monkeypatch.setattr(entry, "_gpu", entry._reference)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    bundle.axpy(2.0, x, y)
    np.testing.assert_array_equal(y, 2 * np.arange(1000) + 1)
    np.testing.assert_array_equal(x, np.arange(1000))
    assert runtime.sizes == [4000, 4000]
    assert sorted(runtime.freed) == sorted(runtime.buffers)
    out = np.zeros(1000, dtype=np.float32)
    bundle.padded(x, out)
    np.testing.assert_array_equal(out, x + 1)
    assert runtime.sizes[-2:] == [1024 * 4, 1024 * 4]  # padded to 256
    with pytest.raises(ValueError, match="multiple of 256"):
        bundle.padded(FakeDeviceArray((1000,)), FakeDeviceArray((1000,)))
    with pytest.raises(TypeError, match="got list"):
        bundle.axpy(2.0, [1.0], y)
    assert sorted(runtime.freed) == sorted(runtime.buffers)


def test_launch_records_are_kept_only_while_recording(program, monkeypatch):
    """Outside record_launches every call clears the runtime's records (it
    keeps them all otherwise); inside, the block gets them, timed."""
    bundle = threadbind.Bundle(program.bundle_path, program.manifest)
    runtime = HostMemoryRuntime()
    monkeypatch.setattr(bundle, "_runtime", lambda: runtime)

    def fake_gpu(pointers):
        runtime.records.append(threadbind.Launch(
            "axpy_kernel", (4, 1, 1), (256, 1, 1), 16, 0, 0, 1.0,
            0.5 if runtime.timing else None))
    monkeypatch.setattr(bundle.axpy, "_gpu", fake_gpu)
    x, y = np.ones(8, np.float32), np.ones(8, np.float32)
    bundle.axpy(2.0, x, y)
    assert runtime.records == []
    with bundle.record_launches() as launches:
        bundle.axpy(2.0, x, y)
        bundle.axpy(2.0, x, y)
        assert launches == []  # filled when the block ends
    assert [l.milliseconds for l in launches] == [0.5, 0.5]
    assert not runtime.timing and runtime.records == []
    with bundle.record_launches(timing=False) as untimed:
        bundle.axpy(2.0, x, y)
        with pytest.raises(threadbind.ThreadBindError, match="not nest"):
            with bundle.record_launches():
                pass
    assert [l.milliseconds for l in untimed] == [None]



TENSORS = """
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func @scaled_and_dot(%a: tensor<?xf32>, %b: tensor<?xf32>)
    -> (tensor<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %two : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  %se = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %d = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %p, %o : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %v = tensor.extract %d[] : tensor<f32>
  return %s, %v : tensor<?xf32>, f32
}
"""


def test_tensor_entry_returns_through_out_parameters():
    # A front end's function on tensors: its results become the last
    # arguments, marked in the manifest with the result each holds; the
    # scalar one is a 0-d array.
    program = threadbind.compile(TENSORS)
    arguments = program.manifest["entries"][0]["arguments"]
    assert [a.get("result") for a in arguments] == [None, None, 0, 1]
    assert arguments[3]["shape"] == []
    a = np.arange(100, dtype=np.float32)
    b = np.full(100, 0.5, dtype=np.float32)
    scaled = np.zeros(100, dtype=np.float32)
    dot = np.zeros((), dtype=np.float32)
    program.load().scaled_and_dot.reference(a, b, scaled, dot)
    np.testing.assert_array_equal(scaled, 2 * a)
    assert dot == np.float32(0.5 * a.sum())


# Strided views: scale_view takes any strides for its input and unit
# columns for its output; fixed_view fixes column strides of 2 and, for its
# input, an offset of 3 (kernels.mlir).

def sentinel(shape, dtype=np.float32):
    """An array of NaN, to see which elements a call wrote."""
    return np.full(shape, np.nan, dtype)


def check_outside(base, view, expected):
    """`view` (a view of the C-contiguous `base`) holds `expected`, and
    every element of `base` outside it is still NaN."""
    np.testing.assert_array_equal(view, expected)
    flat = (view.ctypes.data - base.ctypes.data) // base.itemsize + sum(
        index * (stride // base.itemsize)
        for index, stride in zip(np.indices(view.shape), view.strides))
    outside = np.ones(base.size, bool)
    outside[np.ravel(flat)] = False
    assert np.isnan(base.reshape(-1)[outside]).all()


BASE = np.arange(6 * 10, dtype=np.float32).reshape(6, 10)

VIEWS = {
    "contiguous": BASE,
    "every other column": BASE[:, ::2],
    "transposed": BASE.T,
    "corner": BASE[1:, 2:],
    "rows reversed": BASE[::-1],
    "both reversed": BASE[::-2, ::-3],
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_strided_views_on_the_reference(bundle, name):
    a = VIEWS[name]
    out = sentinel((a.shape[0] + 3, a.shape[1] + 4))
    for b in (out[1:1 + a.shape[0], 2:2 + a.shape[1]],   # inside a larger one
              out[a.shape[0] - 1::-1, :a.shape[1]]):      # rows reversed
        out[...] = np.nan
        bundle.scale_view.reference(a, b, 1.5)
        check_outside(out, b, a * np.float32(1.5))
    np.testing.assert_array_equal(BASE, np.arange(60).reshape(6, 10))


def test_fixed_strides_and_offset_on_the_reference(bundle):
    base = np.arange(4 * 11, dtype=np.float64).reshape(4, 11)
    out = sentinel((4, 10), np.float64)
    x, y = base[:, 1::2], out[:, ::2]  # column strides of 2, as the type fixes
    bundle.fixed_view.reference(x, y)
    check_outside(out, y, x + 1)
    # One column: its stride is never used, so any does.
    out[...] = np.nan
    bundle.fixed_view.reference(base[:, 3:4], out[:, 5:6])
    check_outside(out, out[:, 5:6], base[:, 3:4] + 1)


def test_strides_a_type_fixes_are_checked(bundle):
    with pytest.raises(ValueError, match=(
            r"fixed_view: argument 0 \(memref<4x\?xf64, strided<\[\?, 2\], "
            r"offset: 3>>\): strides \(5, 1\) \(in elements\), but its "
            r"type needs \[\?, 2\]")):
        bundle.fixed_view.reference(np.zeros((4, 5)),
                                    np.zeros((4, 10))[:, ::2])
    with pytest.raises(ValueError, match=(
            r"scale_view: argument 1 .*strides \(10, 2\) .*needs \[\?, 1\]")):
        bundle.scale_view.reference(np.zeros((3, 5), np.float32),
                                    np.zeros((3, 10), np.float32)[:, ::2], 1.0)
    record = np.zeros((3, 4), dtype=[("a", "<f4"), ("b", "<i2")])
    with pytest.raises(ValueError, match=r"argument 0 .*strides \(24, 6\) "
                                         r"bytes are not whole elements of 4"):
        bundle.scale_view.reference(record["a"], np.zeros((3, 4), np.float32),
                                    1.0)
    # An identity layout still needs row-major arrays.
    with pytest.raises(ValueError, match=r"rows: argument 1 .*not contiguous"):
        bundle.rows.reference(np.zeros((4, 5)), np.zeros((4, 10))[:, ::2])


def test_gpu_call_stages_strided_numpy_views(program, monkeypatch):
    """NumPy views for strided arguments go through buffers laid out as the
    type needs (the fixed strides and offset, compact elsewhere); only what
    the view holds comes back."""
    bundle = threadbind.Bundle(program.bundle_path, program.manifest)
    runtime = HostMemoryRuntime()
    monkeypatch.setattr(bundle, "_runtime", lambda: runtime)
    for entry in bundle.entries.values():
        monkeypatch.setattr(entry, "_gpu", entry._reference)
    for name, a in VIEWS.items():
        out = sentinel((12, 14))
        b = out[a.shape[0] - 1::-1, 1:1 + a.shape[1]]
        bundle.scale_view(a, b, -2.0)
        check_outside(out, b, a * np.float32(-2.0))
        assert runtime.sizes[-2:] == [a.size * 4] * 2, name
    base = np.arange(4 * 11, dtype=np.float64).reshape(4, 11)
    out = sentinel((4, 10), np.float64)
    # Any view will do: staging lays it out with column stride 2.
    x, y = base[::-1, :5], out[:, 1::2]
    bundle.fixed_view(x, y)
    check_outside(out, y, x + 1)
    # x: offset 3, 4 rows of 9 (5 columns 2 apart), the last one 9 long.
    assert runtime.sizes[-2:] == [(3 + 3 * 9 + 9) * 8, (3 * 9 + 9) * 8]
    descriptors = []

    def record(pointers):
        # offset, sizes, strides of both descriptors, then run the call.
        descriptors.extend(
            list(ctypes.cast(pointers[k], ctypes.POINTER(ctypes.c_int64))[2:7])
            for k in range(2))
        bundle.fixed_view._reference(pointers)
    monkeypatch.setattr(bundle.fixed_view, "_gpu", record)
    out[...] = np.nan
    bundle.fixed_view(x, y)
    check_outside(out, y, x + 1)
    assert descriptors == [[3, 4, 5, 9, 2], [0, 4, 5, 9, 2]]
    empty = np.zeros((4, 0))
    bundle.fixed_view(empty, empty)
    assert runtime.sizes[-2:] == [1, 1]
    assert sorted(runtime.freed) == sorted(runtime.buffers)


def test_gpu_call_passes_device_views_in_place(program, monkeypatch):
    """Device arrays for strided arguments pass their own strides, checked
    against those the type fixes (here 'device' memory is host memory)."""
    bundle = threadbind.Bundle(program.bundle_path, program.manifest)
    runtime = HostMemoryRuntime()
    monkeypatch.setattr(bundle, "_runtime", lambda: runtime)
    for entry in bundle.entries.values():
        monkeypatch.setattr(entry, "_gpu", entry._reference)
    out = sentinel((12, 14))
    for a in VIEWS.values():
        out[...] = np.nan
        b = out[a.shape[0] - 1::-1, 3:3 + a.shape[1]]
        bundle.scale_view(device_view(a), device_view(b), 3.0)
        check_outside(out, b, a * np.float32(3.0))
    contiguous = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.zeros_like(contiguous)
    bundle.scale_view(FakeDeviceArray((3, 4), "<f4", None,
                                      contiguous.ctypes.data),
                      device_view(b), 2.0)
    np.testing.assert_array_equal(b, contiguous * 2)
    base = np.arange(4 * 11, dtype=np.float64).reshape(4, 11)
    out = sentinel((4, 10), np.float64)
    bundle.fixed_view(device_view(base[:, 1::2]), device_view(out[:, ::2]))
    check_outside(out, out[:, ::2], base[:, 1::2] + 1)
    with pytest.raises(ValueError, match=r"fixed_view: argument 1 .*strides "
                                         r"\(10, 1\) .*needs \[\?, 2\]"):
        bundle.fixed_view(device_view(base[:, 1::2]),
                          FakeDeviceArray((4, 5), "<f8", (80, 8)))
    with pytest.raises(ValueError, match=r"rows: argument 0 .*not contiguous"):
        bundle.rows(FakeDeviceArray((4, 5), "<f8", (80, 16)),
                    FakeDeviceArray((4, 5), "<f8"))
    assert runtime.sizes == []  # nothing copied


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


def test_kernel_arguments_pass_the_views_strides(program):
    from threadbind._launch import Launcher
    from threadbind._ptx import expression_text

    def condition(kernel):
        """The launch condition as text, without its leading parentheses:
        the outermost if's condition comes first."""
        return expression_text(kernel.get("launch_if", 1)).lstrip("(")

    # The layout each parameter's type gives is the one the entry records.
    for entry in program.manifest["entries"]:
        kernels = [k for k in program.manifest["kernels"]
                   if k["host_function"] == entry["name"]]
        for kernel in kernels:
            for param in kernel["params"]:
                if (param.get("field") != "aligned_ptr" or
                        "arg" not in param["source"]):
                    continue  # device scratch of a reduction
                argument = entry["arguments"][param["source"]["arg"]]
                expected = None if "strides" not in argument else (
                    tuple(threadbind._abi.DYNAMIC if s is None else s
                          for s in argument["strides"]),
                    threadbind._abi.DYNAMIC if argument["offset"] is None
                    else argument["offset"])
                got = strided_layout(param["mlir_type"])
                if expected and condition(kernel).startswith("stride("):
                    # threadbind-version-unit-strides' copy for a unit
                    # innermost stride fixes it.
                    strides, offset = expected
                    expected = (strides[:-1] + (1,), offset)
                assert got == expected

    # scale_view's views have dynamic innermost strides: a copy of it for
    # unit strides runs when they are, the general one otherwise. The
    # general one has a copy loading through the read-only cache, run when
    # the arrays do not overlap (these do: both start at the same address).
    # Each side also has a copy counting in 32 bits, run when the sizes and
    # strides allow (a negative stride does not): of each side's kernels,
    # exactly one runs.
    from test_launch import FakeDriver, unpack

    def launched(function, *args):
        """The one kernel `function` launches for `args`, and its
        parameters by (argument, field, dimension)."""
        driver = FakeDriver()
        launcher = Launcher(program, function, driver=driver)
        launcher(*args)
        (launch,) = driver.launches
        kernel = launcher.kernels[launcher._kernel_index[launch["kernel"]]]
        owner = {p["operand"]: expression_text(p["source"])
                 for p in kernel["params"] if p.get("field") == "aligned_ptr"}
        return kernel, {
            (owner.get(p["operand"], expression_text(p["source"])),
             p.get("field"), p.get("dim")): v
            for p, v in zip(kernel["params"], unpack(launcher, launch))}

    a = FakeDeviceArray((6, 5), "<f4", (-40, 8), 0x7000000)
    scale, got = launched("scale_view", a, FakeDeviceArray((6, 5)), 1.0)
    assert condition(scale).startswith("!")  # the general side
    assert got[("arg0", "aligned_ptr", None)] == 0x7000000
    assert (got[("arg0", "stride", 0)], got[("arg0", "stride", 1)]) == (-10, 2)
    assert (got[("arg1", "stride", 0)], got[("arg1", "stride", 1)]) == (5, 1)
    unit, _ = launched("scale_view", FakeDeviceArray((6, 5)),
                       FakeDeviceArray((6, 5)), 1.0)
    assert condition(unit).startswith("stride(")
    x = FakeDeviceArray((4, 5), "<f8", (88, 16), 0x7000000)
    _, got = launched("fixed_view", x,
                      FakeDeviceArray((4, 5), "<f8", (80, 16)))
    assert got[("arg0", "aligned_ptr", None)] == 0x7000000 - 3 * 8
    assert got[("arg0", "offset", None)] == 3
    assert (got[("arg0", "stride", 0)], got[("arg0", "stride", 1)]) == (11, 2)
    with pytest.raises(ValueError, match=r"fixed_view: argument 1 .*stride 1 "
                                         r"is 1 elements, but its type fixes 2"):
        launched("fixed_view", x, FakeDeviceArray((4, 5), "<f8"))

