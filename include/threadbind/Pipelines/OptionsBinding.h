//===- OptionsBinding.h - Stage options as flags or pipeline ----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The two binders of the option structs in Options.h: one makes them the
// options of a registered pass pipeline, the other the flags of a tool.
// Either creates one llvm::cl option per `option`/`list` call, initialised
// from the struct's default, and writes the parsed values back into the
// struct it was bound from.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_PIPELINES_OPTIONSBINDING_H
#define THREADBIND_PIPELINES_OPTIONSBINDING_H

#include "threadbind/Pipelines/Options.h"

#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/CommandLine.h"

#include <functional>
#include <memory>
#include <vector>

namespace mlir::threadbind {

/// `OptionsT` as the options of a registered pass pipeline:
///   PassPipelineRegistration<BoundPipelineOptions<MapToGPUOptions>>
/// The builder reads the parsed struct with get().
template <typename OptionsT>
class BoundPipelineOptions
    : public PassPipelineOptions<BoundPipelineOptions<OptionsT>> {
  using Base = PassPipelineOptions<BoundPipelineOptions<OptionsT>>;

public:
  BoundPipelineOptions() { values.bindOptions(*this); }
  BoundPipelineOptions(const BoundPipelineOptions &) = delete;
  BoundPipelineOptions &operator=(const BoundPipelineOptions &) = delete;

  /// The options as parsed, defaults elsewhere.
  OptionsT get() const {
    for (const auto &read : readers)
      read();
    return values;
  }

  template <typename T, typename... Mods>
  void option(T &field, StringRef name, Mods &&...mods) {
    using OptionT = typename Base::template Option<T>;
    auto owned = std::make_unique<OptionT>(
        *this, name, std::forward<Mods>(mods)..., llvm::cl::init(field));
    OptionT *opt = owned.get();
    readers.push_back([opt, &field] { field = opt->getValue(); });
    options.push_back(std::move(owned));
  }

  template <typename T, typename... Mods>
  void list(SmallVectorImpl<T> &field, StringRef name, Mods &&...mods) {
    using ListT = typename Base::template ListOption<T>;
    auto owned =
        std::make_unique<ListT>(*this, name, std::forward<Mods>(mods)...);
    ListT *opt = owned.get();
    if (!field.empty())
      *opt = ArrayRef<T>(field);
    readers.push_back(
        [opt, &field] { field.assign(opt->begin(), opt->end()); });
    options.push_back(std::move(owned));
  }

private:
  /// The struct the options were bound from; get() writes the parsed
  /// values into it.
  mutable OptionsT values;
  std::vector<std::function<void()>> readers;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
};

/// Option structs as the flags of a tool, in `category`. Bind before
/// llvm::cl::ParseCommandLineOptions, read after; the binder must outlive
/// both.
class CommandLineBinder {
public:
  explicit CommandLineBinder(llvm::cl::OptionCategory &category)
      : category(category) {}

  /// Binds every option of `values`; read() writes the parsed flags into
  /// it.
  template <typename OptionsT> void bind(OptionsT &values) {
    values.bindOptions(*this);
  }
  /// Writes every parsed flag into the struct it was bound from.
  void read() const {
    for (const auto &read : readers)
      read();
  }

  template <typename T, typename... Mods>
  void option(T &field, StringRef name, Mods &&...mods) {
    auto owned = std::make_unique<llvm::cl::opt<T>>(
        name, std::forward<Mods>(mods)..., llvm::cl::init(field),
        llvm::cl::cat(category));
    llvm::cl::opt<T> *opt = owned.get();
    readers.push_back([opt, &field] { field = opt->getValue(); });
    options.push_back(std::move(owned));
  }

  template <typename T, typename... Mods>
  void list(SmallVectorImpl<T> &field, StringRef name, Mods &&...mods) {
    auto owned = std::make_unique<llvm::cl::list<T>>(
        name, std::forward<Mods>(mods)..., llvm::cl::CommaSeparated,
        llvm::cl::cat(category));
    llvm::cl::list<T> *opt = owned.get();
    readers.push_back([opt, &field] {
      if (opt->getNumOccurrences())
        field.assign(opt->begin(), opt->end());
    });
    options.push_back(std::move(owned));
  }

private:
  llvm::cl::OptionCategory &category;
  std::vector<std::function<void()>> readers;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
};

} // namespace mlir::threadbind

#endif // THREADBIND_PIPELINES_OPTIONSBINDING_H
