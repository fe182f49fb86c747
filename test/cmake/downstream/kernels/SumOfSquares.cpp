//===--- SumOfSquares.cpp - The sum of squares over some dimensions -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/ReduceUtils.h"

namespace sk {

/// No dims means every dimension.
static IntArrayRef dimsOrAll(OptionalIntArrayRef Dim) {
  return Dim ? *Dim : IntArrayRef();
}

SK_META_FUNC(sum_of_squares)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim) {
  SK_CHECK(self.scalar_type() == kFloat,
           "sum_of_squares(): only float tensors, but got ",
           self.scalar_type());
  resize_reduction(*this, self, dimsOrAll(dim), keepdim, kFloat);
}

SK_IMPL_FUNC(sum_of_squares_out)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 const Tensor &out) {
  // Naive on purpose: one pass per output element, through the sizes.
  TensorIteratorBase::DimMask Mask = make_dim_mask(dimsOrAll(dim), self.dim());
  Tensor Result = review_reduce_result(out, self.dim(), Mask, keepdim);
  Result.zero_();
  Tensor In = self.contiguous();
  const float *Data = In.data_ptr<float>();
  float *Acc = Result.data_ptr<float>();
  std::vector<int64_t> Index(static_cast<size_t>(self.dim()), 0);
  for (int64_t Flat = 0, N = In.numel(); Flat != N; ++Flat) {
    int64_t Offset = 0;
    for (int64_t D = 0; D < self.dim(); ++D)
      if (!Mask[D])
        Offset += Index[static_cast<size_t>(D)] * Result.stride(D);
    Acc[Offset] += Data[Flat] * Data[Flat];
    for (int64_t D = self.dim() - 1; D >= 0; --D) {
      if (++Index[static_cast<size_t>(D)] < self.size(D))
        break;
      Index[static_cast<size_t>(D)] = 0;
    }
  }
}

} // namespace sk
