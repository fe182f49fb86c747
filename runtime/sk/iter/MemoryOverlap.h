//===--- MemoryOverlap.h - Do two tensors share memory? ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The overlap checks of ATen/MemoryOverlap.h. An op that writes a tensor
/// whose elements alias each other (an expanded tensor), or that reads an
/// input partly aliasing its output, would give results that depend on the
/// loop order; the TensorIterator refuses both. Meta tensors never overlap:
/// they have no memory.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_MEMORYOVERLAP_H
#define SK_ITER_MEMORYOVERLAP_H

#include "sk/core/Tensor.h"

namespace sk {

/// Whether a tensor's elements alias each other. TooHard: the strides are
/// neither dense nor obviously overlapping.
enum class MemOverlap { No, Yes, TooHard };

/// How two tensors' memory relates. Full: the same elements in the same
/// layout (an in-place op), which is fine.
enum class MemOverlapStatus { Full, Partial, No, TooHard };

MemOverlap has_internal_overlap(const Tensor &T);
/// An error naming the written-to tensor when has_internal_overlap is Yes.
void assert_no_internal_overlap(const Tensor &T);

MemOverlapStatus get_overlap_status(const Tensor &A, const Tensor &B);
/// An error when \p A and \p B overlap partially.
void assert_no_partial_overlap(const Tensor &A, const Tensor &B);
/// An error when \p A and \p B overlap at all (fully or partially).
void assert_no_overlap(const Tensor &A, const Tensor &B);

} // namespace sk

#endif // SK_ITER_MEMORYOVERLAP_H
