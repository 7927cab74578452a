//===- torch_native.cpp - ThreadBind operators as native PyTorch kernels --===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// threadbind.torch builds this file with torch.utils.cpp_extension the first
// time it makes an operator, and registers the operator's CUDA kernel here
// rather than as a Python function: a call then costs PyTorch's dispatch, a
// table lookup and the launches, with no Python on the way.
//
// What a call launches is still decided in one place, threadbind._launch's
// Launcher. The first call with a new key (the device, each tensor's dtype,
// sizes and strides, the integer and boolean scalars, and the pointers where
// a launch condition compares arrays) asks the Launcher through its
// `native_plan`, which checks the arguments (raising what a call through
// the Launcher raises, passed on unchanged) and answers with each launch's
// function, grid, block, shared bytes and packed parameters, and the slots
// a call fills in: pointers, floating-point scalars and device scratch. A call with a known key fills
// those and launches on the current PyTorch stream of the tensors' device.
// Nothing synchronises.
//
// The CUDA driver is reached through dlopen, as the Launcher reaches it
// through ctypes, and PyTorch's current stream through its device-generic
// stream API: the extension needs neither CUDA's headers nor a CUDA library
// to build, only a C++ compiler and PyTorch's headers.
//
//===----------------------------------------------------------------------===//

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <ATen/core/Tensor.h>
#include <ATen/core/stack.h>
#include <ATen/ops/empty.h>
#include <c10/core/ScalarType.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <torch/library.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace py = pybind11;

namespace {

//===----------------------------------------------------------------------===//
// The CUDA driver
//===----------------------------------------------------------------------===//

/// The driver functions a call uses, from libcuda.so.1.
struct Driver {
  using Result = int;
  Result (*launchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, unsigned, void *, void **,
                         void **) = nullptr;
  Result (*ctxGetCurrent)(void **) = nullptr;
  Result (*ctxSetCurrent)(void *) = nullptr;
  Result (*memAllocAsync)(uint64_t *, size_t, void *) = nullptr;
  Result (*memFreeAsync)(uint64_t, void *) = nullptr;
  Result (*funcSetAttribute)(void *, int, int) = nullptr;
  Result (*getErrorName)(Result, const char **) = nullptr;
  std::string problem;

  Driver() {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
      problem = std::string("cannot open libcuda.so.1: ") + dlerror();
      return;
    }
    find(library, launchKernel, "cuLaunchKernel");
    find(library, ctxGetCurrent, "cuCtxGetCurrent");
    find(library, ctxSetCurrent, "cuCtxSetCurrent");
    find(library, memAllocAsync, "cuMemAllocAsync");
    find(library, memFreeAsync, "cuMemFreeAsync");
    find(library, funcSetAttribute, "cuFuncSetAttribute");
    find(library, getErrorName, "cuGetErrorName");
  }

  template <typename F> void find(void *library, F &slot, const char *name) {
    slot = reinterpret_cast<F>(dlsym(library, name));
    if (!slot && problem.empty())
      problem = std::string("libcuda.so.1 has no ") + name;
  }

  std::string errorName(Result result) const {
    const char *name = nullptr;
    if (getErrorName && getErrorName(result, &name) == 0 && name)
      return name;
    return "CUDA error " + std::to_string(result);
  }
};

const Driver &driver() {
  static const Driver instance;
  return instance;
}

// cuda.h's values, which the driver's ABI fixes.
void *const kParamBufferPointer = reinterpret_cast<void *>(1);
void *const kParamBufferSize = reinterpret_cast<void *>(2);
void *const kParamEnd = nullptr;
constexpr int kMaxDynamicSharedAttribute = 8;

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

/// A slot of a launch's parameters that each call fills.
struct Slot {
  enum Kind : int64_t { Pointer = 0, Float = 1, Scratch = 2 };
  enum FloatCode : int64_t { F32 = 0, F64 = 1, F16 = 2, BF16 = 3 };
  size_t offset;
  Kind kind;
  size_t index; // the argument, or the device scratch
  int64_t extra; // Pointer: bytes before element [0, ...]; Float: its code
};

struct Launch {
  void *function;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared;
  std::vector<uint8_t> params;
  std::vector<Slot> slots;
};

