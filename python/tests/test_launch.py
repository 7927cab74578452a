"""threadbind._launch without a GPU: a stand-in driver records what would be
launched, so the plans, the packed parameters, the streams and every
argument check can be asserted here."""

import ctypes
import struct
from pathlib import Path

import numpy as np
import pytest

import threadbind
from threadbind._launch import Launcher

LAUNCHER_SOURCE = (Path(__file__).resolve().parents[2] / "examples" /
                   "launcher" / "kernels.mlir")


class FakeDevice:
    limits = {"multiprocessors": 132, "max_threads_per_multiprocessor": 2048,
              "max_blocks_per_multiprocessor": 32}
    context = 0xC0  # its primary context's handle

    def make_current(self):
        pass


class FakeDriver:
    """Records launches; never touches a device, and never waits (it has
    no synchronisation to call)."""

    def __init__(self):
        self.launches, self.loaded = [], []
        self.allocated, self.freed = [], []
        self.log = []  # allocations, launches (their index) and frees
        self.cuda = object()  # no cuPointerGetAttribute: device 0

    def device(self, ordinal):
        return FakeDevice()

    def load_module(self, images):
        self.loaded.append(images)
        return 1

    def function(self, module, name):
        return name

    def resident_blocks_per_sm(self, function, threads):
        return 4

    def set_dynamic_shared(self, function, nbytes):
        pass

    def alloc_async(self, nbytes, stream):
        pointer = 0x40000000 + 0x1000000 * len(self.allocated)
        self.allocated.append((nbytes, stream, pointer))
        self.log.append(f"alloc {nbytes} {stream}")
        return pointer

    def free_async(self, pointer, stream):
        self.freed.append((pointer, stream))
        self.log.append(f"free {pointer:#x} {stream}")

    def launch(self, function, grid, block, shared, stream, packer, values):
        self.log.append(len(self.launches))
        self.launches.append(dict(kernel=function, grid=grid, block=block,
                                  shared=shared, stream=stream,
                                  params=packer.pack(*values)))


class CAI:
    """Device memory by __cuda_array_interface__ (never dereferenced)."""

    def __init__(self, shape, typestr="<f4", strides=None, pointer=0x7000000,
                 stream=None):
        self.__cuda_array_interface__ = {
            "data": (pointer, False), "shape": shape, "typestr": typestr,
            "strides": strides, "version": 3, "stream": stream}


class FakeTensor:
    """What the launcher reads of a torch.Tensor."""

    class Device:
        def __init__(self, kind, index):
            self.type, self.index = kind, index

    def __init__(self, shape, dtype="float32", device=("cuda", 0),
                 pointer=0x9000000, strides=None):
        self.shape, self._dtype = shape, dtype
        self.device = FakeTensor.Device(*device)
        self._pointer = pointer
        self._strides = strides or threadbind._arrays.row_major(shape)

    @property
    def dtype(self):
        return "torch." + self._dtype

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    def get_device(self):
        return self.device.index if self.is_cuda else -1

    def data_ptr(self):
        return self._pointer

    def stride(self):
        return self._strides

    def element_size(self):
        return 2 if self._dtype == "bfloat16" else \
            np.dtype(self._dtype).itemsize


@pytest.fixture(scope="module")
def kernels():
    return threadbind.compile(LAUNCHER_SOURCE)


@pytest.fixture
def driver():
    return FakeDriver()


def unpack(launcher, launch):
    """The parameters of a recorded launch, unpacked."""
    index = launcher._kernel_index[launch["kernel"]]
    return launcher._structs[index].unpack(launch["params"])


def test_saxpy_packs_its_parameters(kernels, driver):
    saxpy = Launcher(kernels, "saxpy", driver=driver)
    x, y = CAI((1000,)), CAI((1000,), pointer=0x8000000)
    saxpy(2.5, x, y, stream=5)
    (launch,) = driver.launches
    assert launch["kernel"] == "saxpy_kernel" and launch["stream"] == 5
    # 250 vectors of 4 fit one block of 256 threads.
    assert launch["grid"] == (1, 1, 1) and launch["block"] == (256, 1, 1)
    values = unpack(saxpy, launch)
    # Two descriptors (pointers twice, offset, size, stride), then a.
    assert values == (0x7000000, 0x7000000, 0, 1000, 1, 0x8000000,
                      0x8000000, 0, 1000, 1, 2.5)
    assert len(driver.loaded) == 1
    assert driver.loaded[0][-1].endswith(b"\0")  # PTX, NUL-terminated


