//===--- Upsample.cpp - upsample_nearest1d --------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `upsample_nearest1d` (structured): output position o of each [N, C] row
/// takes input position nearest_idx(o), PyTorch's rule (UpSample.h): the
/// same position when the sizes match, o / 2 when the output is twice the
/// input, else min(floor(o * scale), in - 1) in float32 with scale =
/// 1 / scales when a positive one is given, else in / out. The source
/// positions are computed once per call; rows are copied as elements of
/// the dtype's size, so every dtype works.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "shared/Upsample.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace sk {
namespace {

/// Copies each of \p Rows rows through the source table \p Src, for
/// elements stored as \p Word.
template <typename Word>
void gatherRows(const Word *X, Word *Y, int64_t Rows, int64_t In, int64_t Out,
                const int64_t *Src) {
  int64_t Grain = std::max<int64_t>(1, kGrainSize / Out);
  parallel_for(0, Rows, Grain, [&](int64_t Begin, int64_t End) {
    for (int64_t R = Begin; R < End; ++R) {
      const Word *InRow = X + R * In;
      Word *OutRow = Y + R * Out;
      for (int64_t O = 0; O < Out; ++O)
        OutRow[O] = InRow[Src[O]];
    }
  });
}

} // namespace

SK_META_FUNC(upsample_nearest1d)
(const Tensor &self, IntArrayRef output_size, std::optional<double> scales) {
  SK_CHECK(output_size.size() == 1,
           "It is expected output_size equals to 1, but got size ",
           output_size.size());
  SK_CHECK(self.dim() == 3,
           "It is expected input_size equals to 3, but got size ", self.dim());
  int64_t OutW = output_size[0];
  int64_t InW = self.size(2);
  SK_CHECK(InW > 0 && OutW > 0,
           "Input and output sizes should be greater than 0, but got input "
           "(W: ",
           InW, ") and output (W: ", OutW, ")");
  // The batch may be empty, the other dimensions not.
  SK_CHECK(self.size(1) != 0 && self.size(2) != 0,
           "Non-empty 3D data tensor expected but got a tensor with sizes ",
           self.sizes());
  set_output_contiguous(0, {self.size(0), self.size(1), OutW}, self.options());
}

SK_IMPL_FUNC(upsample_nearest1d_out)
(const Tensor &self, IntArrayRef output_size, std::optional<double> scales,
 const Tensor &out) {
  int64_t Rows = self.size(0) * self.size(1);
  int64_t In = self.size(2);
  int64_t Out = output_size[0];
  if (Rows == 0)
    return;
  float Scale = kernels::nearestScale(In, Out, scales);
  std::vector<int64_t> Src(static_cast<size_t>(Out));
  for (int64_t O = 0; O < Out; ++O)
    Src[O] = kernels::nearestIdx(O, In, Out, Scale);
  Tensor X = self.contiguous();
  const void *XData = X.data_ptr();
  void *YData = out.data_ptr();
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    gatherRows(static_cast<const Word *>(XData), static_cast<Word *>(YData),
               Rows, In, Out, Src.data());
  });
}

} // namespace sk