/// What one key launches, as the Launcher planned it.
struct Plan {
  void *context;
  std::vector<Launch> launches;
  std::vector<uint64_t> scratch; // bytes of each device scratch
};

struct KeyHash {
  size_t operator()(const std::vector<int64_t> &key) const {
    uint64_t hash = 1469598103934665603ull;
    for (int64_t value : key) {
      hash ^= static_cast<uint64_t>(value);
      hash *= 1099511628211ull;
    }
    return static_cast<size_t>(hash);
  }
};

/// An output of a functional operator: allocated, shaped like an input or
/// statically.
struct Output {
  size_t argument;
  c10::ScalarType dtype;
  int64_t likeInput; // an input's position in the operator, or -1
  std::vector<int64_t> shape;
};

/// The manifest's element type as a PyTorch dtype.
c10::ScalarType dtypeOf(const std::string &element) {
  static const std::unordered_map<std::string, c10::ScalarType> types = {
      {"f16", c10::ScalarType::Half},   {"bf16", c10::ScalarType::BFloat16},
      {"f32", c10::ScalarType::Float},  {"f64", c10::ScalarType::Double},
      {"i1", c10::ScalarType::Bool},    {"i8", c10::ScalarType::Char},
      {"i16", c10::ScalarType::Short},  {"i32", c10::ScalarType::Int},
      {"i64", c10::ScalarType::Long},   {"index", c10::ScalarType::Long}};
  auto found = types.find(element);
  TORCH_CHECK(found != types.end(), "threadbind: no PyTorch dtype for ",
              element);
  return found->second;
}

