"""threadbind.torch without PyTorch or a GPU: a stand-in `torch` module
records the operators defined, so the schemas, the implementations' calls
into the Launcher, the functional form's allocations and every error path
can be checked here (test_gpu.py runs the real thing)."""

import importlib
import struct
import sys
import types

import numpy as np
import pytest

import threadbind

from test_launch import FakeDriver, FakeTensor
from threadbind._launch import Launcher


class FakeTorch(types.ModuleType):
    """What threadbind.torch uses of torch."""

    def __init__(self):
        super().__init__("torch")
        self.defined, self.impls, self.fakes = {}, {}, {}
        self.bumped, self.allocated = [], []
        for name in ("float16", "bfloat16", "float32", "float64", "bool",
                     "int8", "int16", "int32", "int64"):
            setattr(self, name, name)
        self.Tensor = FakeTensor
        torch = self

        class Library:
            @staticmethod
            def define(name, schema):
                torch.defined[name] = schema
                # torch.ops.<namespace>.<name>.default: the operator (a
                # native kernel is registered in C++, not seen here).
                Library.operator(name, lambda *args: None)

            @staticmethod
            def impl(name, device, function):
                # The operator calls the implementation (PyTorch
                # dispatches; here, directly).
                torch.impls[(name, device)] = function
                Library.operator(name, function)

            @staticmethod
            def operator(name, function):
                namespace, op_name = name.split("::")
                ns = getattr(torch.ops, namespace, None)
                if ns is None:
                    ns = types.SimpleNamespace()
                    setattr(torch.ops, namespace, ns)
                setattr(ns, op_name, types.SimpleNamespace(default=function))

            @staticmethod
            def register_fake(name, function):
                torch.fakes[name] = function

        self.library = Library
        self.ops = types.SimpleNamespace()
        self.autograd = types.SimpleNamespace(graph=types.SimpleNamespace(
            increment_version=self.bumped.append))
        self.cuda = types.SimpleNamespace(current_device=lambda: 0)
        # The current stream of a device, as PyTorch's C API gives it.
        self._C = types.SimpleNamespace(
            _cuda_getCurrentRawStream=lambda device: 4200 + device)

    def device(self, kind, index):
        return FakeTensor.Device(kind, index)

    def empty(self, shape, dtype, device):
        tensor = FakeTensor(tuple(shape), dtype=dtype,
                            pointer=0xA000000 + 0x100000 * len(self.allocated))
        self.allocated.append(tensor)
        return tensor



@pytest.fixture
def torch(monkeypatch):
    """The stand-in, with threadbind.torch imported over it."""
    fake = FakeTorch()
    monkeypatch.setitem(sys.modules, "torch", fake)
    # The Python implementation, unless a test asks for the native one.
    monkeypatch.setenv("THREADBIND_TORCH_NATIVE", "0")
    monkeypatch.delitem(sys.modules, "threadbind.torch", raising=False)
    fake.module = importlib.import_module("threadbind.torch")
    yield fake
    sys.modules.pop("threadbind.torch", None)


@pytest.fixture
def driver(program, monkeypatch):
    fake = FakeDriver()
    program.__dict__.pop("_launchers", None)
    monkeypatch.setattr(threadbind._launch, "default_driver", lambda: fake)
    yield fake
    program.__dict__.pop("_launchers", None)


def test_in_place_operators(torch, program, driver):
    op = torch.module.custom_op(program, "axpy", name="tbtest::axpy")
    # Written memrefs are mutable in the schema, read ones are not.
    assert torch.defined["tbtest::axpy"] == \
        "(float arg0, Tensor arg1, Tensor(a2!) arg2) -> ()"
    assert ("tbtest::axpy", "cuda") in torch.impls
    x, y = FakeTensor((100,)), FakeTensor((100,), pointer=0xB000000)
    op(2.0, x, y)
    (launch,) = driver.launches
    assert launch["kernel"] == "axpy_kernel"
    assert launch["stream"] == 4200  # PyTorch's current stream
    assert torch.bumped == [y]  # the version counter of what it wrote
    assert torch.fakes["tbtest::axpy"](2.0, x, y) is None
    # The default name is the function's, made an identifier.
    torch.module.custom_op(program, "rows")
    assert torch.defined["threadbind::rows"] == \
        "(Tensor arg0, Tensor(a1!) arg1) -> ()"


