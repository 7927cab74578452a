//===- LauncherHeader.cpp - A C header that launches the kernels ----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/LauncherHeader.h"

#include "threadbind/Runtime/Bundle.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;
using namespace mlir::threadbind;

/// `text` made a C identifier: other characters become '_', and a leading
/// digit gets one before it.
static std::string toIdentifier(StringRef text) {
  std::string id;
  for (char c : text)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  return id;
}

std::string threadbind::getHeaderPrefix(StringRef outputPath) {
  StringRef stem = llvm::sys::path::stem(outputPath);
  if (outputPath == "-" || stem.empty())
    return "threadbind";
  return toIdentifier(stem);
}

/// `text` as the inside of a C string literal.
static std::string escapeC(StringRef text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += {'\\', static_cast<char>(c)};
    else if (c == '\t')
      out += "\\t";
    else if (c >= 0x20 && c < 0x7f)
      out += c;
    else
      out += llvm::formatv("\\{0:o3}", static_cast<unsigned>(c)).str();
  }
  return out;
}

/// `pattern` with each "@N@" replaced by `values[N]`: C text is full of the
/// braces formatv would read.
static std::string fill(StringRef pattern, ArrayRef<std::string> values) {
  std::string out = pattern.str();
  for (auto [i, value] : llvm::enumerate(values)) {
    std::string token = "@" + std::to_string(i) + "@";
    for (size_t at = out.find(token); at != std::string::npos;
         at = out.find(token, at + value.size()))
      out.replace(at, token.size(), value);
  }
  return out;
}

/// `text` safe inside a C comment.
static std::string commentSafe(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '/' && !out.empty() && out.back() == '*')
      out += ' ';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

/// The C type of a manifest element type, or "" where the header has none.
static StringRef getCType(StringRef elementType) {
  return llvm::StringSwitch<StringRef>(elementType)
      .Case("f16", "uint16_t")
      .Case("bf16", "uint16_t")
      .Case("f32", "float")
      .Case("f64", "double")
      .Case("i1", "bool")
      .Case("i8", "int8_t")
      .Case("i16", "int16_t")
      .Case("i32", "int32_t")
      .Case("i64", "int64_t")
      .Case("index", "int64_t")
      .Default("");
}

/// The C type of a PTX parameter type.
static StringRef getParamCType(StringRef ptxType) {
  return llvm::StringSwitch<StringRef>(ptxType)
      .Case("u64", "uint64_t")
      .Case("u32", "uint32_t")
      .Case("u16", "uint16_t")
      .Case("u8", "uint8_t")
      .Case("f64", "double")
      .Case("f32", "float")
      .Case("b16", "uint16_t")
      .Default("");
}

namespace {
/// Prints launch expressions as C for one host function's launcher.
class ExprPrinter {
public:
  ExprPrinter(const HostFunctionManifest &function,
              ArrayRef<KernelManifest> kernels)
      : function(function), kernels(kernels) {}

  /// The C expression, or failure with `problem` set.
  FailureOr<std::string> print(const LaunchExpr &e);

  std::string problem;
  /// The locals that hold resident-block answers for a constant block
  /// size, with the query each is set to at the start of the launcher.
  SmallVector<std::pair<std::string, std::string>> cached;

private:
  FailureOr<std::string> memref(unsigned arg);
  FailureOr<std::string> call(StringRef helper,
                              ArrayRef<LaunchExpr> operands,
                              bool faults = false);

  const HostFunctionManifest &function;
  ArrayRef<KernelManifest> kernels;
};
} // namespace

FailureOr<std::string> ExprPrinter::memref(unsigned arg) {
  if (arg >= function.arguments.size() || !function.arguments[arg].isMemRef) {
    problem = "an expression reads the layout of argument " +
              std::to_string(arg) + ", which is not a memref";
    return failure();
  }
  return "a" + std::to_string(arg);
}

FailureOr<std::string> ExprPrinter::call(StringRef helper,
                                         ArrayRef<LaunchExpr> operands,
                                         bool faults) {
  std::string text = ("threadbind_launcher_" + helper + "(").str();
  for (auto [i, operand] : llvm::enumerate(operands)) {
    FailureOr<std::string> printed = print(operand);
    if (failed(printed))
      return failure();
    text += (i ? ", " : "") + *printed;
  }
  return text + (faults ? ", &fault)" : ")");
}

