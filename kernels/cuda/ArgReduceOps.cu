//===--- ArgReduceOps.cu - argmax, argmin, max.dim, min.dim on CUDA -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the groups of cpu/ArgReduceOps.cpp, whose meta
/// functions they share: a reduction of (value, index) pairs (Note [CUDA
/// reductions] in Reduce.cuh) that picks the first extremum and lets a NaN
/// beat every number (the first NaN wins), as the CPU kernels do. Several
/// segments take one block each (argSegmentsKernel); one segment, CUB's
/// reduction over the whole GPU.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
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

/// The values each thread of argSegmentsKernel loads before it combines
/// any.
constexpr int kArgLoads = 4;

/// One block per contiguous segment of \p Length values at \p In: the
/// segment's best pair (ArgCombine), its value into Values[s] (as Out_t,
/// unless Values is null) and its index in the segment into Indices[s].
/// Thread t combines the values t, t + blockDim.x, ..., kArgLoads loaded
/// at a time; the block then combines the threads' pairs. One kernel for
/// what CUB's segmented reduction of pairs and a second kernel to split
/// them did, with the loads batched, where CUB read each value through an
/// iterator.
template <bool IsMax, typename acc_t, typename Out_t>
__global__ void argSegmentsKernel(const acc_t *In, int64_t Segments,
                                  int64_t Length, acc_t Worst, Out_t *Values,
                                  int64_t *Indices) {
  __shared__ ArgPair<acc_t> Shared[32];
  ArgCombine<IsMax> Combine;
  const ArgPair<acc_t> Empty{Worst, INT64_MAX};
  for (int64_t S = blockIdx.x; S < Segments; S += gridDim.x) {
    const acc_t *Segment = In + S * Length;
    ArgPair<acc_t> Best = Empty;
    for (int64_t I0 = threadIdx.x; I0 < Length;
         I0 += int64_t(blockDim.x) * kArgLoads) {
      acc_t V[kArgLoads];
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K) {
        int64_t I = I0 + int64_t(K) * blockDim.x;
        V[K] = I < Length ? Segment[I] : Worst;
      }
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K) {
        int64_t I = I0 + int64_t(K) * blockDim.x;
        if (I < Length)
          Best = Combine(Best, ArgPair<acc_t>{V[K], I});
      }
    }
    Best = cuda_kernels::blockReduce(
        Best, Shared,
        [](ArgPair<acc_t> P, int Offset) {
          cuda_kernels::ShuffleDownWarp Shuffle;
          return ArgPair<acc_t>{Shuffle(P.Value, Offset),
                                Shuffle(P.Index, Offset)};
        },
        Combine, [&] { return Empty; });
    if (threadIdx.x == 0) {
      if (Values)
        Values[S] = static_cast<Out_t>(Best.Value);
      Indices[S] = Best.Index;
    }
  }
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
      using T = decltype(Tag);
      using Limits = ::cuda::std::numeric_limits<acc_t>;
      ScalarType AccDtype = scalarTypeOf<acc_t>();
      cuda::ReductionInput In =
          cuda::makeReductionInput<acc_t>(Self, Mask, AccDtype);
      acc_t Worst;
      if constexpr (std::is_floating_point_v<acc_t>)
        Worst = IsMax ? -Limits::infinity() : Limits::infinity();
      else
        Worst = IsMax ? Limits::lowest() : Limits::max();
      // Several segments: one block each, writing straight into the
      // outputs where they are laid out as the segments are (contiguous);
      // one segment takes CUB's reduction over the whole GPU.
      if (In.Segments > 1 && In.SegmentLength > 0) {
        auto Writable = [&](const Tensor &Out) {
          return Out.is_contiguous() && !Out.is_alias_of(In.Data);
        };
        bool Direct =
            Writable(Indices) && (!Values.defined() || Writable(Values));
        Tensor Idx = Direct ? Indices : empty({In.Segments}, Indices.options());
        Tensor Vals;
        if (Values.defined())
          Vals = Direct ? Values : empty({In.Segments}, Values.options());
        argSegmentsKernel<IsMax>
            <<<cuda_kernels::blocksFor(In.Segments, 1),
               cuda_kernels::reduceThreads(In.SegmentLength), 0,
               cuda::getCurrentCUDAStream()>>>(
                static_cast<const acc_t *>(In.Data.data_ptr()), In.Segments,
                In.SegmentLength, Worst,
                Vals.defined() ? static_cast<T *>(Vals.data_ptr()) : nullptr,
                static_cast<int64_t *>(Idx.data_ptr()));
        SK_CUDA_KERNEL_LAUNCH_CHECK();
        if (!Direct) {
          Indices.copy_(Idx.view(Indices.sizes()));
          if (Values.defined())
            Values.copy_(Vals.view(Values.sizes()));
        }
        return;
      }
      DataPtr Pairs = cuda::CUDACachingAllocator::allocateTempStorage(
          static_cast<size_t>(In.Segments) * sizeof(ArgPair<acc_t>));
      auto *PairsPtr = static_cast<ArgPair<acc_t> *>(Pairs.get());
      auto Input = thrust::make_transform_iterator(
          thrust::make_counting_iterator<int64_t>(0),
          MakePair<acc_t>{static_cast<const acc_t *>(In.Data.data_ptr())});
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