/// A dtype's name as threadbind._arrays spells them (NumPy's names).
std::string dtypeName(c10::ScalarType type) {
  switch (type) {
  case c10::ScalarType::Half:
    return "float16";
  case c10::ScalarType::BFloat16:
    return "bfloat16";
  case c10::ScalarType::Float:
    return "float32";
  case c10::ScalarType::Double:
    return "float64";
  case c10::ScalarType::Bool:
    return "bool";
  case c10::ScalarType::Char:
    return "int8";
  case c10::ScalarType::Byte:
    return "uint8";
  case c10::ScalarType::Short:
    return "int16";
  case c10::ScalarType::Int:
    return "int32";
  case c10::ScalarType::Long:
    return "int64";
  default: {
    // UInt16 and the like: lower case, as torch.uint16 prints.
    std::string name = c10::toString(type);
    for (char &c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }
  }
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

/// Raises OverflowError in the caller, as the Launcher's packing of a
/// value its parameter cannot hold does.
[[noreturn]] void raiseOverflow(const std::string &message) {
  py::gil_scoped_acquire gil;
  PyErr_SetString(PyExc_OverflowError, message.c_str());
  throw py::error_already_set();
}

class NativeKernel final : public c10::OperatorKernel {
public:
  NativeKernel(std::string name, PyObject *planner,
               std::vector<bool> isTensor, std::vector<size_t> written,
               std::vector<Output> outputs, std::vector<size_t> keyScalars,
               bool keyPointers)
      : name(std::move(name)), planner(planner), isTensor(std::move(isTensor)),
        written(std::move(written)), outputs(std::move(outputs)),
        keyScalars(std::move(keyScalars)), keyPointers(keyPointers) {
    isOutput.assign(this->isTensor.size(), false);
    for (const Output &output : this->outputs)
      isOutput[output.argument] = true;
  }

  void operator()(const c10::OperatorHandle &, c10::DispatchKeySet,
                  torch::jit::Stack *stack) {
    size_t arity = isTensor.size();
    size_t inputs = arity - outputs.size();
    auto given = torch::jit::last(*stack, inputs);

    // The arguments in the host function's order, outputs allocated.
    std::vector<const c10::IValue *> arguments(arity, nullptr);
    std::vector<c10::IValue> made;
    made.reserve(outputs.size());
    int64_t device = -1;
    for (size_t i = 0, k = 0; i < arity; ++i) {
      if (isOutput[i])
        continue;
      arguments[i] = &given[k++];
      if (!isTensor[i])
        continue;
      const at::Tensor &tensor = arguments[i]->toTensor();
      TORCH_CHECK_TYPE(tensor.is_cuda(), name, ": argument ", i, ": a ",
                       tensor.device().type(), " tensor where a CUDA tensor "
                       "is needed");
      if (device < 0)
        device = tensor.get_device();
    }
    if (device < 0)
      device = c10::impl::VirtualGuardImpl(c10::DeviceType::CUDA)
                   .getDevice()
                   .index();
    for (const Output &output : outputs) {
      std::vector<int64_t> shape =
          output.likeInput >= 0 ? given[output.likeInput].toTensor().sizes().vec()
                                : output.shape;
      made.emplace_back(at::empty(
          shape, at::TensorOptions().dtype(output.dtype).device(
                     c10::Device(c10::DeviceType::CUDA,
                                 static_cast<c10::DeviceIndex>(device)))));
    }
    for (size_t k = 0; k < outputs.size(); ++k)
      arguments[outputs[k].argument] = &made[k];

    std::shared_ptr<const Plan> plan = planFor(arguments, device);
    launch(*plan, arguments, device);
    for (size_t i : written)
      arguments[i]->toTensor().unsafeGetTensorImpl()->bump_version();

    torch::jit::drop(*stack, inputs);
    for (c10::IValue &value : made)
      torch::jit::push(*stack, std::move(value));
  }

private:
  std::vector<int64_t> keyOf(const std::vector<const c10::IValue *> &arguments,
                             int64_t device) const {
    std::vector<int64_t> key;
    key.reserve(4 + 8 * arguments.size());
    key.push_back(device);
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!isTensor[i])
        continue;
      const at::Tensor &tensor = arguments[i]->toTensor();
      key.push_back(static_cast<int64_t>(tensor.scalar_type()));
      key.push_back(tensor.get_device());
      key.push_back(tensor.dim());
      for (int64_t size : tensor.sizes())
        key.push_back(size);
      for (int64_t stride : tensor.strides())
        key.push_back(stride);
      if (keyPointers)
        key.push_back(reinterpret_cast<intptr_t>(tensor.data_ptr()));
    }
    for (size_t i : keyScalars) {
      const c10::IValue &value = *arguments[i];
      key.push_back(value.isBool() ? static_cast<int64_t>(value.toBool())
                                   : value.toInt());
    }
    return key;
  }

  std::shared_ptr<const Plan>
  planFor(const std::vector<const c10::IValue *> &arguments, int64_t device) {
    std::vector<int64_t> key = keyOf(arguments, device);
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = plans.find(key);
      if (found != plans.end())
        return found->second;
    }
    auto plan = std::make_shared<const Plan>(askPlanner(arguments, device));
    std::lock_guard<std::mutex> lock(mutex);
    if (plans.size() > 1024)
      plans.clear();
    plans.emplace(std::move(key), plan);
    return plan;
  }

  /// The Launcher's plan for these arguments (see the file's comment).
  /// What the planner raises leaves as py::error_already_set, which
  /// PyTorch's dispatcher passes through and pybind11 raises again in the
  /// caller: the same exception, type and message, as the Python kernel's.
  Plan askPlanner(const std::vector<const c10::IValue *> &arguments,
                  int64_t device) const {
    py::gil_scoped_acquire gil;
    try {
      py::tuple described(arguments.size());
      for (size_t i = 0; i < arguments.size(); ++i) {
        const c10::IValue &value = *arguments[i];
        if (isTensor[i]) {
          const at::Tensor &tensor = value.toTensor();
          described[i] = py::make_tuple(
              reinterpret_cast<uintptr_t>(tensor.data_ptr()),
              py::tuple(py::cast(tensor.sizes().vec())),
              py::tuple(py::cast(tensor.strides().vec())),
              dtypeName(tensor.scalar_type()), tensor.element_size(),
              tensor.get_device());
        } else if (value.isDouble()) {
          described[i] = py::float_(value.toDouble());
        } else if (value.isBool()) {
          described[i] = py::bool_(value.toBool());
        } else {
          described[i] = py::int_(value.toInt());
        }
      }
      py::object answer =
          py::reinterpret_borrow<py::object>(planner)(device, described);
      auto parts = answer.cast<py::tuple>();
      Plan plan;
      plan.context = reinterpret_cast<void *>(parts[0].cast<uintptr_t>());
      for (py::handle item : parts[1].cast<py::list>()) {
        auto fields = item.cast<py::tuple>();
        Launch launch;
        launch.function = reinterpret_cast<void *>(fields[0].cast<uintptr_t>());
        auto grid = fields[1].cast<std::vector<uint64_t>>();
        auto block = fields[2].cast<std::vector<uint64_t>>();
        for (int d = 0; d < 3; ++d) {
          launch.grid[d] = static_cast<unsigned>(grid.at(d));
          launch.block[d] = static_cast<unsigned>(block.at(d));
        }
        launch.shared = fields[3].cast<unsigned>();
        std::string bytes = fields[4].cast<py::bytes>();
        launch.params.assign(bytes.begin(), bytes.end());
        for (py::handle slot : fields[5].cast<py::list>()) {
          auto s = slot.cast<std::tuple<size_t, int64_t, size_t, int64_t>>();
          launch.slots.push_back({std::get<0>(s),
                                  static_cast<Slot::Kind>(std::get<1>(s)),
                                  std::get<2>(s), std::get<3>(s)});
        }
        plan.launches.push_back(std::move(launch));
      }
      plan.scratch = parts[2].cast<std::vector<uint64_t>>();
      return plan;
    } catch (py::cast_error &error) {
      TORCH_CHECK(false, name, ": the launch planner's answer is malformed: ",
                  error.what());
    }
  }

  void fill(const Launch &launch, const std::vector<const c10::IValue *> &args,
            const std::vector<uint64_t> &scratch, uint8_t *buffer) const {
    std::memcpy(buffer, launch.params.data(), launch.params.size());
    for (const Slot &slot : launch.slots) {
      uint8_t *at = buffer + slot.offset;
      if (slot.kind == Slot::Pointer) {
        uint64_t pointer = reinterpret_cast<uintptr_t>(
                               args[slot.index]->toTensor().data_ptr()) -
                           static_cast<uint64_t>(slot.extra);
        std::memcpy(at, &pointer, sizeof(pointer));
      } else if (slot.kind == Slot::Scratch) {
        std::memcpy(at, &scratch[slot.index], sizeof(uint64_t));
      } else {
        double value = args[slot.index]->toDouble();
        switch (slot.extra) {
        case Slot::F32: {
          // Checked in launch(): as the Launcher's struct packing, a finite
          // value past f32's range is an error, not an infinity.
          float narrow = static_cast<float>(value);
          std::memcpy(at, &narrow, sizeof(narrow));
          break;
        }
        case Slot::F64:
          std::memcpy(at, &value, sizeof(value));
          break;
        case Slot::F16: {
          // Through f32, which can round twice where the Launcher's NumPy
          // conversion rounds once: only for a value within 2^-24 of a tie.
          uint16_t bits = c10::Half(static_cast<float>(value)).x;
          std::memcpy(at, &bits, sizeof(bits));
          break;
        }
        default: {
          uint16_t bits = c10::BFloat16(static_cast<float>(value)).x;
          std::memcpy(at, &bits, sizeof(bits));
          break;
        }
        }
      }
    }
  }

  void launch(const Plan &plan, const std::vector<const c10::IValue *> &args,
              int64_t device) const {
    if (plan.launches.empty())
      return;
    // Every scalar checked before the first launch: a call launches all of
    // its kernels or none.
    for (const Launch &launch : plan.launches)
      for (const Slot &slot : launch.slots)
        if (slot.kind == Slot::Float && slot.extra == Slot::F32) {
          double value = args[slot.index]->toDouble();
          if (std::isinf(static_cast<float>(value)) && !std::isinf(value))
            raiseOverflow(name + ": argument " + std::to_string(slot.index) +
                          " (" + c10::str(value) +
                          ") does not fit its type, f32");
        }
    const Driver &cuda = driver();
    TORCH_CHECK(cuda.problem.empty(), name, ": ", cuda.problem);
    void *current = nullptr;
    if (cuda.ctxGetCurrent(&current) != 0 || current != plan.context) {
      Driver::Result result = cuda.ctxSetCurrent(plan.context);
      TORCH_CHECK(result == 0, name, ": cuCtxSetCurrent failed: ",
                  cuda.errorName(result));
    }
    void *stream =
        c10::impl::VirtualGuardImpl(c10::DeviceType::CUDA)
            .getStream(c10::Device(c10::DeviceType::CUDA,
                                   static_cast<c10::DeviceIndex>(device)))
            .native_handle();
    // Device scratch in stream order: allocated before the launches and
    // freed after them, nothing waiting.
    std::vector<uint64_t> scratch(plan.scratch.size(), 0);
    auto freeScratch = [&] {
      for (uint64_t pointer : scratch)
        if (pointer)
          cuda.memFreeAsync(pointer, stream);
    };
    for (size_t i = 0; i < scratch.size(); ++i) {
      if (!plan.scratch[i])
        continue;
      Driver::Result result =
          cuda.memAllocAsync(&scratch[i], plan.scratch[i], stream);
      if (result != 0) {
        freeScratch();
        TORCH_CHECK(false, name, ": cuMemAllocAsync of ", plan.scratch[i],
                    " bytes failed: ", cuda.errorName(result));
      }
    }
    thread_local std::vector<uint8_t> buffer;
    for (const Launch &launch : plan.launches) {
      size_t size = launch.params.size();
      if (buffer.size() < size)
        buffer.resize(size);
      fill(launch, args, scratch, buffer.data());
      if (launch.shared > 48 * 1024)
        cuda.funcSetAttribute(launch.function, kMaxDynamicSharedAttribute,
                              static_cast<int>(launch.shared));
      void *extra[] = {kParamBufferPointer, buffer.data(), kParamBufferSize,
                       &size, kParamEnd};
      Driver::Result result = cuda.launchKernel(
          launch.function, launch.grid[0], launch.grid[1], launch.grid[2],
          launch.block[0], launch.block[1], launch.block[2], launch.shared,
          stream, nullptr, size ? extra : nullptr);
      if (result != 0) {
        freeScratch();
        TORCH_CHECK(false, name, ": cuLaunchKernel failed: ",
                    cuda.errorName(result));
      }
    }
    freeScratch();
  }

  std::string name;
  PyObject *planner; // a reference held for the life of the process
  std::vector<bool> isTensor;
  std::vector<bool> isOutput;
  std::vector<size_t> written;
  std::vector<Output> outputs;
  std::vector<size_t> keyScalars;
  bool keyPointers;
  std::mutex mutex;
  std::unordered_map<std::vector<int64_t>, std::shared_ptr<const Plan>,
                     KeyHash>
      plans;
};