FailureOr<std::string> ExprPrinter::print(const LaunchExpr &e) {
  using Kind = LaunchExpr::Kind;
  switch (e.kind) {
  case Kind::Constant:
    if (e.value == INT64_MIN)
      return std::string("(-INT64_C(9223372036854775807) - 1)");
    return llvm::formatv("INT64_C({0})", e.value).str();
  case Kind::Argument:
    if (e.arg >= function.arguments.size() ||
        function.arguments[e.arg].isMemRef) {
      problem = "an expression reads argument " + std::to_string(e.arg) +
                " as a number";
      return failure();
    }
    return "((int64_t)arg" + std::to_string(e.arg) + ")";
  case Kind::Dim:
  case Kind::Stride: {
    FailureOr<std::string> name = memref(e.arg);
    if (failed(name))
      return failure();
    return *name + (e.kind == Kind::Dim ? "_dim[" : "_stride[") +
           std::to_string(e.index) + "]";
  }
  case Kind::Offset: {
    FailureOr<std::string> name = memref(e.arg);
    if (failed(name))
      return failure();
    return *name + "_offset";
  }
  case Kind::Opaque:
    problem = "it needs " + e.name;
    return failure();
  case Kind::Scratch:
    problem = "an expression reads device scratch " + std::to_string(e.arg) +
              " as a number";
    return failure();
  case Kind::Op:
    break;
  }
  StringRef name = e.name;
  auto arity = [&](size_t n) {
    if (e.operands.size() == n)
      return true;
    problem = ("operator '" + name + "' with " +
               Twine(e.operands.size()) + " operands")
                  .str();
    return false;
  };
  if (name == "select") {
    if (!arity(3))
      return failure();
    FailureOr<std::string> c = print(e.operands[0]);
    FailureOr<std::string> a = failed(c) ? c : print(e.operands[1]);
    FailureOr<std::string> b = failed(a) ? a : print(e.operands[2]);
    if (failed(b))
      return failure();
    // Lazy, as Python's evaluator: only the chosen side can fault.
    return "(" + *c + " != 0 ? " + *a + " : " + *b + ")";
  }
  if (name == "not") {
    if (!arity(1))
      return failure();
    FailureOr<std::string> operand = print(e.operands[0]);
    if (failed(operand))
      return failure();
    return "((int64_t)(" + *operand + " == 0))";
  }
  if (name == "zext" || name == "sext") {
    if (!arity(1) || e.index < 1 || e.index > 63) {
      if (problem.empty())
        problem = ("'" + name + "' of " + Twine(e.index) + " bits").str();
      return failure();
    }
    FailureOr<std::string> operand = print(e.operands[0]);
    if (failed(operand))
      return failure();
    return llvm::formatv("threadbind_launcher_{0}({1}, {2})", name, *operand,
                         e.index)
        .str();
  }
  if (name == "resident_blocks") {
    if (!arity(1))
      return failure();
    FailureOr<std::string> threads = print(e.operands[0]);
    if (failed(threads))
      return failure();
    std::string kernel = "NULL", tag = "any";
    if (!e.kernel.empty()) {
      const auto *found = llvm::find_if(
          kernels, [&](const KernelManifest &k) { return k.name == e.kernel; });
      if (found == kernels.end()) {
        problem = "its grid asks about kernel '" + e.kernel +
                  "', which is not in the module";
        return failure();
      }
      tag = std::to_string(found - kernels.begin());
      kernel = "m->kernels[" + tag + "]";
    }
    std::string query = "threadbind_launcher_resident_blocks(" + kernel +
                        ", " + *threads +
                        ", m->multiprocessors, "
                        "m->max_threads_per_multiprocessor, "
                        "m->max_blocks_per_multiprocessor, &fault)";
    if (!e.operands[0].isConstant())
      return query;
    // Asked once a call, however often the grids use it.
    std::string local =
        llvm::formatv("resident_{0}_{1}", tag, e.operands[0].value).str();
    if (llvm::none_of(cached, [&](const auto &c) { return c.first == local; }))
      cached.push_back({local, query});
    return local;
  }
  if (name == "disjoint") {
    if (!arity(2))
      return failure();
    std::string text = "threadbind_launcher_disjoint(";
    for (auto [i, operand] : llvm::enumerate(e.operands)) {
      if (operand.kind != LaunchExpr::Kind::Argument) {
        problem = "'disjoint' of something other than an argument";
        return failure();
      }
      FailureOr<std::string> a = memref(operand.arg);
      if (failed(a))
        return failure();
      text += llvm::formatv("{0}(uint64_t)(uintptr_t)arg{1}, {2}, {3}_dim, "
                            "{3}_stride, sizeof(*arg{1})",
                            i ? ", " : "", operand.arg,
                            function.arguments[operand.arg].shape.size(), *a)
                  .str();
    }
    return text + ")";
  }
  static const llvm::StringSet<> binary = {
      "add", "sub",  "mul", "div", "divu", "rem", "remu", "ceildiv",
      "ceildivu", "min", "minu", "max", "maxu", "eq", "ne", "lt", "ltu",
      "le", "leu", "gt", "gtu", "ge", "geu", "and", "or"};
  if (!binary.contains(name)) {
    problem = ("unknown operator '" + name + "'").str();
    return failure();
  }
  if (!arity(2))
    return failure();
  bool faults = llvm::is_contained(
      {"div", "divu", "rem", "remu", "ceildiv", "ceildivu"}, name);
  return call(name, e.operands, faults);
}

