"""The C ABI of bundles and the runtime, mirrored for ctypes.

Every structure and enum here is declared in include/threadbind/Runtime/
Bundle.h or Runtime.h; python/tests/test_abi.py compiles those headers and
checks every size, offset and enum value below against them.
"""

import ctypes
import enum


class ElementType(enum.IntEnum):
    """ThreadBindElementType."""
    F16 = 0
    BF16 = 1
    F32 = 2
    F64 = 3
    I8 = 4
    I16 = 5
    I32 = 6
    I64 = 7
    INDEX = 8
    I1 = 9


class Access(enum.IntFlag):
    """ThreadBindAccess."""
    READ = 1
    WRITE = 2
    READ_WRITE = 3


class TermKind(enum.IntEnum):
    """ThreadBindTermKind."""
    CONSTANT = 0
    DIM = 1
    SCALAR = 2


class ArgumentStruct(ctypes.Structure):
    """ThreadBindArgument (Bundle.h)."""
    _fields_ = [
        ("isMemRef", ctypes.c_int32),
        ("elementType", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("access", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("paddedTo", ctypes.c_int64),
        ("strided", ctypes.c_int32),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("offset", ctypes.c_int64),
    ]


# THREADBIND_DYNAMIC (Bundle.h): a stride or offset the caller gives.
DYNAMIC = -(2 ** 63)


class LaunchRecordStruct(ctypes.Structure):
    """ThreadBindLaunchRecord (Runtime.h)."""
    _fields_ = [
        ("kernel", ctypes.c_char * 128),
        ("grid", ctypes.c_int64 * 3),
        ("block", ctypes.c_int64 * 3),
        ("dynamicSharedBytes", ctypes.c_int32),
        ("registers", ctypes.c_int32),
        ("localBytes", ctypes.c_int32),
        ("staticSharedBytes", ctypes.c_int32),
        ("activeBlocksPerMultiprocessor", ctypes.c_int32),
        ("occupancy", ctypes.c_double),
        ("milliseconds", ctypes.c_double),
    ]


class TermStruct(ctypes.Structure):
    """ThreadBindTerm (Bundle.h)."""
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("arg", ctypes.c_int32),
        ("dim", ctypes.c_int32),
        ("value", ctypes.c_int64),
    ]


class GuardStruct(ctypes.Structure):
    """ThreadBindGuard (Bundle.h)."""
    _fields_ = [("lower", TermStruct), ("upper", TermStruct)]


class RequirementStruct(ctypes.Structure):
    """ThreadBindRequirement (Bundle.h)."""
    _fields_ = [
        ("arg", ctypes.c_int32),
        ("dim", ctypes.c_int32),
        ("bound", TermStruct),
        ("offset", ctypes.c_int64),
        ("numGuards", ctypes.c_int32),
        ("guards", ctypes.POINTER(GuardStruct)),
        ("where", ctypes.c_char_p),
    ]


class EntryStruct(ctypes.Structure):
    """ThreadBindEntry (Bundle.h)."""
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("gpu", ctypes.c_void_p),
        ("reference", ctypes.c_void_p),
        ("numArguments", ctypes.c_int32),
        ("arguments", ctypes.POINTER(ArgumentStruct)),
        ("numRequirements", ctypes.c_int32),
        ("requirements", ctypes.POINTER(RequirementStruct)),
    ]


# The type of an entry's gpu and reference functions.
ENTRY_FUNCTION = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))
