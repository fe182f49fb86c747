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
/// beat every number (the first NaN wins), as the CPU kernels do. Each
/// segment takes a block (argSegmentsKernel), or where segments are few,
/// each of its chunks does and a second kernel combines theirs
/// (argPartialsKernel); columns enough to fill the GPU take a thread each
/// (argColumnsKernel).
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "AlignedVector.h"
#include "DeviceUtils.cuh"
#include "Reduce.cuh"

#include <cuda/std/limits>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace sk {
namespace {

using DimMask = TensorIteratorBase::DimMask;

/// A value and its index along the reduced dims.
template <typename T, typename Index_t> struct ArgPair {
  T Value;
  Index_t Index;
};

template <typename T> __device__ inline bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return isnan(X);
  else
    return false;
}

/// The better of two pairs: NaN first, then the extremum, then the lower
/// index. Associative and commutative: the block reductions and the merge
/// of chunks combine pairs in any order.
template <bool IsMax> struct ArgCombine {
  template <typename T, typename Index_t>
  __device__ ArgPair<T, Index_t>
  operator()(const ArgPair<T, Index_t> &A, const ArgPair<T, Index_t> &B) const {
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

/// Whether \p X beats \p Best, the best value a thread has seen so far at
/// a lower index: a greater (IsMax) or smaller number, or the first NaN.
/// Equal values do not, so the first extremum stays.
template <bool IsMax, typename T> __device__ inline bool beats(T X, T Best) {
  return (IsMax ? X > Best : X < Best) || (isNan(X) && !isNan(Best));
}

/// The vectors each thread of argSegmentsKernel loads before it compares
/// any.
constexpr int kArgLoads = 4;

/// Elements of T in one access of argSegmentsKernel: 16 bytes, or 4
/// elements of a narrower type.
template <typename T>
constexpr int kArgVecSize = sizeof(T) >= 4 ? 16 / sizeof(T) : 4;

/// The contiguous segments of \p Length values at \p In, each split into
/// \p Chunks chunks of \p ChunkLength values (the last may be shorter):
/// block w reads chunk w % Chunks of segment s = w / Chunks and finds its
/// first extremum (NaN first). With one chunk a segment, its value goes
/// into Values[s] (unless Values is null) and its index in the segment
/// into Indices[s]; with more, the chunk's pair, its index made relative to
/// the segment, into Partials[w] for argPartialsKernel. Values are compared
/// as acc_t (float for float16 and bfloat16, read in place). A chunk is
/// read as a head of single values up to the first address aligned for a
/// vector of \p VecSize, the vectors from there, and a tail of single
/// values after the last whole vector. Thread t reads head value t, then
/// vectors t, t + blockDim.x, ..., kArgLoads at a time, then tail value t,
/// and keeps the first value that beats the ones before it (`beats`): its
/// indices only grow, so a comparison and two selects per value find its
/// first extremum, without comparing indices. The block then combines the
/// threads' pairs with ArgCombine. blockDim.x is at least VecSize; Index_t
/// holds Length plus a block's round of loads.
template <bool IsMax, int VecSize, typename Index_t, typename T, typename acc_t>
__global__ void argSegmentsKernel(const T *In, int64_t Segments, Index_t Length,
                                  Index_t ChunkLength, int Chunks, acc_t Worst,
                                  T *Values, int64_t *Indices,
                                  ArgPair<acc_t, Index_t> *Partials) {
  using Pair = ArgPair<acc_t, Index_t>;
  using Vector = cuda::AlignedVector<T, VecSize>;
  constexpr Index_t kNone = ::cuda::std::numeric_limits<Index_t>::max();
  __shared__ Pair Shared[32];
  // Worst is an extremum of T's range (an infinity or a limit), exact in T.
  const T WorstT = static_cast<T>(Worst);
  const Index_t Step = Index_t(blockDim.x) * kArgLoads;
  const Index_t Thread = Index_t(threadIdx.x);
  const int64_t Work = Segments * Chunks;
  for (int64_t W = blockIdx.x; W < Work; W += gridDim.x) {
    const int64_t S = Chunks == 1 ? W : W / Chunks;
    const Index_t Begin = Index_t(W - S * Chunks) * ChunkLength;
    const Index_t Count =
        Length - Begin < ChunkLength ? Length - Begin : ChunkLength;
    const T *Base = In + S * int64_t(Length) + Begin;
    // Elements are aligned to their size, so a vector's alignment is a
    // count of elements.
    Index_t Head = 0;
    if constexpr (VecSize > 1) {
      auto Misalignment =
          Index_t(reinterpret_cast<uintptr_t>(Base) / sizeof(T) % VecSize);
      Head = Misalignment == 0 ? 0 : VecSize - Misalignment;
      Head = Head < Count ? Head : Count;
    }
    const Index_t Vectors = (Count - Head) / VecSize;
    const Index_t TailStart = Head + Vectors * VecSize;
    const auto *Segment = reinterpret_cast<const Vector *>(Base + Head);
    // A value no greater (IsMax) than Worst never beats it: the vectors
    // past the end load Worst, and a thread whose values all equal Worst
    // takes its first index below.
    Pair Best{Worst, kNone};
    auto Consider = [&](acc_t X, Index_t Index) {
      if (beats<IsMax>(X, Best.Value)) {
        Best.Value = X;
        Best.Index = Index;
      }
    };
    if (Thread < Head)
      Consider(static_cast<acc_t>(Base[Thread]), Thread);
    for (Index_t V0 = Thread; V0 < Vectors; V0 += Step) {
      Vector Loaded[kArgLoads];
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K) {
        Index_t V = V0 + Index_t(K) * Index_t(blockDim.x);
        if (V < Vectors) {
          Loaded[K] = Segment[V];
        } else {
#pragma unroll
          for (int J = 0; J < VecSize; ++J)
            Loaded[K].V[J] = WorstT;
        }
      }
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K) {
        Index_t First =
            Head + (V0 + Index_t(K) * Index_t(blockDim.x)) * VecSize;
#pragma unroll
        for (int J = 0; J < VecSize; ++J)
          Consider(static_cast<acc_t>(Loaded[K].V[J]), First + J);
      }
    }
    if (Thread < Count - TailStart)
      Consider(static_cast<acc_t>(Base[TailStart + Thread]),
               TailStart + Thread);
    if (Best.Index == kNone) {
      if (Thread < Head)
        Best.Index = Thread;
      else if (Thread < Vectors)
        Best.Index = Head + Thread * VecSize;
      else if (Thread < Count - TailStart)
        Best.Index = TailStart + Thread;
    }
    Best = cuda_kernels::blockReduce(
        Best, Shared,
        [](Pair P, int Offset) {
          cuda_kernels::ShuffleDownWarp Shuffle;
          return Pair{Shuffle(P.Value, Offset), Shuffle(P.Index, Offset)};
        },
        ArgCombine<IsMax>(),
        [&] {
          return Pair{Worst, kNone};
        });
    // Every chunk holds a value, so some thread's index is not kNone, and
    // it beats kNone's pair (equal values: the lower index).
    if (threadIdx.x == 0) {
      if (Partials) {
        Partials[W] = Pair{Best.Value, Begin + Best.Index};
      } else {
        if (Values)
          Values[S] = static_cast<T>(Best.Value);
        Indices[S] = Best.Index;
      }
    }
  }
}

