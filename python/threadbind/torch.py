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
current PyTorch stream of the tensors' device, through threadbind._launch,
and never synchronises. Tensors are checked against the function first
(dtype, device, rank, static sizes, strides), with an error naming the
argument.
"""

import re
import warnings

import torch

from ._bundle import ThreadBindError
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


def _output_shape(spec, index, function, inputs, positions):
    """The shape of output argument `index`: from the input argument
    `spec` (an int) names, from `spec(*inputs)`, or the static shape."""
    if callable(spec):
        return tuple(spec(*inputs))
    if isinstance(spec, int):
        if spec not in positions:
            raise ThreadBindError(f"{function['name']}: output {index} is "
                                  f"shaped like argument {spec}, which is "
                                  "not an input")
        return tuple(inputs[positions[spec]].shape)
    shape = function["arguments"][index]["shape"]
    if any(n is None for n in shape):
        raise ThreadBindError(
            f"{function['name']}: output {index} has dynamic sizes; say how "
            "to shape it (outputs={index: input_index or a function})")
    return tuple(shape)


def _register(name, schema, run, fake):
    """Defines operator `name` with `schema`, its CUDA implementation `run`
    and its fake one; returns its OpOverload (torch.ops.<ns>.<op>.default).
    torch.library.define and impl, not custom_op: custom_op's own dispatch
    costs more than the launch itself (bench/results)."""
    namespace, _, op_name = name.partition("::")
    if not namespace or not op_name:
        raise ThreadBindError(f"operator name {name!r} is not "
                              "'namespace::name'")
    torch.library.define(name, schema)
    torch.library.impl(name, "cuda", run)
    torch.library.register_fake(name, fake)
    return getattr(getattr(torch.ops, namespace), op_name).default


def custom_op(program, function, *, name=None, outputs=None):
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

    A function the manifest says a caller cannot stand in for (launches in
    a host loop, host copies) runs through the bundle instead, which waits
    for the device before and after each call; a warning says so."""
    described = function_entry(program.manifest, function)
    if described["launchable"]:
        launcher = program.launcher(function)
    else:
        # The bundle runs any host code (loops around launches, copies), in
        # its own order: it waits for the device before and after a call.
        launcher = program.load()[function]
        warnings.warn(
            f"{function}: {described['not_launchable']}, so its operator "
            "calls the bundle, which waits for the device before and after",
            stacklevel=2)
    arguments = described["arguments"]
    if name is None:
        name = "threadbind::" + re.sub(r"\W", "_", function)
    names = [f"arg{i}" for i in range(len(arguments))]
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

        return _register(name, schema, run, fake)

    outputs = dict(outputs)
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

    return _register(name, schema, run, fake)
