//===- Manifest.cpp - What a user needs to launch the kernels -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/Manifest.h"

#include "threadbind/Runtime/Bundle.h"

#include "threadbind/Transforms/Attributes.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ScopedPrinter.h"

using namespace mlir;
using namespace mlir::threadbind;

/// Expressions deeper than this are abbreviated; a grid computation is a
/// handful of ops.
static constexpr unsigned kMaxDescribeDepth = 24;

static std::string describe(Value value, unsigned depth) {
  if (depth > kMaxDescribeDepth)
    return "...";
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return llvm::formatv("arg{0}", arg.getArgNumber());
    return "<block argument>";
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::to_string(constant.getSExtValue());
  Operation *op = value.getDefiningOp();
  auto sub = [&](unsigned i) { return describe(op->getOperand(i), depth + 1); };
  auto call = [&](StringRef name) {
    return llvm::formatv("{0}({1}, {2})", name, sub(0), sub(1)).str();
  };
  auto infix = [&](StringRef symbol) {
    return llvm::formatv("({0} {1} {2})", sub(0), symbol, sub(1)).str();
  };
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    return llvm::formatv("dim({0}, {1})", describe(dim.getSource(), depth + 1),
                         index ? std::to_string(*index)
                               : describe(dim.getIndex(), depth + 1));
  }
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
    // The parts of a host function's view: what launch_ptx reads off the
    // array it is given.
    std::string source = describe(metadata.getSource(), depth + 1);
    auto result = cast<OpResult>(value);
    unsigned rank = metadata.getSizes().size();
    unsigned number = result.getResultNumber();
    if (number == 0)
      return source;
    if (number == 1)
      return llvm::formatv("offset({0})", source).str();
    if (number < 2 + rank)
      return llvm::formatv("dim({0}, {1})", source, number - 2).str();
    return llvm::formatv("stride({0}, {1})", source, number - 2 - rank).str();
  }
  if (auto view = dyn_cast<memref::ReinterpretCastOp>(op)) {
    // A view rebuilt from the parts of another, with some strides made
    // static (threadbind-version-unit-strides, under a condition that says
    // they hold): the same memory, sizes and offset as the original.
    // Canonicalization takes the view of the original rather than of its
    // base buffer: find the parts among the operands.
    memref::ExtractStridedMetadataOp metadata;
    for (Value operand : view->getOperands())
      if (auto parts =
              operand.getDefiningOp<memref::ExtractStridedMetadataOp>())
        metadata = parts;
    // Each of the view's parts is the original's, or a constant.
    auto sameOrFixed = [](ArrayRef<OpFoldResult> mine, ValueRange theirs) {
      return mine.size() == theirs.size() &&
             llvm::all_of(llvm::zip(mine, theirs), [](auto pair) {
               auto [part, original] = pair;
               return isa<Attribute>(part) || cast<Value>(part) == original;
             });
    };
    if (metadata &&
        (view.getSource() == metadata.getBaseBuffer() ||
         view.getSource() == metadata.getSource()) &&
        sameOrFixed(view.getMixedOffsets(), metadata.getOffset()) &&
        sameOrFixed(view.getMixedSizes(), metadata.getSizes()) &&
        sameOrFixed(view.getMixedStrides(), metadata.getStrides()))
      return describe(metadata.getSource(), depth + 1);
  }
  if (isa<arith::AndIOp, arith::OrIOp>(op) &&
      op->getResult(0).getType().isInteger(1))
    return infix(isa<arith::AndIOp>(op) ? "&&" : "||");
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    // Device scratch the host function allocates, such as a reduction's
    // per-block results: a caller launching the PTX allocates it itself.
    std::string sizes;
    llvm::raw_string_ostream os(sizes);
    llvm::interleaveComma(alloc.getDynamicSizes(), os, [&](Value v) {
      os << describe(v, depth + 1);
    });
    return llvm::formatv("device_scratch({0}{1}{2})",
                         alloc.getType().getElementType(),
                         sizes.empty() ? "" : ", ", sizes)
        .str();
  }
  if (auto callOp = dyn_cast<func::CallOp>(op)) {
    std::string args;
    llvm::raw_string_ostream os(args);
    llvm::interleaveComma(callOp.getOperands(), os, [&](Value v) {
      os << describe(v, depth + 1);
    });
    // threadbind-version-read-only-launches' test: whether two memref
    // arguments' bytes are disjoint.
    Operation *callee =
        SymbolTable::lookupNearestSymbolFrom(op, callOp.getCalleeAttr());
    if (callee && callee->hasAttr(kDisjointHelperAttr))
      return llvm::formatv("disjoint({0})", args);
    return llvm::formatv("{0}({1})", callOp.getCallee(), args);
  }
  if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
    // A string global, such as the kernel name of a bound grid query.
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupNearestSymbolFrom(op, address.getGlobalNameAttr()));
    if (auto text = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                           : StringAttr())
      return ("\"" + text.getValue().rtrim('\0') + "\"").str();
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return sub(0);
  if (isa<arith::AddIOp>(op))
    return infix("+");
  if (isa<arith::SubIOp>(op))
    return infix("-");
  if (isa<arith::MulIOp>(op))
    return infix("*");
  if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    return infix("/");
  if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    return infix("%");
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
    return call("ceildiv");
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return infix("==");
    case arith::CmpIPredicate::ne:
      return infix("!=");
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::ult:
      return infix("<");
    case arith::CmpIPredicate::sle:
    case arith::CmpIPredicate::ule:
      return infix("<=");
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::ugt:
      return infix(">");
    case arith::CmpIPredicate::sge:
    case arith::CmpIPredicate::uge:
      return infix(">=");
    }
  }
  if (isa<arith::SelectOp>(op))
    return llvm::formatv("select({0}, {1}, {2})", sub(0), sub(1), sub(2));
  if (isa<arith::MinUIOp, arith::MinSIOp>(op))
    return call("min");
  if (isa<arith::MaxUIOp, arith::MaxSIOp>(op))
    return call("max");
  return ("<" + op->getName().getStringRef() + ">").str();
}