/// Segment s's first extremum from the pairs of its \p Chunks chunks,
/// Partials[s * Chunks + k], a block a segment: its value into Values[s]
/// (unless Values is null) and its index into Indices[s].
template <bool IsMax, typename Index_t, typename T, typename acc_t>
__global__ void argPartialsKernel(const ArgPair<acc_t, Index_t> *Partials,
                                  int64_t Segments, int Chunks, T *Values,
                                  int64_t *Indices) {
  using Pair = ArgPair<acc_t, Index_t>;
  __shared__ Pair Shared[32];
  for (int64_t S = blockIdx.x; S < Segments; S += gridDim.x) {
    const Pair *Segment = Partials + S * Chunks;
    // Combining a pair with itself gives it back: chunk 0 stands in for
    // the threads and warps without a chunk.
    Pair Best = Segment[0];
    for (int K = threadIdx.x; K < Chunks; K += blockDim.x)
      Best = ArgCombine<IsMax>()(Best, Segment[K]);
    Best = cuda_kernels::blockReduce(
        Best, Shared,
        [](Pair P, int Offset) {
          cuda_kernels::ShuffleDownWarp Shuffle;
          return Pair{Shuffle(P.Value, Offset), Shuffle(P.Index, Offset)};
        },
        ArgCombine<IsMax>(), [&] { return Segment[0]; });
    if (threadIdx.x == 0) {
      if (Values)
        Values[S] = static_cast<T>(Best.Value);
      Indices[S] = Best.Index;
    }
  }
}

