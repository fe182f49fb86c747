//===--- OpsTestUtils.h - Helpers for the ops tests -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Building CPU tensors from values and reading them back in logical order,
/// without going through the ops under test, plus an error matcher.
///
//===----------------------------------------------------------------------===//

#ifndef SK_TEST_OPS_OPSTESTUTILS_H
#define SK_TEST_OPS_OPSTESTUTILS_H

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

namespace sk {
namespace test {

/// A contiguous CPU tensor of dtype \p Dtype holding \p Values (converted
/// with static_cast, through float for the 16-bit types).
inline Tensor makeTensor(const std::vector<double> &Values, IntArrayRef Sizes,
                         ScalarType Dtype = kFloat) {
  Tensor T = detail::empty_cpu(Sizes, Dtype);
  EXPECT_EQ(static_cast<size_t>(T.numel()), Values.size());
  visitScalarType(Dtype, [&](auto Tag) {
    using E = decltype(Tag);
    E *Data = static_cast<E *>(T.data_ptr());
    for (size_t I = 0; I != Values.size(); ++I) {
      if constexpr (std::is_same_v<E, Half> || std::is_same_v<E, BFloat16>)
        Data[I] = E(static_cast<float>(Values[I]));
      else if constexpr (std::is_same_v<E, bool>)
        Data[I] = Values[I] != 0;
      else
        Data[I] = static_cast<E>(Values[I]);
    }
  });
  return T;
}

/// A 1-d tensor. (Beware `makeTensor({1}, {})`: the `{}` is a ScalarType,
/// kBool; use makeScalar for 0-dim tensors.)
inline Tensor makeTensor(const std::vector<double> &Values,
                         ScalarType Dtype = kFloat) {
  return makeTensor(Values, {static_cast<int64_t>(Values.size())}, Dtype);
}

/// A 0-dim tensor holding \p Value.
inline Tensor makeScalar(double Value, ScalarType Dtype = kFloat) {
  return makeTensor({Value}, IntArrayRef(), Dtype);
}

/// The elements of a CPU tensor of any strides, in logical (row-major)
/// order, as doubles.
inline std::vector<double> values(const Tensor &T) {
  std::vector<double> Out;
  if (T.numel() == 0)
    return Out;
  int64_t Rank = T.dim();
  std::vector<int64_t> Index(Rank, 0);
  const char *Base = static_cast<const char *>(T.data_ptr());
  for (;;) {
    int64_t Offset = 0;
    for (int64_t D = 0; D != Rank; ++D)
      Offset += Index[D] * T.strides()[D];
    const char *P = Base + Offset * static_cast<int64_t>(T.itemsize());
    visitScalarType(T.dtype(), [&](auto Tag) {
      using E = decltype(Tag);
      E V;
      std::memcpy(&V, P, sizeof V);
      if constexpr (std::is_same_v<E, Half> || std::is_same_v<E, BFloat16>)
        Out.push_back(static_cast<float>(V));
      else
        Out.push_back(static_cast<double>(V));
    });
    int64_t D = Rank - 1;
    for (; D >= 0; --D) {
      if (++Index[D] < T.sizes()[D])
        break;
      Index[D] = 0;
    }
    if (D < 0)
      return Out;
  }
}

inline std::vector<int64_t> vec(IntArrayRef A) { return A.vec(); }

} // namespace test
} // namespace sk

#endif // SK_TEST_OPS_OPSTESTUTILS_H
