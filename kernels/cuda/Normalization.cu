//===--- Normalization.cu - layer_norm and batch_norm on CUDA -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of native_layer_norm and native_batch_norm (meta
/// functions in the CPU file), with the CPU's accumulation dtypes (float32
/// for the 16-bit dtypes).
///
/// layer_norm: one block per row of N = prod(normalized_shape) values, two
/// passes for the variance (the mean, then the centred sum of squares), as
/// on the CPU, over values read in vectors of 4 where the row allows and
/// held in registers for rows of up to 2 vectors (or 4 single values) a
/// thread.
///
/// batch_norm: the input in its suggested memory format is [N, C, S] with
/// channel stride S (row-major) or 1 (channels last); one block per
/// channel reduces its N * S values in one pass, each thread loading 4
/// vectors of 4 (planes of whole vectors) or 4 values before it merges
/// their mean and squared deviations into its state, and the block by
/// merging the threads' states, as PyTorch's
/// batch_norm_collect_statistics does with Welford's update a value (the
/// input is read once for the statistics, once for the output). Where
/// the channels are too few to fill the GPU so, blocks reduce chunks of a
/// channel and one block per channel merges their states. Channels last of 16
/// channels or more, where one thread a channel would read values C apart, is
/// read as a [N * S, C] matrix by blocks of adjacent channels over chunks of
/// rows, whose states are merged so too (PyTorch's
/// batch_norm_collect_statistics_channels_last). Element indices split
/// into (n, s) and channels with IntDivider (OffsetCalculator.h), in 32
/// bits where they fit: a GPU divides 64-bit integers in software. The
/// running statistics (updated with PyTorch's momentum rule, unbiased
/// variance) and the affine factors are small vectors in the accumulation
/// dtype, converted into the saved statistics and running buffers with
/// copy_ (they may be float32 beside a 16-bit input, or strided), as the
/// CPU kernel does. The output, x * alpha[c] + beta[c], is an elementwise
/// iteration over the input and the factors broadcast along the channel
/// dim, run by the launcher (Loops.cuh) as PyTorch's
/// batch_norm_elementwise runs it: in vectors where planes (or, channels
/// last, rows of channels) are whole vectors.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"
#include "shared/Normalization.h"

#include "AlignedVector.h"
#include "DeviceUtils.cuh"
#include "Loops.cuh"

#include <algorithm>
#include <type_traits>