/// The helpers every launcher uses, shared by all headers of this format.
static constexpr const char *kHelpers = R"c(
#ifndef THREADBIND_LAUNCHER_HELPERS_3
#define THREADBIND_LAUNCHER_HELPERS_3
/* 64-bit arithmetic as the host code does it (docs/Manifest.md): wrapping,
 * signed or unsigned; a division by zero (or of INT64_MIN by -1) sets
 * *fault. */
static inline int64_t threadbind_launcher_wrap(uint64_t v) {
  return v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
}
static inline int64_t threadbind_launcher_add(int64_t a, int64_t b) {
  return threadbind_launcher_wrap((uint64_t)a + (uint64_t)b);
}
static inline int64_t threadbind_launcher_sub(int64_t a, int64_t b) {
  return threadbind_launcher_wrap((uint64_t)a - (uint64_t)b);
}
static inline int64_t threadbind_launcher_mul(int64_t a, int64_t b) {
  return threadbind_launcher_wrap((uint64_t)a * (uint64_t)b);
}
static inline int threadbind_launcher_bad_division(int64_t a, int64_t b,
                                                   int *fault) {
  if (b == 0 || (a == INT64_MIN && b == -1)) {
    *fault = 1;
    return 1;
  }
  return 0;
}
static inline int64_t threadbind_launcher_div(int64_t a, int64_t b,
                                              int *fault) {
  return threadbind_launcher_bad_division(a, b, fault) ? 0 : a / b;
}
static inline int64_t threadbind_launcher_rem(int64_t a, int64_t b,
                                              int *fault) {
  return threadbind_launcher_bad_division(a, b, fault) ? 0 : a % b;
}
static inline int64_t threadbind_launcher_ceildiv(int64_t a, int64_t b,
                                                  int *fault) {
  if (threadbind_launcher_bad_division(a, b, fault))
    return 0;
  return a / b + (a % b != 0 && (a < 0) == (b < 0));
}
static inline int64_t threadbind_launcher_divu(int64_t a, int64_t b,
                                               int *fault) {
  if (b == 0) {
    *fault = 1;
    return 0;
  }
  return threadbind_launcher_wrap((uint64_t)a / (uint64_t)b);
}
static inline int64_t threadbind_launcher_remu(int64_t a, int64_t b,
                                               int *fault) {
  if (b == 0) {
    *fault = 1;
    return 0;
  }
  return threadbind_launcher_wrap((uint64_t)a % (uint64_t)b);
}
static inline int64_t threadbind_launcher_ceildivu(int64_t a, int64_t b,
                                                   int *fault) {
  if (b == 0) {
    *fault = 1;
    return 0;
  }
  return threadbind_launcher_wrap((uint64_t)a / (uint64_t)b +
                                  ((uint64_t)a % (uint64_t)b != 0));
}
static inline int64_t threadbind_launcher_min(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static inline int64_t threadbind_launcher_max(int64_t a, int64_t b) {
  return a > b ? a : b;
}
static inline int64_t threadbind_launcher_minu(int64_t a, int64_t b) {
  return (uint64_t)a < (uint64_t)b ? a : b;
}
static inline int64_t threadbind_launcher_maxu(int64_t a, int64_t b) {
  return (uint64_t)a > (uint64_t)b ? a : b;
}
static inline int64_t threadbind_launcher_eq(int64_t a, int64_t b) {
  return a == b;
}
static inline int64_t threadbind_launcher_ne(int64_t a, int64_t b) {
  return a != b;
}
static inline int64_t threadbind_launcher_lt(int64_t a, int64_t b) {
  return a < b;
}
static inline int64_t threadbind_launcher_le(int64_t a, int64_t b) {
  return a <= b;
}
static inline int64_t threadbind_launcher_gt(int64_t a, int64_t b) {
  return a > b;
}
static inline int64_t threadbind_launcher_ge(int64_t a, int64_t b) {
  return a >= b;
}
static inline int64_t threadbind_launcher_ltu(int64_t a, int64_t b) {
  return (uint64_t)a < (uint64_t)b;
}
static inline int64_t threadbind_launcher_leu(int64_t a, int64_t b) {
  return (uint64_t)a <= (uint64_t)b;
}
static inline int64_t threadbind_launcher_gtu(int64_t a, int64_t b) {
  return (uint64_t)a > (uint64_t)b;
}
static inline int64_t threadbind_launcher_geu(int64_t a, int64_t b) {
  return (uint64_t)a >= (uint64_t)b;
}
/* The low `bits` bits of v (1 to 63), read as unsigned or signed. */
static inline int64_t threadbind_launcher_zext(int64_t v, int bits) {
  return threadbind_launcher_wrap((uint64_t)v &
                                  ((UINT64_C(1) << bits) - 1));
}
static inline int64_t threadbind_launcher_sext(int64_t v, int bits) {
  uint64_t sign = UINT64_C(1) << (bits - 1);
  return threadbind_launcher_wrap(
      (((uint64_t)v & ((UINT64_C(1) << bits) - 1)) ^ sign) - sign);
}
static inline int64_t threadbind_launcher_and(int64_t a, int64_t b) {
  return a != 0 && b != 0;
}
static inline int64_t threadbind_launcher_or(int64_t a, int64_t b) {
  return a != 0 || b != 0;
}

/* The blocks of `threads` threads resident on the device at once, as the
 * runtime's queries answer (threadbind/Runtime/Runtime.h): from the
 * occupancy calculator for `function`, else from the SM's limits; times the
 * SM count, within [1, 2^20]. */
static inline int64_t threadbind_launcher_resident_blocks(
    CUfunction function, int64_t threads, int64_t multiprocessors,
    int64_t maxThreads, int64_t maxBlocks, int *fault) {
  int64_t perSm = 0;
  if (threads <= 0 || threads > 1024) {
    *fault = 1;
    return 1;
  }
  if (function) {
    int blocks = 0;
    if (cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function,
                                                    (int)threads, 0) !=
        CUDA_SUCCESS)
      *fault = 1;
    perSm = blocks;
  } else {
    perSm = maxThreads / threads;
    if (maxBlocks > 0 && perSm > maxBlocks)
      perSm = maxBlocks;
  }
  perSm *= multiprocessors;
  return perSm < 1 ? 1 : perSm > (INT64_C(1) << 20) ? (INT64_C(1) << 20)
                                                     : perSm;
}