def test_functional_operators(torch, program, driver):
    twice = torch.module.custom_op(program, "twice_f16", name="tbtest::twice",
                                   outputs={1: 0})
    assert torch.defined["tbtest::twice"] == "(Tensor arg0) -> Tensor"
    h = FakeTensor((4099,), dtype="float16")
    out = twice(h)
    assert out is torch.allocated[0]
    assert out.shape == (4099,) and out._dtype == "float16"
    assert driver.launches[0]["kernel"].startswith("twice_f16_kernel")
    fake_out = torch.fakes["tbtest::twice"](h)
    assert fake_out.shape == (4099,) and driver.launches[1:] == []
    # Shaped by a function of the inputs, and a static shape.
    shaped = torch.module.custom_op(program, "twice_f16",
                                    name="tbtest::shaped",
                                    outputs={1: lambda x: (x.shape[0],)})
    assert shaped(h).shape == (4099,)
    rows = torch.module.custom_op(program, "rows", name="tbtest::rows",
                                  outputs={1: None})
    with pytest.raises(threadbind.ThreadBindError,
                       match="output 1 has dynamic sizes; say how"):
        rows(FakeTensor((4, 7), dtype="float64"))


@pytest.mark.parametrize("outputs, message", [
    ({0: 1}, r"output 0 is not a memref argument"),
    ({1: 0}, r"argument 1 is read, so it cannot be an output"),
    ({2: 1}, r"argument 2 is read and write, so it cannot be an output"),
    ({7: 0}, r"output 7 is not a memref argument"),
])
def test_outputs_must_be_written_only_memrefs(torch, program, driver,
                                              outputs, message):
    with pytest.raises(threadbind.ThreadBindError, match=message):
        torch.module.custom_op(program, "axpy", name="tbtest::bad",
                               outputs=outputs)


def test_bad_names_and_functions(torch, program, driver):
    with pytest.raises(threadbind.ThreadBindError,
                       match="operator name 'nonamespace' is not "
                             "'namespace::name'"):
        torch.module.custom_op(program, "axpy", name="nonamespace")
    with pytest.raises(threadbind.ThreadBindError,
                       match="no kernel of host function 'nope'"):
        torch.module.custom_op(program, "nope")
    assert torch.defined == {}


def test_functions_only_a_bundle_runs_go_through_it(torch, monkeypatch):
    """A host loop around the launches: the operator calls the bundle's
    entry (which waits), with a warning saying why."""
    from test_launch import STEPS
    steps = threadbind.compile(STEPS)
    calls = []
    monkeypatch.setattr(steps, "load",
                        lambda: {"steps": lambda *args: calls.append(args)})
    with pytest.warns(UserWarning, match="steps: kernel 'steps_kernel' is "
                                         "launched inside 'scf.for' at .*, so "
                                         "its operator calls the bundle"):
        op = torch.module.custom_op(steps, "steps", name="tbtest::steps")
    assert torch.defined["tbtest::steps"] == \
        "(Tensor(a0!) arg0, int arg1) -> ()"
    x = FakeTensor((5,))
    op(x, 3)
    assert calls == [(x, 3)] and torch.bumped == [x]


# -- The native implementation (threadbind/csrc/torch_native.cpp) -----------
#
# The C++ kernel cannot run here; what it relies on can: the Launcher's
# native_plan (what it launches for a new key), and what custom_op
# registers with it. `native_params` does what the kernel's fill() does.


class FakeExtension:
    """The built extension: records the operators registered with it."""

    def __init__(self, problem=""):
        self.registered = {}
        self.problem = problem

    def register_operator(self, name, planner, is_tensor, written, outputs,
                          key_scalars, key_pointers):
        self.registered[name] = dict(
            planner=planner, is_tensor=is_tensor, written=written,
            outputs=outputs, key_scalars=key_scalars,
            key_pointers=key_pointers)

    def driver_problem(self):
        return self.problem


@pytest.fixture
def native(torch, monkeypatch):
    extension = FakeExtension()
    monkeypatch.delenv("THREADBIND_TORCH_NATIVE")
    monkeypatch.setattr(torch.module, "_build_native", lambda: extension)
    return extension


def described(args):
    """The arguments as the native kernel describes them to the planner."""
    return tuple((a.data_ptr(), tuple(a.shape), tuple(a.stride()), a._dtype,
                  a.element_size(), a.get_device())
                 if isinstance(a, FakeTensor) else a for a in args)


def native_params(launch, args, scratch):
    """A planned launch's parameters as the native kernel fills them."""
    data = bytearray(launch[4])
    for offset, kind, index, extra in launch[5]:
        if kind == 0:
            struct.pack_into("<Q", data, offset,
                             args[index].data_ptr() - extra)
        elif kind == 2:
            struct.pack_into("<Q", data, offset, scratch[index])
        elif extra == 2:
            struct.pack_into("<H", data, offset,
                             int(np.float16(args[index]).view(np.uint16)))
        elif extra == 3:
            pass  # bf16: the caller's
        else:
            struct.pack_into({0: "<f", 1: "<d"}[extra], data, offset,
                             args[index])
    return bytes(data)


