"""threadbind.torch without PyTorch or a GPU: a stand-in `torch` module
records the operators defined, so the schemas, the implementations' calls
into the Launcher, the functional form's allocations and every error path
can be checked here (test_gpu.py runs the real thing)."""

import importlib
import sys
import types

import pytest

import threadbind

from test_launch import FakeDriver, FakeTensor


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

            @staticmethod
            def impl(name, device, function):
                # torch.ops.<namespace>.<name>.default calls the
                # implementation (PyTorch dispatches; here, directly).
                torch.impls[(name, device)] = function
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
