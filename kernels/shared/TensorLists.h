//===--- TensorLists.h - What cat's CPU and CUDA kernels share --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of cat and stack that does not depend on the device: which
/// inputs take part, when the inputs can be copied as rows of bytes, and
/// the general path of one converting copy per input.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_TENSORLISTS_H
#define SKC_KERNELS_SHARED_TENSORLISTS_H

#include "sk/core/Tensor.h"

#include <vector>

namespace sk {
namespace kernels {

/// Whether cat skips \p T: before empty tensors of any shape existed, the
/// 1-D size-[0] tensor was the only empty one, and cat still accepts it
/// beside tensors of any rank.
inline bool catShouldSkip(const Tensor &T) {
  return T.dim() == 1 && T.numel() == 0;
}

/// Whether cat into \p Out can copy bytes: \p Out and every input that
/// takes part are row-major and of \p Out's dtype, so \p Out is rows of
/// the inputs' row-major chunks side by side.
inline bool catCopiesBytes(TensorList Tensors, const Tensor &Out) {
  if (!Out.is_contiguous())
    return false;
  for (const Tensor &T : Tensors)
    if (!catShouldSkip(T) &&
        (T.scalar_type() != Out.scalar_type() || !T.is_contiguous()))
      return false;
  return true;
}

/// cat for any strides and dtypes: one converting copy per input into its
/// slice of \p Out along \p Dim.
inline void catByCopies(TensorList Tensors, int64_t Dim, const Tensor &Out) {
  int64_t Offset = 0;
  for (const Tensor &T : Tensors) {
    if (catShouldSkip(T))
      continue;
    Out.narrow(Dim, Offset, T.size(Dim)).copy_(T);
    Offset += T.size(Dim);
  }
}

/// \p Tensors unsqueezed at \p Dim: stack is cat of these.
inline std::vector<Tensor> unsqueezeAll(TensorList Tensors, int64_t Dim) {
  std::vector<Tensor> Views;
  Views.reserve(Tensors.size());
  for (const Tensor &T : Tensors)
    Views.push_back(T.unsqueeze(Dim));
  return Views;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_TENSORLISTS_H
