//===--- AddScaled.cpp - alpha * self + other, other optional -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {

SK_META_FUNC(add_scaled)
(const Tensor &self, const Scalar &alpha, OptionalTensorRef other) {
  if (other)
    build_borrowing_binary_op(maybe_get_output(), self, *other);
  else
    build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(add_scaled_out)
(const Tensor &self, const Scalar &alpha, OptionalTensorRef other,
 const Tensor &out) {
  SK_CHECK(common_dtype() == kFloat,
           "add_scaled(): only float tensors, but got ", common_dtype());
  float A = alpha.to<float>();
  if (other)
    cpu_kernel(*this, [A](float X, float Y) { return A * X + Y; });
  else
    cpu_kernel(*this, [A](float X) { return A * X; });
}

} // namespace sk
