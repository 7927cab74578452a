//===- HostDataTest.cpp - Tests for the runner's typed host buffers -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace threadbind;

namespace {

/// The bytes `store` writes for `value` as one element of `type`, read back
/// as a little-endian integer.
uint64_t storedBits(int type, double value) {
  std::vector<char> buffer(16, 0x5a);
  store(buffer.data(), type, 1, value);
  size_t bytes = elementBytes(type);
  // Neighbouring elements stay as they were.
  for (size_t i = 0; i < bytes; ++i)
    EXPECT_EQ(buffer[i], 0x5a) << "element 0 was overwritten";
  for (size_t i = 2 * bytes; i < buffer.size(); ++i)
    EXPECT_EQ(buffer[i], 0x5a) << "element 2 was overwritten";
  uint64_t bits = 0;
  std::memcpy(&bits, buffer.data() + bytes, bytes);
  return bits;
}

TEST(HostDataTest, StoresTheDeviceEncodingOfEveryType) {
  EXPECT_EQ(storedBits(THREADBIND_F16, 1.0), 0x3c00u);
  EXPECT_EQ(storedBits(THREADBIND_F16, -2.5), 0xc100u);
  EXPECT_EQ(storedBits(THREADBIND_BF16, 1.0), 0x3f80u);
  EXPECT_EQ(storedBits(THREADBIND_BF16, -2.5), 0xc020u);
  EXPECT_EQ(storedBits(THREADBIND_F32, 1.0), 0x3f800000u);
  EXPECT_EQ(storedBits(THREADBIND_F64, 1.0), 0x3ff0000000000000u);
  EXPECT_EQ(storedBits(THREADBIND_I8, -3), 0xfdu);
  EXPECT_EQ(storedBits(THREADBIND_I16, -3), 0xfffdu);
  EXPECT_EQ(storedBits(THREADBIND_I32, -3), 0xfffffffdu);
  EXPECT_EQ(storedBits(THREADBIND_I64, -3), 0xfffffffffffffffdu);
  EXPECT_EQ(storedBits(THREADBIND_INDEX, 70000), 70000u);
}

TEST(HostDataTest, LoadsWhatWasStoredAndSignExtends) {
  const int types[] = {THREADBIND_F16, THREADBIND_BF16,  THREADBIND_F32,
                       THREADBIND_F64, THREADBIND_I8,    THREADBIND_I16,
                       THREADBIND_I32, THREADBIND_I64,   THREADBIND_INDEX};
  // Each value is exact in every type above.
  const double values[] = {0.0, 1.0, -3.0, 100.0, -128.0};
  for (int type : types) {
    std::vector<char> buffer(3 * elementBytes(type));
    for (double value : values) {
      store(buffer.data(), type, 2, value);
      EXPECT_EQ(load(buffer.data(), type, 2), value)
          << elementName(type) << " " << value;
    }
  }
  // Narrow floats round to nearest on the way in.
  std::vector<char> half(2);
  store(half.data(), THREADBIND_F16, 0, 1.0 + 1.0 / 4096);
  EXPECT_EQ(load(half.data(), THREADBIND_F16, 0), 1.0);
}

TEST(HostDataTest, PaddedArgumentsAllocateUpToTheirMultiple) {
  HostMemRef memref;
  memref.elementType = THREADBIND_F32;
  ThreadBindArgument padded{1, THREADBIND_F32, 1, THREADBIND_READ, nullptr,
                            256};
  ThreadBindArgument plain = padded;
  plain.paddedTo = 0;
  for (auto [size, expected] : {std::pair<int64_t, size_t>{0, 0},
                                {1, 256},
                                {255, 256},
                                {256, 256},
                                {257, 512},
                                {100003, 100096}}) {
    memref.shape = {size};
    memref.allocate();
    EXPECT_EQ(deviceBytes(memref, padded), expected * 4) << size;
    EXPECT_EQ(deviceBytes(memref, plain), memref.bytes()) << size;
  }
}

} // namespace
