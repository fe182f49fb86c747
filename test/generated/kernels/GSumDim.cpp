//===--- GSumDim.cpp - gsum_dim: sums along one dim of a matrix -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured operator with a `precomputed:` field: the meta function
/// wraps a negative dim once, and impl() gets the wrapped value instead of
/// the argument.
///
//===----------------------------------------------------------------------===//

#include "Probes.h"

#include "NativeFunctions.h"

namespace gentest {

int64_t &lastSumDim() {
  static int64_t Dim = -100;
  return Dim;
}

} // namespace gentest

namespace sk {

SK_PRECOMPUTE_META_FUNC(gsum_dim)(const Tensor &self, int64_t dim) {
  SK_CHECK(self.dim() == 2, "gsum_dim(): expected a 2-D tensor, but got ",
           self.dim(), " dimensions");
  SK_CHECK(self.scalar_type() == kFloat,
           "gsum_dim(): expected a float tensor, but got ", self.scalar_type());
  SK_CHECK(dim >= -2 && dim < 2, "gsum_dim(): dim ", dim,
           " out of range for a 2-D tensor");
  int64_t Wrapped = dim < 0 ? dim + 2 : dim;
  set_output_raw_strided(0, {self.size(1 - Wrapped)}, {}, self.options());
  return SK_PRECOMPUTE_STRUCT(gsum_dim)().set_wrapped_dim(Wrapped);
}

SK_IMPL_FUNC(gsum_dim_out)
(const Tensor &self, int64_t wrapped_dim, const Tensor &out) {
  gentest::lastSumDim() = wrapped_dim;
  int64_t Kept = 1 - wrapped_dim;
  float *Dst = out.data_ptr<float>();
  const float *Src = self.data_ptr<float>();
  for (int64_t I = 0, N = self.size(Kept); I != N; ++I) {
    float Sum = 0;
    for (int64_t J = 0, M = self.size(wrapped_dim); J != M; ++J)
      Sum += Src[I * self.stride(Kept) + J * self.stride(wrapped_dim)];
    Dst[I * out.stride(0)] = Sum;
  }
}

} // namespace sk