std::string threadbind::describeHostValue(Value value) {
  return describe(value, 0);
}

/// The PTX parameter type NVPTX gives a scalar of `type`.
static std::string ptxTypeOf(Type type) {
  if (isa<IndexType>(type))
    return "u64";
  if (type.isF64())
    return "f64";
  if (type.isF32())
    return "f32";
  if (type.isF16() || type.isBF16())
    return "b16";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width > 32)
      return "u64";
    if (width > 16)
      return "u32";
    if (width > 8)
      return "u16";
    return "u8";
  }
  return "unknown";
}

SmallVector<std::string> threadbind::collectGridPolicies(ModuleOp module) {
  SmallVector<std::string> policies;
  module.walk([&](gpu::LaunchOp launch) {
    std::optional<GridPolicy> policy = getGridPolicy(launch);
    policies.push_back(policy ? stringifyGridPolicy(*policy).str() : "");
  });
  return policies;
}

std::vector<KernelManifest>
threadbind::collectKernelManifests(ModuleOp module,
                                   ArrayRef<std::string> gridPolicies) {
  std::vector<KernelManifest> kernels;
  module.walk([&](gpu::LaunchFuncOp launch) {
    KernelManifest k;
    if (auto host = launch->getParentOfType<FunctionOpInterface>())
      k.hostFunction = host.getName().str();
    k.module = launch.getKernelModuleName().str();
    k.name = launch.getKernelName().str();

    for (unsigned i = 0, e = launch.getNumKernelOperands(); i < e; ++i) {
      Value operand = launch.getKernelOperand(i);
      std::string source = describeHostValue(operand);
      std::string mlirType = llvm::to_string(operand.getType());
      auto add = [&](StringRef ptxType, StringRef field,
                     std::optional<unsigned> dim) {
        k.params.push_back(
            {ptxType.str(), i, field.str(), dim, mlirType, source});
      };
      if (auto memref = dyn_cast<MemRefType>(operand.getType())) {
        // The MLIR memref descriptor, expanded into scalars by the NVVM
        // lowering: two pointers, an offset, then sizes and strides.
        add("u64", "allocated_ptr", std::nullopt);
        add("u64", "aligned_ptr", std::nullopt);
        add("u64", "offset", std::nullopt);
        for (unsigned d = 0; d < memref.getRank(); ++d)
          add("u64", "size", d);
        for (unsigned d = 0; d < memref.getRank(); ++d)
          add("u64", "stride", d);
        continue;
      }
      add(ptxTypeOf(operand.getType()), "", std::nullopt);
    }

    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    k.grid[0] = describeHostValue(grid.x);
    k.grid[1] = describeHostValue(grid.y);
    k.grid[2] = describeHostValue(grid.z);
    k.block[0] = describeHostValue(block.x);
    k.block[1] = describeHostValue(block.y);
    k.block[2] = describeHostValue(block.z);
    Value smem = launch.getDynamicSharedMemorySize();
    k.dynamicSharedMemory = smem ? describeHostValue(smem) : "0";
    // The conditions of the ifs around the launch, such as the non-empty
    // extent a padded kernel needs.
    SmallVector<std::string> conditions;
    for (Operation *parent = launch->getParentOp();
         parent && !isa<FunctionOpInterface>(parent);
         parent = parent->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      if (!ifOp) {
        conditions.push_back("<" + parent->getName().getStringRef().str() +
                             ">");
        continue;
      }
      std::string condition = describeHostValue(ifOp.getCondition());
      bool inElse = ifOp.getElseRegion().isAncestor(launch->getParentRegion());
      conditions.push_back(inElse ? "!" + condition : condition);
    }
    k.launchIf = llvm::join(llvm::reverse(conditions), " && ");
    kernels.push_back(std::move(k));
  });
  if (gridPolicies.size() == kernels.size())
    for (auto [kernel, policy] : llvm::zip_equal(kernels, gridPolicies))
      kernel.gridPolicy = policy;
  return kernels;
}

