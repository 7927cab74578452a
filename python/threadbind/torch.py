"""ThreadBind kernels as PyTorch operators.

    import threadbind, threadbind.torch
    program = threadbind.compile("kernels.mlir")
    saxpy = threadbind.torch.custom_op(program, "saxpy")
    saxpy(2.5, x, y)                    # y += 2.5 * x, in place
    torch.ops.threadbind.saxpy(2.5, x, y)   # the same operator

    # A functional form: `out` (written, never read) is allocated and
    # returned, shaped like argument 0.
    gelu = threadbind.torch.custom_op(program, "bias_gelu",
                                      outputs={2: 0})
    y = gelu(x, bias)

Each operator is defined with ``torch.library.define``: its schema comes
from the host function's arguments (memrefs are Tensors, floats float,
integers int, i1 bool), with the memrefs the function writes (the
manifest's access flags) mutable, and it has a CUDA implementation and a
fake one, so it traces under ``torch.compile``. Gradients are the caller's
to give, with ``torch.library.register_autograd``. It launches on the
current PyTorch stream of the tensors' device and never synchronises.
Tensors are checked against the function first (dtype, device, rank,
static sizes, strides), with an error naming the argument.

The CUDA implementation is native where it can be: a C++ kernel
(threadbind/csrc/torch_native.cpp, built with torch.utils.cpp_extension
on first use into the compile cache's folder) that PyTorch's dispatcher
calls with no Python on the way; threadbind._launch's Launcher still plans
each new shape, and the kernel launches from the plan. It needs a C++
compiler and PyTorch's headers, not CUDA's. Where it cannot be built the
implementation is the Launcher called from Python, after a warning.
``custom_op(native=...)`` or $THREADBIND_TORCH_NATIVE ("0" never, "1"
always, failing if it cannot) decide instead.
"""

import hashlib
import os
import re
import sys
import tempfile
import warnings
from pathlib import Path

import torch

from ._bundle import ThreadBindError
from ._compile import cache_dir
from ._ptx import function_entry

_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16,
           "f32": torch.float32, "f64": torch.float64, "i1": torch.bool,
           "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
           "i64": torch.int64, "index": torch.int64}


_SCHEMA_TYPES = {"f16": "float", "bf16": "float", "f32": "float",
                 "f64": "float", "i1": "bool"}


def _schema_type(argument, alias=None):
    """The argument's type in an operator schema: Tensor (with its alias
    set when it is written), float, bool or int."""
    if argument["kind"] == "memref":
        return f"Tensor({alias}!)" if alias else "Tensor"
    return _SCHEMA_TYPES.get(argument["element_type"], "int")


def _input_position(spec, index, function, positions):
    """The operator's position of input argument `spec`, which output
    `index` is shaped like."""
    if spec not in positions:
        raise ThreadBindError(f"{function['name']}: output {index} is "
                              f"shaped like argument {spec}, which is "
                              "not an input")
    return positions[spec]


def _output_shape(spec, index, function, inputs, positions):
    """The shape of output argument `index`: from the input argument
    `spec` (an int) names, from `spec(*inputs)`, or the static shape."""
    if callable(spec):
        return tuple(spec(*inputs))
    if isinstance(spec, int):
        return tuple(inputs[_input_position(spec, index, function,
                                            positions)].shape)
    shape = function["arguments"][index]["shape"]
    if any(n is None for n in shape):
        raise ThreadBindError(
            f"{function['name']}: output {index} has dynamic sizes; say how "
            "to shape it (outputs={index: input_index or a function})")
    return tuple(shape)


# The built native extension, once loaded; the reason it could not be, once
# that is known (so that it is tried and warned about once a process).
_native = None
_native_problem = None
_native_warned = False
# A build folder that lives as long as the process, where the cache is off.
_native_scratch = None