/* The bytes [*low, *high) an array spans from the address of its element
 * [0, ...]; 0 when it is empty. */
static inline int threadbind_launcher_span(uint64_t address, int rank,
                                           const int64_t *sizes,
                                           const int64_t *strides,
                                           uint64_t itemsize, uint64_t *low,
                                           uint64_t *high) {
  int k;
  *low = *high = address;
  for (k = 0; k < rank; ++k) {
    int64_t span;
    if (sizes[k] <= 0)
      return 0;
    span = (sizes[k] - 1) * strides[k] * (int64_t)itemsize;
    if (span < 0)
      *low -= (uint64_t)(-span);
    else
      *high += (uint64_t)span;
  }
  *high += itemsize;
  return 1;
}

/* Whether two arrays share no byte. */
static inline int64_t threadbind_launcher_disjoint(
    uint64_t a, int rankA, const int64_t *sizesA, const int64_t *stridesA,
    uint64_t itemA, uint64_t b, int rankB, const int64_t *sizesB,
    const int64_t *stridesB, uint64_t itemB) {
  uint64_t lowA, highA, lowB, highB;
  if (!threadbind_launcher_span(a, rankA, sizesA, stridesA, itemA, &lowA,
                                &highA) ||
      !threadbind_launcher_span(b, rankB, sizesB, stridesB, itemB, &lowB,
                                &highB))
    return 1;
  return highA <= lowB || highB <= lowA;
}
#endif /* THREADBIND_LAUNCHER_HELPERS_3 */
)c";

namespace {
/// Writes one host function's launcher.
class LauncherWriter {
public:
  LauncherWriter(const HostFunctionManifest &function,
                 ArrayRef<KernelManifest> kernels, StringRef prefix,
                 StringRef cName)
      : function(function), kernels(kernels), prefix(prefix), cName(cName),
        printer(function, kernels) {}

  /// The launcher's text, or failure with `problem` saying why there is
  /// none.
  FailureOr<std::string> write();
  std::string problem;
  /// Whether a bundle can call the function the header cannot launch.
  bool bundleCanCall = true;

private:
  LogicalResult writeSignature(llvm::raw_ostream &os);
  void writeLayouts(llvm::raw_ostream &os);
  LogicalResult writeScratch(llvm::raw_ostream &os);
  /// The statement that leaves the launcher with `code`: a return, or,
  /// where device scratch is allocated, a jump to where it is freed.
  std::string leave(StringRef code) const {
    if (function.scratch.empty())
      return ("return " + code + ";").str();
    if (code == "r")
      return "goto done;";
    return ("{ r = " + code + "; goto done; }").str();
  }
  LogicalResult writeLaunch(llvm::raw_ostream &os, const KernelManifest &k,
                            unsigned index);
  FailureOr<std::string> expr(const LaunchExpr &e) {
    FailureOr<std::string> text = printer.print(e);
    if (failed(text))
      problem = printer.problem;
    return text;
  }

