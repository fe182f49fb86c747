//===--- MemoryOverlap.cpp - Do two tensors share memory? -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/MemoryOverlap.h"

namespace sk {

MemOverlap has_internal_overlap(const Tensor &T) {
  if (T.is_non_overlapping_and_dense())
    return MemOverlap::No;
  IntArrayRef Sizes = T.sizes(), Strides = T.strides();
  for (size_t I = 0; I != Sizes.size(); ++I)
    if (Strides[I] == 0 && Sizes[I] > 1)
      return MemOverlap::Yes;
  return MemOverlap::TooHard;
}

void assert_no_internal_overlap(const Tensor &T) {
  SK_CHECK(has_internal_overlap(T) != MemOverlap::Yes,
           "unsupported operation: more than one element of the written-to "
           "tensor refers to a single memory location. Please clone() the "
           "tensor before performing the operation.");
}

MemOverlapStatus get_overlap_status(const Tensor &A, const Tensor &B) {
  if (A.is_same(B))
    return MemOverlapStatus::Full;
  if (A.numel() == 0 || B.numel() == 0)
    return MemOverlapStatus::No;
  if (!A.is_non_overlapping_and_dense() || !B.is_non_overlapping_and_dense())
    return MemOverlapStatus::TooHard;
  if (!A.is_alias_of(B))
    return MemOverlapStatus::No;
  // Dense tensors with non-negative strides span [data, data + nbytes).
  const char *ABegin = static_cast<const char *>(A.data_ptr());
  const char *AEnd = ABegin + A.nbytes();
  const char *BBegin = static_cast<const char *>(B.data_ptr());
  const char *BEnd = BBegin + B.nbytes();
  if (ABegin == BBegin && AEnd == BEnd)
    return A.strides() == B.strides() ? MemOverlapStatus::Full
                                      : MemOverlapStatus::Partial;
  if (ABegin < BEnd && BBegin < AEnd)
    return MemOverlapStatus::Partial;
  return MemOverlapStatus::No;
}

void assert_no_partial_overlap(const Tensor &A, const Tensor &B) {
  SK_CHECK(get_overlap_status(A, B) != MemOverlapStatus::Partial,
           "unsupported operation: some elements of the input tensor and the "
           "written-to tensor refer to a single memory location. Please "
           "clone() the tensor before performing the operation.");
}

void assert_no_overlap(const Tensor &A, const Tensor &B) {
  MemOverlapStatus S = get_overlap_status(A, B);
  SK_CHECK(S != MemOverlapStatus::Partial && S != MemOverlapStatus::Full,
           "unsupported operation: some elements of the input tensor and the "
           "written-to tensor refer to a single memory location. Please "
           "clone() the tensor before performing the operation.");
}

} // namespace sk
