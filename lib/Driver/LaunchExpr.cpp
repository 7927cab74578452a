//===- LaunchExpr.cpp - Launch quantities over a function's arguments -----===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/LaunchExpr.h"

#include "threadbind/Transforms/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ScopedPrinter.h"

using namespace mlir;
using namespace mlir::threadbind;

LaunchExpr LaunchExpr::constant(int64_t value) {
  LaunchExpr e;
  e.kind = Kind::Constant;
  e.value = value;
  return e;
}

LaunchExpr LaunchExpr::op(StringRef name, std::vector<LaunchExpr> operands) {
  LaunchExpr e;
  e.kind = Kind::Op;
  e.name = name.str();
  e.operands = std::move(operands);
  return e;
}

LaunchExpr LaunchExpr::opaque(StringRef what) {
  LaunchExpr e;
  e.kind = Kind::Opaque;
  e.name = what.str();
  return e;
}

static LaunchExpr leaf(LaunchExpr::Kind kind, unsigned arg,
                       unsigned index = 0) {
  LaunchExpr e;
  e.kind = kind;
  e.arg = arg;
  e.index = index;
  return e;
}

const LaunchExpr *LaunchExpr::findOpaque() const {
  if (kind == Kind::Opaque)
    return this;
  for (const LaunchExpr &operand : operands)
    if (const LaunchExpr *found = operand.findOpaque())
      return found;
  return nullptr;
}

bool LaunchExpr::isComputable() const { return !findOpaque(); }

//===----------------------------------------------------------------------===//
// Text and JSON
//===----------------------------------------------------------------------===//

/// The infix symbol of operator `name` in the text form, or "" for the
/// operators written as calls.
static StringRef getInfixSymbol(StringRef name) {
  return llvm::StringSwitch<StringRef>(name)
      .Case("add", "+")
      .Case("sub", "-")
      .Case("mul", "*")
      .Case("div", "/")
      .Case("divu", "/u")
      .Case("rem", "%")
      .Case("remu", "%u")
      .Case("eq", "==")
      .Case("ne", "!=")
      .Case("lt", "<")
      .Case("ltu", "<u")
      .Case("le", "<=")
      .Case("leu", "<=u")
      .Case("gt", ">")
      .Case("gtu", ">u")
      .Case("ge", ">=")
      .Case("geu", ">=u")
      .Case("and", "&&")
      .Case("or", "||")
      .Default("");
}

std::string LaunchExpr::str() const {
  switch (kind) {
  case Kind::Constant:
    return std::to_string(value);
  case Kind::Argument:
    return llvm::formatv("arg{0}", arg);
  case Kind::Dim:
    return llvm::formatv("dim(arg{0}, {1})", arg, index);
  case Kind::Stride:
    return llvm::formatv("stride(arg{0}, {1})", arg, index);
  case Kind::Offset:
    return llvm::formatv("offset(arg{0})", arg);
  case Kind::Scratch:
    return llvm::formatv("scratch{0}", arg);
  case Kind::Opaque:
    return name;
  case Kind::Op:
    break;
  }
  if (name == "not" && operands.size() == 1)
    return "!" + operands[0].str();
  if ((name == "zext" || name == "sext") && operands.size() == 1)
    return llvm::formatv("{0}{1}({2})", name, index, operands[0].str());
  StringRef infix = getInfixSymbol(name);
  if (!infix.empty() && operands.size() == 2)
    return llvm::formatv("({0} {1} {2})", operands[0].str(), infix,
                         operands[1].str());
  std::string text = name + "(";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(operands, os,
                        [&](const LaunchExpr &e) { os << e.str(); });
  if (!kernel.empty())
    os << ", \"" << kernel << "\"";
  os << ")";
  return text;
}

static void writeTree(llvm::json::OStream &j, const LaunchExpr &e) {
  using Kind = LaunchExpr::Kind;
  auto pair = [&](StringRef key, int64_t first, int64_t second) {
    j.object([&] {
      j.attributeArray(key, [&] {
        j.value(first);
        j.value(second);
      });
    });
  };
  switch (e.kind) {
  case Kind::Constant:
    j.value(e.value);
    return;
  case Kind::Argument:
    j.object([&] { j.attribute("arg", static_cast<int64_t>(e.arg)); });
    return;
  case Kind::Dim:
    pair("dim", e.arg, e.index);
    return;
  case Kind::Stride:
    pair("stride", e.arg, e.index);
    return;
  case Kind::Offset:
    j.object([&] { j.attribute("offset", static_cast<int64_t>(e.arg)); });
    return;
  case Kind::Scratch:
    j.object([&] { j.attribute("scratch", static_cast<int64_t>(e.arg)); });
    return;
  case Kind::Opaque:
    j.object([&] { j.attribute("opaque", e.name); });
    return;
  case Kind::Op:
    j.object([&] {
      j.attribute("op", e.name);
      j.attributeArray("args", [&] {
        for (const LaunchExpr &operand : e.operands)
          writeTree(j, operand);
      });
      if (!e.kernel.empty())
        j.attribute("kernel", e.kernel);
      if (e.name == "zext" || e.name == "sext")
        j.attribute("bits", static_cast<int64_t>(e.index));
    });
    return;
  }
}

