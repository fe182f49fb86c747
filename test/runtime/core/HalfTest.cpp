//===--- HalfTest.cpp - float16 and bfloat16 conversions ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Half.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace sk;

namespace {

TEST(HalfTest, ExactValuesRoundTrip) {
  for (float F : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f,
                  5.9604644775390625e-08f /* smallest subnormal */})
    EXPECT_EQ(static_cast<float>(Half(F)), F) << F;
}

TEST(HalfTest, KnownBitPatterns) {
  EXPECT_EQ(Half(1.0f).X, 0x3c00);
  EXPECT_EQ(Half(-2.0f).X, 0xc000);
  EXPECT_EQ(Half(65504.0f).X, 0x7bff);
  EXPECT_EQ(Half(1e6f).X, 0x7c00); // overflow to inf
  EXPECT_EQ(Half(std::numeric_limits<float>::infinity()).X, 0x7c00);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(NAN))));
}

TEST(HalfTest, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10).
  EXPECT_EQ(Half(1.0f + 0.00048828125f).X, 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
  EXPECT_EQ(Half(1.0f + 3 * 0.00048828125f).X, 0x3c02);
}

TEST(HalfTest, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t Bits = 0; Bits <= 0xffff; ++Bits) {
    Half H = Half::fromBits(static_cast<uint16_t>(Bits));
    float F = H;
    if (std::isnan(F))
      continue;
    EXPECT_EQ(Half(F).X, H.X) << std::hex << Bits;
  }
}

TEST(BFloat16Test, ConversionsRoundToNearestEven) {
  EXPECT_EQ(BFloat16(1.0f).X, 0x3f80);
  EXPECT_EQ(static_cast<float>(BFloat16(3.140625f)), 3.140625f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(BFloat16(1.0f + 0.00390625f).X, 0x3f80);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(NAN))));
}

} // namespace
