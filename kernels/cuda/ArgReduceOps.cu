//===--- ArgReduceOps.cu - argmax, argmin, max.dim, min.dim on CUDA -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the groups of cpu/ArgReduceOps.cpp, whose meta
/// functions they share: a CUB reduction of (value, index) pairs (Note
/// [CUDA reductions] in Reduce.cuh) that picks the first extremum and lets
/// a NaN beat every number (the first NaN wins), as the CPU kernels do.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "Reduce.cuh"

#include <cuda/std/limits>

#include <cstdint>
#include <optional>
#include <type_traits>

namespace sk {
namespace {

using DimMask = TensorIteratorBase::DimMask;

/// A value and its index along the reduced dims.
template <typename T> struct ArgPair {
  T Value;
  int64_t Index;
};

template <typename T> __device__ inline bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return isnan(X);
  else
    return false;
}

/// The element at a linear index of the laid-out input, with that index.
/// Within a segment the linear index orders elements as the index in the
/// segment does, so the reduction compares these and splitPairs subtracts
/// the segment's start: a 64-bit `I % Length` per element is a long
/// sequence of instructions on a GPU.
template <typename T> struct MakePair {
  const T *Data;
  __host__ __device__ ArgPair<T> operator()(int64_t I) const {
    return {Data[I], I};
  }
};

/// The better of two pairs: NaN first, then the extremum, then the lower
/// index. Associative and commutative, as CUB needs.
template <bool IsMax> struct ArgCombine {
  template <typename T>
  __device__ ArgPair<T> operator()(const ArgPair<T> &A,
                                   const ArgPair<T> &B) const {
    bool NanA = isNan(A.Value), NanB = isNan(B.Value);
    if (NanA || NanB) {
      if (NanA && NanB)
        return A.Index < B.Index ? A : B;
      return NanA ? A : B;
    }
    if (A.Value == B.Value)
      return A.Index < B.Index ? A : B;
    return (IsMax ? A.Value > B.Value : A.Value < B.Value) ? A : B;
  }
};

/// Values[s] and Indices[s] from segment s's pair, its index made relative
/// to the segment's start, s * \p Length.
template <typename T>
__global__ void splitPairs(const ArgPair<T> *Pairs, int64_t N, int64_t Length,
                           T *Values, int64_t *Indices) {
  int64_t I = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  if (Values)
    Values[I] = Pairs[I].Value;
  Indices[I] = Pairs[I].Index - I * Length;
}

/// The first extremum of \p Self over \p Mask: its value into \p Values
/// (when defined) and its index into \p Indices.
template <bool IsMax>
void argExtremum(const Tensor &Self, const DimMask &Mask, const Tensor &Values,
                 const Tensor &Indices) {
  if (Indices.numel() == 0)
    return;
  visitScalarType(Self.scalar_type(), [&](auto Tag) {
    using acc_t = opmath_type<decltype(Tag)>;
    {
      using Limits = ::cuda::std::numeric_limits<acc_t>;
      ScalarType AccDtype = scalarTypeOf<acc_t>();
      cuda::ReductionInput In =
          cuda::makeReductionInput<acc_t>(Self, Mask, AccDtype);
      DataPtr Pairs = cuda::CUDACachingAllocator::allocateTempStorage(
          static_cast<size_t>(In.Segments) * sizeof(ArgPair<acc_t>));
      auto *PairsPtr = static_cast<ArgPair<acc_t> *>(Pairs.get());
      auto Input = thrust::make_transform_iterator(
          thrust::make_counting_iterator<int64_t>(0),
          MakePair<acc_t>{static_cast<const acc_t *>(In.Data.data_ptr())});
      acc_t Worst;
      if constexpr (std::is_floating_point_v<acc_t>)
        Worst = IsMax ? -Limits::infinity() : Limits::infinity();
      else
        Worst = IsMax ? Limits::lowest() : Limits::max();
      cuda::cubReduce(Input, PairsPtr, In.Segments, In.SegmentLength,
                      ArgCombine<IsMax>{}, ArgPair<acc_t>{Worst, INT64_MAX});
      TensorOptions Options = Self.options();
      Tensor Idx = empty({In.Segments}, Options.dtype(kLong));
      Tensor Vals;
      if (Values.defined())
        Vals = empty({In.Segments}, Options.dtype(AccDtype));
      int64_t Blocks = cuda::blocksFor(In.Segments, cuda::kThreads, 1);
      splitPairs<<<static_cast<unsigned>(Blocks), cuda::kThreads, 0,
                   cuda::getCurrentCUDAStream()>>>(
          PairsPtr, In.Segments, In.SegmentLength,
          Vals.defined() ? static_cast<acc_t *>(Vals.data_ptr()) : nullptr,
          static_cast<int64_t *>(Idx.data_ptr()));
      SK_CUDA_KERNEL_LAUNCH_CHECK();
      cuda::copyInto<int64_t>(Indices, Idx.view(Indices.sizes()));
      if (Values.defined())
        cuda::copyInto<acc_t>(Values, Vals.view(Values.sizes()));
    }
  });
}

/// argmax (IsMax) and argmin: over every element (a flat index) or along
/// \p Dim.
template <bool IsMax>
void argExtremumOut(const Tensor &Self, std::optional<int64_t> Dim,
                    const Tensor &Out) {
  DimMask Mask;
  if (Dim) {
    if (Self.dim() > 0)
      Mask[maybeWrapDim(*Dim, Self.dim())] = true;
  } else {
    for (int64_t D = 0; D < Self.dim(); ++D)
      Mask[D] = true;
  }
  argExtremum<IsMax>(Self, Mask, Tensor(), Out);
}

/// max.dim (IsMax) and min.dim.
template <bool IsMax>
void extremumAlongDim(const Tensor &Self, int64_t Dim, const Tensor &Values,
                      const Tensor &Indices) {
  if (Self.numel() == 0)
    return;
  DimMask Mask;
  if (Self.dim() > 0)
    Mask[Dim] = true;
  argExtremum<IsMax>(Self, Mask, Values, Indices);
}

} // namespace

SK_IMPL_FUNC(argmax_out_cuda)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim,
 const Tensor &out) {
  argExtremumOut</*IsMax=*/true>(self, dim, out);
}

SK_IMPL_FUNC(argmin_out_cuda)
(const Tensor &self, std::optional<int64_t> dim, bool keepdim,
 const Tensor &out) {
  argExtremumOut</*IsMax=*/false>(self, dim, out);
}

SK_IMPL_FUNC(max_out_cuda)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &max,
 const Tensor &max_values) {
  extremumAlongDim</*IsMax=*/true>(self, dim, max, max_values);
}

SK_IMPL_FUNC(min_out_cuda)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &min,
 const Tensor &min_indices) {
  extremumAlongDim</*IsMax=*/false>(self, dim, min, min_indices);
}

} // namespace sk
