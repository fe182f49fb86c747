//===--- TypePromotionTest.cpp - result_type and wrapped numbers ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/TypePromotion.h"

#include "IterTestUtils.h"

using namespace sk;

namespace {

Tensor meta(IntArrayRef Sizes, ScalarType Dtype) {
  return detail::empty_meta(Sizes, Dtype);
}

TEST(IterTypePromotionTest, DimTensors_PromoteByLattice) {
  EXPECT_EQ(result_type(meta({2}, kByte), meta({2}, kChar)), kShort);
  EXPECT_EQ(result_type(meta({2}, kInt), meta({2}, kFloat)), kFloat);
  EXPECT_EQ(result_type(meta({2}, kHalf), meta({2}, kBFloat16)), kFloat);
}

TEST(IterTypePromotionTest, WrappedNumbers_DecideCategoryNotWidth) {
  EXPECT_EQ(result_type(meta({2}, kChar), Scalar(1000)), kChar);
  EXPECT_EQ(result_type(meta({2}, kInt), Scalar(2.5)), kFloat);
  EXPECT_EQ(result_type(meta({2}, kHalf), Scalar(2.5)), kHalf);
  EXPECT_EQ(result_type(meta({2}, kBool), Scalar(5)), kLong);
  EXPECT_EQ(result_type(meta({2}, kBool), Scalar(true)), kBool);
  EXPECT_EQ(result_type(Scalar(2.5), meta({2}, kLong)), kFloat);
}

TEST(IterTypePromotionTest, ZeroDimTensors_RankBetweenClasses) {
  // A 0-dim tensor of a higher category contributes its own dtype.
  EXPECT_EQ(result_type(meta({2}, kInt), meta({}, kDouble)), kDouble);
  // Of the same category it does not widen.
  EXPECT_EQ(result_type(meta({2}, kFloat), meta({}, kDouble)), kFloat);
  EXPECT_EQ(result_type(meta({2}, kChar), meta({}, kLong)), kChar);
  // A 0-dim tensor outranks a wrapped number.
  EXPECT_EQ(result_type(meta({}, kInt), Scalar(7)), kInt);
  EXPECT_EQ(result_type(meta({}, kInt), Scalar(0.5)), kFloat);
  EXPECT_EQ(result_type(meta({}, kHalf), meta({}, kDouble)), kDouble);
}

TEST(IterTypePromotionTest, ScalarsAlone_UseDefaultFloat) {
  EXPECT_EQ(result_type(Scalar(1), Scalar(2.5)), kFloat);
  EXPECT_EQ(result_type(Scalar(1), Scalar(2)), kLong);
  EXPECT_EQ(result_type(Scalar(true), Scalar(false)), kBool);
}

TEST(IterTypePromotionTest, TensorList_CombinesAllClasses) {
  std::vector<Tensor> Ts = {meta({3}, kShort), meta({}, kLong),
                            wrapped_scalar_tensor(Scalar(1.5))};
  EXPECT_EQ(result_type(Ts), kFloat);
  EXPECT_EQ(result_type(ArrayRef<Tensor>(Ts.data(), 2)), kShort);
}

TEST(IterTypePromotionTest, WrappedScalarTensor_HoldsValue) {
  Tensor T = wrapped_scalar_tensor(Scalar(2.5));
  EXPECT_EQ(T.dim(), 0);
  EXPECT_EQ(T.dtype(), kDouble);
  EXPECT_TRUE(T.unsafeGetTensorImpl()->is_wrapped_number());
  EXPECT_EQ(T.item<double>(), 2.5);
  Tensor I = scalar_to_tensor(Scalar(int64_t(-3)));
  EXPECT_FALSE(I.unsafeGetTensorImpl()->is_wrapped_number());
  EXPECT_EQ(I.item<int64_t>(), -3);
  Tensor M = wrapped_scalar_tensor(Scalar(true), kMeta);
  EXPECT_TRUE(M.is_meta());
  EXPECT_EQ(M.dtype(), kBool);
}

TEST(IterTypePromotionTest, TypeName_IsPyTorchSpelling) {
  EXPECT_STREQ(detail::typeName(kFloat), "Float");
  EXPECT_STREQ(detail::typeName(kLong), "Long");
  EXPECT_STREQ(detail::typeName(kBFloat16), "BFloat16");
}

} // namespace
