//===--- ArgReduceOps.cpp - argmax, argmin, max.dim, min.dim --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reductions that find a position (ATen/native/TensorCompare.cpp and
/// ReduceOps.cpp): argmax and argmin, and max.dim and min.dim, structured
/// with two outputs (values and int64 indices) and the wrapped dim
/// precomputed by the meta function.
///
/// All of them pick the first extremum along the dimension, and a NaN
/// beats every number (the first NaN wins), as PyTorch's CPU kernels do.
/// A reduction along one dimension walks that dimension for every other
/// position, in parallel over positions (PyTorch's compare_base_kernel);
/// argmax over every element reduces fixed chunks in parallel and combines
/// them in order, so its result does not depend on the thread count.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace sk {
namespace {

using DimMask = TensorIteratorBase::DimMask;

template <typename T> bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(X);
  else
    return false;
}

/// Whether \p V replaces \p Best as the extremum when it comes later:
/// strictly beyond it, or NaN (PyTorch's `!(value <= max)`).
template <bool IsMax, typename T> bool replaces(T V, T Best) {
  return IsMax ? !(V <= Best) : !(V >= Best);
}

/// The first extremum of \p N elements of type \p T, \p Stride bytes apart
/// from \p P: its value (computed in opmath_type) and index.
template <bool IsMax, typename T>
std::pair<opmath_type<T>, int64_t> findExtremum(const char *P, int64_t Stride,
                                                int64_t N) {
  using acc_t = opmath_type<T>;
  acc_t Best = static_cast<acc_t>(detail::load<T>(P));
  int64_t Index = 0;
  if (isNan(Best))
    return {Best, 0};
  for (int64_t I = 1; I < N; ++I) {
    acc_t V = static_cast<acc_t>(detail::load<T>(P + I * Stride));
    if (!replaces<IsMax>(V, Best))
      continue;
    Best = V;
    Index = I;
    if (isNan(V))
      break;
  }
  return {Best, Index};
}

/// A TensorIterator over every position of \p Self but along \p Dim (where
/// it has size 1), with \p Outputs first: views of \p Self's rank that are
/// broadcast along \p Dim. \p Self must outlive the iterator.
TensorIterator makeDimIterator(ArrayRef<Tensor> Outputs, const Tensor &Self,
                               int64_t Dim) {
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .resize_outputs(false);
  // Owned: Outputs may be a braced list that dies before the iterator.
  for (const Tensor &Out : Outputs)
    Config.add_owned_output(Out);
  Config.add_borrowed_input(Self).declare_static_shape(Self.sizes(), {Dim});
  return Config.build();
}

/// \p Result, a reduction of \p Self over \p Dim, viewed with Self's rank.
Tensor viewWithSelfRank(const Tensor &Result, const Tensor &Self, int64_t Dim,
                        bool Keepdim) {
  DimMask Mask;
  Mask[Dim] = true;
  return review_reduce_result(Result, Self.dim(), Mask, Keepdim);
}

/// The grain of a loop over positions that each walk \p DimSize elements.
int64_t grainFor(int64_t DimSize) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, DimSize));
}

/// max.dim (\p IsMax) and min.dim into \p Values and \p Indices.
template <bool IsMax>
void extremumAlongDim(const Tensor &Self, int64_t Dim, bool Keepdim,
                      const Tensor &Values, const Tensor &Indices) {
  if (Self.numel() == 0)
    return;
  // A 0-dim self is a 1-element vector here; its results have 0 dims.
  Tensor In = Self.dim() == 0 ? Self.reshape({1}) : Self;
  bool KeepdimView = Keepdim && Self.dim() > 0;
  Tensor ValuesView = viewWithSelfRank(Values, In, Dim, KeepdimView);
  Tensor IndicesView = viewWithSelfRank(Indices, In, Dim, KeepdimView);
  TensorIterator Iter = makeDimIterator({ValuesView, IndicesView}, In, Dim);
  const int64_t DimSize = In.size(Dim);
  const int64_t DimStride = In.stride(Dim) * In.element_size();
  visitScalarType(In.scalar_type(), [&](auto Tag) {
    using scalar_t = decltype(Tag);
    Iter.for_each(
        [&](char **Data, const int64_t *Strides, int64_t N) {
          for (int64_t I = 0; I < N; ++I) {
            auto [Best, Index] = findExtremum<IsMax, scalar_t>(
                Data[2] + I * Strides[2], DimStride, DimSize);
            detail::store(Data[0] + I * Strides[0],
                          static_cast<scalar_t>(Best));
            detail::store(Data[1] + I * Strides[1], Index);
          }
        },
        grainFor(DimSize));
  });
}

