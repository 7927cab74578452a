//===- HostData.cpp - Typed host buffers for runners and benchmarks -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/HostData.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

using namespace threadbind;

namespace {
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    // Round to nearest even.
    if ((mantissa >> (shift - 1)) & 1 &&
        ((half & 1) || (mantissa & ((1u << (shift - 1)) - 1))))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (exponent >= 31)
    return static_cast<uint16_t>(sign | 0x7c00);
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) |
                  (mantissa >> 13);
  if ((mantissa & 0x1000) && ((half & 1) || (mantissa & 0xfff)))
    ++half;
  return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t x;
  if (exponent == 0) {
    if (mantissa == 0) {
      x = sign;
    } else {
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
          ((mantissa & 0x3ff) << 13);
    }
  } else if (exponent == 31) {
    x = sign | 0x7f800000 | (mantissa << 13);
  } else {
    x = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

float bf16ToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

} // namespace

size_t threadbind::elementBytes(int type) {
  switch (type) {
  case THREADBIND_F16:
  case THREADBIND_BF16:
  case THREADBIND_I16:
    return 2;
  case THREADBIND_F32:
  case THREADBIND_I32:
    return 4;
  case THREADBIND_I8:
  case THREADBIND_I1:
    return 1;
  default:
    return 8;
  }
}

const char *threadbind::elementName(int type) {
  const char *name = threadbind_element_type_name(type);
  return name ? name : "?";
}

bool threadbind::isFloat(int type) { return type <= THREADBIND_F64; }

/// Unaligned, aliasing-safe access to one element of a host buffer.
template <typename T> static T loadAs(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void storeAs(char *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

int64_t threadbind::loadInteger(const char *data, int type, size_t i) {
  const char *p = data + i * elementBytes(type);
  switch (type) {
  case THREADBIND_I1:
    return loadAs<uint8_t>(p) & 1;
  case THREADBIND_I8:
    return loadAs<int8_t>(p);
  case THREADBIND_I16:
    return loadAs<int16_t>(p);
  case THREADBIND_I32:
    return loadAs<int32_t>(p);
  default:
    return loadAs<int64_t>(p);
  }
}

double threadbind::load(const char *data, int type, size_t i) {
  const char *p = data + i * elementBytes(type);
  switch (type) {
  case THREADBIND_F16:
    return halfToFloat(loadAs<uint16_t>(p));
  case THREADBIND_BF16:
    return bf16ToFloat(loadAs<uint16_t>(p));
  case THREADBIND_F32:
    return loadAs<float>(p);
  case THREADBIND_F64:
    return loadAs<double>(p);
  default:
    return static_cast<double>(loadInteger(data, type, i));
  }
}

void threadbind::store(char *data, int type, size_t i, double value) {
  char *p = data + i * elementBytes(type);
  switch (type) {
  case THREADBIND_F16:
    return storeAs(p, floatToHalf(static_cast<float>(value)));
  case THREADBIND_BF16:
    return storeAs(p, floatToBf16(static_cast<float>(value)));
  case THREADBIND_F32:
    return storeAs(p, static_cast<float>(value));
  case THREADBIND_F64:
    return storeAs(p, value);
  case THREADBIND_I1:
    return storeAs(p, static_cast<uint8_t>(value != 0));
  case THREADBIND_I8:
    return storeAs(p, static_cast<int8_t>(value));
  case THREADBIND_I16:
    return storeAs(p, static_cast<int16_t>(value));
  case THREADBIND_I32:
    return storeAs(p, static_cast<int32_t>(value));
  default:
    return storeAs(p, static_cast<int64_t>(value));
  }
}

uint64_t Random::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double Random::symmetric() { return (next() >> 11) * 0x1.0p-52 - 1.0; }

int64_t Random::integer(int64_t lo, int64_t hi) {
  return lo +
         static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
}

size_t HostMemRef::elements() const {
  size_t n = 1;
  for (int64_t size : shape)
    n *= static_cast<size_t>(size);
  return n;
}

size_t HostMemRef::position(size_t flat) const {
  if (strides.empty())
    return flat;
  size_t at = static_cast<size_t>(offset);
  for (size_t k = shape.size(); k-- > 0;) {
    at += flat % static_cast<size_t>(shape[k]) * static_cast<size_t>(strides[k]);
    flat /= static_cast<size_t>(shape[k]);
  }
  return at;
}

bool threadbind::storageElements(const std::vector<int64_t> &shape,
                                 const std::vector<int64_t> &strides,
                                 int64_t offset, size_t &elements) {
  size_t last = static_cast<size_t>(offset);
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0) {
      elements = 0;
      return true;
    }
    size_t step;
    if (shape[k] < 0 || strides[k] < 0 ||
        __builtin_mul_overflow(static_cast<size_t>(shape[k] - 1),
                               static_cast<size_t>(strides[k]), &step) ||
        __builtin_add_overflow(last, step, &last))
      return false;
  }
  return !__builtin_add_overflow(last, size_t{1}, &elements);
}

