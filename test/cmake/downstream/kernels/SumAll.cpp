//===--- SumAll.cpp - The elementwise sum of a list of tensors ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

namespace sk {

SK_META_FUNC(sum_all)(TensorList tensors) {
  SK_CHECK(!tensors.empty(), "sum_all(): expected at least one tensor");
  for (size_t I = 0; I != tensors.size(); ++I) {
    SK_CHECK(tensors[I].sizes() == tensors[0].sizes(),
             "sum_all(): tensor ", I, " has sizes ", tensors[I].sizes(),
             ", but tensor 0 has ", tensors[0].sizes());
    SK_CHECK(tensors[I].scalar_type() == kFloat,
             "sum_all(): only float tensors, but tensor ", I, " is ",
             tensors[I].scalar_type());
  }
  set_output_raw_strided(0, tensors[0].sizes(), {}, tensors[0].options());
}

SK_IMPL_FUNC(sum_all_out)(TensorList tensors, const Tensor &out) {
  Tensor Result = out.contiguous();
  float *Acc = Result.data_ptr<float>();
  for (int64_t J = 0, N = Result.numel(); J != N; ++J)
    Acc[J] = 0;
  for (const Tensor &T : tensors) {
    Tensor In = T.contiguous();
    const float *Data = In.data_ptr<float>();
    for (int64_t J = 0, N = Result.numel(); J != N; ++J)
      Acc[J] += Data[J];
  }
  if (!Result.is_same(out))
    out.copy_(Result);
}

} // namespace sk
