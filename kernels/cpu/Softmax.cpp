//===--- Softmax.cpp - softmax and log_softmax ----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `_softmax` and `_log_softmax` (structured) and their composites
/// `softmax.int` and `log_softmax.int`, which cast to the requested dtype
/// first. The impl reads a contiguous copy of the input and writes a
/// contiguous output (the meta function asks for one, as PyTorch's
/// LEGACY_CONTIGUOUS_MEMORY_FORMAT does), so the reduced dimension is either
/// the innermost one (rows, reduced horizontally with Highway) or has a
/// constant stride `Inner` (reduced column-wise over Highway vectors of
/// `Inner` neighbours). float16 and bfloat16 are computed in float32 in a
/// per-thread buffer; `half_to_float` writes that float32 result directly.
///
//===----------------------------------------------------------------------===//

#include "Functions.h"
#include "NativeFunctions.h"
#include "shared/SizesAround.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/Softmax.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>

#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_SOFTMAX_SHARED
#define SKC_KERNELS_CPU_SOFTMAX_SHARED
namespace sk {
namespace {

/// The checks of _softmax and _log_softmax's meta functions (PyTorch's),
/// and the options of their output.
TensorOptions checkSoftmax(const char *Op, const Tensor &self, int64_t dim,
                           bool half_to_float) {
  int64_t Dim = maybeWrapDim(dim, self.dim());
  SK_CHECK(isFloatingType(self.scalar_type()), Op,
           "(): expected a floating-point input, but got ", self.scalar_type());
  SK_CHECK(!half_to_float || self.scalar_type() == kHalf ||
               self.scalar_type() == kBFloat16,
           Op,
           "(): conversion with half_to_float is supported for float16 "
           "and bfloat16 inputs only, but got ",
           self.scalar_type());
  int64_t InputDim = self.dim() > 0 ? self.dim() : 1;
  SK_CHECK(Dim >= 0 && Dim < InputDim,
           "dim must be non-negative and less than input dimensions");
  TensorOptions Options = self.options();
  if (half_to_float)
    Options = Options.dtype(kFloat);
  return Options;
}
} // namespace
} // namespace sk
#endif // SKC_KERNELS_CPU_SOFTMAX_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace {

/// exp(X) on a vector, NaN in giving NaN out: Highway's Exp clamps inputs
/// below its lower bound to zero, which would turn a NaN into 0 and hide it
/// from the row's sum.
template <class D, class V> HWY_INLINE V expKeepNaN(D Tag, V X) {
  return hn::IfThenElse(hn::IsNaN(X), X, hn::Exp(Tag, X));
}