bool threadbind::viewOverlaps(const std::vector<int64_t> &shape,
                              const std::vector<int64_t> &strides) {
  // Dimensions of more than one element, by stride: each must step past
  // everything the dimensions with smaller strides span.
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0)
      return false;
    if (shape[k] > 1)
      dims.push_back({strides[k], shape[k]});
  }
  std::sort(dims.begin(), dims.end());
  int64_t span = 0; // the largest position the inner dimensions reach
  for (auto [stride, size] : dims) {
    if (stride <= span)
      return true;
    span += (size - 1) * stride;
  }
  return false;
}

size_t threadbind::deviceBytes(const HostMemRef &memref,
                               const ThreadBindArgument &info) {
  if (info.paddedTo <= 0 || memref.shape.size() != 1)
    return memref.bytes();
  int64_t multiple = info.paddedTo;
  int64_t padded = (memref.shape.front() + multiple - 1) / multiple * multiple;
  return static_cast<size_t>(padded) * elementBytes(memref.elementType);
}

int threadbind::allocateOnDevice(void **devicePtr, const HostMemRef &memref,
                                 const ThreadBindArgument &info) {
  size_t bytes = deviceBytes(memref, info);
  if (bytes == memref.bytes())
    return threadbind_malloc(devicePtr, bytes) ||
           threadbind_copy_to_device(*devicePtr, memref.data.data(), bytes);
  std::vector<char> staged(bytes, 0);
  std::copy(memref.data.begin(), memref.data.end(), staged.begin());
  return threadbind_malloc(devicePtr, bytes) ||
         threadbind_copy_to_device(*devicePtr, staged.data(), bytes);
}

bool threadbind::bufferBytes(const std::vector<int64_t> &shape, int type,
                             size_t &bytes) {
  size_t total = elementBytes(type);
  for (int64_t size : shape) {
    if (size < 0 || __builtin_mul_overflow(total, static_cast<size_t>(size),
                                           &total))
      return false;
  }
  bytes = total;
  return true;
}

std::string threadbind::parseScalar(const std::string &text, int type,
                                    char bytes[8]) {
  const char *begin = text.c_str();
  char *end = nullptr;
  errno = 0;
  if (isFloat(type)) {
    double value = std::strtod(begin, &end);
    if (text.empty() || *end)
      return "'" + text + "' is not a number";
    if (std::isfinite(value) &&
        ((type == THREADBIND_F32 && std::fabs(value) > 3.4028234663852886e38) ||
         (type != THREADBIND_F32 && type != THREADBIND_F64 &&
          std::fabs(value) > (type == THREADBIND_F16 ? 65504.0 : 3.3895e38))))
      return text + " does not fit in " + elementName(type);
    store(bytes, type, 0, value);
    return "";
  }
  long long value = std::strtoll(begin, &end, 10);
  if (text.empty() || *end)
    return "'" + text + "' is not an integer";
  if (type == THREADBIND_I1) {
    if (value != 0 && value != 1)
      return text + " does not fit in i1 (0 or 1)";
    storeAs(bytes, static_cast<uint8_t>(value));
    return "";
  }
  unsigned bits = 8 * elementBytes(type);
  long long max = bits == 64 ? std::numeric_limits<long long>::max()
                             : (1ll << (bits - 1)) - 1;
  if (errno == ERANGE || value > max || value < -max - 1)
    return text + " does not fit in " + elementName(type) + " (" +
           std::to_string(-max - 1) + " to " + std::to_string(max) + ")";
  switch (bits) {
  case 8:
    storeAs(bytes, static_cast<int8_t>(value));
    break;
  case 16:
    storeAs(bytes, static_cast<int16_t>(value));
    break;
  case 32:
    storeAs(bytes, static_cast<int32_t>(value));
    break;
  default:
    storeAs(bytes, static_cast<int64_t>(value));
  }
  return "";
}