def _build_native():
    """threadbind/csrc/torch_native.cpp, built for this PyTorch and Python
    into the cache's folder (or a temporary one) and loaded."""
    global _native_scratch
    from torch.utils import cpp_extension
    source = Path(__file__).with_name("csrc") / "torch_native.cpp"
    digest = hashlib.sha256()
    for part in (source.read_bytes(), torch.__version__.encode(),
                 str(torch.version.cuda).encode(), sys.version.encode()):
        digest.update(part)
        digest.update(b"\0")
    key = digest.hexdigest()[:16]
    root = cache_dir()
    if root is not None:
        build = root / "torch-native" / key
    else:
        _native_scratch = tempfile.TemporaryDirectory(
            prefix="threadbind-torch-native-")
        build = Path(_native_scratch.name)
    build.mkdir(parents=True, exist_ok=True)
    return cpp_extension.load(
        name=f"threadbind_torch_native_{key}", sources=[str(source)],
        build_directory=str(build), extra_cflags=["-O2"],
        extra_ldflags=["-ldl"], with_cuda=False, verbose=False)


def _native_extension(native):
    """The native extension, or None where the Python implementation is to
    be used: `native` False (or $THREADBIND_TORCH_NATIVE=0), or it cannot
    be built and `native` is None (a warning says why, once)."""
    global _native, _native_problem, _native_warned
    if native is None:
        native = {"0": False, "1": True}.get(
            os.environ.get("THREADBIND_TORCH_NATIVE", ""))
    if native is False:
        return None
    if _native is None and _native_problem is None:
        try:
            _native = _build_native()
            problem = _native.driver_problem()
            if problem:
                _native, _native_problem = None, problem
        except Exception as error:  # a compiler, header or loader missing
            _native_problem = f"{type(error).__name__}: {error}".strip()
    if _native is None and native:
        raise ThreadBindError("threadbind.torch: native operator kernels "
                              f"were asked for but cannot be built: "
                              f"{_native_problem}")
    if _native is None and not _native_warned:
        _native_warned = True
        warnings.warn(
            "threadbind.torch: operators launch from Python (each call "
            "costs more), since their native kernels could not be "
            f"built: {_native_problem}", stacklevel=3)
    return _native


def _register(name, schema, run, fake, native=None):
    """Defines operator `name` with `schema`, its CUDA implementation (a
    native kernel when `native` is given, as (extension, arguments of its
    register_operator), else `run`) and its fake one; returns its
    OpOverload (torch.ops.<ns>.<op>.default). torch.library.define and
    impl, not custom_op: custom_op's own dispatch costs more than the
    launch itself (bench/results)."""
    namespace, _, op_name = name.partition("::")
    if not namespace or not op_name:
        raise ThreadBindError(f"operator name {name!r} is not "
                              "'namespace::name'")
    torch.library.define(name, schema)
    if native is not None:
        extension, arguments = native
        extension.register_operator(name, *arguments)
    else:
        torch.library.impl(name, "cuda", run)
    torch.library.register_fake(name, fake)
    return getattr(getattr(torch.ops, namespace), op_name).default


