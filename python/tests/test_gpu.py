"""On a CUDA device: every entry against its CPU reference, with NumPy,
CuPy and PyTorch arrays, and launch_ptx. Skipped without a device."""

import os

import numpy as np
import pytest

import threadbind

from conftest import SOURCE


def test_numpy_arrays_round_trip(gpu):
    rng = np.random.default_rng(7)
    for n in (0, 1, 1000, 100003):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        want = y.copy()
        gpu.axpy.reference(1.5, x, want)
        gpu.axpy(1.5, x, y)
        np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)
    src = rng.standard_normal((4, 1031))
    out, want = np.zeros_like(src), np.zeros_like(src)
    gpu.rows(src, out)
    gpu.rows.reference(src, want)
    np.testing.assert_allclose(out, want, rtol=1e-14)
    ints = rng.integers(-100, 100, 1 << 20, dtype=np.int32)
    total, want_total = np.zeros(1, np.int32), np.zeros(1, np.int32)
    gpu.total(ints, total)
    gpu.total.reference(ints, want_total)
    assert total[0] == want_total[0]
    h = rng.standard_normal(4099).astype(np.float16)
    hout, hwant = np.zeros_like(h), np.zeros_like(h)
    gpu.twice_f16(h, hout)
    gpu.twice_f16.reference(h, hwant)
    np.testing.assert_array_equal(hout, hwant)
    p, pout, pwant = (np.arange(1000, dtype=np.float32),
                      np.zeros(1000, np.float32), np.zeros(1000, np.float32))
    gpu.padded(p, pout)
    gpu.padded.reference(p, pwant)
    np.testing.assert_array_equal(pout, pwant)


def test_launch_records(gpu):
    x = np.arange(1 << 20, dtype=np.float32)
    y = np.zeros(1 << 20, dtype=np.float32)
    with gpu.record_launches() as launches:
        gpu.axpy(1.0, x, y)
    assert [l.kernel for l in launches] == ["axpy_kernel"]
    assert launches[0].milliseconds > 0 and launches[0].registers > 0
    assert launches[0].block == (256, 1, 1) and 0 < launches[0].occupancy <= 1
    np.testing.assert_array_equal(y, x)


def test_overlapping_arguments_run_the_kernel_as_written(gpu):
    """axpy reads x and writes y: compiled with read_only_loads, where they
    are disjoint its copy loading x through the read-only cache runs; where
    they overlap, the kernel as written, through the bundle and through
    launch_ptx."""
    cupy = pytest.importorskip("cupy")
    saved = os.environ.get("THREADBIND_TEST_READ_ONLY_PROGRAM")
    program = (threadbind.open_program(saved) if saved else
               threadbind.compile(SOURCE, read_only_loads=True))
    gpu = program.load()
    n = 1 << 16
    both = cupy.arange(2 * n, dtype=cupy.float32)
    x, y = both[:n], both[n:]
    with gpu.record_launches() as launches:
        gpu.axpy(2.0, x, y)
    assert [l.kernel for l in launches] == ["axpy_kernel"]
    whole = np.arange(2 * n, dtype=np.float32)
    np.testing.assert_allclose(cupy.asnumpy(y), 2.0 * whole[:n] + whole[n:])
    # y = 2 y + y, in place: each element read before it is written.
    same = cupy.arange(n, dtype=cupy.float32)
    with gpu.record_launches() as launches:
        gpu.axpy(2.0, same, same)
    assert [l.kernel for l in launches] == ["axpy_kernel_0"]
    np.testing.assert_allclose(cupy.asnumpy(same), 3.0 * whole[:n])
    # Overlapping by one element: x = both[0:n], y = both[n-1:2n-1].
    both = cupy.arange(2 * n, dtype=cupy.float32)
    with gpu.record_launches() as launches:
        gpu.axpy(1.0, both[:n], both[n - 1:2 * n - 1])
    assert [l.kernel for l in launches] == ["axpy_kernel_0"]
    threadbind.launch_ptx(program, "axpy", 2.0, same, same)
    cupy.cuda.Device().synchronize()
    np.testing.assert_allclose(cupy.asnumpy(same), 9.0 * whole[:n])