/// Segments are split into chunks where there are few of them: up to
/// about kArgBlocks blocks in all, none but a segment's last reading fewer
/// than kMinArgChunk values (a round of loads of 512 threads in vectors of
/// 4 values). A single row of 50257 (a batch of one's choice over a
/// vocabulary) takes 6 blocks; from about 8M values, a row takes the whole
/// GPU.
constexpr int64_t kArgBlocks = 1024;
constexpr int64_t kMinArgChunk = 512 * kArgLoads * 4;

/// Launches argSegmentsKernel over \p In's segments, in vectors, with
/// 32-bit indices where the length allows, and argPartialsKernel after it
/// where the segments are split into chunks.
template <bool IsMax, typename T, typename acc_t>
void launchArgSegments(const cuda::ReductionInput &In, acc_t Worst, T *Values,
                       int64_t *Indices) {
  constexpr int Vec = kArgVecSize<T>;
  const auto *Data = static_cast<const T *>(In.Data.data_ptr());
  const int64_t Length = In.SegmentLength;
  cudaStream_t Stream = cuda::getCurrentCUDAStream();
  auto Launch = [&](auto VecSize, auto IndexTag) {
    using Index_t = decltype(IndexTag);
    using Pair = ArgPair<acc_t, Index_t>;
    // Chunks hold whole vectors, so that each starts as aligned as its
    // segment does.
    int64_t Chunks = std::clamp<int64_t>(
        std::min((kArgBlocks + In.Segments - 1) / In.Segments,
                 Length / kMinArgChunk),
        1, kArgBlocks);
    int64_t ChunkLength = (Length + Chunks - 1) / Chunks;
    ChunkLength = (ChunkLength + VecSize - 1) / VecSize * VecSize;
    Chunks = (Length + ChunkLength - 1) / ChunkLength;
    DataPtr Partials;
    if (Chunks > 1)
      Partials = cuda::CUDACachingAllocator::allocateTempStorage(
          static_cast<size_t>(In.Segments * Chunks) * sizeof(Pair));
    auto *PartialsPtr = static_cast<Pair *>(Partials.get());
    int Threads = cuda_kernels::reduceThreads(
        (ChunkLength + VecSize * kArgLoads - 1) / (VecSize * kArgLoads));
    argSegmentsKernel<IsMax, VecSize, Index_t>
        <<<cuda_kernels::blocksFor(In.Segments * Chunks, 1), Threads, 0,
           Stream>>>(Data, In.Segments, Index_t(Length), Index_t(ChunkLength),
                     static_cast<int>(Chunks), Worst, Values, Indices,
                     PartialsPtr);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    if (Chunks > 1) {
      argPartialsKernel<IsMax>
          <<<cuda_kernels::blocksFor(In.Segments, 1),
             cuda_kernels::reduceThreads(Chunks), 0, Stream>>>(
              PartialsPtr, In.Segments, static_cast<int>(Chunks), Values,
              Indices);
      SK_CUDA_KERNEL_LAUNCH_CHECK();
    }
  };
  // A block's loop may step one round of loads past the end.
  bool Fits32 = Length + 512 * Vec * kArgLoads <=
                ::cuda::std::numeric_limits<int32_t>::max();
  if (Fits32)
    Launch(std::integral_constant<int, Vec>(), int32_t());
  else
    Launch(std::integral_constant<int, 1>(), int64_t());
}

/// When argColumnsKernel, one thread a column, is used: from
/// kMinArgColumns columns if a column has at most kMaxArgColumnRows rows,
/// and for any rows from kFullArgColumns columns, about the threads an
/// H100 or H200 holds at once. With fewer columns most of the GPU idles
/// and each thread's rows come one round of loads after another; the
/// transposed copy and a block per segment keep it busy.
constexpr int64_t kMinArgColumns = 32768;
constexpr int64_t kMaxArgColumnRows = 64;
constexpr int64_t kFullArgColumns = 262144;
// Layouts of narrow rows after kept dims, which getColumnLayout gives only
// for narrowColumnsKernel, stay with the copy.
static_assert(cuda::kNarrowBlocks * 31 < kMinArgColumns);