def test_the_plan_is_cached_by_shape(kernels, driver):
    saxpy = Launcher(kernels, "saxpy", driver=driver)
    for pointer in (0x1000, 0x2000):
        saxpy(1.0, CAI((1 << 20,), pointer=pointer), CAI((1 << 20,)))
    saxpy(1.0, CAI((7,)), CAI((7,)))
    assert len(saxpy._cache) == 2
    first, second, third = driver.launches
    assert unpack(saxpy, first)[1] == 0x1000
    assert unpack(saxpy, second)[1] == 0x2000
    assert first["grid"] == second["grid"] == (1024, 1, 1)
    assert third["grid"] == (1, 1, 1)


def test_streams(kernels, driver):
    saxpy = Launcher(kernels, "saxpy", driver=driver)

    class TorchStream:
        cuda_stream = 77

    class CupyStream:
        ptr = 88

    saxpy(1.0, CAI((4,)), CAI((4,)))
    saxpy(1.0, CAI((4,), stream=2), CAI((4,)))
    saxpy(1.0, CAI((4,), stream=2), CAI((4,)), stream=TorchStream())
    saxpy(1.0, CAI((4,)), CAI((4,)), stream=CupyStream())
    assert [l["stream"] for l in driver.launches] == [0, 2, 77, 88]


def test_views_pick_their_version(kernels, driver):
    """scale_view has a copy for a unit innermost stride (and 32-bit
    addressing): the plan follows the arrays' strides."""
    view = Launcher(kernels, "scale_view", driver=driver)
    unit = CAI((37, 250), strides=(4 * 800, 4))
    every_third = CAI((37, 250), strides=(4 * 800, 12))
    out = CAI((37, 250), strides=(4 * 255, 4), pointer=0x8000000)
    view(unit, out, 0.5)
    view(every_third, out, 0.5)
    unit_launch, general_launch = driver.launches
    assert unit_launch["kernel"] != general_launch["kernel"]
    values = unpack(view, general_launch)
    # The general copy gets the strides in elements: (800, 3).
    assert values[5:7] == (800, 3)
    assert values[-1] == 0.5


def test_transpose_and_rows(kernels, driver):
    Launcher(kernels, "transpose", driver=driver)(
        CAI((1000, 777)), CAI((777, 1000)))
    Launcher(kernels, "row_sums", driver=driver)(
        CAI((300, 1000), "<f8"), CAI((300,), "<f8"))
    transpose, rows = driver.launches
    # Rows of 777 and 1000 floats are not all on 8 bytes, so the 128x32
    # tiles run: 8 of 128 along the stores' 1000, 25 of 32 along 777.
    assert transpose["grid"] == (8 * 25, 1, 1)
    assert transpose["block"] == (32, 8, 1)
    assert rows["grid"] == (300, 1, 1)  # a block a row


