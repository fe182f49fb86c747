//===--- GScale.cpp - gscale: self * factor on the CPU --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured operator whose meta function is not a TensorIterator: it
/// computes the broadcast shape and the promoted dtype and asks for an
/// output with set_output_raw_strided. Nothing in it looks at a given out
/// or self, so the generated out= and inplace wrappers' checks ("Expected
/// out tensor to have dtype ...", "Bad in-place call: ...") are what
/// reject a wrong one. The impl builds its own iterator over the output.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"
#include "sk/iter/TypePromotion.h"

namespace sk {

SK_META_FUNC(gscale)(const Tensor &self, const Tensor &factor) {
  DimVector Shape = infer_size_dimvector(self.sizes(), factor.sizes());
  set_output_raw_strided(0, Shape, {},
                         self.options().dtype(result_type(self, factor)));
}

SK_IMPL_FUNC(gscale_out)
(const Tensor &self, const Tensor &factor, const Tensor &out) {
  TensorIterator Iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(factor)
                            .promote_inputs_to_common_dtype(true)
                            .build();
  switch (out.scalar_type()) {
  case kFloat:
    cpu_kernel(Iter, [](float X, float F) { return X * F; });
    return;
  case kDouble:
    cpu_kernel(Iter, [](double X, double F) { return X * F; });
    return;
  case kLong:
    cpu_kernel(Iter, [](int64_t X, int64_t F) { return X * F; });
    return;
  default:
    SK_CHECK(false, "gscale(): no CPU kernel for dtype ", out.scalar_type());
  }
}

} // namespace sk
