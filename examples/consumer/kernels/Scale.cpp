//===--- Scale.cpp - scale, scale_ and scale.out on the CPU ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured operator with a plain meta function: the output has the
/// input's sizes and dtype. One impl serves all three variants; the
/// generated wrappers allocate (functional), check and resize (out=) or
/// check (inplace) around it.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {

SK_META_FUNC(scale)(const Tensor &self, double factor) {
  SK_CHECK(isFloatingType(self.scalar_type()),
           "scale(): expected a floating-point tensor, but got ",
           self.scalar_type());
  set_output_raw_strided(0, self.sizes(), {}, self.options());
}

SK_IMPL_FUNC(scale_out)(const Tensor &self, double factor, const Tensor &out) {
  TensorIterator Iter = TensorIterator::unary_op(out, self);
  if (self.scalar_type() == kDouble) {
    cpu_kernel(Iter, [factor](double X) { return X * factor; });
    return;
  }
  SK_CHECK(self.scalar_type() == kFloat, "scale(): no CPU kernel for dtype ",
           self.scalar_type());
  float F = static_cast<float>(factor);
  cpu_kernel(Iter, [F](float X) { return X * F; });
}

} // namespace sk
