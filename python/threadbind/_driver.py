"""The CUDA driver API, through ctypes: what launching a program's kernels
from Python needs, and nothing that waits for the device.

Everything is per device: a device's primary context (the one PyTorch and
CuPy use), the modules loaded into it, and its multiprocessor limits. A
failing call raises ThreadBindError with the driver's name for the error.
"""

import ctypes
import threading

from ._bundle import ThreadBindError

# cuLaunchKernel's `extra` keys: the parameters as one packed buffer.
_PARAM_BUFFER_POINTER = 1
_PARAM_BUFFER_SIZE = 2
_PARAM_END = 0

_ATTRIBUTE = {  # CUdevice_attribute
    "multiprocessors": 16,
    "max_threads_per_multiprocessor": 39,
    "max_blocks_per_multiprocessor": 106,
}
_FUNC_MAX_DYNAMIC_SHARED = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
_NO_BINARY_FOR_GPU = 209  # CUDA_ERROR_NO_BINARY_FOR_GPU
_INVALID_IMAGE = 200  # CUDA_ERROR_INVALID_IMAGE
_INVALID_CONTEXT = 201  # CUDA_ERROR_INVALID_CONTEXT
_INVALID_HANDLE = 400  # CUDA_ERROR_INVALID_HANDLE
_CONTEXT_IS_DESTROYED = 709  # CUDA_ERROR_CONTEXT_IS_DESTROYED

_vp = ctypes.c_void_p


class Device:
    """One device: its primary context and limits."""

    def __init__(self, driver, ordinal):
        self.driver = driver
        self.ordinal = ordinal
        handle = ctypes.c_int()
        driver.check("cuDeviceGet", ctypes.byref(handle), ordinal)
        self.handle = handle.value
        context = _vp()
        driver.check("cuDevicePrimaryCtxRetain", ctypes.byref(context),
                     self.handle)
        self.context = context.value
        self.limits = {name: driver.attribute(code, self.handle)
                       for name, code in _ATTRIBUTE.items()}
        self._local = threading.local()

    def make_current(self):
        """Makes the device's primary context current on this thread (a
        PyTorch or CuPy thread usually has it already). Checked once a
        thread: a launch that finds another context current says so
        (Driver.launch), and the check is made again."""
        if getattr(self._local, "current", False):
            return
        current = _vp()
        get = self.driver.cuda.cuCtxGetCurrent
        if get(ctypes.byref(current)) != 0 or current.value != self.context:
            self.driver.check("cuCtxSetCurrent", _vp(self.context))
        self._local.current = True

    def forget_current(self):
        """Makes the next make_current on this thread check again."""
        self._local.current = False