  const HostFunctionManifest &function;
  ArrayRef<KernelManifest> kernels;
  StringRef prefix, cName;
  ExprPrinter printer;
};
} // namespace

LogicalResult LauncherWriter::writeSignature(llvm::raw_ostream &os) {
  os << "static inline CUresult " << prefix << "_" << cName << "(\n    const "
     << prefix << "_module *m, CUstream stream";
  for (auto [i, a] : llvm::enumerate(function.arguments)) {
    StringRef type = getCType(a.elementType);
    if (type.empty()) {
      // The header's C types are the bundle's element types.
      problem = llvm::formatv("argument {0} has element type {1}, which "
                              "neither the header nor a bundle has a C type "
                              "for",
                              i, a.elementType);
      bundleCanCall = false;
      return failure();
    }
    if (!a.isMemRef) {
      os << ",\n    " << type << " arg" << i;
      continue;
    }
    bool readOnly = a.access == THREADBIND_READ;
    os << ",\n    " << (readOnly ? "const " : "") << type << " *arg" << i;
    for (auto [d, size] : llvm::enumerate(a.shape))
      if (ShapedType::isDynamic(size))
        os << ", int64_t arg" << i << "_size" << d;
    if (a.strided)
      for (auto [d, stride] : llvm::enumerate(a.strides))
        if (ShapedType::isDynamic(stride))
          os << ", int64_t arg" << i << "_stride" << d;
  }
  os << ") {\n";
  return success();
}

/// Each memref argument's sizes, strides and offset in elements, and its
/// aligned pointer, as the kernels' descriptors take them: the pointer
/// given is its element [0, ...]; an identity layout is row-major.
void LauncherWriter::writeLayouts(llvm::raw_ostream &os) {
  for (auto [i, a] : llvm::enumerate(function.arguments)) {
    if (!a.isMemRef)
      continue;
    size_t rank = a.shape.size();
    size_t length = std::max<size_t>(rank, 1);
    std::string name = "a" + std::to_string(i);
    os << "  /* argument " << i << ": " << commentSafe(a.mlirType) << " */\n";
    os << "  int64_t " << name << "_dim[" << length << "] = {";
    for (size_t d = 0; d < rank; ++d)
      os << (d ? ", " : "")
         << (ShapedType::isDynamic(a.shape[d])
                 ? "arg" + std::to_string(i) + "_size" + std::to_string(d)
                 : "INT64_C(" + std::to_string(a.shape[d]) + ")");
    os << (rank ? "" : "1") << "};\n";
    os << "  int64_t " << name << "_stride[" << length << "] = {";
    if (a.strided) {
      for (size_t d = 0; d < rank; ++d)
        os << (d ? ", " : "")
           << (ShapedType::isDynamic(a.strides[d])
                   ? "arg" + std::to_string(i) + "_stride" +
                         std::to_string(d)
                   : "INT64_C(" + std::to_string(a.strides[d]) + ")");
      os << (rank ? "" : "1") << "};\n";
    } else {
      os << (rank ? "0" : "1") << "};\n";
      for (size_t d = rank; d-- > 0;)
        os << "  " << name << "_stride[" << d << "] = "
           << (d + 1 == rank ? std::string("1")
                             : llvm::formatv("threadbind_launcher_mul({0}_"
                                             "stride[{1}], {0}_dim[{1}])",
                                             name, d + 1)
                                   .str())
           << ";\n";
    }
    int64_t offset =
        a.strided && !ShapedType::isDynamic(a.offset) ? a.offset : 0;
    os << "  const int64_t " << name << "_offset = INT64_C(" << offset
       << ");\n";
    os << "  const uint64_t " << name << "_ptr = (uint64_t)(uintptr_t)arg" << i
       << " - (uint64_t)" << name << "_offset * sizeof(*arg" << i << ");\n";
    os << "  (void)" << name << "_dim;\n  (void)" << name
       << "_stride;\n  (void)" << name << "_ptr;\n";
  }
}