void LaunchExpr::writeJson(llvm::raw_ostream &os) const {
  llvm::json::OStream j(os, /*IndentSize=*/0);
  writeTree(j, *this);
}

LaunchExpr threadbind::conjunction(std::vector<LaunchExpr> conditions) {
  if (conditions.empty())
    return LaunchExpr::constant(1);
  LaunchExpr result = std::move(conditions.front());
  for (LaunchExpr &next : llvm::drop_begin(conditions))
    result = LaunchExpr::op("and", {std::move(result), std::move(next)});
  return result;
}

//===----------------------------------------------------------------------===//
// Reading host IR
//===----------------------------------------------------------------------===//

/// Expressions deeper than this are left opaque; a grid computation is a
/// few dozen ops (a balanced grid-stride grid, then widening's rebalance).
static constexpr unsigned kMaxDescribeDepth = 64;

/// The operator an integer arith op computes, or "" when it is not one the
/// manifest has.
static StringRef getOperatorName(Operation *op) {
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return "eq";
    case arith::CmpIPredicate::ne:
      return "ne";
    case arith::CmpIPredicate::slt:
      return "lt";
    case arith::CmpIPredicate::ult:
      return "ltu";
    case arith::CmpIPredicate::sle:
      return "le";
    case arith::CmpIPredicate::ule:
      return "leu";
    case arith::CmpIPredicate::sgt:
      return "gt";
    case arith::CmpIPredicate::ugt:
      return "gtu";
    case arith::CmpIPredicate::sge:
      return "ge";
    case arith::CmpIPredicate::uge:
      return "geu";
    }
  }
  // Logical and/or only: bitwise ones on wider integers have no operator.
  if (isa<arith::AndIOp, arith::OrIOp>(op))
    return op->getResult(0).getType().isInteger(1)
               ? (isa<arith::AndIOp>(op) ? "and" : "or")
               : "";
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](arith::AddIOp) { return "add"; })
      .Case([](arith::SubIOp) { return "sub"; })
      .Case([](arith::MulIOp) { return "mul"; })
      .Case([](arith::DivSIOp) { return "div"; })
      .Case([](arith::DivUIOp) { return "divu"; })
      .Case([](arith::RemSIOp) { return "rem"; })
      .Case([](arith::RemUIOp) { return "remu"; })
      .Case([](arith::CeilDivSIOp) { return "ceildiv"; })
      .Case([](arith::CeilDivUIOp) { return "ceildivu"; })
      .Case([](arith::MinSIOp) { return "min"; })
      .Case([](arith::MinUIOp) { return "minu"; })
      .Case([](arith::MaxSIOp) { return "max"; })
      .Case([](arith::MaxUIOp) { return "maxu"; })
      .Case([](arith::SelectOp) { return "select"; })
      .Default([](Operation *) { return ""; });
}

static LaunchExpr describe(Value value, unsigned depth);

/// `value` as a memref argument of its function: its number, or none.
static std::optional<unsigned> getMemRefArgument(Value value, unsigned depth) {
  LaunchExpr e = describe(value, depth);
  if (e.kind != LaunchExpr::Kind::Argument)
    return std::nullopt;
  return e.arg;
}