B = 0xB000000


@pytest.mark.parametrize("function, args", [
    ("axpy", (2.5, FakeTensor((1000,)), FakeTensor((1000,), pointer=B))),
    ("rows", (FakeTensor((4, 7), "float64"),
              FakeTensor((4, 7), "float64", pointer=B))),
    ("total", (FakeTensor((100003,), "int32"),
               FakeTensor((1,), "int32", pointer=B))),
    ("twice_f16", (FakeTensor((4099,), "float16"),
                   FakeTensor((4099,), "float16", pointer=B))),
    ("scale_view", (FakeTensor((30, 40), strides=(90, 2)),
                    FakeTensor((30, 40), strides=(64, 1), pointer=B), -1.5)),
    ("fixed_view", (FakeTensor((4, 9), "float64", strides=(40, 2)),
                    FakeTensor((4, 9), "float64", strides=(20, 2),
                               pointer=B))),
    ("axpy", (2.5, FakeTensor((0,)), FakeTensor((0,), pointer=B))),
])
def test_native_plans_launch_what_the_launcher_launches(torch, program,
                                                        function, args):
    """Filled in, each planned launch is the one the Launcher makes for the
    same call: the same kernel, grid, block, shared bytes, parameter bytes
    (pointers, offsets, scalars) and device scratch."""
    driver = FakeDriver()
    launcher = Launcher(program, function, driver=driver)
    launcher(*args)
    context, plan, scratch = launcher.native_plan(0, described(args))
    assert context == 0xC0
    assert scratch == [n for n, _, _ in driver.allocated]
    pointers = [p for _, _, p in driver.allocated]
    assert len(plan) == len(driver.launches)
    for planned, made in zip(plan, driver.launches):
        assert planned[:4] == (made["kernel"], made["grid"], made["block"],
                               made["shared"])
        assert native_params(planned, args, pointers) == made["params"]
    # A float scalar is filled at each call; pointers too.
    if function == "axpy" and plan:
        slots = {kind for _, kind, _, _ in plan[0][5]}
        assert slots == {0, 1}


SCALARS = """
func.func @offset_by(%x: memref<?xi32>, %k: i32, %on: i1, %a: f16,
                     %b: bf16, %y: memref<?xi32>, %h: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xi32>
    %w = arith.addi %v, %k : i32
    %r = arith.select %on, %w, %v : i32
    memref.store %r, %y[%i] : memref<?xi32>
    %t = arith.extf %a : f16 to f32
    %e = arith.extf %b : bf16 to f32
    %s = arith.addf %t, %e : f32
    %u = arith.truncf %s : f32 to bf16
    memref.store %u, %h[%i] : memref<?xbf16>
  }
  return
}
"""


def test_native_plans_pack_integers_and_fill_floats(torch):
    """Integer and boolean scalars are in the key and packed into the plan
    (the value changes the plan); f16 and bf16 scalars are slots filled at
    each call, with the bits the Launcher passes."""
    program = threadbind.compile(SCALARS)
    driver = FakeDriver()
    launcher = Launcher(program, "offset_by", driver=driver)
    assert launcher.native_key() == ([1, 2], False)
    args = (FakeTensor((777,), "int32"), -7, True, 1.5,
            1.0 + 2 ** -8 + 2 ** -16, FakeTensor((777,), "int32", pointer=B),
            FakeTensor((777,), "bfloat16", pointer=0xC000000))
    launcher(*args)
    _, plan, _ = launcher.native_plan(0, described(args))
    (planned,), (made,) = plan, driver.launches
    kinds = sorted({(kind, index, extra) for _, kind, index, extra
                    in planned[5]})
    assert kinds == [(0, 0, 0), (0, 5, 0), (0, 6, 0), (1, 3, 2), (1, 4, 3)]
    filled = bytearray(native_params(planned, args, []))
    for offset, kind, index, extra in planned[5]:
        if extra == 3:
            struct.pack_into("<H", filled, offset,
                             launcher._half_bits(index, args[index]))
    assert bytes(filled) == made["params"]
    with pytest.raises(OverflowError, match="does not fit its type"):
        launcher.native_plan(0, described(args[:1] + (2 ** 40,) + args[2:]))


