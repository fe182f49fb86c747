//===--- OnlineSoftmax.h - A softmax row's maximum and sum ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OnlineSum, the running (maximum, sum of exponentials) of a softmax row
/// that the CUDA softmax kernel (Softmax.cu) keeps per thread and merges
/// per block. Plain C++ as well as CUDA, so that the host tests check its
/// special values without a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_ONLINESOFTMAX_H
#define SKC_KERNELS_CUDA_ONLINESOFTMAX_H

#include "sk/util/HostDevice.h"

#include <cmath>
#include <type_traits>

namespace sk {
namespace cuda {

// Note [Online softmax on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A row's maximum M and its sum S of exp(x - M) come from one read of the
// row (Milakov and Gimelshein's online normalizer): each thread keeps its
// own (M, S), rescaling S by exp(M - x) when x raises M, and the block
// merges them, each S rescaled to the block's maximum. The output is the
// second read. Reading the row three times (maximum, sum, output), as the
// CPU kernel does, costs a third more memory traffic on rows too long
// for the L1 cache (a softmax over 32000).
//
// Special values give what the three reads give. A NaN is a maximum, so
// S becomes NaN; an x of +inf adds exp(inf - inf), NaN, as the three
// reads do; an x of -inf adds nothing, exactly as exp(-inf - M) does once
// M is finite. A row of -inf, the one case where M stays -inf, sums to
// NaN, as exp(-inf - -inf) is.

/// exp in float for float, as the kernels compute.
template <typename A> SK_HOST_DEVICE inline A onlineExp(A V) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<A, float>)
    return expf(V);
  else
    return exp(V);
#else
  return std::exp(V);
#endif
}

/// One thread's or one block's (M, S) of Note [Online softmax on CUDA].
/// An aggregate, so that it may live in shared memory; start from empty().
template <typename A> struct OnlineSum {
  A Max;
  A Sum;

  // INFINITY and NAN rather than std::numeric_limits, whose functions are
  // host code to nvcc.
  SK_HOST_DEVICE static A negativeInfinity() { return -A(INFINITY); }
  /// The state of no values.
  SK_HOST_DEVICE static OnlineSum empty() { return {negativeInfinity(), A(0)}; }

  SK_HOST_DEVICE void add(A V) {
    if (V > Max || V != V) {
      Sum = Sum * onlineExp(Max - V) + onlineExp(V - V);
      Max = V;
    } else if (V != negativeInfinity()) {
      Sum += onlineExp(V - Max);
    }
  }
  /// Sum rescaled to a maximum \p To >= Max.
  SK_HOST_DEVICE A sumAt(A To) const {
    return Max == negativeInfinity() ? A(0) : Sum * onlineExp(Max - To);
  }
  SK_HOST_DEVICE void merge(OnlineSum Other) {
    A To = (Other.Max > Max || Other.Max != Other.Max) ? Other.Max : Max;
    Sum = sumAt(To) + Other.sumAt(To);
    Max = To;
  }
  /// The row's sum: NaN for a row of -infinity, as exp(-inf - -inf).
  SK_HOST_DEVICE A rowSum() const {
    return Max == negativeInfinity() ? A(NAN) : Sum;
  }
};

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_ONLINESOFTMAX_H