/// argmax (\p IsMax) or argmin over all of \p Self, as a flat index.
template <bool IsMax, typename T> int64_t argExtremumAll(const Tensor &Self) {
  using acc_t = opmath_type<T>;
  // reshape gives a view where it can, whose one stride need not be 1.
  Tensor Flat = Self.reshape({-1});
  const char *P = static_cast<const char *>(Flat.data_ptr());
  const int64_t N = Flat.numel();
  const int64_t Stride = Flat.stride(0) * Flat.element_size();
  constexpr int64_t kChunk = int64_t(1) << 16;
  const int64_t NumChunks = (N + kChunk - 1) / kChunk;
  std::vector<std::pair<acc_t, int64_t>> Partials(
      static_cast<size_t>(NumChunks));
  parallel_for(0, NumChunks, 1, [&](int64_t Begin, int64_t End) {
    for (int64_t C = Begin; C < End; ++C) {
      int64_t First = C * kChunk;
      auto [Best, Index] = findExtremum<IsMax, T>(P + First * Stride, Stride,
                                                  std::min(kChunk, N - First));
      Partials[C] = {Best, First + Index};
    }
  });
  // In chunk order: a later chunk wins only by replacing, and nothing
  // replaces a NaN.
  auto [Best, Index] = Partials[0];
  for (int64_t C = 1; C < NumChunks && !isNan(Best); ++C)
    if (replaces<IsMax>(Partials[C].first, Best))
      std::tie(Best, Index) = Partials[C];
  return Index;
}

/// argmax (\p IsMax) and argmin into \p Result.
template <bool IsMax>
void argExtremum(const Tensor &Self, std::optional<int64_t> Dim, bool Keepdim,
                 const Tensor &Result) {
  if (!Dim) {
    // One output element (any number of dims of size 1).
    int64_t Index = visitScalarType(Self.scalar_type(), [&](auto Tag) {
      return argExtremumAll<IsMax, decltype(Tag)>(Self);
    });
    *static_cast<int64_t *>(Result.data_ptr()) = Index;
    return;
  }
  if (Self.numel() == 0)
    return;
  int64_t D = maybeWrapDim(*Dim, Self.dim());
  if (Self.dim() == 0 || Self.size(D) == 1) {
    Result.zero_();
    return;
  }
  Tensor Indices = viewWithSelfRank(Result, Self, D, Keepdim);
  TensorIterator Iter = makeDimIterator({Indices}, Self, D);
  const int64_t DimSize = Self.size(D);
  const int64_t DimStride = Self.stride(D) * Self.element_size();
  visitScalarType(Self.scalar_type(), [&](auto Tag) {
    using scalar_t = decltype(Tag);
    Iter.for_each(
        [&](char **Data, const int64_t *Strides, int64_t N) {
          for (int64_t I = 0; I < N; ++I)
            detail::store(Data[0] + I * Strides[0],
                          findExtremum<IsMax, scalar_t>(
                              Data[1] + I * Strides[1], DimStride, DimSize)
                              .second);
        },
        grainFor(DimSize));
  });
}

