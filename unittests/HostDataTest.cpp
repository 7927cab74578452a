//===- HostDataTest.cpp - Tests for the runner's typed host buffers -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <cmath>
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

TEST(HostDataTest, StridedViewsMapIntoTheirStorage) {
  size_t elements = 0;
  // 3x7 at strides 16x2 from 5: the last element is 5 + 2*16 + 6*2 = 49.
  ASSERT_TRUE(storageElements({3, 7}, {16, 2}, 5, elements));
  EXPECT_EQ(elements, 50u);
  ASSERT_TRUE(storageElements({3, 0}, {16, 2}, 5, elements));
  EXPECT_EQ(elements, 0u);
  EXPECT_FALSE(storageElements({3, 7}, {INT64_MAX, 1}, 0, elements));
  EXPECT_FALSE(storageElements({3, 7}, {-1, 1}, 0, elements));

  EXPECT_FALSE(viewOverlaps({3, 7}, {7, 1}));
  EXPECT_FALSE(viewOverlaps({3, 7}, {1, 3}));  // transposed
  EXPECT_TRUE(viewOverlaps({3, 7}, {6, 1}));
  EXPECT_TRUE(viewOverlaps({3, 7}, {0, 1}));   // broadcast rows
  EXPECT_FALSE(viewOverlaps({1, 7}, {0, 1}));  // one row: no other to meet
  EXPECT_FALSE(viewOverlaps({0, 7}, {0, 0}));

  HostMemRef view;
  view.elementType = THREADBIND_I32;
  view.shape = {2, 3};
  view.data.assign(6 * 4, 0);
  for (size_t k = 0; k < 6; ++k)
    store(view.data.data(), THREADBIND_I32, k, static_cast<double>(k));
  Random random{3};
  view.restride({1, 4}, 2, random);  // transposed, from 2: 2 + 1 + 2*4 + 1
  ASSERT_EQ(view.bytes(), 12u * 4);
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(view.position(k), 2 + (k / 3) + 4 * (k % 3)) << k;
    EXPECT_EQ(load(view.data.data(), THREADBIND_I32, view.position(k)),
              static_cast<double>(k));
  }
  // The view compares equal to itself; a change in a gap does not.
  HostMemRef changed = view;
  EXPECT_EQ(compare(changed, view, 0, 0).mismatches, 0u);
  store(changed.data.data(), THREADBIND_I32, 0, 12345);
  Comparison c = compare(changed, view, 0, 0);
  EXPECT_EQ(c.mismatches, 1u);
  ASSERT_EQ(c.examples.size(), 1u);
  EXPECT_NE(c.examples[0].find("storage element 0 (outside the view)"),
            std::string::npos);
}

TEST(HostDataTest, ComparesInfinitiesAndNaNs) {
  auto memref = [](int type, std::vector<double> values) {
    HostMemRef m;
    m.elementType = type;
    m.shape = {static_cast<int64_t>(values.size())};
    m.data.assign(values.size() * elementBytes(type), 0);
    for (size_t k = 0; k < values.size(); ++k)
      store(m.data.data(), type, k, values[k]);
    return m;
  };
  double inf = HUGE_VAL, nan = std::nan("");
  for (int type : {THREADBIND_BF16, THREADBIND_F16, THREADBIND_F32,
                   THREADBIND_F64}) {
    HostMemRef expected = memref(type, {inf, -inf, nan, 1.0});
    // Equal infinities and NaNs match, whatever the tolerance.
    EXPECT_EQ(compare(memref(type, {inf, -inf, nan, 1.0}), expected, 1e-2,
                      1e-2)
                  .mismatches,
              0u);
    EXPECT_EQ(compare(memref(type, {inf, -inf, nan, 1.0}), expected, 0, 0)
                  .mismatches,
              0u);
    // An infinity of the other sign, a finite value for one, a NaN for a
    // number: each differs.
    EXPECT_EQ(compare(memref(type, {-inf, 1.0, 1.0, nan}), expected, 1e-2,
                      1e-2)
                  .mismatches,
              4u);
  }
}

} // namespace
