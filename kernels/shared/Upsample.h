//===--- Upsample.h - Nearest upsampling's index step -----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_UPSAMPLE_H
#define SKC_KERNELS_SHARED_UPSAMPLE_H

#include <algorithm>
#include <cstdint>
#include <optional>

namespace sk {
namespace kernels {

/// The float32 step of PyTorch's nearest_idx from an output index to an
/// input index: 1 / scales where scales is given and positive, else
/// In / Out. It is clamped to In, which sends every output index but the
/// first past the end (and so to In - 1) as any larger step does: a tiny
/// scales, whose inverse overflows float32, would otherwise make the step
/// infinite and 0 * step NaN, whose conversion to an index is undefined.
inline float nearestScale(int64_t In, int64_t Out,
                          std::optional<double> Scales) {
  if (!Scales || !(*Scales > 0.))
    return static_cast<float>(In) / static_cast<float>(Out);
  return static_cast<float>(std::min(1.0 / *Scales, static_cast<double>(In)));
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_UPSAMPLE_H