def test_cupy_arrays_in_place(gpu):
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(100003, dtype=cupy.float32)
    y = cupy.ones(100003, dtype=cupy.float32)
    gpu.axpy(2.0, x, y)
    np.testing.assert_allclose(cupy.asnumpy(y),
                               2.0 * np.arange(100003, dtype=np.float32) + 1)
    with pytest.raises(TypeError, match="dtype float64, expected float32"):
        gpu.axpy(2.0, x.astype(cupy.float64), y)
    with pytest.raises(ValueError, match="not contiguous"):
        gpu.axpy(2.0, x[::2], y[::2])
    with pytest.raises(ValueError, match="multiple of 256"):
        gpu.padded(cupy.zeros(1000, cupy.float32),
                   cupy.zeros(1000, cupy.float32))


def test_torch_tensors_in_place(gpu):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    x = torch.arange(4096, dtype=torch.float32, device="cuda")
    y = torch.zeros(4096, dtype=torch.float32, device="cuda")
    gpu.axpy(0.5, x, y)
    torch.testing.assert_close(y, 0.5 * x)


def test_launch_ptx_with_cupy(gpu, program):
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(1 << 20, dtype=cupy.float32)
    y = cupy.ones(1 << 20, dtype=cupy.float32)
    threadbind.launch_ptx(program, "axpy", 3.0, x, y)
    cupy.cuda.Device().synchronize()
    np.testing.assert_allclose(
        cupy.asnumpy(y), 3.0 * np.arange(1 << 20, dtype=np.float32) + 1)
    with pytest.raises(TypeError, match="a NumPy array where device memory"):
        threadbind.launch_ptx(program, "axpy", 3.0, np.zeros(4, np.float32),
                              np.zeros(4, np.float32))
    # A full reduction: its device scratch allocated and freed on the
    # stream.
    ints = cupy.arange(-7000, 10003, dtype=cupy.int32)
    total = cupy.zeros(1, cupy.int32)
    threadbind.launch_ptx(program, "total", ints, total)
    cupy.cuda.Device().synchronize()
    assert int(total[0]) == int(ints.sum()) + 10  # 25528513, no wrap


def test_strided_views(gpu, program):
    """Views for strided arguments: NumPy ones copied through buffers laid
    out as the type needs, CuPy and PyTorch ones in place, and launch_ptx;
    against NumPy."""
    rng = np.random.default_rng(3)
    base = rng.standard_normal((70, 130)).astype(np.float32)
    views = [base, base[:, ::2], base.T, base[1:, 2:], base[::-1],
             base[::-3, ::-2]]
    for a in views:
        out = np.full((140, 140), np.nan, np.float32)
        b = out[a.shape[0] - 1::-1, 5:5 + a.shape[1]]
        gpu.scale_view(a, b, 1.5)
        np.testing.assert_array_equal(b, a * np.float32(1.5))
        assert np.isnan(out).sum() == out.size - b.size
    fixed = rng.standard_normal((4, 301))
    fout = np.full((4, 300), np.nan)
    gpu.fixed_view(fixed[:, 1::2], fout[:, ::2])
    np.testing.assert_array_equal(fout[:, ::2], fixed[:, 1::2] + 1)
    assert np.isnan(fout[:, 1::2]).all()

    cupy = pytest.importorskip("cupy")
    dbase = cupy.asarray(base)
    for a, view in [(dbase[:, ::2], base[:, ::2]), (dbase.T, base.T),
                    (dbase[::-1, ::-3], base[::-1, ::-3])]:
        dout = cupy.full((140, 140), cupy.nan, cupy.float32)
        b = dout[a.shape[0] - 1::-1, 5:5 + a.shape[1]]
        gpu.scale_view(a, b, -2.0)
        host = cupy.asnumpy(dout)
        np.testing.assert_array_equal(
            host[a.shape[0] - 1::-1, 5:5 + a.shape[1]], view * np.float32(-2))
        assert np.isnan(host).sum() == host.size - b.size
        dout.fill(cupy.nan)
        threadbind.launch_ptx(program, "scale_view", a, b, -2.0)
        cupy.cuda.Device().synchronize()
        np.testing.assert_array_equal(cupy.asnumpy(b), view * np.float32(-2))
    dfixed = cupy.asarray(fixed)
    dfout = cupy.full((4, 300), cupy.nan)
    threadbind.launch_ptx(program, "fixed_view", dfixed[:, 1::2],
                          dfout[:, ::2])
    cupy.cuda.Device().synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(dfout[:, ::2]),
                                  fixed[:, 1::2] + 1)
    assert cupy.isnan(dfout[:, 1::2]).all()
    with pytest.raises(ValueError, match=r"needs \[\?, 2\]"):
        gpu.fixed_view(dfixed[:, :150], dfout[:, ::2])


