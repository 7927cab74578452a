"""ThreadBind kernels as PyTorch operators.

    import threadbind, threadbind.torch
    program = threadbind.compile("kernels.mlir")
    saxpy = threadbind.torch.custom_op(program, "saxpy")
    saxpy(2.5, x, y)                    # y += 2.5 * x, in place
    torch.ops.threadbind.saxpy(2.5, x, y)

    # A functional form: `out` (written, never read) is allocated and
    # returned, shaped like argument 0.
    gelu = threadbind.torch.custom_op(program, "bias_gelu",
                                      outputs={2: 0})
    y = gelu(x, bias)

Each operator is a ``torch.library.custom_op``: its schema comes from the
host function's arguments (memrefs are Tensors, floats float, integers
int, i1 bool), ``mutates_args`` from the manifest's access flags (the
memrefs the function writes), and it has a fake implementation, so it
traces under ``torch.compile``. It launches on the current PyTorch stream of
the tensors' device, through threadbind._launch, and never synchronises.
Tensors are checked against the function first (dtype, device, rank, static
sizes, strides), with an error naming the argument.
"""

import inspect
import re
import typing

import torch

from ._bundle import ThreadBindError

_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16,
           "f32": torch.float32, "f64": torch.float64, "i1": torch.bool,
           "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
           "i64": torch.int64, "index": torch.int64}


def _annotation(argument):
    if argument["kind"] == "memref":
        return torch.Tensor
    element = argument["element_type"]
    if element in ("f16", "bf16", "f32", "f64"):
        return float
    if element == "i1":
        return bool
    return int


def _signature(names, annotations, returns):
    return inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           annotation=a)
         for n, a in zip(names, annotations)],
        return_annotation=returns)


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


def custom_op(program, function, *, name=None, outputs=None):
    """The torch.library.custom_op for host function `function` of `program`
    (a threadbind.Program), named "threadbind::<function>" unless `name`
    ("namespace::name") says otherwise.

    Without `outputs` the operator takes the function's arguments and
    returns nothing, writing its memrefs in place. With `outputs`, a dict
    from argument index to how to shape it (an input argument's index, a
    function of the inputs returning a shape, or None for a static shape),
    those arguments, which the function must only write, are allocated on
    the inputs' device and returned (one Tensor, or a tuple), and the
    operator takes the other arguments."""
    launcher = program.launcher(function)
    described = launcher.function
    arguments = described["arguments"]
    if name is None:
        name = "threadbind::" + re.sub(r"\W", "_", function)
    names = [f"arg{i}" for i in range(len(arguments))]
    if not outputs:
        mutated = [names[i] for i, a in enumerate(arguments)
                   if a["kind"] == "memref" and a["access"] != "read"]
        signature = _signature(names, [_annotation(a) for a in arguments],
                               None)

        def run(*args):
            launcher(*args)

        def fake(*args):
            return None

        run.__signature__ = fake.__signature__ = signature
        op = torch.library.custom_op(name, run, mutates_args=mutated,
                                     device_types="cuda")
        op.register_fake(fake)
        return op

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
    returns = (torch.Tensor if len(order) == 1 else
               typing.Tuple[(torch.Tensor,) * len(order)])
    signature = _signature([names[i] for i in inputs],
                           [_annotation(arguments[i]) for i in inputs],
                           returns)

    def allocate(args):
        device = next((a.device for a in args if isinstance(a, torch.Tensor)),
                      torch.device("cuda", torch.cuda.current_device()))
        return {index: torch.empty(
            _output_shape(outputs[index], index, described, args, positions),
            dtype=_DTYPES[arguments[index]["element_type"]], device=device)
            for index in order}

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

    run.__signature__ = fake.__signature__ = signature
    op = torch.library.custom_op(name, run, mutates_args=(),
                                 device_types="cuda")
    op.register_fake(fake)
    return op