void HostMemRef::allocate() {
  size_t n = elements();
  if (!strides.empty())
    storageElements(shape, strides, offset, n);
  data.assign(n * elementBytes(elementType), 0);
}

void HostMemRef::restride(std::vector<int64_t> newStrides, int64_t newOffset,
                          Random &random) {
  HostMemRef laidOut;
  laidOut.elementType = elementType;
  laidOut.shape = shape;
  laidOut.strides = std::move(newStrides);
  laidOut.offset = newOffset;
  laidOut.allocate();
  laidOut.fillRandom(random);
  size_t bytes = elementBytes(elementType);
  for (size_t k = 0, n = elements(); k < n; ++k)
    std::memcpy(laidOut.data.data() + laidOut.position(k) * bytes,
                data.data() + position(k) * bytes, bytes);
  *this = std::move(laidOut);
}

std::string threadbind::readNpy(const std::string &path, HostMemRef &memref) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return "cannot open " + path;
  char magic[8];
  if (!file.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return path + " is not a .npy file";
  uint32_t headerBytes = 0;
  if (magic[6] == 1) {
    uint16_t small = 0;
    file.read(reinterpret_cast<char *>(&small), 2);
    headerBytes = small;
  } else {
    file.read(reinterpret_cast<char *>(&headerBytes), 4);
  }
  std::string header(headerBytes, '\0');
  if (!file || headerBytes > (1u << 20) || !file.read(header.data(), headerBytes))
    return path + " has a damaged .npy header";
  auto field = [&](const std::string &key) {
    size_t at = header.find("'" + key + "'");
    if (at == std::string::npos)
      return std::string();
    size_t colon = header.find(':', at);
    return colon == std::string::npos ? std::string()
                                      : header.substr(colon + 1);
  };
  std::string descr = field("descr");
  size_t quote = descr.find('\'');
  descr = quote == std::string::npos
              ? ""
              : descr.substr(quote + 1, descr.find('\'', quote + 1) - quote - 1);
  static const std::pair<const char *, int> kDtypes[] = {
      {"<f2", THREADBIND_F16}, {"<f4", THREADBIND_F32},
      {"<f8", THREADBIND_F64}, {"|i1", THREADBIND_I8}, {"|b1", THREADBIND_I1},
      {"<i2", THREADBIND_I16}, {"<i4", THREADBIND_I32},
      {"<i8", THREADBIND_I64}};
  int type = -1;
  for (auto [name, code] : kDtypes)
    if (descr == name)
      type = code;
  int wanted = memref.elementType == THREADBIND_INDEX ? THREADBIND_I64
                                                      : memref.elementType;
  if (type != wanted)
    return path + " holds '" + descr + "' elements, where the argument takes " +
           elementName(memref.elementType);
  if (field("fortran_order").find("False") != 0 &&
      field("fortran_order").find(" False") != 0)
    return path + " is in Fortran order; save a C-ordered array";
  std::string shapeText = field("shape");
  size_t open = shapeText.find('('), close = shapeText.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return path + " has no shape in its header";
  memref.shape.clear();
  std::string dims = shapeText.substr(open + 1, close - open - 1);
  for (size_t start = 0; start < dims.size();) {
    size_t comma = dims.find(',', start);
    std::string item = dims.substr(start, comma == std::string::npos
                                              ? std::string::npos
                                              : comma - start);
    start = comma == std::string::npos ? dims.size() : comma + 1;
    if (item.find_first_not_of(' ') == std::string::npos)
      continue;
    memref.shape.push_back(std::strtoll(item.c_str(), nullptr, 10));
  }
  size_t bytes = 0;
  if (!bufferBytes(memref.shape, memref.elementType, bytes))
    return path + " has a shape too large to hold";
  memref.data.assign(bytes, 0);
  if (!file.read(memref.data.data(), static_cast<std::streamsize>(bytes)))
    return path + " holds fewer elements than its shape says";
  return "";
}

void HostMemRef::fillRandom(Random &random) {
  size_t n = data.size() / elementBytes(elementType);
  for (size_t k = 0; k < n; ++k)
    store(data.data(), elementType, k,
          isFloat(elementType) ? random.symmetric()
          : elementType == THREADBIND_I1
              ? static_cast<double>(random.integer(0, 1))
              : static_cast<double>(random.integer(-100, 100)));
}

