//===--- DLPackTestUtils.h - What the DLPack tests share --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_INTEROP_DLPACKTESTUTILS_H
#define SKC_TEST_RUNTIME_INTEROP_DLPACKTESTUTILS_H

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"
#include "sk/ops/Factories.h"

#include <utility>
#include <vector>

namespace sk {
namespace test {

/// The runtime's dtypes, with c10's names for them.
inline const std::pair<ScalarType, const char *> Dtypes[] = {
    {kBool, "Bool"},    {kByte, "Byte"},         {kChar, "Char"},
    {kShort, "Short"},  {kInt, "Int"},           {kLong, "Long"},
    {kHalf, "Half"},    {kBFloat16, "BFloat16"}, {kFloat, "Float"},
    {kDouble, "Double"}};

/// arange(24) as [4, 6], transposed and narrowed to columns 1..3 (strides
/// [1, 6], storage offset 6), in \p Dtype; for bool, whether i % 3 == 0.
inline Tensor stridedView(ScalarType Dtype) {
  Tensor T;
  if (Dtype == kBool) {
    T = detail::empty_cpu({4, 6}, kBool);
    for (int64_t I = 0; I < 24; ++I)
      T.data_ptr<bool>()[I] = I % 3 == 0;
  } else {
    T = arange(24, TensorOptions(kDouble)).reshape({4, 6}).to(Dtype);
  }
  return T.t().narrow(1, 1, 2);
}

/// \p T's elements as float64, row-major.
inline std::vector<double> valuesOf(const Tensor &T) {
  Tensor D = T.to(kDouble).contiguous();
  return std::vector<double>(D.data_ptr<double>(),
                             D.data_ptr<double>() + D.numel());
}

} // namespace test
} // namespace sk

#endif // SKC_TEST_RUNTIME_INTEROP_DLPACKTESTUTILS_H