def custom_op(program, function, *, name=None, outputs=None, native=None):
    """A PyTorch operator for host function `function` of `program` (a
    threadbind.Program), named "threadbind::<function>" unless `name`
    ("namespace::name") says otherwise; returns its OpOverload, which
    torch.library.register_autograd takes.

    Without `outputs` the operator takes the function's arguments and
    returns nothing, writing its memrefs in place (they are mutable in the
    schema, and their version counters are bumped as PyTorch's in-place ops
    do). With `outputs`, a dict from argument index to how to shape it (an
    input argument's index, a function of the inputs returning a shape, or
    None for a static shape), those arguments, which the function must only
    write, are allocated on the inputs' device and returned (one Tensor, or
    a tuple), and the operator takes the other arguments.

    `native` (None: as $THREADBIND_TORCH_NATIVE says, else where it can be
    built) chooses the C++ implementation (see the module's docstring);
    outputs shaped by a function always use the Python one.

    A function the manifest says a caller cannot stand in for (launches in
    a host loop, host copies) runs through the bundle instead, which waits
    for the device before and after each call; a warning says so."""
    described = function_entry(program.manifest, function)
    arguments = described["arguments"]
    if outputs:
        outputs = dict(outputs)
        _check_outputs(function, arguments, outputs)
    shaped_by_python = bool(outputs) and any(
        callable(spec) for spec in outputs.values())
    if native and (not described["launchable"] or shaped_by_python):
        raise ThreadBindError(
            f"{function}: a native operator was asked for, but "
            + (described["not_launchable"] if not described["launchable"]
               else "an output is shaped by a Python function"))
    extension = None
    if described["launchable"]:
        launcher = program.launcher(function)
        if not shaped_by_python:
            extension = _native_extension(native)
    else:
        # The bundle runs any host code (loops around launches, copies), in
        # its own order: it waits for the device before and after a call.
        launcher = program.load()[function]
        warnings.warn(
            f"{function}: {described['not_launchable']}, so its operator "
            "calls the bundle, which waits for the device before and after",
            stacklevel=2)
    if name is None:
        name = "threadbind::" + re.sub(r"\W", "_", function)
    names = [f"arg{i}" for i in range(len(arguments))]
    is_tensor = [a["kind"] == "memref" for a in arguments]

    def native_registration(written, made):
        if extension is None:
            return None
        scalars, pointers = launcher.native_key()
        return extension, (launcher.native_plan, is_tensor, written, made,
                           scalars, pointers)

    if not outputs:
        written = [i for i, a in enumerate(arguments)
                   if a["kind"] == "memref" and a["access"] != "read"]
        schema = "(" + ", ".join(
            f"{_schema_type(a, f'a{i}' if i in written else None)} "
            f"{names[i]}" for i, a in enumerate(arguments)) + ") -> ()"
        bump = torch.autograd.graph.increment_version

        def run(*args):
            launcher(*args)
            for i in written:
                bump(args[i])

        def fake(*args):
            return None

        return _register(name, schema, run, fake,
                         native_registration(written, []))

    inputs = [i for i in range(len(arguments)) if i not in outputs]
    positions = {index: k for k, index in enumerate(inputs)}
    order = sorted(outputs)
    returns = "Tensor" if len(order) == 1 else \
        "(" + ", ".join(["Tensor"] * len(order)) + ")"
    schema = "(" + ", ".join(f"{_schema_type(arguments[i])} {names[i]}"
                             for i in inputs) + ") -> " + returns
    dtypes = {index: _DTYPES[arguments[index]["element_type"]]
              for index in order}

    def allocate(args):
        device = next((a.device for a in args if isinstance(a, torch.Tensor)),
                      torch.device("cuda", torch.cuda.current_device()))
        return {index: torch.empty(
            _output_shape(outputs[index], index, described, args, positions),
            dtype=dtypes[index], device=device) for index in order}

    def result(made):
        values = tuple(made[index] for index in order)
        return values[0] if len(values) == 1 else values

    def run(*args):
        made = allocate(args)
        full = [made[i] if i in made else args[positions[i]]
                for i in range(len(arguments))]
        launcher(*full)
        return result(made)

    def fake(*args):
        return result(allocate(args))

    made = []
    if extension is not None:
        for index in order:
            spec = outputs[index]
            if spec is None:
                # A static shape, checked now rather than at each call.
                shape = _output_shape(None, index, described, (), positions)
                made.append((index, arguments[index]["element_type"], -1,
                             list(shape)))
            else:
                made.append((index, arguments[index]["element_type"],
                             _input_position(spec, index, described,
                                             positions), []))
    return _register(name, schema, run, fake, native_registration([], made))


def _check_outputs(function, arguments, outputs):
    """Each output must be a memref argument the function only writes."""
    for index in outputs:
        if not 0 <= index < len(arguments) or \
                arguments[index]["kind"] != "memref":
            raise ThreadBindError(f"{function}: output {index} is not a "
                                  "memref argument")
        if arguments[index]["access"] != "write":
            raise ThreadBindError(
                f"{function}: argument {index} is "
                f"{arguments[index]['access'].replace('-', ' and ')}, so it "
                "cannot be an output, which starts uninitialised")
