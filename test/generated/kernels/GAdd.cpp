//===--- GAdd.cpp - gadd: self + alpha * other on the CPU -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured TensorIterator operator, written as a kernel author would:
/// the meta function builds the iterator (broadcasting, type promotion, the
/// output's sizes, dtype and strides), the impl runs the loop over it. The
/// generated wrappers make gadd, gadd_ and gadd.out of these two.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {

SK_META_FUNC(gadd, Tensor)
(const Tensor &self, const Tensor &other, const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SK_IMPL_FUNC(gadd_out)
(const Tensor &self, const Tensor &other, const Scalar &alpha,
 const Tensor &out) {
  switch (common_dtype()) {
  case kFloat: {
    float A = static_cast<float>(alpha.toDouble());
    cpu_kernel(*this, [A](float X, float Y) { return X + A * Y; });
    return;
  }
  case kDouble: {
    double A = alpha.toDouble();
    cpu_kernel(*this, [A](double X, double Y) { return X + A * Y; });
    return;
  }
  case kLong: {
    int64_t A = alpha.toLong();
    cpu_kernel(*this, [A](int64_t X, int64_t Y) { return X + A * Y; });
    return;
  }
  default:
    SK_CHECK(false, "gadd(): no CPU kernel for dtype ", common_dtype());
  }
}

} // namespace sk