static LaunchExpr describe(Value value, unsigned depth) {
  if (depth > kMaxDescribeDepth)
    return LaunchExpr::opaque("...");
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return leaf(LaunchExpr::Kind::Argument, arg.getArgNumber());
    return LaunchExpr::opaque("<block argument>");
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return LaunchExpr::constant(constant.getBitWidth() == 1
                                    ? constant.getZExtValue()
                                    : constant.getSExtValue());
  Operation *op = value.getDefiningOp();
  auto sub = [&](Value operand) { return describe(operand, depth + 1); };
  auto opaqueWith = [&](StringRef head, ValueRange operands) {
    std::string text = (head + "(").str();
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(operands, os,
                          [&](Value v) { os << sub(v).str(); });
    os << ")";
    return LaunchExpr::opaque(text);
  };

  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    std::optional<unsigned> arg = getMemRefArgument(dim.getSource(), depth + 1);
    if (index && arg)
      return leaf(LaunchExpr::Kind::Dim, *arg, *index);
    return opaqueWith("dim", op->getOperands());
  }
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
    // The parts of a host function's view: what a caller reads off the
    // array it passes.
    std::optional<unsigned> arg =
        getMemRefArgument(metadata.getSource(), depth + 1);
    if (!arg)
      return opaqueWith("<memref.extract_strided_metadata>",
                        metadata.getSource());
    auto result = cast<OpResult>(value);
    unsigned rank = metadata.getSizes().size();
    unsigned number = result.getResultNumber();
    if (number == 0)
      return leaf(LaunchExpr::Kind::Argument, *arg);
    if (number == 1)
      return leaf(LaunchExpr::Kind::Offset, *arg);
    if (number < 2 + rank)
      return leaf(LaunchExpr::Kind::Dim, *arg, number - 2);
    return leaf(LaunchExpr::Kind::Stride, *arg, number - 2 - rank);
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
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    // Device scratch the host function allocates, such as a reduction's
    // per-block results: numbered in the function's walk order.
    if (auto function = op->getParentOfType<FunctionOpInterface>()) {
      unsigned index = 0;
      bool found = false;
      function->walk([&](gpu::AllocOp other) {
        if (other == alloc) {
          found = true;
          return WalkResult::interrupt();
        }
        ++index;
        return WalkResult::advance();
      });
      if (found)
        return leaf(LaunchExpr::Kind::Scratch, index);
    }
    return LaunchExpr::opaque("<gpu.alloc>");
  }
  if (auto callOp = dyn_cast<func::CallOp>(op)) {
    StringRef callee = callOp.getCallee();
    ValueRange args = callOp.getOperands();
    if (callee == "threadbind_max_resident_blocks" && args.size() == 1)
      return LaunchExpr::op("resident_blocks", {sub(args[0])});
    if (callee == "threadbind_kernel_resident_blocks" && args.size() == 2) {
      LaunchExpr name = sub(args[1]);
      if (name.kind == LaunchExpr::Kind::Opaque &&
          StringRef(name.name).starts_with("\"")) {
        LaunchExpr e = LaunchExpr::op("resident_blocks", {sub(args[0])});
        e.kernel = StringRef(name.name).drop_front().drop_back().str();
        return e;
      }
    }
    // threadbind-version-read-only-launches' test: whether two memref
    // arguments' bytes are disjoint.
    Operation *function =
        SymbolTable::lookupNearestSymbolFrom(op, callOp.getCalleeAttr());
    if (function && function->hasAttr(kDisjointHelperAttr) &&
        args.size() == 2) {
      std::optional<unsigned> first = getMemRefArgument(args[0], depth + 1);
      std::optional<unsigned> second = getMemRefArgument(args[1], depth + 1);
      if (first && second)
        return LaunchExpr::op(
            "disjoint", {leaf(LaunchExpr::Kind::Argument, *first),
                         leaf(LaunchExpr::Kind::Argument, *second)});
    }
    return opaqueWith(callee, args);
  }
  if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
    // A string global, such as the kernel name of a bound grid query; only
    // a call's operand, where the call reads it.
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupNearestSymbolFrom(op, address.getGlobalNameAttr()));
    if (auto text = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                           : StringAttr())
      return LaunchExpr::opaque(
          ("\"" + text.getValue().rtrim('\0') + "\"").str());
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op)) {
    // A widening keeps the value's bits, read as signed or unsigned (an i1
    // true sign-extends to -1); a narrowing index cast keeps the value,
    // which the launch conditions keep in range.
    auto width = [](Type type) {
      return isa<IndexType>(type) ? 64u : type.getIntOrFloatBitWidth();
    };
    unsigned from = width(op->getOperand(0).getType());
    LaunchExpr operand = sub(op->getOperand(0));
    if (from >= width(op->getResult(0).getType()) || from >= 64)
      return operand;
    bool zeroExtends = isa<arith::IndexCastUIOp, arith::ExtUIOp>(op);
    LaunchExpr e = LaunchExpr::op(zeroExtends ? "zext" : "sext", {operand});
    e.index = from;
    return e;
  }
  StringRef name = getOperatorName(op);
  if (name.empty())
    return LaunchExpr::opaque(("<" + op->getName().getStringRef() + ">").str());
  std::vector<LaunchExpr> operands;
  for (Value operand : op->getOperands())
    operands.push_back(sub(operand));
  return LaunchExpr::op(name, std::move(operands));
}

