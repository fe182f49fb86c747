//===--- GMinMax.cpp - gminmax: the minimum and maximum of each row -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A structured operator with two outputs. The impl takes any output
/// strides (set_output_raw_strided), so out= tensors are written directly.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include <algorithm>

namespace sk {

SK_META_FUNC(gminmax)(const Tensor &self) {
  SK_CHECK(self.dim() == 2, "gminmax(): expected a 2-D tensor, but got ",
           self.dim(), " dimensions");
  SK_CHECK(self.size(1) > 0, "gminmax(): expected non-empty rows");
  SK_CHECK(self.scalar_type() == kFloat,
           "gminmax(): expected a float tensor, but got ", self.scalar_type());
  int64_t Rows = self.size(0);
  set_output_raw_strided(0, {Rows}, {}, self.options());
  set_output_raw_strided(1, {Rows}, {}, self.options());
}

SK_IMPL_FUNC(gminmax_out)
(const Tensor &self, const Tensor &min, const Tensor &max) {
  Tensor In = self.contiguous();
  const float *Src = In.data_ptr<float>();
  float *Min = min.data_ptr<float>();
  float *Max = max.data_ptr<float>();
  int64_t Cols = self.size(1);
  for (int64_t R = 0, Rows = self.size(0); R != Rows; ++R) {
    const float *Row = Src + R * Cols;
    auto [Lo, Hi] = std::minmax_element(Row, Row + Cols);
    Min[R * min.stride(0)] = *Lo;
    Max[R * max.stride(0)] = *Hi;
  }
}

} // namespace sk