/// The device scratch the host function allocates, allocated on the
/// stream (stream-ordered, so nothing waits) before the first launch.
LogicalResult LauncherWriter::writeScratch(llvm::raw_ostream &os) {
  for (auto [i, scratch] : llvm::enumerate(function.scratch)) {
    std::string count = "INT64_C(1)";
    for (const LaunchExpr &size : scratch.sizes) {
      FailureOr<std::string> text = expr(size);
      if (failed(text))
        return failure();
      count = "threadbind_launcher_mul(" + count + ", " + *text + ")";
    }
    os << fill(R"c(  /* device scratch @0@: @1@ */
  {
    int64_t count = @2@;
    if (fault || count < 0)
      @3@
    if (count > 0) {
      r = cuMemAllocAsync(&s@0@, (size_t)count * @4@, stream);
      if (r != CUDA_SUCCESS)
        @5@
    }
  }
)c",
               {std::to_string(i), commentSafe(scratch.elementType), count,
                leave("CUDA_ERROR_INVALID_VALUE"),
                std::to_string(scratch.elementBytes), leave("r")});
  }
  return success();
}

LogicalResult LauncherWriter::writeLaunch(llvm::raw_ostream &os,
                                          const KernelManifest &k,
                                          unsigned index) {
  FailureOr<std::string> condition = expr(k.launchIf);
  if (failed(condition))
    return failure();
  os << "  /* " << commentSafe(k.name) << " */\n";
  os << "  run = " << *condition << ";\n";
  os << "  if (fault)\n    " << leave("CUDA_ERROR_INVALID_VALUE") << "\n";
  os << "  if (run) {\n";
  for (auto [p, param] : llvm::enumerate(k.params)) {
    StringRef type = getParamCType(param.ptxType);
    if (type.empty()) {
      problem = "kernel '" + k.name + "' has a parameter of PTX type " +
                param.ptxType;
      return failure();
    }
    std::string value;
    bool pointer =
        param.field == "allocated_ptr" || param.field == "aligned_ptr";
    if (pointer && param.source.kind == LaunchExpr::Kind::Scratch &&
        param.source.arg < function.scratch.size()) {
      value = "s" + std::to_string(param.source.arg);
    } else if (pointer) {
      if (param.source.kind != LaunchExpr::Kind::Argument ||
          param.source.arg >= function.arguments.size() ||
          !function.arguments[param.source.arg].isMemRef) {
        problem = "kernel '" + k.name + "' takes memory the host function "
                  "makes (" + param.source.str() + ")";
        return failure();
      }
      value = "a" + std::to_string(param.source.arg) + "_ptr";
    } else if (param.field.empty() &&
               param.source.kind == LaunchExpr::Kind::Argument &&
               param.source.arg < function.arguments.size() &&
               !function.arguments[param.source.arg].isMemRef) {
      // The argument itself, at its own type (a float stays a float).
      value = "arg" + std::to_string(param.source.arg);
    } else {
      FailureOr<std::string> text = expr(param.source);
      if (failed(text))
        return failure();
      value = *text;
    }
    os << "    " << type << " p" << p << " = (" << type << ")" << value
       << ";\n";
  }
  std::string dims[2][3];
  for (unsigned d = 0; d < 3; ++d) {
    FailureOr<std::string> g = expr(k.grid[d]);
    FailureOr<std::string> b = failed(g) ? g : expr(k.block[d]);
    if (failed(b))
      return failure();
    dims[0][d] = *g;
    dims[1][d] = *b;
  }
  FailureOr<std::string> shared = expr(k.dynamicSharedMemory);
  if (failed(shared))
    return failure();
  os << "    int64_t grid[3], block[3], shared;\n";
  for (unsigned d = 0; d < 3; ++d)
    os << "    grid[" << d << "] = " << dims[0][d] << ";\n";
  for (unsigned d = 0; d < 3; ++d)
    os << "    block[" << d << "] = " << dims[1][d] << ";\n";
  os << "    shared = " << *shared << ";\n";
  os << "    if (fault || !threadbind_launcher_fits(grid, block, shared))\n"
        "      "
     << leave("CUDA_ERROR_INVALID_VALUE") << "\n";
  if (k.params.empty()) {
    os << "    void **params = NULL;\n";
  } else {
    os << "    void *params[] = {";
    for (size_t p = 0; p < k.params.size(); ++p)
      os << (p ? ", " : "") << "&p" << p;
    os << "};\n";
  }
  os << fill(
      R"c(    if (shared > 48 * 1024) {
      r = cuFuncSetAttribute(m->kernels[@0@],
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             (int)shared);
      if (r != CUDA_SUCCESS)
        @1@
    }
    r = cuLaunchKernel(m->kernels[@0@], (unsigned)grid[0], (unsigned)grid[1],
                       (unsigned)grid[2], (unsigned)block[0],
                       (unsigned)block[1], (unsigned)block[2],
                       (unsigned)shared, stream, params, NULL);
    if (r != CUDA_SUCCESS)
      @1@
  }
)c",
      {std::to_string(index), leave("r")});
  return success();
}

