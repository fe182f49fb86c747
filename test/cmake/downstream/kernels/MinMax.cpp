//===--- MinMax.cpp - The smallest and the largest element, at once -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include <algorithm>

namespace sk {

SK_META_FUNC(min_max)(const Tensor &self) {
  SK_CHECK(self.numel() > 0, "min_max(): expected a non-empty tensor");
  SK_CHECK(self.scalar_type() == kFloat,
           "min_max(): only float tensors, but got ", self.scalar_type());
  set_output_raw_strided(0, {}, {}, self.options());
  set_output_raw_strided(1, {}, {}, self.options());
}

SK_IMPL_FUNC(min_max_out)
(const Tensor &self, const Tensor &min, const Tensor &max) {
  Tensor In = self.contiguous();
  const float *Data = In.data_ptr<float>();
  auto [Lo, Hi] = std::minmax_element(Data, Data + In.numel());
  min.fill_(*Lo);
  max.fill_(*Hi);
}

} // namespace sk