@pytest.mark.parametrize("args, error, message", [
    ((2.0, CAI((3,))), TypeError, r"saxpy takes 3 arguments \(2 given\)"),
    ((2.0, CAI((3,), "<f8"), CAI((3,))), TypeError,
     r"saxpy: argument 1 \(memref<\?xf32>\): dtype float64, expected "
     r"float32"),
    ((2.0, CAI((3, 1)), CAI((3,))), ValueError,
     r"argument 1 .*rank 2, expected 1"),
    ((2.0, np.zeros(3, np.float32), CAI((3,))), TypeError,
     r"argument 1 .*a NumPy array where device memory is needed"),
    ((CAI((1,)), CAI((3,)), CAI((3,))), TypeError,
     r"argument 0 \(f32\): an array was given for a scalar"),
    (("two", CAI((3,)), CAI((3,))), TypeError,
     r"argument 0 \(f32\): 'two' is not a f32"),
    ((2.0, [1.0], CAI((3,))), TypeError,
     r"argument 1 .*list given where a device array is needed"),
    ((2.0, FakeTensor((3,), device=("cpu", None)), CAI((3,))), TypeError,
     r"argument 1 .*a cpu tensor where a CUDA tensor is needed"),
    ((2.0, FakeTensor((3,)), FakeTensor((3,), device=("cuda", 1))),
     ValueError, r"argument 2 .*on device 1, but earlier arrays are on "
                 r"device 0"),
    ((2.0, CAI((3,), strides=(8,)), CAI((3,))), ValueError,
     r"argument 1 .*strides \(2,\) \(in elements\) are not row-major"),
    ((2.0, CAI((3,), strides=(6,)), CAI((3,))), ValueError,
     r"argument 1 .*strides \(6,\) bytes are not whole elements of 4"),
])
def test_bad_arguments_name_the_argument(kernels, driver, args, error,
                                         message):
    saxpy = Launcher(kernels, "saxpy", driver=driver)
    with pytest.raises(error, match=message):
        saxpy(*args)
    assert driver.launches == []


def test_static_sizes_and_fixed_strides(program, driver):
    rows = Launcher(program, "rows", driver=driver)
    with pytest.raises(ValueError, match=r"dimension 0 is 3, expected 4"):
        rows(CAI((3, 5), "<f8"), CAI((3, 5), "<f8"))
    fixed = Launcher(program, "fixed_view", driver=driver)
    with pytest.raises(ValueError, match=r"argument 0 .*stride 1 is 1 "
                                         r"elements, but its type fixes 2"):
        fixed(CAI((4, 5), "<f8"), CAI((4, 5), "<f8", (80, 16)))
    # A fixed offset moves the aligned pointer back by that many elements.
    fixed(CAI((4, 5), "<f8", (88, 16)), CAI((4, 5), "<f8", (80, 16)))
    values = unpack(fixed, driver.launches[0])
    assert values[:3] == (0x7000000 - 3 * 8, 0x7000000 - 3 * 8, 3)


STEPS = """
func.func @steps(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %m = memref.dim %x, %c0 : memref<?xf32>
  scf.for %t = %c0 to %n step %c1 {
    scf.parallel (%i) = (%c0) to (%m) step (%c1) {
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %x[%i] : memref<?xf32>
    }
  }
  return
}
"""


def test_functions_a_caller_cannot_stand_in_for_are_refused(program):
    steps = threadbind.compile(STEPS)
    with pytest.raises(threadbind.ThreadBindError,
                       match="steps cannot be launched from its PTX: kernel "
                             "'steps_kernel' is launched inside 'scf.for' at "
                             r".*:7:3; call it through program.load\(\) "
                             "instead"):
        Launcher(steps, "steps", driver=FakeDriver())
    with pytest.raises(threadbind.ThreadBindError,
                       match="no kernel of host function 'nope'"):
        Launcher(program, "nope", driver=FakeDriver())


def test_device_scratch_is_allocated_on_the_stream(program, driver):
    """A full reduction's per-block partial results: allocated in stream
    order before its two launches, passed to both, freed after them."""
    total = Launcher(program, "total", driver=driver)
    x, out = CAI((1 << 20,), "<i4"), CAI((1,), "<i4", pointer=0x8000000)
    total(x, out, stream=9)
    first, second = driver.launches
    ((nbytes, stream, pointer),) = driver.allocated
    assert stream == 9 and driver.freed == [(pointer, 9)]
    # 4096 blocks of 256 would cover 2^20 elements; the resident grid
    # (4 blocks an SM of 132) is smaller.
    assert nbytes == 4 * 132 * 4
    first_values, second_values = unpack(total, first), unpack(total, second)
    assert pointer in first_values and pointer in second_values
    assert first["grid"] == (132 * 4, 1, 1) and second["grid"] == (1, 1, 1)
    # Freed even when a launch fails.
    driver.launch = lambda *args: (_ for _ in ()).throw(
        threadbind.ThreadBindError("cuLaunchKernel failed"))
    with pytest.raises(threadbind.ThreadBindError):
        total(x, out)
    assert len(driver.freed) == 2