FailureOr<std::string> LauncherWriter::write() {
  if (!function.notLaunchable.empty()) {
    problem = function.notLaunchable;
    return failure();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string signature = function.name + "(";
  for (auto [i, a] : llvm::enumerate(function.arguments))
    signature += (i ? ", " : "") + a.mlirType;
  os << "/* " << commentSafe(signature + ")") << " */\n";
  if (failed(writeSignature(os)))
    return failure();
  os << "  int fault = 0;\n  int64_t run;\n  CUresult r;\n";
  for (size_t i = 0; i < function.arguments.size(); ++i)
    os << "  (void)arg" << i << ";\n";
  // Declared before the first jump to `done`, which C++ may not cross.
  for (size_t i = 0; i < function.scratch.size(); ++i)
    os << "  CUdeviceptr s" << i << " = 0;\n";
  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  writeLayouts(bodyOs);
  if (failed(writeScratch(bodyOs)))
    return failure();
  for (auto [index, k] : llvm::enumerate(kernels))
    if (k.hostFunction == function.name &&
        failed(writeLaunch(bodyOs, k, index)))
      return failure();
  for (const auto &[local, query] : printer.cached)
    os << "  const int64_t " << local << " = " << query << ";\n";
  os << body;
  os << "  (void)m;\n  (void)stream;\n  (void)run;\n  (void)r;\n";
  if (function.scratch.empty()) {
    os << "  return CUDA_SUCCESS;\n}\n\n";
    return text;
  }
  // Freed on the stream, after the launches that use it, on every path.
  os << "  r = CUDA_SUCCESS;\ndone:\n";
  for (size_t i = 0; i < function.scratch.size(); ++i)
    os << "  if (s" << i << ") {\n    CUresult freed = cuMemFreeAsync(s" << i
       << ", stream);\n    if (r == CUDA_SUCCESS)\n      r = freed;\n  }\n";
  os << "  return r;\n}\n\n";
  return text;
}

std::string threadbind::writeLauncherHeader(
    ArrayRef<KernelManifest> kernels, ArrayRef<HostFunctionManifest> functions,
    StringRef ptx, StringRef cubin, StringRef prefix, StringRef input,
    StringRef chip,
    SmallVectorImpl<std::pair<std::string, std::string>> &skipped) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string guard = StringRef(prefix).upper() + "_THREADBIND_H";
  size_t count = kernels.size();
  os << fill(R"c(/* @0@.h: launchers for the kernels of @1@, for @2@.
 * Generated by threadbind-compile --emit header; do not edit.
 *
 *   @0@_module m;
 *   CUresult r = @0@_load(&m);   (in the CUDA context to launch in)
 *   r = @0@_<function>(&m, stream, <its arguments>);
 *   @0@_unload(&m);
 *
 * A launcher takes the host function's arguments: a device pointer to
 * element [0, ...] of each memref, with the sizes (and, for strided
 * layouts, the strides in elements) its type leaves open, then the
 * scalars. It launches the function's kernels in order on `stream` and
 * returns without waiting: CUDA_SUCCESS, the first failing driver call's
 * result, or CUDA_ERROR_INVALID_VALUE where the sizes make a launch
 * quantity impossible (a division by zero, a grid too large). It does not
 * check the sizes against what the loops read (a bundle's entries do).
 * Memrefs with the identity layout must be row-major. Launch quantities
 * are the manifest's expressions (docs/Manifest.md), printed as C. Where
 * ptxas was found the header carries the cubin too, which the loader
 * tries first (no JIT on the chip it is for).
 */
#ifndef @3@
#define @3@

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
)c",
                      {prefix.str(), commentSafe(input), chip.str(), guard});
  os << kHelpers;
  os << R"c(
#ifndef THREADBIND_LAUNCHER_FITS_2
#define THREADBIND_LAUNCHER_FITS_2
/* Whether a launch of these extents is one the driver takes. */
static inline int threadbind_launcher_fits(const int64_t grid[3],
                                           const int64_t block[3],
                                           int64_t shared) {
  int d;
  for (d = 0; d < 3; ++d)
    if (grid[d] < 1 || grid[d] > (d ? 65535 : INT64_C(2147483647)) ||
        block[d] < 1 || block[d] > 1024)
      return 0;
  return block[0] * block[1] * block[2] <= 1024 && shared >= 0 &&
         shared <= INT64_C(2147483647);
}
#endif /* THREADBIND_LAUNCHER_FITS_2 */

)c";
  // The PTX, in lines.
  os << "static const char " << prefix << "_ptx[] =\n";
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  for (StringRef line : lines)
    os << "    \"" << escapeC(line) << "\\n\"\n";
  os << "    ;\n\n";
  if (!cubin.empty()) {
    // The same kernels assembled by ptxas: loaded first, without a JIT,
    // on the chip they are for.
    os << "static const unsigned char " << prefix << "_cubin[] = {";
    for (size_t i = 0; i < cubin.size(); ++i)
      os << (i % 16 ? " " : "\n    ")
         << llvm::formatv("{0:x2},", static_cast<unsigned char>(cubin[i]));
    os << "\n};\n\n";
  }
  os << "enum { " << prefix << "_kernel_count = " << count << " };\n";
  // NULL-terminated, so that loading loops without comparing an index to a
  // count that may be 0 (-Wtype-limits).
  os << "static const char *const " << prefix << "_kernel_names["
     << count + 1 << "] = {";
  for (const KernelManifest &k : kernels)
    os << "\"" << escapeC(k.name) << "\", ";
  os << "NULL};\n\n";
  os << fill(R"c(typedef struct @0@_module {
  CUmodule module;
  CUfunction kernels[@1@];
  int64_t multiprocessors;
  int64_t max_threads_per_multiprocessor;
  int64_t max_blocks_per_multiprocessor;
} @0@_module;

