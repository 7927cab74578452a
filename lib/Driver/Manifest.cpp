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

/// " at file:line:col" for the first file location in `loc`, else "".
static std::string describeWhere(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  if (!file)
    return "";
  return llvm::formatv(" at {0}:{1}:{2}", file.getFilename(), file.getLine(),
                       file.getColumn())
      .str();
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
      std::string mlirType = llvm::to_string(operand.getType());
      auto add = [&](StringRef ptxType, StringRef field,
                     std::optional<unsigned> dim, LaunchExpr source) {
        k.params.push_back({ptxType.str(), i, field.str(), dim, mlirType,
                            std::move(source)});
      };
      if (auto memref = dyn_cast<MemRefType>(operand.getType())) {
        // The MLIR memref descriptor, expanded into scalars by the NVVM
        // lowering: two pointers, an offset, then sizes and strides.
        HostMemRefExpr fields = describeHostMemRef(operand);
        add("u64", "allocated_ptr", std::nullopt, fields.base);
        add("u64", "aligned_ptr", std::nullopt, fields.base);
        add("u64", "offset", std::nullopt, fields.offset);
        for (unsigned d = 0; d < memref.getRank(); ++d)
          add("u64", "size", d, fields.sizes[d]);
        for (unsigned d = 0; d < memref.getRank(); ++d)
          add("u64", "stride", d, fields.strides[d]);
        continue;
      }
      add(ptxTypeOf(operand.getType()), "", std::nullopt,
          describeHostValue(operand));
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
    if (smem)
      k.dynamicSharedMemory = describeHostValue(smem);
    // The conditions of the ifs around the launch, such as the non-empty
    // extent a padded kernel needs, outermost first. A launch in anything
    // else (a loop) happens a number of times only the host function knows.
    std::vector<LaunchExpr> conditions;
    for (Operation *parent = launch->getParentOp();
         parent && !isa<FunctionOpInterface>(parent);
         parent = parent->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      if (!ifOp) {
        conditions.push_back(LaunchExpr::opaque(
            ("<" + parent->getName().getStringRef() + ">").str()));
        if (k.enclosedBy.empty())
          k.enclosedBy = ("'" + parent->getName().getStringRef() + "'" +
                          describeWhere(parent->getLoc()))
                             .str();
        continue;
      }
      LaunchExpr condition = describeHostValue(ifOp.getCondition());
      bool inElse = ifOp.getElseRegion().isAncestor(launch->getParentRegion());
      conditions.push_back(inElse ? LaunchExpr::op("not", {condition})
                                  : condition);
    }
    std::reverse(conditions.begin(), conditions.end());
    k.launchIf = conjunction(std::move(conditions));
    kernels.push_back(std::move(k));
  });
  if (gridPolicies.size() == kernels.size())
    for (auto [kernel, policy] : llvm::zip_equal(kernels, gridPolicies))
      kernel.gridPolicy = policy;
  return kernels;
}

/// Why a caller of the PTX cannot compute what `kernel` needs from the
/// arguments alone, or "" when it can.
static std::string getOpaquePart(const KernelManifest &kernel) {
  auto check = [&](const LaunchExpr &e, StringRef what) -> std::string {
    const LaunchExpr *opaque = e.findOpaque();
    if (!opaque)
      return "";
    StringRef text = opaque->name;
    std::string kernelName = "kernel '" + kernel.name + "'";
    if (&e == &kernel.launchIf && !kernel.enclosedBy.empty())
      return kernelName + " is launched inside " + kernel.enclosedBy;
    return (kernelName + " needs " + text + " for " + what).str();
  };
  std::string why = check(kernel.launchIf, "its launch condition");
  for (unsigned d = 0; d < 3 && why.empty(); ++d) {
    why = check(kernel.grid[d], "its grid");
    if (why.empty())
      why = check(kernel.block[d], "its block");
  }
  if (why.empty())
    why = check(kernel.dynamicSharedMemory, "its shared memory");
  for (const KernelParam &param : kernel.params) {
    if (!why.empty())
      break;
    bool pointer =
        param.field == "allocated_ptr" || param.field == "aligned_ptr";
    if (pointer && param.source.kind != LaunchExpr::Kind::Argument &&
        param.source.kind != LaunchExpr::Kind::Scratch)
      why = check(param.source, "a memref parameter");
    if (why.empty())
      why = check(param.source, "a parameter");
  }
  return why;
}

