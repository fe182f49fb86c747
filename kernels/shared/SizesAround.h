//===--- SizesAround.h - A shape as rows around one dimension ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_SIZESAROUND_H
#define SKC_KERNELS_SHARED_SIZESAROUND_H

#include "sk/util/ArrayRef.h"

#include <cstdint>

namespace sk {
namespace kernels {

/// A row-major shape seen around dimension Dim: Outer blocks of that
/// dimension, each of Inner contiguous elements per index along it.
struct SizesAround {
  int64_t Outer = 1;
  int64_t Inner = 1;
};

/// The products of \p Sizes before and after \p Dim (a valid dimension).
inline SizesAround sizesAround(IntArrayRef Sizes, int64_t Dim) {
  SizesAround R;
  for (int64_t D = 0; D < Dim; ++D)
    R.Outer *= Sizes[D];
  for (int64_t D = Dim + 1; D < static_cast<int64_t>(Sizes.size()); ++D)
    R.Inner *= Sizes[D];
  return R;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_SIZESAROUND_H
