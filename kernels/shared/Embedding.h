//===--- Embedding.h - embedding_bag's host-side checks ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the CPU and CUDA embedding_bag kernels share on the host: reading
/// int32 or int64 index arrays and checking offsets and indices with
/// PyTorch's messages (ATen/native/EmbeddingBag.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_EMBEDDING_H
#define SKC_KERNELS_SHARED_EMBEDDING_H

#include "sk/util/Exception.h"

#include <cstdint>

namespace sk {
namespace kernels {

/// Index \p I of the int32 or int64 host array \p Data.
inline int64_t indexAt(const void *Data, bool IsLong, int64_t I) {
  return IsLong ? static_cast<const int64_t *>(Data)[I]
                : static_cast<const int32_t *>(Data)[I];
}

/// The checks of embedding_bag's indices and offsets, for reporting one
/// found on a device by its code.
enum class EmbeddingBagError : int {
  FirstOffsetNotZero = 1,
  LastOffsetPastTheEnd,
  DecreasingOffsets,
  IndexOutOfRange,
};

/// Throws the error of \p E, PyTorch's message: \p Value is the first
/// offset, the last offset, the position of the offset that decreases, or
/// the index out of range; \p NumIndices the length of indices.
[[noreturn]] inline void reportEmbeddingBagError(EmbeddingBagError E,
                                                 int64_t Value,
                                                 int64_t NumIndices) {
  switch (E) {
  case EmbeddingBagError::FirstOffsetNotZero:
    SK_CHECK(false,
             "offsets[0] has to be 0, i.e., the first sequence in the "
             "mini-batch has to start from position 0. However, got ",
             Value);
    break;
  case EmbeddingBagError::LastOffsetPastTheEnd:
    SK_CHECK(false, "offsets[-1] can not be greater than input's length ",
             NumIndices, " but got offsets[-1] of ", Value);
    break;
  case EmbeddingBagError::DecreasingOffsets:
    SK_CHECK(false,
             "embedding_bag(): offsets must be non-decreasing, but offsets[",
             Value, "] < offsets[", Value - 1, "]");
    break;
  case EmbeddingBagError::IndexOutOfRange:
    SK_CHECK_INDEX(false,
                   "embedding_bag: Expected idx >= 0 && idx < num_embeddings "
                   "but found idx to be ",
                   Value);
    break;
  }
  SK_CHECK(false, "embedding_bag: unknown error ", static_cast<int>(E));
  __builtin_unreachable();
}

/// Checks embedding_bag's host arrays: \p NumOffsets offsets starting at 0,
/// non-decreasing and at most \p NumIndices, and \p NumIndices indices in
/// [0, \p Rows).
inline void checkEmbeddingBagIndices(const void *Indices, const void *Offsets,
                                     bool IsLong, int64_t NumIndices,
                                     int64_t NumOffsets, int64_t Rows) {
  using E = EmbeddingBagError;
  if (NumOffsets > 0) {
    int64_t First = indexAt(Offsets, IsLong, 0);
    int64_t Last = indexAt(Offsets, IsLong, NumOffsets - 1);
    if (First != 0)
      reportEmbeddingBagError(E::FirstOffsetNotZero, First, NumIndices);
    if (Last > NumIndices)
      reportEmbeddingBagError(E::LastOffsetPastTheEnd, Last, NumIndices);
  }
  for (int64_t I = 1; I < NumOffsets; ++I)
    if (indexAt(Offsets, IsLong, I - 1) > indexAt(Offsets, IsLong, I))
      reportEmbeddingBagError(E::DecreasingOffsets, I, NumIndices);
  for (int64_t I = 0; I < NumIndices; ++I) {
    int64_t Row = indexAt(Indices, IsLong, I);
    if (Row < 0 || Row >= Rows)
      reportEmbeddingBagError(E::IndexOutOfRange, Row, NumIndices);
  }
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_EMBEDDING_H
