"""Device arrays as ThreadBind launches see them: PyTorch tensors, objects
with ``__cuda_array_interface__`` (CuPy, Numba, ...) and DLPack producers,
read into one form without copying or synchronising."""

import ctypes

import numpy as np

# PyTorch dtypes by object, named as NumPy names them (filled on first use).
_TORCH_NAMES = {}
# The classes found to be PyTorch tensors.
_TORCH_TYPES = set()


class Array:
    """A device array, as a launch sees it: the address of its element
    [0, ...], its shape and strides in elements, its element type's name
    and size, its device ordinal (None where its producer does not say)
    and the stream its producer names ("torch" for PyTorch's current
    stream, None where it names none)."""

    __slots__ = ("pointer", "shape", "strides", "dtype", "itemsize",
                 "device", "stream", "owner")

    def __init__(self, pointer, shape, strides, dtype, itemsize, device,
                 stream=None, owner=None):
        self.pointer, self.shape, self.strides = pointer, shape, strides
        self.dtype, self.itemsize = dtype, itemsize
        self.device, self.stream = device, stream
        # What keeps the memory alive while it is used (a DLPack capsule).
        self.owner = owner


def _torch_array(tensor):
    if not tensor.is_cuda:
        raise TypeError(f"a {tensor.device.type} tensor where a CUDA tensor "
                        "is needed")
    dtype = tensor.dtype
    name = _TORCH_NAMES.get(dtype)
    if name is None:
        name = _TORCH_NAMES[dtype] = str(dtype).rpartition(".")[2]
    return Array(tensor.data_ptr(), tensor.shape, tensor.stride(), name,
                 tensor.element_size(), tensor.get_device(), "torch")


def _interface_array(obj):
    cai = obj.__cuda_array_interface__
    dtype = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = element_strides(shape, cai.get("strides"), dtype.itemsize)
    name = "bfloat16" if cai["typestr"][1:] == "V2" else dtype.name
    return Array(cai["data"][0], shape, strides, name, dtype.itemsize, None,
                 cai.get("stream"))


# DLPack (dlpack.h): a DLManagedTensor's first member is its DLTensor.

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DL_CUDA = 2
_DL_CODES = {(0, 8): "int8", (0, 16): "int16", (0, 32): "int32",
             (0, 64): "int64", (1, 8): "uint8", (1, 16): "uint16",
             (1, 32): "uint32", (1, 64): "uint64", (2, 16): "float16",
             (2, 32): "float32", (2, 64): "float64", (4, 16): "bfloat16",
             (6, 8): "bool"}


def _dlpack_array(obj, stream):
    """A DLPack producer's array (its capsule's DLTensor), asked for with
    `stream`, the consumer's stream, as the DLPack protocol has it."""
    capsule = obj.__dlpack__(stream=stream) if stream is not None else \
        obj.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object,
                                                  ctypes.c_char_p]
    tensor = _DLTensor.from_address(get(capsule, b"dltensor"))
    if tensor.device.device_type != _DL_CUDA:
        raise TypeError("a DLPack array not in CUDA device memory")
    if tensor.dtype.lanes != 1 or \
            (tensor.dtype.code, tensor.dtype.bits) not in _DL_CODES:
        raise TypeError("a DLPack array of an element type ThreadBind has "
                        "no name for")
    ndim = tensor.ndim
    shape = tuple(tensor.shape[k] for k in range(ndim))
    strides = (tuple(tensor.strides[k] for k in range(ndim))
               if tensor.strides else row_major(shape))
    itemsize = tensor.dtype.bits // 8
    return Array((tensor.data or 0) + tensor.byte_offset, shape, strides,
                 _DL_CODES[(tensor.dtype.code, tensor.dtype.bits)], itemsize,
                 tensor.device.device_id, owner=capsule)


def as_array(obj, stream=None):
    """`obj` as an Array, or None when it is not a device array."""
    cls = type(obj)
    if cls in _TORCH_TYPES:
        return _torch_array(obj)
    if hasattr(obj, "data_ptr") and hasattr(obj, "stride") and \
            hasattr(obj, "is_cuda"):
        _TORCH_TYPES.add(cls)
        return _torch_array(obj)
    if hasattr(obj, "__cuda_array_interface__"):
        return _interface_array(obj)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        device_type, _ = obj.__dlpack_device__()
        if int(device_type) == _DL_CUDA:
            return _dlpack_array(obj, stream)
    return None


def row_major(shape):
    """The element strides of C-contiguous data of `shape`."""
    strides, stride = [0] * len(shape), 1
    for k in reversed(range(len(shape))):
        strides[k] = stride
        stride *= shape[k]
    return tuple(strides)


def element_strides(shape, byte_strides, itemsize, where=None):
    """`byte_strides` (None: C-contiguous) in elements. A stride that is not
    a whole number of elements raises ValueError (its message led by
    `where` when given), unless its dimension has one element or none (its
    stride is never used)."""
    if byte_strides is None:
        return row_major(shape)
    if any(s % itemsize for s, n in zip(byte_strides, shape) if n > 1):
        raise ValueError(f"{where + ': ' if where else ''}strides "
                         f"{tuple(byte_strides)} bytes are not whole "
                         f"elements of {itemsize} bytes")
    return tuple(s // itemsize for s in byte_strides)