class Driver:
    """libcuda.so.1, loaded on first use. `cuda` may be given a stand-in
    (tests): any object with the driver functions as attributes."""

    def __init__(self, cuda=None):
        self._cuda = cuda
        self._devices = {}
        self._lock = threading.Lock()
        self._local = threading.local()

    @property
    def cuda(self):
        if self._cuda is None:
            try:
                self._cuda = ctypes.CDLL("libcuda.so.1")
            except OSError as error:
                raise ThreadBindError(
                    "the CUDA driver (libcuda.so.1) cannot be loaded: "
                    f"{error}") from None
            self.check("cuInit", 0)
        return self._cuda

    def check(self, name, *args):
        result = getattr(self.cuda, name)(*args)
        if result != 0:
            raise ThreadBindError(f"{name} failed: {self.error_name(result)}")
        return result

    def error_name(self, code):
        text = ctypes.c_char_p()
        if self.cuda.cuGetErrorName(code, ctypes.byref(text)) == 0 and \
                text.value:
            return text.value.decode()
        return f"error {code}"

    def attribute(self, code, device):
        value = ctypes.c_int()
        self.check("cuDeviceGetAttribute", ctypes.byref(value), code, device)
        return value.value

    def device(self, ordinal):
        """The Device `ordinal`, set up once."""
        found = self._devices.get(ordinal)
        if found is None:
            with self._lock:
                found = self._devices.get(ordinal)
                if found is None:
                    found = self._devices[ordinal] = Device(self, ordinal)
        return found

    def load_module(self, images):
        """A module from the first of `images` (bytes: cubin, or PTX with a
        NUL at the end) the device takes; a cubin for another chip is
        skipped for the PTX."""
        last = None
        for image in images:
            module = _vp()
            result = self.cuda.cuModuleLoadData(ctypes.byref(module),
                                                ctypes.c_char_p(image))
            if result == 0:
                return module.value
            last = result
            if result not in (_NO_BINARY_FOR_GPU, _INVALID_IMAGE):
                break
        raise ThreadBindError(
            f"cuModuleLoadData failed: {self.error_name(last)}")

    def function(self, module, name):
        handle = _vp()
        self.check("cuModuleGetFunction", ctypes.byref(handle), _vp(module),
                   name.encode())
        return handle.value

    def resident_blocks_per_sm(self, function, threads):
        blocks = ctypes.c_int()
        self.check("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                   ctypes.byref(blocks), _vp(function), int(threads),
                   ctypes.c_size_t(0))
        return blocks.value

    def alloc_async(self, nbytes, stream):
        """`nbytes` of device memory, allocated in `stream`'s order."""
        pointer = ctypes.c_uint64()
        self.check("cuMemAllocAsync", ctypes.byref(pointer),
                   ctypes.c_size_t(nbytes), _vp(stream))
        return pointer.value

    def free_async(self, pointer, stream):
        """Frees memory from alloc_async once `stream` reaches this point."""
        self.check("cuMemFreeAsync", ctypes.c_uint64(pointer), _vp(stream))

    def set_dynamic_shared(self, function, nbytes):
        self.check("cuFuncSetAttribute", _vp(function),
                   _FUNC_MAX_DYNAMIC_SHARED, int(nbytes))

    def launch(self, function, grid, block, shared, stream, packer, values):
        """Launches `function` on `stream` (a CUstream handle as an int)
        without waiting, with its parameters `values` packed by `packer`
        (a struct.Struct laid out as the PTX entry's parameters).

        cuLaunchKernelEx takes the grid, block, shared memory and stream in
        one structure, kept per launch shape and thread, so a call converts
        four prepared arguments rather than eleven integers (ctypes'
        conversions were a third of a launch's cost)."""
        local = self._local
        state = getattr(local, "state", None)
        size = packer.size
        if state is None or len(state[0]) < size:
            # One parameter buffer a thread, reused: the driver copies the
            # parameters before the launch call returns.
            buffer = ctypes.create_string_buffer(max(size, 4096))
            length = ctypes.c_size_t()
            extra = (_vp * 5)(_PARAM_BUFFER_POINTER,
                              ctypes.addressof(buffer), _PARAM_BUFFER_SIZE,
                              ctypes.addressof(length), _PARAM_END)
            local.state = state = (buffer, length, extra, {})
        buffer, length, extra, configs = state
        packer.pack_into(buffer, 0, *values)
        length.value = size
        key = (function, grid, block, shared)
        prepared = configs.get(key)
        if prepared is None:
            if len(configs) > 256:
                configs.clear()
            config = _LaunchConfig(grid[0], grid[1], grid[2], block[0],
                                   block[1], block[2], shared)
            prepared = configs[key] = (config, ctypes.pointer(config),
                                       _vp(function))
        config, pointer, handle = prepared
        config.hStream = stream
        launch = self._launch_function()
        result = launch(pointer, handle, None, extra if size else None)
        if result != 0:
            if result in (_INVALID_CONTEXT, _INVALID_HANDLE,
                          _CONTEXT_IS_DESTROYED):
                # Another context is current on this thread now.
                for device in self._devices.values():
                    device.forget_current()
            raise ThreadBindError(
                f"cuLaunchKernelEx failed: {self.error_name(result)}")

    def _launch_function(self):
        """cuLaunchKernelEx, with its argument types set once."""
        launch = self.__dict__.get("_cuLaunchKernelEx")
        if launch is None:
            launch = self.cuda.cuLaunchKernelEx
            launch.argtypes = [ctypes.POINTER(_LaunchConfig), _vp, _vp, _vp]
            launch.restype = ctypes.c_int
            self._cuLaunchKernelEx = launch
        return launch


class _LaunchConfig(ctypes.Structure):
    """CUlaunchConfig (cuda.h), without attributes."""
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", _vp),
                ("attrs", _vp), ("numAttrs", ctypes.c_uint)]


_default = None


def default_driver():
    """The process's Driver."""
    global _default
    if _default is None:
        _default = Driver()
    return _default
