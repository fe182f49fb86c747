//===--- ScalarTypeTest.cpp - dtypes, promotion and Scalar ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Scalar.h"
#include "sk/core/ScalarType.h"

#include "gtest/gtest.h"

using namespace sk;

namespace {

TEST(ScalarTypeTest, NamesAndSizes) {
  EXPECT_EQ(toString(kFloat), "float32");
  EXPECT_EQ(toString(kBFloat16), "bfloat16");
  EXPECT_EQ(elementSize(kHalf), 2u);
  EXPECT_EQ(elementSize(kLong), 8u);
  EXPECT_EQ(elementSize(kBool), 1u);
}

TEST(ScalarTypeTest, PromotionFollowsPyTorch) {
  EXPECT_EQ(promoteTypes(kByte, kChar), kShort);
  EXPECT_EQ(promoteTypes(kBool, kInt), kInt);
  EXPECT_EQ(promoteTypes(kHalf, kBFloat16), kFloat);
  EXPECT_EQ(promoteTypes(kLong, kHalf), kHalf);
  EXPECT_EQ(promoteTypes(kFloat, kDouble), kDouble);
  // Symmetric.
  for (int A = 0; A < 10; ++A)
    for (int B = 0; B < 10; ++B)
      EXPECT_EQ(promoteTypes(ScalarType(A), ScalarType(B)),
                promoteTypes(ScalarType(B), ScalarType(A)));
}

TEST(ScalarTypeTest, CanCast) {
  EXPECT_TRUE(canCast(kInt, kFloat));
  EXPECT_FALSE(canCast(kFloat, kInt));
  EXPECT_FALSE(canCast(kInt, kBool));
  EXPECT_TRUE(canCast(kBool, kBool));
}

TEST(ScalarTest, KeepsItsKind) {
  EXPECT_EQ(Scalar(1).type(), kLong);
  EXPECT_EQ(Scalar(1.5).type(), kDouble);
  EXPECT_EQ(Scalar(true).type(), kBool);
  EXPECT_EQ(Scalar(2.5f).to<double>(), 2.5);
  EXPECT_EQ(Scalar(int64_t(-3)).to<int8_t>(), -3);
}

TEST(ScalarTest, OverflowingConversionsFail) {
  try {
    (void)Scalar(1000).to<int8_t>();
    FAIL() << "expected an error";
  } catch (const Error &E) {
    EXPECT_NE(std::string(E.what()).find("value 1000 cannot be converted to "
                                         "type int8 without overflow"),
              std::string::npos)
        << E.what();
  }
  EXPECT_THROW((void)Scalar(0.5).to<int64_t>(), Error);
  EXPECT_EQ(Scalar(1e300).to<float>(), std::numeric_limits<float>::infinity());
}

} // namespace