std::vector<int64_t> threadbind::makeDescriptor(void *data,
                                                const HostMemRef &memref) {
  const std::vector<int64_t> &shape = memref.shape;
  size_t rank = shape.size();
  std::vector<int64_t> words(3 + 2 * rank, 0);
  auto *d = reinterpret_cast<ThreadBindMemRef *>(words.data());
  d->allocated = data;
  d->aligned = data;
  d->offset = memref.strides.empty() ? 0 : memref.offset;
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    d->sizesAndStrides[k] = shape[k];
    d->sizesAndStrides[rank + k] =
        memref.strides.empty() ? stride : memref.strides[k];
    stride *= shape[k];
  }
  return words;
}

double threadbind::defaultTolerance(int type) {
  if (type == THREADBIND_F64)
    return 1e-12;
  if (type == THREADBIND_F32)
    return 1e-5;
  return isFloat(type) ? 1e-2 : 0.0;
}

Comparison threadbind::compare(const HostMemRef &got,
                               const HostMemRef &expected, double rtol,
                               double atol, size_t maxExamples) {
  Comparison result;
  int type = expected.elementType;
  size_t n = expected.elements();
  for (size_t k = 0; k < n; ++k) {
    double g = load(got.data.data(), type, got.position(k));
    double r = load(expected.data.data(), type, expected.position(k));
    double error = std::fabs(g - r);
    // Infinities match only themselves (the tolerance, scaled by an
    // infinity, would take anything), and NaNs any NaN.
    bool same = g == r || (isFloat(type) &&
                           (std::isfinite(g) && std::isfinite(r)
                                ? error <= atol + rtol * std::fabs(r)
                                : std::isnan(g) && std::isnan(r)));
    if (isFloat(type) && r != 0 && std::isfinite(error))
      result.worstRelative =
          std::max(result.worstRelative, error / std::fabs(r));
    if (same)
      continue;
    if (result.mismatches++ < maxExamples) {
      char line[160];
      std::snprintf(line, sizeof(line), "%s: got %.9g, expected %.9g",
                    indexString(k, expected.shape).c_str(), g, r);
      result.examples.push_back(line);
    }
  }
  if (expected.strides.empty() || got.data.size() != expected.data.size())
    return result;
  // The gaps of a strided view: the program may not touch them.
  size_t bytes = elementBytes(type);
  std::vector<bool> inView(expected.data.size() / bytes, false);
  for (size_t k = 0; k < n; ++k)
    inView[expected.position(k)] = true;
  for (size_t p = 0; p < inView.size(); ++p) {
    if (inView[p] || !std::memcmp(got.data.data() + p * bytes,
                                  expected.data.data() + p * bytes, bytes))
      continue;
    if (result.mismatches++ < maxExamples) {
      char line[160];
      std::snprintf(line, sizeof(line),
                    "storage element %zu (outside the view): got %.9g, "
                    "expected %.9g",
                    p, load(got.data.data(), type, p),
                    load(expected.data.data(), type, p));
      result.examples.push_back(line);
    }
  }
  return result;
}

std::string threadbind::shapeString(const std::vector<int64_t> &shape) {
  std::string text;
  for (size_t k = 0; k < shape.size(); ++k)
    text += (k ? "x" : "") + std::to_string(shape[k]);
  return text.empty() ? "scalar" : text;
}

std::string threadbind::indexString(size_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    index[k] = static_cast<int64_t>(flat % shape[k]);
    flat /= shape[k];
  }
  std::string text = "[";
  for (size_t k = 0; k < index.size(); ++k)
    text += (k ? ", " : "") + std::to_string(index[k]);
  return text + "]";
}

void threadbind::preloadRuntime() {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return;
  self[n] = 0;
  std::string path(self);
  path = path.substr(0, path.rfind('/')); // bin
  path = path.substr(0, path.rfind('/')); // prefix
  path += "/lib/libThreadBindRuntime.so";
  dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
}

