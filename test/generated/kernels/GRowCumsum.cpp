//===--- GRowCumsum.cpp - grow_cumsum: prefix sums along the last dim -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A row-wise kernel that walks its output as contiguous rows, so its meta
/// function asks for a contiguous output (set_output_contiguous): an out=
/// or inplace tensor with other strides gets a proxy, which the generated
/// wrapper copies back. The impl records what it was given (Probes.h).
///
//===----------------------------------------------------------------------===//

#include "Probes.h"

#include "NativeFunctions.h"

namespace gentest {

RowCumsumProbe &rowCumsumProbe() {
  static RowCumsumProbe Probe;
  return Probe;
}

} // namespace gentest

namespace sk {

SK_META_FUNC(grow_cumsum)(const Tensor &self) {
  SK_CHECK(self.dim() >= 1, "grow_cumsum(): expected a tensor with at least "
                            "one dimension");
  SK_CHECK(self.scalar_type() == kFloat,
           "grow_cumsum(): expected a float tensor, but got ",
           self.scalar_type());
  set_output_contiguous(0, self.sizes(), self.options());
}

SK_IMPL_FUNC(grow_cumsum_out)(const Tensor &self, const Tensor &out) {
  gentest::RowCumsumProbe &Probe = gentest::rowCumsumProbe();
  Probe.OutData = out.data_ptr();
  Probe.OutStrides.assign(out.strides().begin(), out.strides().end());
  ++Probe.Calls;
  // The loop below relies on the row-major output the meta function asked
  // for; the input may have any strides. For inplace calls without a proxy
  // self and out are one tensor, which a running sum reads before it
  // overwrites.
  SK_INTERNAL_ASSERT(out.is_contiguous(), "grow_cumsum: output not row-major");
  Tensor In = self.contiguous();
  const float *Src = In.data_ptr<float>();
  float *Dst = out.data_ptr<float>();
  int64_t RowLength = self.sizes().back();
  int64_t Rows = RowLength == 0 ? 0 : self.numel() / RowLength;
  for (int64_t R = 0; R != Rows; ++R) {
    float Sum = 0;
    for (int64_t C = 0; C != RowLength; ++C) {
      Sum += Src[R * RowLength + C];
      Dst[R * RowLength + C] = Sum;
    }
  }
}

} // namespace sk