def test_scalars_of_every_width(driver):
    program = threadbind.compile(
        Path(__file__).resolve().parents[2] / "test" / "Tools" /
        "threadbind-compile" / "Inputs" / "odd-names.mlir")
    launcher = Launcher(program, "my_func_v2", driver=driver)
    launcher(CAI((10,), "|i1"), True, 1.5)
    (launch,) = driver.launches
    assert unpack(launcher, launch)[-1] == 1  # the i1, extended to i8
    with pytest.raises(TypeError, match=r"argument 1 \(i1\): 'x' is not a "
                                        "i1"):
        launcher(CAI((10,), "|i1"), "x", 1.5)


def test_an_impossible_grid_is_refused(kernels, driver):
    transpose = Launcher(kernels, "transpose", driver=driver)
    huge = 1 << 22
    # Even rows take the 64x64-tile launch: (2^22 / 64)^2 blocks.
    with pytest.raises(threadbind.ThreadBindError,
                       match=r"grid \(4294967296, 1, 1\) is more than the "
                             "device can launch"):
        transpose(CAI((huge, huge)), CAI((huge, huge)))
    assert driver.launches == []


def test_dlpack_arrays(kernels, driver):
    """A DLPack producer's capsule is read without copying."""
    from threadbind._arrays import _DLTensor

    shape = (ctypes.c_int64 * 1)(6)
    tensor = _DLTensor()
    tensor.data, tensor.ndim, tensor.shape = 0x5000, 1, shape
    tensor.device.device_type, tensor.device.device_id = 2, 0
    tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes = 2, 32, 1
    tensor.byte_offset = 16
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

    asked = []

    class Producer:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, stream=None):
            asked.append(stream)
            return new(ctypes.addressof(tensor), b"dltensor", None)

    class Stream:
        cuda_stream = 31

    saxpy = Launcher(kernels, "saxpy", driver=driver)
    saxpy(1.0, Producer(), CAI((6,)))
    assert unpack(saxpy, driver.launches[0])[:4] == (0x5010, 0x5010, 0, 6)
    # The producer is told the consumer's stream, as a handle.
    saxpy(1.0, Producer(), CAI((6,)), stream=Stream())
    assert asked == [None, 31] and driver.launches[1]["stream"] == 31
    tensor.dtype.code = 0  # int32 now
    with pytest.raises(TypeError, match="dtype int32, expected float32"):
        saxpy(1.0, Producer(), CAI((6,)))


def test_launch_ptx_uses_the_launcher(program, monkeypatch):
    fake = FakeDriver()
    monkeypatch.setattr(threadbind._launch, "default_driver", lambda: fake)
    program.__dict__.pop("_launchers", None)
    try:
        threadbind.launch_ptx(program, "axpy", 2.0, CAI((8,)), CAI((8,)),
                              stream=3)
    finally:
        program.__dict__.pop("_launchers", None)
    assert [l["kernel"] for l in fake.launches] == ["axpy_kernel"]
    assert fake.launches[0]["stream"] == 3


def test_the_driver_packs_and_launches_through_cuLaunchKernelEx():
    """threadbind._driver.Driver.launch with a stand-in libcuda: the launch
    configuration and the packed parameter buffer cuLaunchKernelEx gets."""
    from threadbind._driver import Driver, _LaunchConfig
    seen = []

    def launch_ex(config, function, params, extra):
        c = config.contents
        # extra: BUFFER_POINTER, the buffer, BUFFER_SIZE, its size, END.
        size = ctypes.c_size_t.from_address(extra[3]).value
        seen.append(((c.gridDimX, c.gridDimY, c.gridDimZ),
                     (c.blockDimX, c.blockDimY, c.blockDimZ),
                     c.sharedMemBytes, c.hStream, function.value,
                     ctypes.string_at(extra[1], size)))
        return 0

    class Cuda:
        cuLaunchKernelEx = staticmethod(launch_ex)

    driver = Driver(cuda=Cuda())
    packer = struct.Struct("<Qf")
    driver.launch(0x1234, (7, 1, 1), (256, 1, 1), 0, 5, packer, (99, 2.5))
    driver.launch(0x1234, (7, 1, 1), (256, 1, 1), 0, 6, packer, (100, 1.0))
    assert seen[0][:5] == ((7, 1, 1), (256, 1, 1), 0, 5, 0x1234)
    assert struct.unpack("<Qf", seen[0][5]) == (99, 2.5)
    assert seen[1][3] == 6 and struct.unpack("<Qf", seen[1][5]) == (100, 1.0)
    assert ctypes.sizeof(_LaunchConfig) == 56  # as cuda.h lays it out
    assert _LaunchConfig.hStream.offset == 32

    def failing(config, function, params, extra):
        return 201  # CUDA_ERROR_INVALID_CONTEXT

    Cuda.cuLaunchKernelEx = staticmethod(failing)
    Cuda.cuGetErrorName = staticmethod(lambda code, name: 1)
    driver = Driver(cuda=Cuda())
    with pytest.raises(threadbind.ThreadBindError,
                       match="cuLaunchKernelEx failed: error 201"):
        driver.launch(1, (1, 1, 1), (1, 1, 1), 0, 0, packer, (1, 1.0))


