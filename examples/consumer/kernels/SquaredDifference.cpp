//===--- SquaredDifference.cpp - (self - other)^2 on the CPU --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured operator through TensorIterator: the meta function builds
/// the iterator (broadcasting, type promotion, the output's sizes and
/// strides) and the impl runs the loop over it.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {

SK_META_FUNC(squared_difference)(const Tensor &self, const Tensor &other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SK_IMPL_FUNC(squared_difference_out)(const Tensor &self, const Tensor &other,
                                     const Tensor &out) {
  switch (common_dtype()) {
  case kFloat:
    cpu_kernel(*this, [](float X, float Y) { return (X - Y) * (X - Y); });
    return;
  case kDouble:
    cpu_kernel(*this, [](double X, double Y) { return (X - Y) * (X - Y); });
    return;
  case kLong:
    cpu_kernel(*this, [](int64_t X, int64_t Y) { return (X - Y) * (X - Y); });
    return;
  default:
    SK_CHECK(false, "squared_difference(): no CPU kernel for dtype ",
             common_dtype());
  }
}

} // namespace sk