/// One thread per column j = (o, c) of the row-major [Columns / Inner,
/// Rows, Inner] \p In (Note [Column reductions on CUDA]): the first
/// extremum (NaN first) of its Rows values, o * Rows * Inner + r * Inner
/// + c, into Values[j] (unless Values is null) and its r into Indices[j].
/// A warp reads 32 adjacent columns of a row; each thread loads kArgLoads
/// rows before it compares them, its rows only growing, as
/// argSegmentsKernel's indices do.
template <bool IsMax, typename T, typename acc_t>
__global__ void argColumnsKernel(const T *In, int64_t Rows, int64_t Columns,
                                 int64_t Inner, acc_t Worst, T *Values,
                                 int64_t *Indices) {
  const T WorstT = static_cast<T>(Worst);
  for (int64_t Column = cuda_kernels::globalIndex(); Column < Columns;
       Column += cuda_kernels::gridStride()) {
    // Column (o, c) = o * Inner + c starts at o * Rows * Inner + c.
    int64_t O = Inner == Columns ? 0 : Column / Inner;
    const T *Base = In + O * (Rows - 1) * Inner + Column;
    acc_t Best = Worst;
    int64_t BestRow = -1;
    for (int64_t R0 = 0; R0 < Rows; R0 += kArgLoads) {
      T Loaded[kArgLoads];
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K)
        Loaded[K] = R0 + K < Rows ? Base[(R0 + K) * Inner] : WorstT;
#pragma unroll
      for (int K = 0; K < kArgLoads; ++K) {
        acc_t X = static_cast<acc_t>(Loaded[K]);
        if (beats<IsMax>(X, Best)) {
          Best = X;
          BestRow = R0 + K;
        }
      }
    }
    // No value beat Worst: each equals it, and the first is the extremum.
    if (Values)
      Values[Column] = static_cast<T>(Best);
    Indices[Column] = BestRow < 0 ? 0 : BestRow;
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
      acc_t Worst;
      if constexpr (std::is_floating_point_v<acc_t>)
        Worst = IsMax ? -Limits::infinity() : Limits::infinity();
      else
        Worst = IsMax ? Limits::lowest() : Limits::max();
      // The kernels below write N results straight into the outputs
      // where they are laid out as the results are (contiguous, and not
      // the memory they read), else into temporaries copied over after.
      auto WithOutputs = [&](int64_t N, const Tensor &Read, auto Launch) {
        auto Writable = [&](const Tensor &Out) {
          return Out.is_contiguous() && !Out.is_alias_of(Read);
        };
        bool Direct =
            Writable(Indices) && (!Values.defined() || Writable(Values));
        Tensor Idx = Direct ? Indices : empty({N}, Indices.options());
        Tensor Vals;
        if (Values.defined())
          Vals = Direct ? Values : empty({N}, Values.options());
        Launch(Vals.defined() ? static_cast<T *>(Vals.data_ptr()) : nullptr,
               static_cast<int64_t *>(Idx.data_ptr()));
        if (!Direct) {
          Indices.copy_(Idx.view(Indices.sizes()));
          if (Values.defined())
            Values.copy_(Vals.view(Values.sizes()));
        }
      };
      // Reduced dims between kept ones, with columns enough to fill the
      // GPU (an argmax over the classes of [N, C, H, W]): one thread a
      // column, read in place.
      std::optional<cuda::ColumnLayout> Columns =
          cuda::getColumnLayout(Self, Mask);
      int64_t AllColumns = Columns ? Columns->Outer * Columns->Columns : 0;
      if (AllColumns >= kFullArgColumns ||
          (AllColumns >= kMinArgColumns &&
           Columns->Rows <= kMaxArgColumnRows)) {
        WithOutputs(AllColumns, Self, [&](T *Vals, int64_t *Idx) {
          argColumnsKernel<IsMax>
              <<<cuda_kernels::blocksFor(AllColumns), cuda_kernels::kThreads, 0,
                 cuda::getCurrentCUDAStream()>>>(
                  static_cast<const T *>(Self.data_ptr()), Columns->Rows,
                  AllColumns, Columns->Columns, Worst, Vals, Idx);
          SK_CUDA_KERNEL_LAUNCH_CHECK();
        });
        return;
      }
      // Otherwise laid out with the reduced dims contiguous and last, read
      // in place where they already are, in Self's dtype; float16 and
      // bfloat16 compare as float32.
      cuda::ReductionInput In =
          cuda::makeReductionInput<T>(Self, Mask, Self.scalar_type());
      SK_INTERNAL_ASSERT(In.SegmentLength > 0,
                         "the meta function rejects reductions over no values");
      WithOutputs(In.Segments, In.Data, [&](T *Vals, int64_t *Idx) {
        launchArgSegments<IsMax>(In, Worst, Vals, Idx);
      });
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