/// Softmax (or log-softmax) of the \p N contiguous values at \p X into
/// \p Y. \p X and \p Y may be the same row: every pass reads an element
/// before it writes it. Four vector accumulators keep the max and sum
/// loops from waiting on one another's latency; the sum adds blocks of
/// 4 * 256 vectors into a double, so that a row of millions keeps float32's
/// precision.
template <typename T> void softmaxRow(const T *X, T *Y, int64_t N, bool Log) {
  const hn::ScalableTag<T> Tag;
  using V = hn::Vec<decltype(Tag)>;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  int64_t I = 0;
  T Max = -std::numeric_limits<T>::infinity();
  if (N >= 4 * L) {
    V M0 = hn::LoadU(Tag, X), M1 = hn::LoadU(Tag, X + L),
      M2 = hn::LoadU(Tag, X + 2 * L), M3 = hn::LoadU(Tag, X + 3 * L);
    for (I = 4 * L; I + 4 * L <= N; I += 4 * L) {
      M0 = hn::Max(M0, hn::LoadU(Tag, X + I));
      M1 = hn::Max(M1, hn::LoadU(Tag, X + I + L));
      M2 = hn::Max(M2, hn::LoadU(Tag, X + I + 2 * L));
      M3 = hn::Max(M3, hn::LoadU(Tag, X + I + 3 * L));
    }
    Max = hn::GetLane(
        hn::MaxOfLanes(Tag, hn::Max(hn::Max(M0, M1), hn::Max(M2, M3))));
  }
  for (; I < N; ++I)
    Max = std::max(Max, X[I]);

  const V VM = hn::Set(Tag, Max);
  auto ExpAt = [&](int64_t J) {
    V E = expKeepNaN(Tag, hn::Sub(hn::LoadU(Tag, X + J), VM));
    if (!Log)
      hn::StoreU(E, Tag, Y + J);
    return E;
  };
  double Total = 0;
  I = 0;
  constexpr int64_t BlockVectors = 4 * 256;
  while (I + 4 * L <= N) {
    V S0 = hn::Zero(Tag), S1 = S0, S2 = S0, S3 = S0;
    int64_t BlockEnd = std::min(N, I + BlockVectors * L);
    for (; I + 4 * L <= BlockEnd; I += 4 * L) {
      S0 = hn::Add(S0, ExpAt(I));
      S1 = hn::Add(S1, ExpAt(I + L));
      S2 = hn::Add(S2, ExpAt(I + 2 * L));
      S3 = hn::Add(S3, ExpAt(I + 3 * L));
    }
    Total += static_cast<double>(hn::GetLane(
        hn::SumOfLanes(Tag, hn::Add(hn::Add(S0, S1), hn::Add(S2, S3)))));
  }
  for (; I + L <= N; I += L)
    Total += static_cast<double>(hn::GetLane(hn::SumOfLanes(Tag, ExpAt(I))));
  for (; I < N; ++I) {
    T E = std::exp(X[I] - Max);
    if (!Log)
      Y[I] = E;
    Total += static_cast<double>(E);
  }
  T Sum = static_cast<T>(Total);

  if (Log) {
    // (x - max) - log(sum), in this order: max + log(sum) would lose
    // log(sum) against a large max (PyTorch's issue 11752).
    const T LogSum = std::log(Sum);
    const auto VM = hn::Set(Tag, Max), VL = hn::Set(Tag, LogSum);
    for (I = 0; I + L <= N; I += L)
      hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(Tag, X + I), VM), VL), Tag, Y + I);
    for (; I < N; ++I)
      Y[I] = (X[I] - Max) - LogSum;
    return;
  }
  const T Inv = T(1) / Sum;
  const auto VI = hn::Set(Tag, Inv);
  for (I = 0; I + L <= N; I += L)
    hn::StoreU(hn::Mul(hn::LoadU(Tag, Y + I), VI), Tag, Y + I);
  for (; I < N; ++I)
    Y[I] *= Inv;
}

/// Softmax over \p Dim rows of \p Width neighbouring columns: element
/// (d, j) is at `X[d * Stride + j]`. \p Max and \p Sum are scratch of
/// \p Width values. \p X and \p Y may alias, as in softmaxRow.
template <typename T>
void softmaxColumns(const T *X, T *Y, int64_t Dim, int64_t Stride,
                    int64_t Width, T *Max, T *Sum, bool Log) {
  const hn::ScalableTag<T> Tag;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  std::copy(X, X + Width, Max);
  for (int64_t D = 1; D < Dim; ++D) {
    const T *Row = X + D * Stride;
    int64_t J = 0;
    for (; J + L <= Width; J += L)
      hn::StoreU(hn::Max(hn::LoadU(Tag, Max + J), hn::LoadU(Tag, Row + J)), Tag,
                 Max + J);
    for (; J < Width; ++J)
      Max[J] = std::max(Max[J], Row[J]);
  }
  std::fill(Sum, Sum + Width, T(0));
  for (int64_t D = 0; D < Dim; ++D) {
    const T *Row = X + D * Stride;
    T *Out = Y + D * Stride;
    int64_t J = 0;
    for (; J + L <= Width; J += L) {
      auto E = expKeepNaN(
          Tag, hn::Sub(hn::LoadU(Tag, Row + J), hn::LoadU(Tag, Max + J)));
      if (!Log)
        hn::StoreU(E, Tag, Out + J);
      hn::StoreU(hn::Add(hn::LoadU(Tag, Sum + J), E), Tag, Sum + J);
    }
    for (; J < Width; ++J) {
      T E = std::exp(Row[J] - Max[J]);
      if (!Log)
        Out[J] = E;
      Sum[J] += E;
    }
  }
  // One log or reciprocal per column; the loops below are the hot part.
  for (int64_t J = 0; J < Width; ++J)
    Sum[J] = Log ? std::log(Sum[J]) : T(1) / Sum[J];
  for (int64_t D = 0; D < Dim; ++D) {
    const T *Row = X + D * Stride;
    T *Out = Y + D * Stride;
    int64_t J = 0;
    for (; J + L <= Width; J += L) {
      auto S = hn::LoadU(Tag, Sum + J);
      auto R = Log ? hn::Sub(hn::Sub(hn::LoadU(Tag, Row + J),
                                     hn::LoadU(Tag, Max + J)),
                             S)
                   : hn::Mul(hn::LoadU(Tag, Out + J), S);
      hn::StoreU(R, Tag, Out + J);
    }
    for (; J < Width; ++J)
      Out[J] = Log ? (Row[J] - Max[J]) - Sum[J] : Out[J] * Sum[J];
  }
}