/// A number when the expression is one, otherwise the expression.
static llvm::json::Value jsonExpr(StringRef expr) {
  int64_t number;
  if (!expr.getAsInteger(10, number))
    return number;
  return expr.str();
}

static StringRef elementTypeName(int code) {
  const char *name = threadbind_element_type_name(code);
  return name ? name : "unknown";
}

static StringRef accessName(int access) {
  switch (static_cast<ThreadBindAccess>(access)) {
  case THREADBIND_READ:
    return "read";
  case THREADBIND_WRITE:
    return "write";
  case THREADBIND_READ_WRITE:
    return "read-write";
  }
  return "unknown";
}

void threadbind::writeManifest(llvm::raw_ostream &os,
                               ArrayRef<KernelManifest> kernels,
                               StringRef input, StringRef chip,
                               StringRef ptxVersion,
                               ArrayRef<BundleEntry> entries) {
  llvm::json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attribute("threadbind_manifest_version", 1);
    j.attribute("input", input);
    j.attribute("chip", chip);
    j.attribute("ptx_version", ptxVersion);
    j.attributeArray("kernels", [&] {
      for (const KernelManifest &k : kernels) {
        j.object([&] {
          j.attribute("name", k.name);
          j.attribute("module", k.module);
          j.attribute("host_function", k.hostFunction);
          j.attributeArray("block", [&] {
            for (const std::string &e : k.block)
              j.value(jsonExpr(e));
          });
          j.attributeArray("grid", [&] {
            for (const std::string &e : k.grid)
              j.value(jsonExpr(e));
          });
          if (!k.gridPolicy.empty())
            j.attribute("grid_policy", k.gridPolicy);
          if (!k.launchIf.empty())
            j.attribute("launch_if", k.launchIf);
          j.attribute("dynamic_shared_memory",
                      jsonExpr(k.dynamicSharedMemory));
          j.attributeArray("params", [&] {
            for (auto [position, param] : llvm::enumerate(k.params)) {
              // Lambdas cannot capture structured bindings in C++17.
              int64_t index = position;
              const KernelParam &p = param;
              j.object([&] {
                j.attribute("index", index);
                j.attribute("ptx_type", p.ptxType);
                j.attribute("operand", static_cast<int64_t>(p.operand));
                if (!p.field.empty())
                  j.attribute("field", p.field);
                if (p.dim)
                  j.attribute("dim", static_cast<int64_t>(*p.dim));
                j.attribute("mlir_type", p.mlirType);
                j.attribute("source", p.source);
              });
            }
          });
          if (k.resources) {
            const PtxasKernelInfo &r = *k.resources;
            j.attributeObject("resources", [&] {
              j.attribute("registers", static_cast<int64_t>(r.registers));
              j.attribute("spill_store_bytes",
                          static_cast<int64_t>(r.spillStoreBytes));
              j.attribute("spill_load_bytes",
                          static_cast<int64_t>(r.spillLoadBytes));
              j.attribute("stack_bytes", static_cast<int64_t>(r.stackBytes));
              j.attribute("shared_bytes",
                          static_cast<int64_t>(r.sharedBytes));
              j.attribute("barriers", static_cast<int64_t>(r.barriers));
            });
          }
          if (!k.launchBoundWhy.empty())
            j.attributeObject("launch_bound", [&] {
              j.attribute("dropped", k.launchBoundDropped);
              j.attribute("why", k.launchBoundWhy);
            });
        });
      }
    });
    if (entries.empty())
      return;
    j.attributeArray("entries", [&] {
      for (const BundleEntry &entry : entries) {
        j.object([&] {
          j.attribute("name", entry.name);
          j.attribute("gpu_symbol", getGpuEntrySymbol(entry.name));
          if (entry.noReference.empty()) {
            j.attribute("reference_symbol",
                        getReferenceEntrySymbol(entry.name));
          } else {
            j.attribute("reference_symbol", nullptr);
            j.attribute("no_reference", entry.noReference);
          }
          j.attributeArray("arguments", [&] {
            for (const BundleArgument &a : entry.arguments) {
              j.object([&] {
                j.attribute("kind", a.isMemRef ? "memref" : "scalar");
                j.attribute("type", a.mlirType);
                j.attribute("element_type", elementTypeName(a.elementType));
                if (a.isMemRef) {
                  j.attributeArray("shape", [&] {
                    for (int64_t size : a.shape)
                      j.value(size);
                  });
                  j.attribute("access", accessName(a.access));
                  if (a.paddedTo)
                    j.attribute("padded_to", a.paddedTo);
                  // A strided layout: the strides and offset the type
                  // fixes, null where the caller gives them.
                  if (a.strided) {
                    auto fixed = [&](int64_t value) {
                      if (ShapedType::isDynamic(value))
                        j.value(nullptr);
                      else
                        j.value(value);
                    };
                    j.attributeArray("strides", [&] {
                      for (int64_t stride : a.strides)
                        fixed(stride);
                    });
                    j.attributeBegin("offset");
                    fixed(a.offset);
                    j.attributeEnd();
                  }
                }
                if (a.result >= 0)
                  j.attribute("result", a.result);
              });
            }
          });
          auto term = [&](const SizeTerm &t) {
            j.object([&] {
              if (t.kind == SizeTerm::Constant)
                j.attribute("constant", t.value);
              else if (t.kind == SizeTerm::Scalar)
                j.attribute("scalar", t.arg);
              else
                j.attributeArray("dim", [&] {
                  j.value(t.arg);
                  j.value(t.dim);
                });
            });
          };
          j.attributeArray("requirements", [&] {
            for (const SizeRequirement &r : entry.requirements) {
              j.object([&] {
                j.attribute("argument", r.arg);
                j.attribute("dimension", r.dim);
                j.attributeBegin("at_least");
                term(r.bound);
                j.attributeEnd();
                j.attribute("plus", r.offset);
                j.attributeArray("when", [&] {
                  for (const auto &[lower, upper] : r.guards)
                    j.object([&] {
                      j.attributeBegin("lower");
                      term(lower);
                      j.attributeEnd();
                      j.attributeBegin("upper");
                      term(upper);
                      j.attributeEnd();
                    });
                });
                j.attribute("where", r.where);
              });
            }
          });
        });
      }
    });
  });
  os << "\n";
}
