//===--- Indexing.h - What the gather kernels share -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of index_select, take and gather that the CPU and CUDA
/// kernels share: the views a gather iterates over and the error for an
/// index out of range, with PyTorch's messages.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_INDEXING_H
#define SKC_KERNELS_SHARED_INDEXING_H

#include "sk/core/Tensor.h"
#include "sk/util/Exception.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace sk {
namespace kernels {

/// The error for index \p Idx outside dimension \p Dim (of \p DimSize
/// elements) in operator \p Op; take's message when \p WrapNegative.
[[noreturn]] inline void reportIndexOutOfRange(const char *Op, int64_t Idx,
                                               int64_t Dim, int64_t DimSize,
                                               bool WrapNegative) {
  if (WrapNegative)
    SK_CHECK_INDEX(false, "out of range: tried to access index ", Idx,
                   " on a tensor of ", DimSize, " elements.");
  SK_CHECK_INDEX(false, Op, "(): index ", Idx,
                 " is out of bounds for dimension ", Dim, " with size ",
                 DimSize);
  SK_INTERNAL_ASSERT(false, "unreachable");
  std::abort();
}

/// \p Self viewed with \p Sizes, its own strides but 0 along \p Dim (and
/// along the dimensions a 0-dim self lacks).
inline Tensor restrideAlong(const Tensor &Self, IntArrayRef Sizes,
                            int64_t Dim) {
  std::vector<int64_t> Strides(Sizes.size(), 0);
  for (int64_t D = 0; D < Self.dim() && D < int64_t(Sizes.size()); ++D)
    Strides[D] = D == Dim ? 0 : Self.stride(D);
  return Self.as_strided(Sizes, Strides, Self.storage_offset());
}

/// index_select's \p Index viewed with \p Out's sizes: it runs along
/// \p Dim and is broadcast over the rest (\p Self is the indexed tensor).
inline Tensor indexAlong(const Tensor &Index, const Tensor &Self,
                         const Tensor &Out, int64_t Dim) {
  Tensor Idx = Index.reshape({Self.dim() == 0 ? 1 : Index.numel()});
  std::vector<int64_t> IdxStrides(Out.sizes().size(), 0);
  if (Self.dim() > 0)
    IdxStrides[Dim] = Idx.stride(0);
  return Idx.as_strided(Out.sizes(), IdxStrides, Idx.storage_offset());
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_INDEXING_H