/// The checks of argmax() and argmin() (check_argmax_argmin): a reduced
/// dimension must have elements.
void checkArgExtremum(const char *Name, const Tensor &Self,
                      std::optional<int64_t> Dim) {
  // PyTorch's CPU kernels have no bool case; say so on every backend.
  SK_CHECK(Self.scalar_type() != kBool, Name,
           ": expected a numeric input, but got ", Self.scalar_type());
  if (!Dim) {
    SK_CHECK_INDEX(Self.numel() != 0, Name,
                   ": Expected reduction dim to be specified for "
                   "input.numel() == 0.");
    return;
  }
  int64_t D = maybeWrapDim(*Dim, Self.dim());
  if (Self.dim() > 0)
    SK_CHECK_INDEX(Self.size(D) != 0, Name, ": Expected reduction dim ", D,
                   " to have non-zero size.");
}

/// The checks of max.dim and min.dim: the reduced dimension must have
/// elements. Returns the wrapped dim.
int64_t checkExtremumDim(const char *Name, const Tensor &Self, int64_t Dim) {
  int64_t Wrapped = maybeWrapDim(Dim, Self.dim());
  if (Self.dim() > 0)
    SK_CHECK_INDEX(Self.size(Wrapped) != 0, Name, ": Expected reduction dim ",
                   Wrapped, " to have non-zero size.");
  return Wrapped;
}

} // namespace

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

SK_META_FUNC(argmax)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim) {
  checkArgExtremum("argmax()", self, dim);
  IntArrayRef Dims = dim ? IntArrayRef(*dim) : IntArrayRef();
  set_output_raw_strided(0, reduction_shape(self.sizes(), Dims, keepdim), {},
                         self.options().dtype(kLong));
}

SK_IMPL_FUNC(argmax_out)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim,
 const Tensor &out) {
  argExtremum</*IsMax=*/true>(self, dim, keepdim, out);
}

SK_META_FUNC(argmin)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim) {
  checkArgExtremum("argmin()", self, dim);
  IntArrayRef Dims = dim ? IntArrayRef(*dim) : IntArrayRef();
  set_output_raw_strided(0, reduction_shape(self.sizes(), Dims, keepdim), {},
                         self.options().dtype(kLong));
}

SK_IMPL_FUNC(argmin_out)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim,
 const Tensor &out) {
  argExtremum</*IsMax=*/false>(self, dim, keepdim, out);
}

//===----------------------------------------------------------------------===//
// max.dim, min.dim
//===----------------------------------------------------------------------===//

SK_PRECOMPUTE_META_FUNC(max, dim)
(const Tensor &self, int64_t dim, bool keepdim) {
  int64_t Wrapped = checkExtremumDim("max()", self, dim);
  DimVector Shape = reduction_shape(self.sizes(), {Wrapped}, keepdim);
  set_output_raw_strided(0, Shape, {}, self.options());
  set_output_raw_strided(1, Shape, {}, self.options().dtype(kLong));
  return SK_PRECOMPUTE_STRUCT(max, dim)().set_dim(Wrapped);
}

SK_IMPL_FUNC(max_out)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &max,
 const Tensor &max_values) {
  extremumAlongDim</*IsMax=*/true>(self, dim, keepdim, max, max_values);
}

SK_PRECOMPUTE_META_FUNC(min, dim)
(const Tensor &self, int64_t dim, bool keepdim) {
  int64_t Wrapped = checkExtremumDim("min()", self, dim);
  DimVector Shape = reduction_shape(self.sizes(), {Wrapped}, keepdim);
  set_output_raw_strided(0, Shape, {}, self.options());
  set_output_raw_strided(1, Shape, {}, self.options().dtype(kLong));
  return SK_PRECOMPUTE_STRUCT(min, dim)().set_dim(Wrapped);
}

SK_IMPL_FUNC(min_out)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &min,
 const Tensor &min_indices) {
  extremumAlongDim</*IsMax=*/false>(self, dim, keepdim, min, min_indices);
}

} // namespace sk