/// Registers the CUDA kernel of operator `qualified` ("namespace::name",
/// defined before with torch.library.define). `outputs` are (argument,
/// element type, input position shaped like or -1, static shape).
void registerOperator(
    const std::string &qualified, py::object planner,
    std::vector<bool> isTensor, std::vector<size_t> written,
    const std::vector<std::tuple<size_t, std::string, int64_t,
                                 std::vector<int64_t>>> &outputs,
    std::vector<size_t> keyScalars, bool keyPointers) {
  size_t split = qualified.find("::");
  TORCH_CHECK(split != std::string::npos, "threadbind: operator name '",
              qualified, "' is not 'namespace::name'");
  std::vector<Output> described;
  for (const auto &[argument, element, like, shape] : outputs) {
    TORCH_CHECK(argument < isTensor.size() && isTensor[argument],
                qualified, ": output ", argument, " is not a tensor");
    described.push_back({argument, dtypeOf(element), like, shape});
  }
  // The planner and the library live as long as the process: PyTorch's
  // dispatcher may call the kernel until the interpreter is gone.
  PyObject *held = planner.release().ptr();
  auto *library = new torch::Library(
      torch::Library::IMPL, qualified.substr(0, split),
      c10::DispatchKey::CUDA, __FILE__, __LINE__);
  library->impl(qualified.substr(split + 2).c_str(),
                torch::CppFunction::makeFromBoxedFunctor(
                    std::make_unique<NativeKernel>(
                        qualified, held, std::move(isTensor),
                        std::move(written), std::move(described),
                        std::move(keyScalars), keyPointers)));
}

} // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, module) {
  module.doc() = "ThreadBind operators' CUDA kernels (threadbind.torch)";
  module.def("register_operator", &registerOperator, py::arg("name"),
             py::arg("planner"), py::arg("is_tensor"), py::arg("written"),
             py::arg("outputs"), py::arg("key_scalars"),
             py::arg("key_pointers"));
  module.def("driver_problem", [] { return driver().problem; });
}