HALVES = """
func.func @scale_halves(%x: memref<?xf16>, %a: f16, %y: memref<?xbf16>,
                        %b: bf16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf16>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf16>
    %w = arith.mulf %v, %a : f16
    memref.store %w, %x[%i] : memref<?xf16>
    %u = memref.load %y[%i] : memref<?xbf16>
    %t = arith.mulf %u, %b : bf16
    memref.store %t, %y[%i] : memref<?xbf16>
  }
  return
}
"""


@pytest.mark.parametrize("a, b, a_bits, b_bits", [
    (1.5, 1.5, 0x3E00, 0x3FC0),
    # 1 + 2^-8 + 2^-16 rounds up in bf16; 1 + 2^-8 is a tie, to even.
    (1.0, 1.0 + 2 ** -8 + 2 ** -16, 0x3C00, 0x3F81),
    (-2.0, 1.0 + 2 ** -8, 0xC000, 0x3F80),
    (0.0, float("inf"), 0x0000, 0x7F80),
    (1.0, float("nan"), 0x3C00, 0x7FC0),
])
def test_f16_and_bf16_scalars_pass_their_bits(driver, a, b, a_bits, b_bits):
    halves = Launcher(threadbind.compile(HALVES), "scale_halves",
                      driver=driver)
    halves(CAI((8,), "<f2"), a, CAI((8,), "<V2", pointer=0x8000000), b)
    (launch,) = driver.launches
    values = unpack(halves, launch)
    kernel = halves.kernels[0]
    scalars = [v for p, v in zip(kernel["params"], values)
               if p.get("field") is None]
    assert scalars == [a_bits, b_bits]


def test_plans_follow_pointers_where_a_condition_compares_bytes(driver):
    """With read-only loads, axpy has a copy for disjoint x and y: arrays
    of the same shapes get the one their bytes allow, call after call."""
    from conftest import SOURCE
    program = threadbind.compile(SOURCE, read_only_loads=True)
    axpy = Launcher(program, "axpy", driver=driver)
    apart = (2.0, CAI((64,), pointer=0x1000), CAI((64,), pointer=0x9000))
    same = (2.0, CAI((64,), pointer=0x1000), CAI((64,), pointer=0x1000))
    for args in (apart, same, apart):
        axpy(*args)
    kernels = [launch["kernel"] for launch in driver.launches]
    assert kernels[0] == kernels[2] != kernels[1]


@pytest.mark.parametrize("scale, message", [
    (1e300, "float too large to pack"),  # struct raises OverflowError
    (float("inf"), None),                # an f32 infinity: fine
])
def test_scalars_past_their_type_say_which_parameter(kernels, driver, scale,
                                                     message):
    saxpy = Launcher(kernels, "saxpy", driver=driver)
    x, y = CAI((16,)), CAI((16,), pointer=0x8000000)
    if message is None:
        saxpy(scale, x, y)
        assert len(driver.launches) == 1
        return
    with pytest.raises(OverflowError, match="saxpy: a parameter of saxpy.* "
                                            "does not fit its type: " +
                                            message):
        saxpy(scale, x, y)
