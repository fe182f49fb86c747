//===--- IterTestUtils.h - Helpers of the iterator tests --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Small helpers for the tests of runtime/sk/iter: making CPU tensors from
/// values, reading them back in logical (row-major) order whatever their
/// strides, strided views and copies. They use TensorImpl directly so that
/// the tests do not depend on the view and copy ops.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_ITER_ITERTESTUTILS_H
#define SKC_TEST_RUNTIME_ITER_ITERTESTUTILS_H

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"
#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>
#include <vector>

namespace sk {
namespace test {

/// Calls \p Fn(Offset) for every element of a tensor of \p Sizes and
/// \p Strides (in elements), in row-major order of the indices.
inline void forEachOffset(IntArrayRef Sizes, IntArrayRef Strides,
                          const std::function<void(int64_t)> &Fn) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  std::vector<int64_t> Idx(Sizes.size(), 0);
  for (int64_t I = 0; I < N; ++I) {
    int64_t Offset = 0;
    for (size_t D = 0; D != Sizes.size(); ++D)
      Offset += Idx[D] * Strides[D];
    Fn(Offset);
    for (size_t D = Sizes.size(); D-- > 0;) {
      if (++Idx[D] < Sizes[D])
        break;
      Idx[D] = 0;
    }
  }
}

/// A view of \p T's storage with other sizes, strides and offset
/// (as_strided).
inline Tensor stridedView(const Tensor &T, IntArrayRef Sizes,
                          IntArrayRef Strides, int64_t Offset = 0) {
  TensorImpl *Src = T.unsafeGetTensorImpl();
  auto Impl = IntrusivePtr<TensorImpl>::make(Src->storage(), Src->dtype(),
                                             Src->device());
  Impl->set_sizes_and_strides(Sizes, Strides, Offset);
  return Tensor(std::move(Impl));
}

/// \p T with dimensions \p D0 and \p D1 swapped (a view).
inline Tensor transposed(const Tensor &T, int64_t D0, int64_t D1) {
  std::vector<int64_t> Sizes = T.sizes().vec(), Strides = T.strides().vec();
  std::swap(Sizes[D0], Sizes[D1]);
  std::swap(Strides[D0], Strides[D1]);
  return stridedView(T, Sizes, Strides, T.storage_offset());
}

/// The elements of \p T in row-major order of the indices, as \p V.
template <typename V> std::vector<V> toVector(const Tensor &T) {
  std::vector<V> Out;
  visitScalarType(T.dtype(), [&](auto Tag) {
    using E = decltype(Tag);
    const E *Base = static_cast<const E *>(T.data_ptr());
    forEachOffset(T.sizes(), T.strides(), [&](int64_t Offset) {
      Out.push_back(detail::convertElement<V>(Base[Offset]));
    });
  });
  return Out;
}

/// Writes \p Values (row-major order of the indices) into \p T.
template <typename V> void fill(const Tensor &T, const std::vector<V> &Values) {
  ASSERT_EQ(static_cast<int64_t>(Values.size()), T.numel());
  visitScalarType(T.dtype(), [&](auto Tag) {
    using E = decltype(Tag);
    E *Base = static_cast<E *>(T.data_ptr());
    size_t I = 0;
    forEachOffset(T.sizes(), T.strides(), [&](int64_t Offset) {
      Base[Offset] = detail::convertElement<E>(Values[I++]);
    });
  });
}

/// A contiguous CPU tensor of \p Sizes holding \p Values.
template <typename V>
Tensor fromVector(const std::vector<V> &Values, IntArrayRef Sizes,
                  ScalarType Dtype = scalarTypeOf<V>()) {
  Tensor T = detail::empty_cpu(Sizes, Dtype);
  fill(T, Values);
  return T;
}

/// 0, 1, 2, ... (times \p Scale, plus \p Shift) as doubles.
inline std::vector<double> iota(int64_t N, double Scale = 1, double Shift = 0) {
  std::vector<double> V(N);
  for (int64_t I = 0; I < N; ++I)
    V[I] = static_cast<double>(I) * Scale + Shift;
  return V;
}

/// A CPU tensor of \p Sizes and \p Dtype holding iota(numel).
inline Tensor arange(IntArrayRef Sizes, ScalarType Dtype = kFloat,
                     double Scale = 1, double Shift = 0) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  return fromVector(iota(N, Scale, Shift), Sizes, Dtype);
}

} // namespace test
} // namespace sk

#endif // SKC_TEST_RUNTIME_ITER_ITERTESTUTILS_H