/// The softmax of a contiguous [Outer, Dim, Inner] tensor \p Src into the
/// contiguous \p Dst. In and Out are the element types; the arithmetic is
/// in Acc (float for the 16-bit types), through a per-chunk buffer when
/// the types differ.
template <typename In, typename Out>
void hostSoftmax(const In *Src, Out *Dst, int64_t Outer, int64_t Dim,
                 int64_t Inner, bool Log) {
  using Acc = opmath_type<In>;
  constexpr bool Direct = std::is_same_v<In, Acc> && std::is_same_v<Out, Acc>;
  if (Inner == 1) {
    int64_t Grain =
        std::max<int64_t>(1, kGrainSize / std::max<int64_t>(Dim, 1));
    parallel_for(0, Outer, Grain, [&](int64_t Begin, int64_t End) {
      std::vector<Acc> Buf(Direct ? 0 : Dim);
      for (int64_t R = Begin; R < End; ++R) {
        const In *X = Src + R * Dim;
        Out *Y = Dst + R * Dim;
        if constexpr (Direct) {
          softmaxRow<Acc>(X, Y, Dim, Log);
        } else {
          for (int64_t I = 0; I < Dim; ++I)
            Buf[I] = static_cast<Acc>(X[I]);
          softmaxRow<Acc>(Buf.data(), Buf.data(), Dim, Log);
          for (int64_t I = 0; I < Dim; ++I)
            Y[I] = detail::convertElement<Out>(Buf[I]);
        }
      }
    });
    return;
  }
  // Columns are processed in chunks that keep a chunk's Dim x Width
  // values (and the scratch) in cache between the three passes.
  int64_t Width =
      std::clamp<int64_t>(16384 / std::max<int64_t>(Dim, 1), 16, 1024);
  Width = std::min(Width, Inner);
  int64_t Chunks = (Inner + Width - 1) / Width;
  int64_t Grain =
      std::max<int64_t>(1, kGrainSize / std::max<int64_t>(Dim * Width, 1));
  parallel_for(0, Outer * Chunks, Grain, [&](int64_t Begin, int64_t End) {
    std::vector<Acc> Scratch(2 * Width);
    std::vector<Acc> Buf(Direct ? 0 : Dim * Width);
    for (int64_t Task = Begin; Task < End; ++Task) {
      int64_t O = Task / Chunks;
      int64_t J0 = (Task % Chunks) * Width;
      int64_t W = std::min(Width, Inner - J0);
      const In *X = Src + O * Dim * Inner + J0;
      Out *Y = Dst + O * Dim * Inner + J0;
      if constexpr (Direct) {
        softmaxColumns<Acc>(X, Y, Dim, Inner, W, Scratch.data(),
                            Scratch.data() + Width, Log);
      } else {
        for (int64_t D = 0; D < Dim; ++D)
          for (int64_t J = 0; J < W; ++J)
            Buf[D * W + J] = static_cast<Acc>(X[D * Inner + J]);
        softmaxColumns<Acc>(Buf.data(), Buf.data(), Dim, W, W, Scratch.data(),
                            Scratch.data() + Width, Log);
        for (int64_t D = 0; D < Dim; ++D)
          for (int64_t J = 0; J < W; ++J)
            Y[D * Inner + J] = detail::convertElement<Out>(Buf[D * W + J]);
      }
    }
  });
}