std::string threadbind::checkRequirements(
    const ThreadBindEntry &entry,
    const std::vector<std::vector<int64_t>> &shapes,
    const std::vector<int64_t> &scalars) {
  auto value = [&](const ThreadBindTerm &t) -> int64_t {
    if (t.kind == THREADBIND_TERM_DIM)
      return shapes[t.arg][t.dim];
    if (t.kind == THREADBIND_TERM_SCALAR)
      return scalars[t.arg];
    return t.value;
  };
  auto describe = [&](const ThreadBindTerm &t) {
    if (t.kind == THREADBIND_TERM_DIM)
      return "size " + std::to_string(t.dim) + " of argument " +
             std::to_string(t.arg);
    if (t.kind == THREADBIND_TERM_SCALAR)
      return "argument " + std::to_string(t.arg);
    return std::string("the constant");
  };
  for (int32_t r = 0; r < entry.numRequirements; ++r) {
    const ThreadBindRequirement &q = entry.requirements[r];
    bool runs = true;
    for (int32_t g = 0; g < q.numGuards; ++g)
      runs &= value(q.guards[g].upper) > value(q.guards[g].lower);
    // In 128 bits: a bound near the limits plus an offset must not wrap.
    __int128 needed = static_cast<__int128>(value(q.bound)) + q.offset;
    int64_t size = shapes[q.arg][q.dim];
    if (!runs || size >= needed)
      continue;
    return "argument " + std::to_string(q.arg) + " has " +
           std::to_string(size) + " elements in dimension " +
           std::to_string(q.dim) + ", but " + q.where + " needs " +
           std::to_string(static_cast<int64_t>(needed)) + " (" +
           describe(q.bound) +
           (q.offset ? (q.offset > 0 ? " + " : " - ") +
                           std::to_string(q.offset > 0 ? q.offset : -q.offset)
                     : std::string()) +
           ")";
  }
  return "";
}

std::string threadbind::checkSharedObject(const std::string &path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return "cannot open " + path;
  uint64_t size = static_cast<uint64_t>(file.tellg());
  file.seekg(0);
  Elf64_Ehdr header;
  if (size < sizeof(header) ||
      !file.read(reinterpret_cast<char *>(&header), sizeof(header)) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return path + " is not a 64-bit ELF shared object";
  if (header.e_type != ET_DYN)
    return path + " is an ELF file but not a shared object";
  auto inside = [&](uint64_t offset, uint64_t count, uint64_t each) {
    uint64_t bytes;
    return !__builtin_mul_overflow(count, each, &bytes) && offset <= size &&
           bytes <= size - offset;
  };
  if (!inside(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr)) ||
      !inside(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr)))
    return path + " is cut short (its headers lie past its end)";
  file.seekg(static_cast<std::streamoff>(header.e_phoff));
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    if (!file.read(reinterpret_cast<char *>(&segment), sizeof(segment)) ||
        (segment.p_type == PT_LOAD &&
         !inside(segment.p_offset, 1, segment.p_filesz)))
      return path + " is cut short (a segment lies past its end)";
  }
  return "";
}

const ThreadBindEntry *threadbind::loadBundle(const std::string &path,
                                              int32_t &count,
                                              std::string &error) {
  error = checkSharedObject(path);
  if (!error.empty())
    return nullptr;
  // dlopen searches the library path for a name without a slash; a bundle
  // named on a command line is a file.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void *bundle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!bundle) {
    error = "cannot load " + path + ": " + dlerror();
    return nullptr;
  }
  using EntriesFn = const ThreadBindEntry *(*)(int32_t *);
  auto entries =
      reinterpret_cast<EntriesFn>(dlsym(bundle, "threadbind_bundle_entries"));
  if (!entries) {
    error = path + " is not a ThreadBind bundle (no threadbind_bundle_entries)";
    return nullptr;
  }
  return entries(&count);
}

const ThreadBindEntry *threadbind::findBundleEntry(const std::string &path,
                                                   const std::string &name,
                                                   std::string &error) {
  int32_t count = 0;
  const ThreadBindEntry *entries = loadBundle(path, count, error);
  if (!entries)
    return nullptr;
  for (int32_t e = 0; e < count; ++e)
    if (name == entries[e].name)
      return &entries[e];
  error = "no entry " + name + " in " + path;
  return nullptr;
}

TimeSummary threadbind::summarizeTimes(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front(), times.back()};
}

double threadbind::sumLaunchMilliseconds(int64_t first) {
  double ms = 0;
  for (int64_t l = first; l < threadbind_launch_count(); ++l) {
    ThreadBindLaunchRecord record;
    if (!threadbind_launch_record(l, &record) && record.milliseconds > 0)
      ms += record.milliseconds;
  }
  return ms;
}