def test_strided_torch_views(gpu):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    x = torch.randn(70, 130, device="cuda")
    for a in (x[:, ::2], x.t(), x[1:, 2:]):
        out = torch.full((140, 140), float("nan"), device="cuda")
        b = out[:a.shape[0], 5:5 + a.shape[1]]
        gpu.scale_view(a, b, 0.5)
        torch.testing.assert_close(b, a * 0.5, rtol=0, atol=0)
        assert int(out.isnan().sum()) == out.numel() - b.numel()
    with pytest.raises(ValueError, match=r"needs \[\?, 1\]"):
        gpu.scale_view(x, x[:, ::2], 0.5)


def torch_with_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    return torch


def test_launcher_on_torch_streams(gpu, program):
    """program.launcher launches on the current PyTorch stream, or the one
    given, in place, for contiguous tensors and strided views."""
    torch = torch_with_cuda()
    axpy = program.launcher("axpy")
    x = torch.arange(100003, dtype=torch.float32, device="cuda")
    y = torch.ones_like(x)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        axpy(2.0, x, y)
    side.synchronize()
    torch.testing.assert_close(y, 2 * x + 1)
    z = torch.ones_like(x)
    axpy(3.0, x, z, stream=side)
    side.synchronize()
    torch.testing.assert_close(z, 3 * x + 1)
    a = torch.randn(64, 100, device="cuda")
    b = torch.zeros(64, 50, device="cuda")
    program.launcher("scale_view")(a[:, ::2], b, 0.5)
    torch.cuda.synchronize()
    torch.testing.assert_close(b, 0.5 * a[:, ::2])
    with pytest.raises(TypeError, match="dtype float64, expected float32"):
        axpy(1.0, x.double(), y)
    with pytest.raises(TypeError, match="a cpu tensor where a CUDA tensor"):
        axpy(1.0, x.cpu(), y)


def test_launcher_on_cupy_streams(gpu, program):
    cupy = pytest.importorskip("cupy")
    axpy = program.launcher("axpy")
    x = cupy.arange(4099, dtype=cupy.float32)
    y = cupy.ones(4099, dtype=cupy.float32)
    with cupy.cuda.Stream() as stream:
        axpy(0.5, x, y)
        stream.synchronize()
    np.testing.assert_allclose(cupy.asnumpy(y),
                               0.5 * np.arange(4099, dtype=np.float32) + 1)