namespace sk {
namespace {

using namespace cuda_kernels;
using cuda::IntDivider;

template <typename A> __device__ __forceinline__ A rsqrtAcc(A V) {
  return A(1) / sqrt(V);
}

//===--- layer_norm -------------------------------------------------------===//

/// Elements of a layer_norm row in one access, as in PyTorch's
/// vectorized_layer_norm_kernel.
constexpr int kLayerNormVecSize = 4;

/// One block per row: Y = (X - mean) * rstd * G + B, Mean and Rstd per
/// row (of the input's dtype, as the meta function sets them). Thread t
/// takes the row's vectors of \p VecSize elements t, t + blockDim.x, ...
/// (VecSize > 1: rows a multiple of it, every row and G, B aligned to a
/// vector). With \p PerThread > 0 (rows of at most PerThread * VecSize *
/// blockDim.x elements), it loads them once into registers, all before it
/// uses any; with 0, it reads them again in each pass. The sums are the
/// same either way, in the same order.
template <typename T, int VecSize, int PerThread>
__global__ void layerNormKernel(const T *X, const T *G, const T *B, T *Y,
                                T *Mean, T *Rstd, int64_t M, int64_t N,
                                double Eps) {
  using A = AccType<T>;
  using Vector = cuda::AlignedVector<T, VecSize>;
  using Values = A[VecSize];
  __shared__ A Shared[32];
  const int64_t Vectors = N / VecSize;
  auto Load = [](const Vector &V, Values &Out) {
#pragma unroll
    for (int J = 0; J < VecSize; ++J)
      Out[J] = toAcc(V.V[J]);
  };
  for (int64_t R = blockIdx.x; R < M; R += gridDim.x) {
    const auto *XRow = reinterpret_cast<const Vector *>(X + R * N);
    Values Held[PerThread > 0 ? PerThread : 1];
    if constexpr (PerThread > 0) {
#pragma unroll
      for (int K = 0; K < PerThread; ++K) {
        int64_t V = threadIdx.x + int64_t(K) * blockDim.x;
        if (V < Vectors)
          Load(XRow[V], Held[K]);
      }
    }
    // Calls F(V, Vals) for the thread's vectors V, in order, Vals their
    // elements as A.
    auto ForEach = [&](auto F) {
      if constexpr (PerThread > 0) {
#pragma unroll
        for (int K = 0; K < PerThread; ++K) {
          int64_t V = threadIdx.x + int64_t(K) * blockDim.x;
          if (V < Vectors)
            F(V, Held[K]);
        }
      } else {
        for (int64_t V = threadIdx.x; V < Vectors; V += blockDim.x) {
          Values Vals;
          Load(XRow[V], Vals);
          F(V, Vals);
        }
      }
    };
    // Calls F(X[R, I]) for each of the thread's elements, in order.
    auto ForEachValue = [&](auto F) {
      ForEach([&](int64_t, const Values &Vals) {
#pragma unroll
        for (int J = 0; J < VecSize; ++J)
          F(Vals[J]);
      });
    };
    A Sum = 0;
    ForEachValue([&](A V) { Sum += V; });
    Sum = blockReduceSum(Sum, Shared);
    // An empty row has no mean; 0 keeps rstd finite (1/sqrt(eps)).
    A RowMean = N == 0 ? A(0) : Sum / A(N);
    A Squares = 0;
    ForEachValue([&](A V) {
      A D = V - RowMean;
      Squares += D * D;
    });
    Squares = blockReduceSum(Squares, Shared);
    A Var = N == 0 ? A(0) : Squares / A(N);
    A RowRstd;
    // Every thread has the block's sums, so the branch is the block's.
    if (kernels::squaresOverflowed(Squares, RowMean)) {
      // Note [Variance that overflows] (shared/Normalization.h).
      A Scale = 0;
      ForEachValue([&](A V) { Scale = fmax(Scale, fabs(V - RowMean)); });
      Scale = blockReduceMax(Scale, Shared);
      A Scaled = 0;
      ForEachValue([&](A V) {
        A D = (V - RowMean) / Scale;
        Scaled += D * D;
      });
      Scaled = blockReduceSum(Scaled, Shared);
      RowRstd = kernels::rescaledInvstd(Scale, Scaled, N, Eps);
    } else {
      // A NaN variance stays NaN, as on the CPU.
      RowRstd = rsqrtAcc((Var < A(0) ? A(0) : Var) + A(Eps));
    }
    auto *YRow = reinterpret_cast<Vector *>(Y + R * N);
    ForEach([&](int64_t V, const Values &Vals) {
      Values Weight, Bias;
      if (G)
        Load(reinterpret_cast<const Vector *>(G)[V], Weight);
      if (B)
        Load(reinterpret_cast<const Vector *>(B)[V], Bias);
      Vector Out;
#pragma unroll
      for (int J = 0; J < VecSize; ++J) {
        A Normalized = (Vals[J] - RowMean) * RowRstd;
        if (G)
          Normalized *= Weight[J];
        if (B)
          Normalized += Bias[J];
        Out.V[J] = fromAcc<T>(Normalized);
      }
      YRow[V] = Out;
    });
    if (threadIdx.x == 0) {
      Mean[R] = fromAcc<T>(RowMean);
      Rstd[R] = fromAcc<T>(RowRstd);
    }
  }
}

//===--- batch_norm -------------------------------------------------------===//

/// The geometry of a batch_norm input in its memory format: element
/// (n, c, s) at n * StrideN + c * StrideC + s * StrideS.
struct ChannelGeometry {
  int64_t N, C, S;
  int64_t StrideN, StrideC, StrideS;
};

/// A mean and sum of squared deviations from it over Count values, updated
/// a few values at a time and merged (Chan et al.), as Welford's update
/// is one value at a time. An aggregate, so that it may live in shared
/// memory.
template <typename A> struct Welford {
  A Mean;
  A M2;
  int64_t Count;

  /// Adds the first \p Loaded rows of \p Values (the others are 0): their
  /// mean and squared deviations from it, then one merge. Two divisions
  /// for up to K * V values, where Welford's update takes one a value.
  template <int K, int V>
  __device__ void addAll(const A (&Values)[K][V], int Loaded) {
    const int64_t N = int64_t(Loaded) * V;
    // Each value scaled before the sum: a sum of large values would
    // overflow where their mean does not.
    const A Share = A(1) / A(N);
    A GroupMean = 0;
#pragma unroll
    for (int I = 0; I < K; ++I)
#pragma unroll
      for (int J = 0; J < V; ++J)
        GroupMean += I < Loaded ? Values[I][J] * Share : A(0);
    A GroupM2 = 0;
#pragma unroll
    for (int I = 0; I < K; ++I)
#pragma unroll
      for (int J = 0; J < V; ++J) {
        A D = Values[I][J] - GroupMean;
        GroupM2 += I < Loaded ? D * D : A(0);
      }
    merge(GroupMean, GroupM2, N);
  }
  __device__ void merge(A OtherMean, A OtherM2, int64_t OtherCount) {
    if (OtherCount == 0)
      return;
    // Into an empty state, the other one as it is, exactly.
    if (Count == 0) {
      Mean = OtherMean;
      M2 = OtherM2;
      Count = OtherCount;
      return;
    }
    int64_t Total = Count + OtherCount;
    A Delta = OtherMean - Mean;
    A Share = A(OtherCount) / A(Total);
    Mean += Delta * Share;
    // Count * Share, at least a half, first: a product then overflows
    // only where the result does (Delta squared alone would up to 2x
    // early and send the channel to the rescaled pass needlessly).
    M2 += OtherM2 + Delta * (Delta * (A(Count) * Share));
    Count = Total;
  }
};

/// The merge of every thread's \p W over the block (every thread gets it),
/// as blockReduceSum. \p Shared holds 32 states.
template <typename A>
__device__ Welford<A> blockReduceWelford(Welford<A> W, Welford<A> *Shared) {
  return blockReduce(
      W, Shared,
      [](Welford<A> V, int Offset) {
        ShuffleDownWarp Shuffle;
        return Welford<A>{Shuffle(V.Mean, Offset), Shuffle(V.M2, Offset),
                          Shuffle(V.Count, Offset)};
      },
      [](Welford<A> V, Welford<A> Other) {
        V.merge(Other.Mean, Other.M2, Other.Count);
        return V;
      },
      [] {
        return Welford<A>{A(0), A(0), 0};
      });
}

/// The vectors (or single values) a thread of the channel kernels loads
/// before it uses any.
constexpr int kChannelLoads = 4;
/// The elements of a vector of the channel kernels, where a channel's
/// planes are whole vectors.
constexpr int kChannelVecSize = 4;

/// Calls \p F(Values, Loaded) for the elements I = n * S + s of channel
/// \p Ch in [Begin, End) that fall to this thread, as VecSize-element
/// vectors: vector Begin / VecSize + threadIdx.x, then a block's stride
/// apart, kChannelLoads at a time, Values[k] the k-th as AccType<T>, the
/// first Loaded of them loaded and the others 0. \p Vectors divides by the
/// vectors of a plane, S / VecSize. With VecSize > 1, S, Begin and End are
/// multiples of it, X is aligned for it and StrideS is 1.
template <int VecSize, typename T, typename IndexT, typename Fn>
__device__ __forceinline__ void
forEachLoadInChannel(const T *X, const ChannelGeometry &G,
                     IntDivider<IndexT> Vectors, int64_t Ch, IndexT Begin,
                     IndexT End, Fn F) {
  using A = AccType<T>;
  using Vector = cuda::AlignedVector<T, VecSize>;
  const T *Base = X + Ch * G.StrideC;
  const IndexT First = Begin / VecSize, Last = End / VecSize;
  const IndexT Stride = IndexT(blockDim.x);
  for (IndexT I0 = First + IndexT(threadIdx.x); I0 < Last;
       I0 += Stride * kChannelLoads) {
    A Values[kChannelLoads][VecSize];
    int Loaded = 0;
#pragma unroll
    for (int K = 0; K < kChannelLoads; ++K) {
      IndexT I = I0 + K * Stride;
      if (I < Last) {
        IndexT Sample = Vectors.div(I);
        IndexT Position = I - Sample * Vectors.divisor();
        Vector V = *reinterpret_cast<const Vector *>(
            Base + int64_t(Sample) * G.StrideN +
            int64_t(Position) * VecSize * G.StrideS);
#pragma unroll
        for (int J = 0; J < VecSize; ++J)
          Values[K][J] = toAcc(V.V[J]);
        Loaded = K + 1;
      } else {
#pragma unroll
        for (int J = 0; J < VecSize; ++J)
          Values[K][J] = A(0);
      }
    }
    F(Values, Loaded);
  }
}

/// forEachLoadInChannel's values one at a time: F(X[n, c, s]).
template <int VecSize, typename T, typename IndexT, typename Fn>
__device__ __forceinline__ void
forEachInChannel(const T *X, const ChannelGeometry &G,
                 IntDivider<IndexT> Vectors, int64_t Ch, IndexT Begin,
                 IndexT End, Fn F) {
  using A = AccType<T>;
  forEachLoadInChannel<VecSize>(
      X, G, Vectors, Ch, Begin, End,
      [&](const A(&Values)[kChannelLoads][VecSize], int Loaded) {
#pragma unroll
        for (int K = 0; K < kChannelLoads; ++K)
#pragma unroll
          for (int J = 0; J < VecSize; ++J)
            if (K < Loaded)
              F(Values[K][J]);
      });
}

/// The Welford state of forEachLoadInChannel's values.
template <int VecSize, typename T, typename IndexT>
__device__ __forceinline__ Welford<AccType<T>>
channelWelford(const T *X, const ChannelGeometry &G, IntDivider<IndexT> Vectors,
               int64_t Ch, IndexT Begin, IndexT End) {
  using A = AccType<T>;
  Welford<A> W{A(0), A(0), 0};
  forEachLoadInChannel<VecSize>(X, G, Vectors, Ch, Begin, End,
                                [&](const A(&Values)[kChannelLoads][VecSize],
                                    int Loaded) { W.addAll(Values, Loaded); });
  return W;
}

/// Partials[k * C + c]: the Welford state of chunk k of channel c, its
/// values [k * ChunkLength, (k + 1) * ChunkLength) read as
/// forEachLoadInChannel reads them (ChunkLength a multiple of VecSize);
/// blockIdx.y is k. A channel split so fills the GPU where one block per
/// channel would not (a few channels of many values).
template <int VecSize, typename T, typename IndexT>
__global__ void __launch_bounds__(kMaxReduceThreads, 1)
    channelPartialsKernel(const T *X, ChannelGeometry G,
                          IntDivider<IndexT> Vectors, IndexT ChunkLength,
                          Welford<AccType<T>> *Partials) {
  using A = AccType<T>;
  __shared__ Welford<A> Shared[32];
  const IndexT Count = static_cast<IndexT>(G.N * G.S);
  const IndexT Begin = IndexT(blockIdx.y) * ChunkLength;
  const IndexT End = Count - Begin < ChunkLength ? Count : Begin + ChunkLength;
  for (int64_t Ch = blockIdx.x; Ch < G.C; Ch += gridDim.x) {
    Welford<A> W = channelWelford<VecSize>(X, G, Vectors, Ch, Begin, End);
    W = blockReduceWelford(W, Shared);
    if (threadIdx.x == 0)
      Partials[blockIdx.y * G.C + Ch] = W;
  }
}

/// The channels side by side, and the rows, of a block of
/// channelsLastPartialsKernel, and its threads; and the rows each thread
/// loads before it adds any.
constexpr int kLastChannels = 32;
constexpr int kLastRows = 16;
constexpr int kLastBlockThreads = kLastChannels * kLastRows;
constexpr int kLastLoads = 4;
/// The fewest channels that channelsLastPartialsKernel reads: half a warp.
constexpr int64_t kMinLastChannels = 16;

/// channelPartialsKernel for channels last, whose input is a row-major
/// [Rows = N * S, C] matrix: Partials[k * C + c] for chunk k = blockIdx.y
/// of \p ChunkLength rows. Thread (x, y) keeps channel
/// blockIdx.x * kLastChannels + x of rows y, y + kLastRows, ... of the
/// chunk, so that a warp reads adjacent channels of one row (one thread a
/// channel, as one block a channel would, reads values C apart); the
/// block then merges its rows' states in shared memory.
template <typename T>
__global__ void __launch_bounds__(kLastBlockThreads, 1)
    channelsLastPartialsKernel(const T *X, int64_t Rows, int64_t C,
                               int64_t ChunkLength,
                               Welford<AccType<T>> *Partials) {
  using A = AccType<T>;
  __shared__ Welford<A> Shared[kLastRows][kLastChannels];
  const int64_t Ch = blockIdx.x * int64_t(kLastChannels) + threadIdx.x;
  const int64_t Begin = blockIdx.y * ChunkLength;
  const int64_t End = Rows - Begin < ChunkLength ? Rows : Begin + ChunkLength;
  Welford<A> W{A(0), A(0), 0};
  if (Ch < C) {
    for (int64_t R0 = Begin + threadIdx.y; R0 < End;
         R0 += kLastRows * kLastLoads) {
      A Values[kLastLoads][1];
      int Loaded = 0;
#pragma unroll
      for (int K = 0; K < kLastLoads; ++K) {
        int64_t R = R0 + K * kLastRows;
        Values[K][0] = R < End ? toAcc(X[R * C + Ch]) : A(0);
        Loaded += R < End;
      }
      W.addAll(Values, Loaded);
    }
  }
  Shared[threadIdx.y][threadIdx.x] = W;
  __syncthreads();
  if (threadIdx.y == 0 && Ch < C) {
    for (int Y = 1; Y < kLastRows; ++Y) {
      const Welford<A> &P = Shared[Y][threadIdx.x];
      W.merge(P.Mean, P.M2, P.Count);
    }
    Partials[blockIdx.y * C + Ch] = W;
  }
}

/// One block per channel: its mean and the sum of squared deviations from
/// it, over its N * S values, element I at (I / S, I % S): merged from
/// \p Chunks states of channelPartialsKernel, or, where \p Partials is
/// null, from the values, read as forEachLoadInChannel reads them. Scale
/// is 0, or, where the sum overflowed, the largest deviation, and Squares
/// then sums the squares of the deviations divided by it (Note [Variance
/// that overflows] in shared/Normalization.h).
template <int VecSize, typename T, typename IndexT>
__global__ void __launch_bounds__(kMaxReduceThreads, 1)
    channelStatsKernel(const T *X, ChannelGeometry G,
                       IntDivider<IndexT> Vectors,
                       const Welford<AccType<T>> *Partials, int64_t Chunks,
                       AccType<T> *Mean, AccType<T> *Squares,
                       AccType<T> *Scale) {
  using A = AccType<T>;
  __shared__ Welford<A> Shared[32];
  __shared__ A Scratch[32];
  const IndexT Count = static_cast<IndexT>(G.N * G.S);
  for (int64_t Ch = blockIdx.x; Ch < G.C; Ch += gridDim.x) {
    auto ForEach = [&](auto F) {
      forEachInChannel<VecSize>(X, G, Vectors, Ch, IndexT(0), Count, F);
    };
    Welford<A> W{A(0), A(0), 0};
    if (Partials) {
      for (int64_t K = threadIdx.x; K < Chunks; K += blockDim.x) {
        const Welford<A> &P = Partials[K * G.C + Ch];
        W.merge(P.Mean, P.M2, P.Count);
      }
    } else {
      W = channelWelford<VecSize>(X, G, Vectors, Ch, IndexT(0), Count);
    }
    W = blockReduceWelford(W, Shared);
    A ChannelScale = 0, ChannelSquares = W.M2;
    // Every thread has the merged state, so the branch is the block's.
    if (kernels::squaresOverflowed(W.M2, W.Mean)) {
      ForEach(
          [&](A V) { ChannelScale = fmax(ChannelScale, fabs(V - W.Mean)); });
      ChannelScale = blockReduceMax(ChannelScale, Scratch);
      ChannelSquares = 0;
      ForEach([&](A V) {
        A D = (V - W.Mean) / ChannelScale;
        ChannelSquares += D * D;
      });
      ChannelSquares = blockReduceSum(ChannelSquares, Scratch);
    }
    if (threadIdx.x == 0) {
      Mean[Ch] = W.Mean;
      Squares[Ch] = ChannelSquares;
      Scale[Ch] = ChannelScale;
    }
  }
}

/// Per channel, from the statistics: Invstd (training: from Squares and
/// Scale over Count; inference: from the running variance), the updated
/// running statistics (training, where given) and the affine factors
/// Alpha, Beta with out = x * Alpha + Beta. Every pointer but Mean,
/// Invstd, Alpha and Beta may be null.
template <typename A>
__global__ void channelFactorsKernel(int64_t C, bool Training, int64_t Count,
                                     double Momentum, double Eps, A *Mean,
                                     const A *Squares, const A *Scale,
                                     A *RunningMean, A *RunningVar, const A *W,
                                     const A *B, A *Invstd, A *Alpha, A *Beta) {
  for (int64_t Ch = globalIndex(); Ch < C; Ch += gridStride()) {
    A Inv;
    if (Training) {
      A ChannelScale = Count > 0 ? Scale[Ch] : A(0);
      Inv = kernels::channelInvstd(Count > 0 ? Squares[Ch] : A(0), ChannelScale,
                                   Count, Eps);
      if (Count > 0 && RunningMean)
        RunningMean[Ch] =
            A(Momentum) * Mean[Ch] + A(1 - Momentum) * RunningMean[Ch];
      if (Count > 0 && RunningVar)
        RunningVar[Ch] =
            A(Momentum) *
                kernels::channelVariance(Squares[Ch], ChannelScale, Count - 1) +
            A(1 - Momentum) * RunningVar[Ch];
    } else {
      Mean[Ch] = RunningMean[Ch];
      Inv = rsqrtAcc(RunningVar[Ch] + A(Eps));
    }
    Invstd[Ch] = Inv;
    Alpha[Ch] = Inv * (W ? W[Ch] : A(1));
    Beta[Ch] = (B ? B[Ch] : A(0)) - Mean[Ch] * Alpha[Ch];
  }
}

/// out = x * Alpha + Beta, where the iterator gives each element its
/// channel's Alpha and Beta (broadcast views of [C] vectors).
template <typename T> struct ChannelAffineFn {
  using A = opmath_type<T>;
  __device__ T operator()(T X, A Alpha, A Beta) const {
    return static_cast<T>(static_cast<A>(X) * Alpha + Beta);
  }
};

/// \p T converted to a contiguous tensor of \p Dtype (copied even when it
/// already is one when \p Copy), or undefined for an absent \p T.
Tensor accParam(OptionalTensorRef T, ScalarType Dtype, bool Copy = false) {
  if (!T)
    return Tensor();
  return T->to(Dtype, Copy).contiguous();
}

template <typename A> A *accPtr(const Tensor &T) {
  return T.defined() ? T.data_ptr<A>() : nullptr;
}

template <typename T>
void batchNormKernel(const Tensor &Input, OptionalTensorRef Weight,
                     OptionalTensorRef Bias, OptionalTensorRef RunningMean,
                     OptionalTensorRef RunningVar, bool Training,
                     double Momentum, double Eps, const Tensor &Out,
                     const Tensor &SaveMean, const Tensor &SaveInvstd) {
  using D = DeviceElement<T>;
  using A = AccType<D>;
  ScalarType AccDtype = std::is_same_v<A, double> ? kDouble : kFloat;
  MemoryFormat Format = Input.suggest_memory_format();
  Tensor X = Input.contiguous(Format);
  ChannelGeometry G;
  G.N = Input.size(0);
  G.C = Input.size(1);
  G.S = G.N * G.C == 0 ? 0 : Input.numel() / (G.N * G.C);
  bool ChannelsInner = Format != MemoryFormat::Contiguous;
  G.StrideN = G.C * G.S;
  G.StrideC = ChannelsInner ? 1 : G.S;
  G.StrideS = ChannelsInner ? G.C : 1;
  int64_t C = G.C, Count = G.N * G.S;
  cudaStream_t Stream = currentStream();

  TensorOptions AccOptions = X.options().dtype(AccDtype);
  Tensor Mean = empty({C}, AccOptions), Squares = empty({C}, AccOptions),
         Scale = empty({C}, AccOptions);
  Tensor Invstd = empty({C}, AccOptions), Alpha = empty({C}, AccOptions),
         Beta = empty({C}, AccOptions);
  if (Training && Count > 0 && C > 0) {
    // Channels last of at least kMinLastChannels channels is read in
    // channelsLastPartialsKernel's blocks of adjacent channels; with fewer,
    // most of a warp's lanes would idle, while a block per channel's
    // threads read values only a few apart, the other channels' blocks
    // reading the same sectors. Otherwise one chunk a channel reads its
    // values in channelStatsKernel. About a thousand blocks in all, in
    // chunks of at least 16 values a thread. Planes of whole vectors (not
    // channels last) are read a vector at a time, in chunks of whole
    // vectors.
    const bool ByRows = ChannelsInner && C >= kMinLastChannels;
    const int VecSize = !ChannelsInner && G.S % kChannelVecSize == 0 &&
                                cuda::isAlignedForVector(
                                    X.data_ptr(), sizeof(D), kChannelVecSize)
                            ? kChannelVecSize
                            : 1;
    int64_t ColumnBlocks = (C + kLastChannels - 1) / kLastChannels;
    int64_t Chunks = ByRows ? std::min((1024 + ColumnBlocks - 1) / ColumnBlocks,
                                       Count / (16 * kLastRows))
                            : std::min((1024 + C - 1) / C, Count / (16 * 512));
    Chunks = std::clamp<int64_t>(Chunks, 1, 65535);
    int64_t ChunkLength = (Count + Chunks - 1) / Chunks;
    ChunkLength = (ChunkLength + VecSize - 1) / VecSize * VecSize;
    Chunks = (Count + ChunkLength - 1) / ChunkLength;
    DataPtr Partials;
    if (Chunks > 1 || ByRows)
      Partials = cuda::CUDACachingAllocator::allocateTempStorage(
          static_cast<size_t>(Chunks * C) * sizeof(Welford<A>));
    auto *PartialsPtr = static_cast<Welford<A> *>(Partials.get());
    auto Launch = [&](auto Index, auto Vec) {
      using IndexT = decltype(Index);
      constexpr int V = decltype(Vec)::value;
      IntDivider<IndexT> Vectors(IndexT(G.S / V));
      if (ByRows) {
        dim3 Grid(static_cast<unsigned>(ColumnBlocks),
                  static_cast<unsigned>(Chunks));
        channelsLastPartialsKernel<D>
            <<<Grid, dim3(kLastChannels, kLastRows), 0, Stream>>>(
                devicePtr<T>(X), Count, C, ChunkLength, PartialsPtr);
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      } else if (PartialsPtr) {
        dim3 Grid(blocksFor(C, 1), static_cast<unsigned>(Chunks));
        channelPartialsKernel<V, D, IndexT>
            <<<Grid, reduceThreads(ChunkLength / V), 0, Stream>>>(
                devicePtr<T>(X), G, Vectors, IndexT(ChunkLength), PartialsPtr);
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      }
      channelStatsKernel<V, D, IndexT>
          <<<blocksFor(C, 1), reduceThreads(Count / V), 0, Stream>>>(
              devicePtr<T>(X), G, Vectors, PartialsPtr, Chunks, accPtr<A>(Mean),
              accPtr<A>(Squares), accPtr<A>(Scale));
    };
    auto LaunchIn = [&](auto Index) {
      if (VecSize == kChannelVecSize)
        Launch(Index, std::integral_constant<int, kChannelVecSize>());
      else
        Launch(Index, std::integral_constant<int, 1>());
    };
    if (fitsInt32GridIndex(Count))
      LaunchIn(int32_t());
    else
      LaunchIn(int64_t());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  } else if (Training && C > 0) {
    Mean.zero_();
  }
  // The running statistics are read (inference) or updated (training) in
  // the accumulation dtype, then copied back; inference reads them as
  // they are where they already are that.
  Tensor RM = accParam(RunningMean, AccDtype, /*Copy=*/Training);
  Tensor RV = accParam(RunningVar, AccDtype, /*Copy=*/Training);
  Tensor W = accParam(Weight, AccDtype), B = accParam(Bias, AccDtype);
  if (C > 0) {
    channelFactorsKernel<A><<<blocksFor(C), kThreads, 0, Stream>>>(
        C, Training, Count, Momentum, Eps, accPtr<A>(Mean), accPtr<A>(Squares),
        accPtr<A>(Scale), accPtr<A>(RM), accPtr<A>(RV), accPtr<A>(W),
        accPtr<A>(B), accPtr<A>(Invstd), accPtr<A>(Alpha), accPtr<A>(Beta));
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  }
  if (Training) {
    SaveMean.copy_(Mean);
    SaveInvstd.copy_(Invstd);
    if (Count > 0 && RunningMean)
      RunningMean->copy_(RM);
    if (Count > 0 && RunningVar)
      RunningVar->copy_(RV);
  }
  if (Input.numel() == 0)
    return;
  // The affine pass is elementwise over X and the channels' factors seen
  // as [1, C, 1, ...]: the launcher reads planes of whole vectors (or
  // channels last of whole vectors of channels) a vector at a time. Out
  // is in X's layout (the out= wrapper gives a temporary for another).
  std::vector<int64_t> ChannelShape(static_cast<size_t>(Input.dim()), 1);
  ChannelShape[1] = C;
  Tensor AlphaView = Alpha.view(ChannelShape),
         BetaView = Beta.view(ChannelShape);
  TensorIteratorConfig Config;
  Config.check_all_same_dtype(false)
      .resize_outputs(false)
      .add_output(Out)
      .add_input(X)
      .add_input(AlphaView)
      .add_input(BetaView);
  TensorIterator Iter = Config.build();
  cuda::gpuKernel(Iter, ChannelAffineFn<T>{});
}

} // namespace

SK_IMPL_FUNC(layer_norm_out_cuda)
(const Tensor &input, IntArrayRef normalized_shape, OptionalTensorRef weight,
 OptionalTensorRef bias, double eps, const Tensor &out0, const Tensor &out1,
 const Tensor &out2) {
  int64_t Axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
  int64_t M = 1, N = 1;
  for (int64_t D = 0; D < input.dim(); ++D)
    (D < Axis ? M : N) *= input.size(D);
  if (M == 0)
    return;
  Tensor X = input.contiguous();
  Tensor G = weight ? weight->contiguous() : Tensor();
  Tensor B = bias ? bias->contiguous() : Tensor();
  OutputBuffer Y(out0), Mean(out1), Rstd(out2);
  dispatchDtypes<dtypes::Floating>(
      input.scalar_type(), "layer_norm_cuda", [&](auto Tag) {
        using T = decltype(Tag);
        using D = DeviceElement<T>;
        constexpr int Vec = kLayerNormVecSize;
        auto Aligned = [&](const Tensor &T) {
          return !T.defined() ||
                 cuda::isAlignedForVector(T.data_ptr(), sizeof(D), Vec);
        };
        bool Vectorize = N % Vec == 0 && Aligned(X) && Aligned(G) &&
                         Aligned(B) && Aligned(Y.get());
        auto LaunchIn = [&](auto VecSize) {
          int64_t Vectors = N / VecSize;
          // Two vectors a thread where the row allows: a smaller block
          // reduces its sums in fewer steps.
          int Threads = reduceThreads((Vectors + 1) / 2);
          auto Launch = [&](auto PerThread) {
            layerNormKernel<D, VecSize, decltype(PerThread)::value>
                <<<blocksFor(M, 1), Threads, 0, currentStream()>>>(
                    devicePtr<T>(X), G.defined() ? devicePtr<T>(G) : nullptr,
                    B.defined() ? devicePtr<T>(B) : nullptr,
                    devicePtr<T>(Y.get()), devicePtr<T>(Mean.get()),
                    devicePtr<T>(Rstd.get()), M, N, eps);
          };
          // Up to 2 vectors of 4 or 4 single values a thread stay in
          // registers (46 and 54 registers for float32; 4 vectors of 4
          // took 70, one block of 512 threads per SM).
          int64_t PerThread = (Vectors + Threads - 1) / Threads;
          auto ReadEachPass = [&] { Launch(std::integral_constant<int, 0>()); };
          if constexpr (decltype(VecSize)::value == 1)
            withCeiling<1, 2, 4>(PerThread, Launch, ReadEachPass);
          else
            withCeiling<1, 2>(PerThread, Launch, ReadEachPass);
        };
        if (Vectorize)
          LaunchIn(std::integral_constant<int, Vec>());
        else
          LaunchIn(std::integral_constant<int, 1>());
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      });
  Y.finish();
  Mean.finish();
  Rstd.finish();
}

SK_IMPL_FUNC(batch_norm_out_cuda)
(const Tensor &input, OptionalTensorRef weight, OptionalTensorRef bias,
 OptionalTensorRef running_mean, OptionalTensorRef running_var, bool training,
 double momentum, double eps, const Tensor &out, const Tensor &save_mean,
 const Tensor &save_invstd) {
  dispatchDtypes<dtypes::Floating>(
      input.scalar_type(), "batch_norm_cuda", [&](auto Tag) {
        batchNormKernel<decltype(Tag)>(input, weight, bias, running_mean,
                                       running_var, training, momentum, eps,
                                       out, save_mean, save_invstd);
      });
}

} // namespace sk
