//===--- Normalization.h - What layer_norm and batch_norm share -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The arithmetic the CPU and CUDA impls of layer_norm and batch_norm must
/// agree on, callable from host and device code (SK_HOST_DEVICE).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_NORMALIZATION_H
#define SKC_KERNELS_SHARED_NORMALIZATION_H

#include "sk/util/HostDevice.h"

#include <cmath>
#include <cstdint>

namespace sk {
namespace kernels {

/// Note [Variance that overflows]
/// The centred sum of squares overflows where the values are finite but
/// their deviations pass the square root of the dtype's largest value
/// (1.8e19 in float32): the variance is then inf and the inverse standard
/// deviation 0, though the normalised values, of order 1, are finite
/// ([1e30, 1e30, 0.5] normalises to [0.71, 0.71, -1.41]). On that path
/// only, the impls divide the deviations by the largest of them, \p Scale,
/// before squaring, as LAPACK's nrm2 rescales, and the inverse standard
/// deviation is this function of their sum \p ScaledSquares over \p Count
/// values. The common path pays one comparison per row or channel.
template <typename A>
SK_HOST_DEVICE inline A rescaledInvstd(A Scale, A ScaledSquares,
                                       int64_t Count, double Eps) {
  using std::sqrt;
  return A(1) /
         (Scale * sqrt(ScaledSquares / A(Count) + A(Eps) / Scale / Scale));
}

/// Whether a sum of squared deviations from \p Mean overflowed while the
/// values were finite (Note [Variance that overflows]).
template <typename A>
SK_HOST_DEVICE inline bool squaresOverflowed(A Squares, A Mean) {
  using std::isfinite;
  using std::isinf;
  return isinf(Squares) && isfinite(Mean);
}

/// batch_norm's statistics of a channel: \p Squares is the sum of squared
/// deviations from the mean, of the deviations divided by \p Scale where
/// that is not 0 (Note [Variance that overflows]).
/// The variance with \p Divisor (the count, or the count less one for the
/// running variance).
template <typename A>
SK_HOST_DEVICE inline A channelVariance(A Squares, A Scale, int64_t Divisor) {
  A Var = Squares / A(Divisor);
  return Scale == A(0) ? Var : Scale * (Scale * Var);
}

/// The inverse standard deviation over \p Count values, as PyTorch's
/// InvStd: no variance and no epsilon give 0, not inf.
template <typename A>
SK_HOST_DEVICE inline A channelInvstd(A Squares, A Scale, int64_t Count,
                                      double Eps) {
  using std::sqrt;
  if (Count == 0)
    return A(0);
  if (Scale != A(0))
    return rescaledInvstd(Scale, Squares, Count, Eps);
  A Var = Squares / A(Count);
  return Var == A(0) && Eps == 0 ? A(0) : A(1) / sqrt(Var + A(Eps));
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_NORMALIZATION_H