/// Whether `op`, in a host function, is part of launching kernels: the
/// launch itself, the ifs around it, the queries and tests its quantities
/// call, and ops without side effects.
static bool isLaunchCode(Operation *op) {
  if (isa<gpu::LaunchFuncOp, func::ReturnOp, scf::IfOp, scf::YieldOp>(op))
    return true;
  // Device scratch (describeDeviceScratch checks it is plain), and the
  // waits around its allocation: a caller allocates and frees it on the
  // stream it launches on.
  if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::WaitOp>(op))
    return true;
  if (auto call = dyn_cast<func::CallOp>(op)) {
    StringRef callee = call.getCallee();
    if (callee == "threadbind_max_resident_blocks" ||
        callee == "threadbind_kernel_resident_blocks")
      return true;
    Operation *function =
        SymbolTable::lookupNearestSymbolFrom(op, call.getCalleeAttr());
    return function && function->hasAttr(kDisjointHelperAttr);
  }
  return isMemoryEffectFree(op) && op->getNumRegions() == 0;
}

ArgumentAccess threadbind::collectArgumentAccess(ModuleOp module) {
  ArgumentAccess access;
  SymbolTableCollection symbols;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    SmallVector<int> &flags = access[func.getName()];
    for (BlockArgument arg : func.getArguments())
      flags.push_back(isa<MemRefType>(arg.getType())
                          ? getMemRefAccess(arg, symbols)
                          : 0);
  }
  return access;
}

std::vector<HostFunctionManifest>
threadbind::collectHostFunctions(ModuleOp module,
                                 ArrayRef<KernelManifest> kernels,
                                 const ArgumentAccess &access) {
  std::vector<HostFunctionManifest> functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto launching = llvm::make_filter_range(
        kernels, [&](const KernelManifest &k) {
          return k.hostFunction == func.getName();
        });
    if (func.isDeclaration() || launching.empty())
      continue;
    HostFunctionManifest f;
    f.name = func.getName().str();
    for (BlockArgument arg : func.getArguments()) {
      HostArgument a;
      a.mlirType = llvm::to_string(arg.getType());
      Type element = arg.getType();
      if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
        a.isMemRef = true;
        element = memref.getElementType();
        llvm::append_range(a.shape, memref.getShape());
        // Unknown (a function the mapping made) counts as both.
        auto flags = access.find(func.getName());
        a.access = flags != access.end() &&
                           arg.getArgNumber() < flags->second.size()
                       ? flags->second[arg.getArgNumber()]
                       : THREADBIND_READ_WRITE;
        if (!memref.getLayout().isIdentity()) {
          a.strided = true;
          if (failed(memref.getStridesAndOffset(a.strides, a.offset)) &&
              f.notLaunchable.empty())
            f.notLaunchable = "argument " + std::to_string(arg.getArgNumber()) +
                              " has a layout that is not strided";
        }
      }
      a.elementType = llvm::to_string(element);
      f.arguments.push_back(std::move(a));
    }
    if (func.getNumResults() != 0)
      f.notLaunchable = "it returns values";
    std::string problem;
    FailureOr<std::vector<ScratchExpr>> scratch =
        describeDeviceScratch(func, problem);
    if (failed(scratch)) {
      f.notLaunchable = problem;
    } else {
      f.scratch = std::move(*scratch);
      for (const ScratchExpr &s : f.scratch)
        for (const LaunchExpr &size : s.sizes)
          if (const LaunchExpr *opaque = size.findOpaque();
              opaque && f.notLaunchable.empty())
            f.notLaunchable = "the size of its device scratch needs " +
                              opaque->name;
    }
    for (const KernelManifest &kernel : launching) {
      if (!f.notLaunchable.empty())
        break;
      f.notLaunchable = getOpaquePart(kernel);
    }
    if (f.notLaunchable.empty()) {
      func.walk([&](Operation *op) {
        if (op == func || isLaunchCode(op))
          return WalkResult::advance();
        f.notLaunchable = ("its host code does more than launch kernels: it "
                           "has '" +
                           op->getName().getStringRef() + "'" +
                           describeWhere(op->getLoc()))
                              .str();
        return WalkResult::interrupt();
      });
    }
    functions.push_back(std::move(f));
  }
  return functions;
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

