//===--- Loss.cpp - binary_cross_entropy ----------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `binary_cross_entropy` (structured): the loss
///   -w * (y * max(log(x), -100) + (1 - y) * max(log(1 - x), -100))
/// per element (PyTorch clamps the logarithms at -100 so that x = 0 or 1
/// gives a finite loss), then no reduction (0), the mean (1) or the sum
/// (2). Without reduction it is a TensorIterator loop into an output of
/// self's layout; with one, a parallel sum over fixed chunks, combined in
/// double in chunk order, so the result does not depend on the thread
/// count. float16 and bfloat16 compute in float32.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sk {
namespace {

constexpr int64_t kReductionNone = 0;
constexpr int64_t kReductionMean = 1;
constexpr int64_t kReductionSum = 2;

template <typename Acc> inline Acc bceLoss(Acc X, Acc Y) {
  SK_CHECK(X >= 0 && X <= 1, "all elements of input should be between 0 and 1");
  SK_CHECK(Y >= 0 && Y <= 1,
           "all elements of target should be between 0 and 1");
  return (Y - Acc(1)) * std::max(Acc(std::log1p(-X)), Acc(-100)) -
         Y * std::max(Acc(std::log(X)), Acc(-100));
}

/// Whether a tensor of \p From broadcasts to \p To without changing it.
bool broadcastsTo(IntArrayRef From, IntArrayRef To) {
  if (From.size() > To.size())
    return false;
  size_t Lead = To.size() - From.size();
  for (size_t I = 0; I < From.size(); ++I)
    if (From[I] != 1 && From[I] != To[Lead + I])
      return false;
  return true;
}

/// The sum of the (weighted) losses of the contiguous \p X, \p Y and
/// (if given) \p W, of \p N elements each.
template <typename T>
double bceSum(const T *X, const T *Y, const T *W, int64_t N) {
  using Acc = opmath_type<T>;
  constexpr int64_t Chunk = 4096;
  int64_t Chunks = (N + Chunk - 1) / Chunk;
  std::vector<double> Partial(static_cast<size_t>(Chunks), 0.0);
  parallel_for(0, Chunks, 1, [&](int64_t Begin, int64_t End) {
    for (int64_t C = Begin; C < End; ++C) {
      Acc Sum = 0;
      for (int64_t I = C * Chunk, E = std::min(N, I + Chunk); I < E; ++I) {
        Acc L = bceLoss<Acc>(static_cast<Acc>(X[I]), static_cast<Acc>(Y[I]));
        Sum += W ? L * static_cast<Acc>(W[I]) : L;
      }
      Partial[C] = Sum;
    }
  });
  double Total = 0;
  for (double P : Partial)
    Total += P;
  return Total;
}

} // namespace

SK_META_FUNC(binary_cross_entropy)
(const Tensor &self, const Tensor &target, OptionalTensorRef weight,
 int64_t reduction) {
  ScalarType Type = self.scalar_type();
  SK_CHECK(isFloatingType(Type),
           "binary_cross_entropy(): expected a floating-point input, but got ",
           Type);
  SK_CHECK(target.scalar_type() == Type,
           "binary_cross_entropy(): expected target to have dtype ", Type,
           " (the input's), but got ", target.scalar_type());
  SK_CHECK(target.sizes() == self.sizes(),
           "binary_cross_entropy(): expected target of size ", self.sizes(),
           " (the input's), but got ", target.sizes());
  if (weight) {
    SK_CHECK(weight->scalar_type() == Type,
             "binary_cross_entropy(): expected weight to have dtype ", Type,
             " (the input's), but got ", weight->scalar_type());
    SK_CHECK(broadcastsTo(weight->sizes(), self.sizes()),
             "binary_cross_entropy(): weight of size ", weight->sizes(),
             " does not broadcast to the input's size ", self.sizes());
  }
  SK_CHECK(reduction == kReductionNone || reduction == kReductionMean ||
               reduction == kReductionSum,
           "binary_cross_entropy(): reduction must be 0 (none), 1 (mean) or "
           "2 (sum), but got ",
           reduction);
  // Reduced, the loss is a 0-dim tensor; unreduced, it takes self's
  // layout (PyTorch's empty_like).
  bool Reduced = reduction != kReductionNone;
  IntArrayRef Sizes = Reduced ? IntArrayRef() : self.sizes();
  IntArrayRef Strides;
  if (!Reduced && self.is_non_overlapping_and_dense())
    Strides = self.strides();
  set_output_raw_strided(0, Sizes, Strides, self.options());
}

SK_IMPL_FUNC(binary_cross_entropy_out)
(const Tensor &self, const Tensor &target, OptionalTensorRef weight,
 int64_t reduction, const Tensor &out) {
  if (reduction == kReductionNone) {
    TensorIteratorConfig Config;
    Config.add_output(out).add_input(self).add_input(target);
    if (weight)
      Config.add_input(*weight);
    TensorIterator Iter = Config.build();
    dispatchDtypes<dtypes::Floating>(
        self.scalar_type(), "binary_cross_entropy_cpu", [&](auto Tag) {
          using T = decltype(Tag);
          using Acc = opmath_type<T>;
          if (weight)
            cpu_kernel(Iter, [](T X, T Y, T W) -> T {
              return detail::convertElement<T>(
                  bceLoss<Acc>(static_cast<Acc>(X), static_cast<Acc>(Y)) *
                  static_cast<Acc>(W));
            });
          else
            cpu_kernel(Iter, [](T X, T Y) -> T {
              return detail::convertElement<T>(
                  bceLoss<Acc>(static_cast<Acc>(X), static_cast<Acc>(Y)));
            });
        });
    return;
  }
  Tensor X = self.contiguous();
  Tensor Y = target.contiguous();
  Tensor W;
  if (weight)
    W = weight->expand(self.sizes()).contiguous();
  int64_t N = self.numel();
  dispatchDtypes<dtypes::Floating>(
      self.scalar_type(), "binary_cross_entropy_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        double Total = bceSum<T>(X.data_ptr<T>(), Y.data_ptr<T>(),
                                 W.defined() ? W.data_ptr<T>() : nullptr, N);
        // The mean of no elements is NaN, as torch.mean's.
        double Result = reduction == kReductionMean ? Total / double(N) : Total;
        detail::storeAs(static_cast<char *>(out.data_ptr()), out.scalar_type(),
                        Result);
      });
}

} // namespace sk
