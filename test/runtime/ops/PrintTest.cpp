//===--- PrintTest.cpp - PyTorch's repr of tensors ------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every expected string follows from the rules of PyTorch 1.13's
/// torch/_tensor_str.py (Note [Tensor repr rules] in Print.cpp); the
/// comment above each case names the rule it checks.
///
//===----------------------------------------------------------------------===//

#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"

#include "OpsTestUtils.h"

#include <cmath>
#include <sstream>

using namespace sk;
using namespace sk::test;

namespace {

std::string repr(const std::vector<double> &V, ScalarType D = kFloat) {
  return makeTensor(V, D).toString();
}

TEST(PrintTest, Float_IntegralValues_PrintWithATrailingDot) {
  EXPECT_EQ(repr({1, 2, 3}), "tensor([1., 2., 3.])");
  EXPECT_EQ(repr({-1, 20}), "tensor([-1., 20.])");
  // Zeros are not looked at: everything zero is still integral.
  EXPECT_EQ(repr({0, 0}), "tensor([0., 0.])");
  // The width comes from the nonzero values only: "3." is 2 wide.
  EXPECT_EQ(repr({-0.0, 3}), "tensor([-0., 3.])");
}

TEST(PrintTest, Float_FourDecimals) {
  EXPECT_EQ(repr({0.1, 0.25}), "tensor([0.1000, 0.2500])");
  // Common width: "-1.5000" is 7 wide.
  EXPECT_EQ(repr({-1.5, 2.25}), "tensor([-1.5000,  2.2500])");
  EXPECT_EQ(repr({123.456, 0.5}), "tensor([123.4560,   0.5000])");
}

TEST(PrintTest, Float_ScientificWhenTheRangeIsWide) {
  // max / min > 1000.
  EXPECT_EQ(repr({1e-5, 1e5}), "tensor([1.0000e-05, 1.0000e+05])");
  EXPECT_EQ(repr({-1e-5, 1e5}), "tensor([-1.0000e-05,  1.0000e+05])");
  // Integral values, but the largest is over 1e8.
  EXPECT_EQ(repr({1e9}), "tensor([1.0000e+09])");
  // Integral values 1 to 2000: ratio > 1000.
  EXPECT_EQ(repr({1, 2000}), "tensor([1.0000e+00, 2.0000e+03])");
  // Non-integral and under 1e-4; float32's 1e-4 is just below 1e-4.
  EXPECT_EQ(repr({0.0001}), "tensor([1.0000e-04])");
  EXPECT_EQ(repr({0.00012, 0.5}), "tensor([1.2000e-04, 5.0000e-01])");
  // Zeros print in the chosen notation.
  EXPECT_EQ(repr({0, 1e-5, 1}), "tensor([0.0000e+00, 1.0000e-05, 1.0000e+00])");
}

TEST(PrintTest, Float_NonFiniteValues) {
  EXPECT_EQ(repr({NAN, INFINITY, 1}), "tensor([nan, inf, 1.])");
  EXPECT_EQ(repr({-INFINITY, 0.5}), "tensor([  -inf, 0.5000])");
  EXPECT_EQ(repr({NAN}), "tensor([nan])");
  EXPECT_EQ(repr({-NAN, 1e-5, 1e5}),
            "tensor([       nan, 1.0000e-05, 1.0000e+05])");
}

TEST(PrintTest, Integers_AreRightAligned) {
  Tensor M = makeTensor({1, 2, 3, 4}, {2, 2}, kLong);
  EXPECT_EQ(M.toString(), "tensor([[1, 2],\n        [3, 4]])");
  EXPECT_EQ(repr({-5, 100}, kLong), "tensor([ -5, 100])");
  // int64 is a default dtype; the others are named.
  EXPECT_EQ(repr({0, 255}, kByte), "tensor([  0, 255], dtype=torch.uint8)");
  EXPECT_EQ(repr({-3}, kChar), "tensor([-3], dtype=torch.int8)");
  EXPECT_EQ(repr({7}, kShort), "tensor([7], dtype=torch.int16)");
  EXPECT_EQ(repr({7}, kInt), "tensor([7], dtype=torch.int32)");
}

TEST(PrintTest, Bool_PrintsPythonNames) {
  EXPECT_EQ(repr({1, 0}, kBool), "tensor([ True, False])");
  EXPECT_EQ(repr({1, 1}, kBool), "tensor([True, True])");
}

TEST(PrintTest, ReducedAndDoublePrecision_NameTheirDtype) {
  EXPECT_EQ(repr({1, 2.5}, kHalf),
            "tensor([1.0000, 2.5000], dtype=torch.float16)");
  // bfloat16(0.1) is 0.10009765625.
  EXPECT_EQ(repr({0.1}, kBFloat16), "tensor([0.1001], dtype=torch.bfloat16)");
  EXPECT_EQ(repr({1.5}, kDouble), "tensor([1.5000], dtype=torch.float64)");
  EXPECT_EQ(repr({3}, kHalf), "tensor([3.], dtype=torch.float16)");
}

TEST(PrintTest, ZeroDim) {
  EXPECT_EQ(makeScalar(3.5).toString(), "tensor(3.5000)");
  EXPECT_EQ(makeScalar(3, kLong).toString(), "tensor(3)");
  EXPECT_EQ(makeScalar(3).toString(), "tensor(3.)");
  EXPECT_EQ(makeScalar(1, kBool).toString(), "tensor(True)");
  EXPECT_EQ(makeScalar(2.5, kHalf).toString(),
            "tensor(2.5000, dtype=torch.float16)");
  EXPECT_EQ(makeScalar(1e-7, kDouble).toString(),
            "tensor(1.0000e-07, dtype=torch.float64)");
}

TEST(PrintTest, Empty_ShowsSizeAndDtype) {
  EXPECT_EQ(empty({0, 3}).toString(), "tensor([], size=(0, 3))");
  EXPECT_EQ(empty({0}).toString(), "tensor([])");
  // An empty tensor names every dtype but float32, even int64.
  EXPECT_EQ(empty({0}, kLong).toString(), "tensor([], dtype=torch.int64)");
  EXPECT_EQ(empty({2, 0}, kBool).toString(),
            "tensor([], size=(2, 0), dtype=torch.bool)");
}

TEST(PrintTest, Meta_PrintsDotsDeviceAndSize) {
  EXPECT_EQ(empty({2, 3}, kMeta).toString(),
            "tensor(..., device='meta', size=(2, 3))");
  EXPECT_EQ(empty({2, 3}, TensorOptions(kMeta).dtype(kHalf)).toString(),
            "tensor(..., device='meta', size=(2, 3), dtype=torch.float16)");
  // Meta tensors name int64 too.
  EXPECT_EQ(empty({5}, TensorOptions(kMeta).dtype(kLong)).toString(),
            "tensor(..., device='meta', size=(5,), dtype=torch.int64)");
  EXPECT_EQ(empty({}, kMeta).toString(), "tensor(..., device='meta', size=())");
  EXPECT_EQ(empty({0, 4}, kMeta).toString(),
            "tensor(..., device='meta', size=(0, 4))");
}

TEST(PrintTest, Meta_LongSuffixes_WrapAtEightyColumns) {
  // PyTorch counts "tensor(..., device='meta'" as 27 columns; the size
  // suffix takes it to 60, and the dtype would end at 82: a new line.
  Tensor M =
      empty({100000, 100000, 1000, 10}, TensorOptions(kMeta).dtype(kBFloat16));
  EXPECT_EQ(M.toString(),
            "tensor(..., device='meta', size=(100000, 100000, 1000, 10),\n"
            "       dtype=torch.bfloat16)");
}

TEST(PrintTest, NestedDims_IndentAndBlankLines) {
  Tensor A = arange(8).view({2, 2, 2});
  EXPECT_EQ(A.toString(), "tensor([[[0, 1],\n"
                          "         [2, 3]],\n"
                          "\n"
                          "        [[4, 5],\n"
                          "         [6, 7]]])");
  Tensor B = arange(4.0).view({1, 1, 2, 2});
  EXPECT_EQ(B.toString(), "tensor([[[[0., 1.],\n"
                          "          [2., 3.]]]])");
}

TEST(PrintTest, NonContiguous_PrintsLogicalOrder) {
  Tensor M = makeTensor({1, 2, 3, 4}, {2, 2}, kLong).t();
  EXPECT_EQ(M.toString(), "tensor([[1, 3],\n        [2, 4]])");
  Tensor E = makeTensor({1, 2}, kInt).expand({2, 2});
  EXPECT_EQ(E.toString(),
            "tensor([[1, 2],\n        [1, 2]], dtype=torch.int32)");
  Tensor CL = empty({1, 2, 1, 2}, {}, MemoryFormat::ChannelsLast);
  CL.copy_(arange(4.0).view({1, 2, 1, 2}));
  EXPECT_EQ(CL.toString(), "tensor([[[[0., 1.]],\n\n         [[2., 3.]]]])");
}

TEST(PrintTest, LongRows_WrapAtEightyColumns) {
  // Width 3 ("19."), 5 columns per element: (80 - 7) / 5 = 14 per line.
  EXPECT_EQ(arange(20.0).toString(),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., "
            "11., 12., 13.,\n"
            "        14., 15., 16., 17., 18., 19.])");
  // A dtype suffix that would pass column 80 goes to its own line.
  EXPECT_EQ(arange(14, kInt).toString(),
            "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13],\n"
            "       dtype=torch.int32)");
}

TEST(PrintTest, Summarized_OverAThousandElements) {
  EXPECT_EQ(arange(10000).toString(),
            "tensor([   0,    1,    2,  ..., 9997, 9998, 9999])");
  // The format looks only at the shown values: 0-2 and 1997-1999.
  EXPECT_EQ(arange(2000.0).toString(),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, "
            "1.9980e+03,\n        1.9990e+03])");
  EXPECT_EQ(arange(2000).view({1000, 2}).toString(), "tensor([[   0,    1],\n"
                                                     "        [   2,    3],\n"
                                                     "        [   4,    5],\n"
                                                     "        ...,\n"
                                                     "        [1994, 1995],\n"
                                                     "        [1996, 1997],\n"
                                                     "        [1998, 1999]])");
  EXPECT_EQ(arange(1001 * 7).view({7, 1001}).toString(),
            "tensor([[   0,    1,    2,  ...,  998,  999, 1000],\n"
            "        [1001, 1002, 1003,  ..., 1999, 2000, 2001],\n"
            "        [2002, 2003, 2004,  ..., 3000, 3001, 3002],\n"
            "        ...,\n"
            "        [4004, 4005, 4006,  ..., 5002, 5003, 5004],\n"
            "        [5005, 5006, 5007,  ..., 6003, 6004, 6005],\n"
            "        [6006, 6007, 6008,  ..., 7004, 7005, 7006]])");
  // Exactly 1000 elements: no summary.
  std::string Full = arange(1000).toString();
  EXPECT_EQ(Full.find("..."), std::string::npos);
  EXPECT_NE(Full.find(" 999])"), std::string::npos);
}

TEST(PrintTest, StreamOperator_MatchesToString) {
  Tensor A = makeTensor({0.5, 1.5}, kDouble);
  std::ostringstream OS;
  OS << A;
  EXPECT_EQ(OS.str(), A.toString());
  EXPECT_EQ(Tensor().toString(), "tensor(undefined)");
}

} // namespace