/// Writes a static extent, or null for a dynamic one.
static void writeExtent(llvm::json::OStream &j, int64_t value) {
  if (ShapedType::isDynamic(value))
    j.value(nullptr);
  else
    j.value(value);
}

static void writeFunction(llvm::json::OStream &j,
                          const HostFunctionManifest &f) {
  j.object([&] {
    j.attribute("name", f.name);
    j.attributeArray("arguments", [&] {
      for (const HostArgument &a : f.arguments) {
        j.object([&] {
          j.attribute("kind", a.isMemRef ? "memref" : "scalar");
          j.attribute("type", a.mlirType);
          j.attribute("element_type", a.elementType);
          if (!a.isMemRef)
            return;
          j.attributeArray("shape", [&] {
            for (int64_t size : a.shape)
              writeExtent(j, size);
          });
          if (a.strided) {
            j.attributeArray("strides", [&] {
              for (int64_t stride : a.strides)
                writeExtent(j, stride);
            });
            j.attributeBegin("offset");
            writeExtent(j, a.offset);
            j.attributeEnd();
          }
          j.attribute("access", accessName(a.access));
        });
      }
    });
    if (!f.scratch.empty())
      j.attributeArray("scratch", [&] {
        for (const ScratchExpr &s : f.scratch)
          j.object([&] {
            j.attribute("element_type", s.elementType);
            j.attribute("element_bytes", s.elementBytes);
            j.attributeArray("shape", [&] {
              for (const LaunchExpr &size : s.sizes)
                j.rawValue([&](llvm::raw_ostream &out) { size.writeJson(out); });
            });
          });
      });
    j.attribute("launchable", f.notLaunchable.empty());
    if (!f.notLaunchable.empty())
      j.attribute("not_launchable", f.notLaunchable);
  });
}

void threadbind::writeManifest(llvm::raw_ostream &os,
                               ArrayRef<KernelManifest> kernels,
                               ArrayRef<HostFunctionManifest> functions,
                               StringRef input, StringRef chip,
                               StringRef ptxVersion,
                               ArrayRef<BundleEntry> entries) {
  llvm::json::OStream j(os, /*IndentSize=*/2);
  auto tree = [&](StringRef key, const LaunchExpr &e) {
    j.attributeBegin(key);
    j.rawValue([&](llvm::raw_ostream &out) { e.writeJson(out); });
    j.attributeEnd();
  };
  j.object([&] {
    j.attribute("threadbind_manifest_version", kManifestVersion);
    j.attribute("input", input);
    j.attribute("chip", chip);
    j.attribute("ptx_version", ptxVersion);
    j.attributeArray("functions", [&] {
      for (const HostFunctionManifest &f : functions)
        writeFunction(j, f);
    });
    j.attributeArray("kernels", [&] {
      for (const KernelManifest &k : kernels) {
        j.object([&] {
          j.attribute("name", k.name);
          j.attribute("module", k.module);
          j.attribute("host_function", k.hostFunction);
          auto trees = [&](StringRef key, ArrayRef<LaunchExpr> extents) {
            j.attributeArray(key, [&] {
              for (const LaunchExpr &e : extents)
                j.rawValue([&](llvm::raw_ostream &out) { e.writeJson(out); });
            });
          };
          trees("block", k.block);
          trees("grid", k.grid);
          if (!k.gridPolicy.empty())
            j.attribute("grid_policy", k.gridPolicy);
          if (!k.launchIf.isConstant() || k.launchIf.value != 1)
            tree("launch_if", k.launchIf);
          tree("dynamic_shared_memory", k.dynamicSharedMemory);
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
                tree("source", p.source);
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