@pytest.mark.parametrize("native", [True, False])
def test_torch_custom_ops(gpu, program, native):
    """threadbind.torch: an in-place op (mutating its memref arguments) and
    a functional one (allocating its output), eagerly and under
    torch.compile, with the native kernels and the Python ones."""
    torch = torch_with_cuda()
    import threadbind.torch
    suffix = "native" if native else "python"

    def custom_op(function, name, **options):
        return threadbind.torch.custom_op(
            program, function, name=f"tbtest::{name}_{suffix}",
            native=native, **options)

    axpy = custom_op("axpy", "axpy")
    x = torch.randn(10007, device="cuda")
    y = torch.randn(10007, device="cuda")
    want = 2.0 * x + y
    version = y._version
    axpy(2.0, x, y)
    torch.testing.assert_close(y, want)
    assert y._version > version  # written in place, as PyTorch's ops do
    getattr(torch.ops.tbtest, f"axpy_{suffix}")(1.0, x, y)
    torch.testing.assert_close(y, want + x)
    twice = custom_op("twice_f16", "twice", outputs={1: 0})
    h = torch.randn(4099, device="cuda").half()
    torch.testing.assert_close(twice(h), h * 2)
    compiled = torch.compile(lambda v: twice(v) + 1)
    torch.testing.assert_close(compiled(h), h * 2 + 1)

    def in_place(a, b):
        axpy(3.0, a, b)
        return b * 2
    z = torch.zeros_like(x)
    torch.testing.assert_close(torch.compile(in_place)(x, z), 6.0 * x)
    torch.testing.assert_close(z, 3.0 * x)
    with pytest.raises(TypeError, match="dtype float32, expected float16"):
        twice(h.float())
    with pytest.raises(TypeError, match="a cpu tensor where a CUDA tensor"):
        axpy(1.0, x.cpu(), y)
    with pytest.raises(ValueError, match="not row-major"):
        axpy(1.0, torch.randn(20, device="cuda")[::2], y[:10])

    # On the current stream: queued behind a long kernel on a side stream,
    # the result is not there until that stream is waited for.
    side = torch.cuda.Stream()
    a = torch.arange(100003, dtype=torch.float32, device="cuda")
    b = torch.ones_like(a)
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        torch.cuda._sleep(50_000_000)
        axpy(2.0, a, b)
    assert not side.query()
    side.synchronize()
    torch.testing.assert_close(b, 2 * a + 1)

    # Device scratch (a reduction's partial sums), strided views, shapes
    # that change between calls (each a plan of its own), and scalars.
    total = custom_op("total", "total", outputs={1: None})
    for n in (1, 1000, 100003, 7):
        v = torch.randint(-5, 6, (n,), dtype=torch.int32, device="cuda")
        assert int(total(v)[0]) == int(v.sum()) + 10  # total adds 10
    scale = custom_op("scale_view", "scale")
    m = torch.randn(70, 130, device="cuda")
    for view in (m[:, ::2], m.t(), m[1:, 2:]):
        out = torch.zeros(140, 140, device="cuda")
        scale(view, out[:view.shape[0], 5:5 + view.shape[1]], -0.5)
        torch.testing.assert_close(
            out[:view.shape[0], 5:5 + view.shape[1]], view * -0.5)
    with pytest.raises(ValueError, match="stride 1 is 2 elements, but its "
                                         "type fixes 1"):
        scale(m, m[:, ::2], 0.5)
    with pytest.raises(OverflowError, match="does not fit its type"):
        axpy(1e300, x, y)
    shift = custom_op("shift_by", "shift", outputs={3: 0})
    v = torch.randint(-100, 100, (3001,), dtype=torch.int32, device="cuda")
    for k, on in ((5, True), (-7, True), (5, False), (2 ** 31 - 1, True)):
        want = (v.long() + k).to(torch.int32) if on else v
        torch.testing.assert_close(shift(v, k, on), want)
    with pytest.raises(OverflowError, match="does not fit its type"):
        shift(v, 2 ** 31, True)
    empty = torch.empty(0, device="cuda")
    axpy(1.0, empty, empty)
    assert shift(v[:0], 1, True).shape == (0,)