/* Loads the kernels into the current context (the cubin where there is one
   for this chip, else the PTX) and finds every one. */
static inline CUresult @0@_load(@0@_module *m) {
  CUdevice device;
  int value = 0;
  size_t i;
  CUresult r;
  m->module = NULL;
  if ((r = cuCtxGetDevice(&device)) != CUDA_SUCCESS)
    return r;
  if ((r = cuDeviceGetAttribute(
           &value, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device)) !=
      CUDA_SUCCESS)
    return r;
  m->multiprocessors = value;
  if ((r = cuDeviceGetAttribute(
           &value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
           device)) != CUDA_SUCCESS)
    return r;
  m->max_threads_per_multiprocessor = value;
  if ((r = cuDeviceGetAttribute(
           &value, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
           device)) != CUDA_SUCCESS)
    return r;
  m->max_blocks_per_multiprocessor = value;
@2@  if ((r = cuModuleLoadData(&m->module, @0@_ptx)) != CUDA_SUCCESS) {
    m->module = NULL;
    return r;
  }
@3@  for (i = 0; @0@_kernel_names[i] != NULL; ++i) {
    if ((r = cuModuleGetFunction(&m->kernels[i], m->module,
                                 @0@_kernel_names[i])) != CUDA_SUCCESS) {
      cuModuleUnload(m->module);
      m->module = NULL;
      return r;
    }
  }
  return CUDA_SUCCESS;
}

static inline CUresult @0@_unload(@0@_module *m) {
  CUresult r = m->module ? cuModuleUnload(m->module) : CUDA_SUCCESS;
  m->module = NULL;
  return r;
}

)c",
                      {prefix.str(), std::to_string(std::max<size_t>(count, 1)),
                       cubin.empty()
                           ? std::string()
                           : fill(R"c(  r = cuModuleLoadData(&m->module, @0@_cubin);
  if (r == CUDA_SUCCESS)
    goto loaded;
  if (r != CUDA_ERROR_NO_BINARY_FOR_GPU && r != CUDA_ERROR_INVALID_IMAGE &&
      r != CUDA_ERROR_INVALID_SOURCE) {
    m->module = NULL;
    return r;
  }
  /* A chip the cubin is not for: the PTX, compiled by the driver. */
)c",
                                  {prefix.str()}),
                       cubin.empty() ? "" : "loaded:\n"});
  // Launcher names: a function whose name is an identifier keeps it; the
  // others are made identifiers, with a number where that clashes.
  llvm::StringSet<> taken = {"load", "unload", "module", "ptx",
                             "kernel_names", "kernel_count"};
  SmallVector<std::string> cNames(functions.size());
  for (int pass = 0; pass < 2; ++pass) {
    for (auto [function, cName] : llvm::zip_equal(functions, cNames)) {
      std::string id = toIdentifier(function.name);
      if ((id == function.name) != (pass == 0))
        continue;
      cName = id;
      for (unsigned n = 2; taken.contains(cName); ++n)
        cName = id + "_" + std::to_string(n);
      taken.insert(cName);
    }
  }
  for (auto [function, cName] : llvm::zip_equal(functions, cNames)) {
    LauncherWriter writer(function, kernels, prefix, cName);
    FailureOr<std::string> launcher = writer.write();
    if (failed(launcher)) {
      std::string why = writer.problem;
      if (writer.bundleCanCall)
        why += "; call it through a bundle";
      os << "/* "
         << commentSafe(function.name + ": no launcher, because " + why + ".")
         << " */\n\n";
      skipped.push_back({function.name, why});
      continue;
    }
    os << *launcher;
  }
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
  return text;
}
