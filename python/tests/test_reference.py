"""Entries on the CPU reference, and the argument checks every call makes
(no GPU needed)."""

import numpy as np
import pytest

import threadbind


def test_entries_by_name_and_attribute(bundle):
    assert set(bundle) == {"axpy", "rows", "total", "twice_f16", "padded"}
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
    """Claims to live on the device; never dereferenced."""

    def __init__(self, shape, typestr="<f4", strides=None):
        self.__cuda_array_interface__ = {
            "data": (0x7000000, False), "shape": shape, "typestr": typestr,
            "strides": strides, "version": 3}


def test_device_memory_is_refused_by_the_reference(bundle):
    with pytest.raises(TypeError, match="device memory given; the CPU "
                                        "reference needs a NumPy array"):
        bundle.axpy.reference(1.0, FakeDeviceArray((3,)),
                              np.zeros(3, np.float32))


def test_the_manifests_expressions():
    from threadbind._ptx import _Evaluator
    x = np.zeros(1000)
    evaluate = _Evaluator([2.0, x, x], lambda threads, name: 132 * 8)
    grid = ("min(max(min(min(max(ceildiv(max(dim(arg1, 0), 0), 256), 1), "
            "threadbind_kernel_resident_blocks(256, \"axpy_kernel\")), "
            "2147483647), 1), max(ceildiv(ceildiv(max(dim(arg1, 0), 0), 4), "
            "256), 1))")
    assert evaluate(grid) == 1  # 250 vectors fit one block of 256
    assert evaluate("(dim(arg1, 0) > 0)") == 1
    assert evaluate("(dim(arg1, 0) - 1000 > 0) || 0") == 0
    assert evaluate(256) == 256
    with pytest.raises(threadbind.ThreadBindError, match="only the bundle"):
        evaluate("device_scratch(f32, 4)")


def test_kernel_arguments_need_device_memory(program):
    from threadbind._ptx import _Evaluator, kernel_arguments
    axpy = next(k for k in program.manifest["kernels"]
                if k["name"] == "axpy_kernel")
    host = np.zeros(8, np.float32)
    evaluate = _Evaluator([2.0, host, host], lambda t, n: 1)
    with pytest.raises(TypeError, match="a host array where device memory "
                                        "is needed"):
        kernel_arguments(axpy, evaluate)
    device = FakeDeviceArray((8,))
    values = kernel_arguments(axpy, _Evaluator([2.0, device, device],
                                               lambda t, n: 1))
    assert len(values) == len(axpy["params"])
    assert values[1] == np.uint64(0x7000000)  # aligned pointer of arg1
    assert values[3] == 8 and values[4] == 1  # its size and stride
    assert values[-1] == np.float32(2.0) and values[-1].dtype == np.float32


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
