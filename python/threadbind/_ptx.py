"""The launch manifest from Python (docs/Manifest.md): its version, its host
functions, and the evaluator of its expression trees; and launch_ptx.

The manifest says, for each kernel of a host function, its PTX parameters in
order (which argument, which descriptor field), its grid and block as
expression trees over the arguments, and when it is launched at all.
_Evaluator walks those trees for one call's arguments; threadbind._launch
launches what they say.
"""

from ._bundle import ThreadBindError

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
    if "scratch" in tree:
        return f"scratch{tree['scratch']}"
    if "opaque" in tree:
        return tree["opaque"]
    name, operands = tree["op"], [expression_text(e) for e in tree["args"]]
    if name == "not":
        return "!" + operands[0]
    if name in ("zext", "sext"):
        return f"{name}{tree['bits']}({operands[0]})"
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
    """Evaluates the manifest's expression trees for one call of a host
    function: `args` are its arguments, an Array (threadbind._arrays) for
    each memref and a number for each scalar; `offsets` maps a memref
    argument to the offset its type fixes (0 where none); and
    `resident(threads, kernel_name_or_None)` answers the resident-block
    queries."""

    def __init__(self, args, resident, offsets=None):
        self.args = args
        self.resident = resident
        self.offsets = offsets or {}

    def argument(self, index):
        if not 0 <= index < len(self.args):
            raise TypeError(f"the manifest refers to argument {index}, but "
                            f"{len(self.args)} arguments were given")
        return self.args[index]

    def array(self, index):
        arg = self.argument(index)
        if not hasattr(arg, "strides"):
            raise ThreadBindError(f"argument {index} is a number where the "
                                  "manifest needs an array")
        return arg

    def scalar(self, index):
        arg = self.argument(index)
        if hasattr(arg, "strides"):
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
            return int(self.array(index).shape[k])
        if "stride" in tree:
            index, k = tree["stride"]
            return int(self.array(index).strides[k])
        if "offset" in tree:
            self.array(tree["offset"])
            return self.offsets.get(tree["offset"], 0)
        if "opaque" in tree:
            raise ThreadBindError(
                f"the launch needs {tree['opaque']}, which only the host "
                "function computes: call it through program.load() instead")
        if "scratch" in tree:
            raise ThreadBindError(f"the manifest reads device scratch "
                                  f"{tree['scratch']} as a number")
        op, operands = tree.get("op"), tree.get("args", [])
        if op == "select":
            chosen = operands[1] if self(operands[0]) else operands[2]
            return self(chosen)
        if op == "not":
            return int(not self(operands[0]))
        if op in ("zext", "sext"):
            bits = tree["bits"]
            value = self(operands[0]) & ((1 << bits) - 1)
            if op == "sext" and value >> (bits - 1):
                value -= 1 << bits
            return value
        if op in ("and", "or"):
            values = [bool(self(e)) for e in operands]
            return int(all(values) if op == "and" else any(values))
        if op == "disjoint":
            first, second = (self.array(e["arg"]) for e in operands)
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


def _byte_range(array):
    """The bytes an Array spans, [low, high), or None when it is empty."""
    if any(n == 0 for n in array.shape):
        return None
    low = high = array.pointer
    for n, stride in zip(array.shape, array.strides):
        span = (n - 1) * stride * array.itemsize
        low += min(span, 0)
        high += max(span, 0)
    return low, high + array.itemsize


def _disjoint(first, second):
    """Whether two Arrays share no byte."""
    a, b = _byte_range(first), _byte_range(second)
    return a is None or b is None or a[1] <= b[0] or b[1] <= a[0]


def function_entry(manifest, name):
    """The manifest's entry for host function `name`."""
    check_manifest_version(manifest)
    for function in manifest.get("functions", []):
        if function["name"] == name:
            return function
    raise ThreadBindError(f"no kernel of host function {name!r} in the "
                          "manifest")


def host_function(manifest, name):
    """The manifest's entry for host function `name`, checked to be one a
    caller can stand in for."""
    function = function_entry(manifest, name)
    if not function["launchable"]:
        raise ThreadBindError(
            f"{name} cannot be launched from its PTX: "
            f"{function['not_launchable']}; call it through program.load() "
            "instead")
    return function


def launch_ptx(program, function, *args, stream=None):
    """Launches the kernels of host function `function` of `program` (a
    threadbind.Program) from its PTX or cubin, through the CUDA driver, on
    device arrays in place (PyTorch, CuPy, anything with
    __cuda_array_interface__ or __dlpack__) and numbers, in the order the
    host function launches them, skipping those whose launch condition is
    false. It launches on `stream`, else the arrays' own, and does not wait.
    Functions that need device scratch the host allocates (full reductions)
    must be called through program.load()."""
    program.launcher(function)(*args, stream=stream)