LaunchExpr threadbind::describeHostValue(Value value) {
  return describe(value, 0);
}

/// The sizes of what `alloc` allocates: its dynamic sizes as the host
/// computes them, the others constant.
static std::vector<LaunchExpr> describeAllocSizes(gpu::AllocOp alloc) {
  MemRefType type = alloc.getType();
  std::vector<LaunchExpr> sizes;
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? describeHostValue(alloc.getDynamicSizes()[next++])
                        : LaunchExpr::constant(type.getDimSize(d)));
  return sizes;
}

HostMemRefExpr threadbind::describeHostMemRef(Value memref) {
  if (auto cast = memref.getDefiningOp<memref::CastOp>())
    return describeHostMemRef(cast.getSource());
  if (auto collapse = memref.getDefiningOp<memref::CollapseShapeOp>()) {
    // Each group of dimensions is contiguous: its size is the product of
    // theirs, its stride the innermost one's.
    HostMemRefExpr source = describeHostMemRef(collapse.getSrc());
    HostMemRefExpr result{source.base, source.offset, {}, {}};
    for (const ReassociationIndices &group :
         collapse.getReassociationIndices()) {
      LaunchExpr size = source.sizes[group.front()];
      for (int64_t d : llvm::drop_begin(group))
        size = LaunchExpr::op("mul", {size, source.sizes[d]});
      result.sizes.push_back(std::move(size));
      result.strides.push_back(source.strides[group.back()]);
    }
    return result;
  }
  auto type = cast<MemRefType>(memref.getType());
  HostMemRefExpr result;
  result.base = describeHostValue(memref);
  if (auto alloc = memref.getDefiningOp<gpu::AllocOp>();
      alloc && result.base.kind == LaunchExpr::Kind::Scratch &&
      type.getLayout().isIdentity()) {
    // Row-major, as gpu.alloc makes it.
    result.offset = LaunchExpr::constant(0);
    result.sizes = describeAllocSizes(alloc);
    result.strides.assign(type.getRank(), LaunchExpr::constant(1));
    for (int64_t d = type.getRank() - 2; d >= 0; --d)
      result.strides[d] =
          result.strides[d + 1].isConstant() &&
                  result.sizes[d + 1].isConstant()
              ? LaunchExpr::constant(result.strides[d + 1].value *
                                     result.sizes[d + 1].value)
              : LaunchExpr::op("mul",
                               {result.strides[d + 1], result.sizes[d + 1]});
    return result;
  }
  if (result.base.kind != LaunchExpr::Kind::Argument) {
    result.offset = result.base;
    result.sizes.assign(type.getRank(), result.base);
    result.strides.assign(type.getRank(), result.base);
    return result;
  }
  unsigned arg = result.base.arg;
  SmallVector<int64_t> strides;
  int64_t offset = ShapedType::kDynamic;
  if (failed(type.getStridesAndOffset(strides, offset)))
    strides.assign(type.getRank(), ShapedType::kDynamic);
  result.offset = ShapedType::isDynamic(offset)
                      ? leaf(LaunchExpr::Kind::Offset, arg)
                      : LaunchExpr::constant(offset);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = type.getDimSize(d);
    result.sizes.push_back(ShapedType::isDynamic(size)
                               ? leaf(LaunchExpr::Kind::Dim, arg, d)
                               : LaunchExpr::constant(size));
    result.strides.push_back(ShapedType::isDynamic(strides[d])
                                 ? leaf(LaunchExpr::Kind::Stride, arg, d)
                                 : LaunchExpr::constant(strides[d]));
  }
  return result;
}

FailureOr<std::vector<ScratchExpr>>
threadbind::describeDeviceScratch(FunctionOpInterface function,
                                  std::string &problem) {
  std::vector<ScratchExpr> scratch;
  WalkResult walked = function->walk([&](gpu::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!alloc.getSymbolOperands().empty() || alloc.getHostShared() ||
        !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrIndexOrFloat()) {
      problem = "it allocates device memory that is not a plain buffer (" +
                llvm::to_string(type) + ")";
      return WalkResult::interrupt();
    }
    ScratchExpr s;
    Type element = type.getElementType();
    s.elementType = llvm::to_string(element);
    s.elementBytes = isa<IndexType>(element)
                         ? 8
                         : (element.getIntOrFloatBitWidth() + 7) / 8;
    s.sizes = describeAllocSizes(alloc);
    scratch.push_back(std::move(s));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  return scratch;
}