void softmaxImpl(const Tensor &self, int64_t dim, const Tensor &out, bool Log) {
  if (self.numel() == 0)
    return;
  int64_t Dim = maybeWrapDim(dim, self.dim());
  Tensor In = self.contiguous();
  kernels::SizesAround Around = kernels::sizesAround(self.sizes(), Dim);
  int64_t Outer = Around.Outer, Inner = Around.Inner;
  int64_t Size = self.dim() == 0 ? 1 : self.size(Dim);
  bool ToFloat = out.scalar_type() != self.scalar_type();
  auto Run = [&](auto InTag) {
    using In_t = decltype(InTag);
    if constexpr (std::is_same_v<In_t, Half> ||
                  std::is_same_v<In_t, BFloat16>) {
      if (ToFloat) {
        hostSoftmax(In.data_ptr<In_t>(), out.data_ptr<float>(), Outer, Size,
                    Inner, Log);
        return;
      }
    }
    hostSoftmax(In.data_ptr<In_t>(), out.data_ptr<In_t>(), Outer, Size, Inner,
                Log);
  };
  dispatchDtypes<dtypes::Floating>(
      self.scalar_type(), Log ? "log_softmax_cpu" : "softmax_cpu", Run);
}
} // namespace

static void softmax_outImpl(const Tensor &self, int64_t dim,
                            const Tensor &out) {
  softmaxImpl(self, dim, out, /*Log=*/false);
}

static void log_softmax_outImpl(const Tensor &self, int64_t dim,
                                const Tensor &out) {
  softmaxImpl(self, dim, out, /*Log=*/true);
}
} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(softmax_outImpl);
HWY_EXPORT(log_softmax_outImpl);

SK_META_FUNC(_softmax)(const Tensor &self, int64_t dim, bool half_to_float) {
  set_output_contiguous(0, self.sizes(),
                        checkSoftmax("_softmax", self, dim, half_to_float));
}

SK_IMPL_FUNC(softmax_out)
(const Tensor &self, int64_t dim, bool half_to_float, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(softmax_outImpl)(self, dim, out);
}

SK_META_FUNC(_log_softmax)
(const Tensor &self, int64_t dim, bool half_to_float) {
  set_output_contiguous(0, self.sizes(),
                        checkSoftmax("_log_softmax", self, dim, half_to_float));
}

SK_IMPL_FUNC(log_softmax_out)
(const Tensor &self, int64_t dim, bool half_to_float, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(log_softmax_outImpl)(self, dim, out);
}

// The composites cast first, as PyTorch's do on the CPU: softmax in a
// wider dtype than the input's is the input converted, then _softmax.
Tensor SK_NATIVE_FUNC(softmax)(const Tensor &self, int64_t dim,
                               std::optional<ScalarType> dtype) {
  Tensor Converted = dtype ? self.to(*dtype) : self;
  return sk::_softmax(Converted, dim, /*half_to_float=*/false);
}

Tensor SK_NATIVE_FUNC(log_softmax)(const Tensor &self, int64_t dim,
                                   std::optional<ScalarType> dtype) {
  Tensor Converted = dtype ? self.to(*dtype) : self;
  return sk::_log_softmax(Converted, dim, /*half_to_float=*/false);
}
} // namespace sk
#endif // HWY_ONCE
