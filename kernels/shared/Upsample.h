//===--- Upsample.h - Nearest upsampling's index rule -----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PyTorch's nearest_idx, from an output index to an input index, for the
/// CPU and CUDA kernels of `upsample_nearest1d`.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_UPSAMPLE_H
#define SKC_KERNELS_SHARED_UPSAMPLE_H

#include "sk/util/HostDevice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

namespace sk {
namespace kernels {

/// The float32 step of nearestIdx: 1 / scales where scales is given and
/// positive, else In / Out. A tiny scales, whose inverse overflows
/// float32, would make the step infinite and 0 * step NaN, whose
/// conversion to an index is undefined; so the step is clamped to 2 * In.
/// Any step from 2 * In up sends every output index but the first past
/// the end (and so to In - 1), whatever the rounding of In to float32,
/// and below 2 * In the step is PyTorch's.
inline float nearestScale(int64_t In, int64_t Out,
                          std::optional<double> Scales) {
  if (!Scales || !(*Scales > 0.))
    return static_cast<float>(In) / static_cast<float>(Out);
  return static_cast<float>(
      std::min(1.0 / *Scales, 2.0 * static_cast<double>(In)));
}

/// The input index of output index \p O of \p Out, over \p In inputs:
/// the same index where the sizes match, O / 2 where the output is twice
/// the input, else min(floor(O * Scale), In - 1) in float32, \p Scale
/// from nearestScale(). IndexT holds 2 * In.
template <typename IndexT>
SK_HOST_DEVICE inline IndexT nearestIdx(IndexT O, IndexT In, IndexT Out,
                                        float Scale) {
  if (Out == In)
    return O;
  if (Out == 2 * In)
    return O >> 1;
  float Src = floorf(static_cast<float>(O) * Scale);
  // From 2 * In every index is past the end, and a float past IndexT's
  // range would not convert.
  if (!(Src < static_cast<float>(2 * In)))
    return In - 1;
  auto Index = static_cast<IndexT>(Src);
  return Index < In - 1 ? Index : In - 1;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_UPSAMPLE_H