@pytest.mark.parametrize("args", [
    (2.0, FakeTensor((10,), "float64"), FakeTensor((10,))),
    (2.0, FakeTensor((10, 2)), FakeTensor((10,))),
    (2.0, FakeTensor((10,), strides=(2,)), FakeTensor((10,))),
    (2.0, FakeTensor((10,)), FakeTensor((10,), device=("cuda", 1))),
    ("two", FakeTensor((10,)), FakeTensor((10,))),
])
def test_native_plans_raise_what_calls_raise(torch, program, args):
    """A call the Launcher refuses is refused by the planner with the same
    error (the native kernel rethrows its type and message)."""
    launcher = Launcher(program, "axpy", driver=FakeDriver())
    with pytest.raises((TypeError, ValueError)) as raised:
        launcher(*args)
    with pytest.raises(type(raised.value)) as planned:
        launcher.native_plan(0, described(args))
    assert str(planned.value) == str(raised.value)


def test_native_in_place_operators(torch, program, driver, native):
    op = torch.module.custom_op(program, "axpy", name="tbtest::axpy")
    assert torch.defined["tbtest::axpy"] == \
        "(float arg0, Tensor arg1, Tensor(a2!) arg2) -> ()"
    # The CUDA kernel is the native one; the fake is still Python's.
    assert ("tbtest::axpy", "cuda") not in torch.impls
    assert torch.fakes["tbtest::axpy"](2.0, None, None) is None
    registered = native.registered["tbtest::axpy"]
    assert registered["is_tensor"] == [False, True, True]
    assert registered["written"] == [2] and registered["outputs"] == []
    assert registered["key_scalars"] == [] and not registered["key_pointers"]
    assert registered["planner"] == program.launcher("axpy").native_plan
    assert op is not None


def test_native_functional_operators(torch, program, driver, native):
    torch.module.custom_op(program, "twice_f16", name="tbtest::twice",
                           outputs={1: 0})
    registered = native.registered["tbtest::twice"]
    assert registered["outputs"] == [(1, "f16", 0, [])]
    assert registered["written"] == []
    # A static shape is known when the operator is made; a dynamic one
    # without a rule is refused then.
    torch.module.custom_op(program, "total", name="tbtest::total",
                           outputs={1: None})
    assert native.registered["tbtest::total"]["outputs"] == \
        [(1, "i32", -1, [1])]
    with pytest.raises(threadbind.ThreadBindError,
                       match="output 1 has dynamic sizes; say how"):
        torch.module.custom_op(program, "rows", name="tbtest::rows",
                               outputs={1: None})
    # Shaped by a Python function: the Python implementation.
    torch.module.custom_op(program, "twice_f16", name="tbtest::shaped",
                           outputs={1: lambda x: (x.shape[0],)})
    assert ("tbtest::shaped", "cuda") in torch.impls
    assert "tbtest::shaped" not in native.registered
    with pytest.raises(threadbind.ThreadBindError,
                       match="shaped by a Python function"):
        torch.module.custom_op(program, "twice_f16", name="tbtest::no",
                               outputs={1: lambda x: x.shape}, native=True)


def test_native_choice(torch, program, driver, monkeypatch):
    """$THREADBIND_TORCH_NATIVE=0 and native=False never build it; a build
    that fails warns once and falls back, unless native=True."""
    def broken():
        raise RuntimeError("no C++ compiler")
    monkeypatch.setattr(torch.module, "_build_native", broken)
    torch.module.custom_op(program, "axpy", name="tbtest::env")
    assert ("tbtest::env", "cuda") in torch.impls
    monkeypatch.delenv("THREADBIND_TORCH_NATIVE")
    torch.module.custom_op(program, "axpy", name="tbtest::off", native=False)
    with pytest.raises(threadbind.ThreadBindError,
                       match="cannot be built: RuntimeError: no C\\+\\+ "
                             "compiler"):
        torch.module.custom_op(program, "axpy", name="tbtest::on",
                               native=True)
    with pytest.warns(UserWarning, match="launch from Python .* could not "
                                         "be built: RuntimeError"):
        torch.module.custom_op(program, "axpy", name="tbtest::auto")
    assert ("tbtest::auto", "cuda") in torch.impls


def test_native_driver_problem_falls_back(torch, program, driver,
                                          monkeypatch):
    monkeypatch.delenv("THREADBIND_TORCH_NATIVE")
    monkeypatch.setattr(torch.module, "_build_native",
                        lambda: FakeExtension("cannot open libcuda.so.1"))
    with pytest.warns(UserWarning, match="cannot open libcuda.so.1"):
        torch.module.custom_op(program, "axpy", name="tbtest::nodriver")
    assert ("tbtest::nodriver", "cuda") in torch.impls
