//===--- Embedding.cu - embedding and _embedding_bag on CUDA --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of embedding and _embedding_bag (meta functions in the
/// CPU file).
///
/// embedding copies weight rows: rows of unit stride through gatherRows
/// (DeviceUtils.cuh, 16-byte words where they fit), others as elements of
/// the dtype's size, one thread per output element; an index out of range
/// is a device check (Note [Device checks] in sk/cuda/DeviceChecks.h),
/// whose CPU error comes at the host's next wait for the stream.
///
/// _embedding_bag checks its offsets and indices on the device, with the
/// CPU's checks and messages (kernels::EmbeddingBagError), in the kernel
/// that computes offset2bag (a binary search in the offsets per index).
/// The bags are then reduced, one block per bag, threads along the
/// embedding dimension, accumulating in float32 for the 16-bit dtypes,
/// skipping rows out of range. The checks are one device check, reported
/// with the CPU's error for one of the failed checks (not necessarily the
/// CPU's first) at the next wait. Nothing is copied to the host, and the
/// impl does not wait.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "shared/Embedding.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace sk {

namespace {

using namespace cuda_kernels;

constexpr int64_t kModeMean = 1;
constexpr int64_t kModeMax = 2;

template <typename Word, typename IndexT>
__global__ void embeddingKernel(const Word *W, const IndexT *Idx, Word *Out,
                                int64_t N, int64_t D, int64_t Rows,
                                int64_t Stride0, int64_t Stride1,
                                unsigned long long *Flag) {
  int64_t Total = N * D;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t I = L / D, J = L % D;
    int64_t Row = static_cast<int64_t>(Idx[I]);
    if (Row < 0 || Row >= Rows) {
      raiseError(Flag, 1, Row);
      Out[L] = Word{}; // defined, where the index is bad
      continue;
    }
    Out[L] = W[Row * Stride0 + J * Stride1];
  }
}

/// How many of a bag's row numbers embeddingBagKernel stages in shared
/// memory at a time, and how many of their rows a thread loads before it
/// combines them.
constexpr int kStagedRows = 256;
constexpr int kRowsInFlight = 4;

/// One block per bag, threads along D. Offsets has \p NumOffsets entries;
/// a bag without a next offset runs to \p NumIndices. Writes Out [B, D],
/// BagSize [B] and, in max mode, MaxIdx [B, D].
///
/// The block first stages the bag's row numbers in shared memory, -1 for a
/// row it skips. A thread's weight loads then wait for no index load of
/// its own, and it issues kRowsInFlight of them before it combines any;
/// loading the index before each row, and combining each row before the
/// next load, made every thread wait out a memory round trip per row.
/// Rows are still combined in the bag's order.
template <typename T, typename IndexT>
__global__ void
embeddingBagKernel(const T *W, int64_t WS0, int64_t WS1, const IndexT *Idx,
                   const IndexT *Off, int64_t NumIndices, int64_t NumOffsets,
                   int64_t NumBags, int64_t D, int64_t Rows, int64_t Mode,
                   const T *PerSample, int64_t PaddingIdx, T *Out,
                   IndexT *BagSize, IndexT *MaxIdx) {
  using A = AccType<T>;
  __shared__ IndexT Staged[kStagedRows];
  for (int64_t Bag = blockIdx.x; Bag < NumBags; Bag += gridDim.x) {
    // Offsets out of order or out of range fail checkBagsKernel's checks;
    // clamped, they read no index out of bounds meanwhile.
    auto Clamp = [](int64_t X, int64_t Lo, int64_t Hi) {
      return X < Lo ? Lo : X > Hi ? Hi : X;
    };
    int64_t Start = Clamp(static_cast<int64_t>(Off[Bag]), 0, NumIndices);
    int64_t Stop = Clamp(
        Bag + 1 < NumOffsets ? static_cast<int64_t>(Off[Bag + 1]) : NumIndices,
        Start, NumIndices);
    // Every thread runs every pass (at least one, which counts the bag's
    // rows when D is 0) and so every barrier.
    for (int64_t J0 = 0; J0 == 0 || J0 < D; J0 += blockDim.x) {
      int64_t J = J0 + threadIdx.x;
      bool Active = J < D;
      A Acc = 0;
      int64_t Count = 0, ArgMax = 0;
      for (int64_t Chunk = Start; Chunk < Stop; Chunk += kStagedRows) {
        int N = static_cast<int>(Stop - Chunk < kStagedRows ? Stop - Chunk
                                                            : kStagedRows);
        __syncthreads(); // The last chunk's rows are read.
        for (int K = threadIdx.x; K < N; K += blockDim.x) {
          int64_t Row = static_cast<int64_t>(Idx[Chunk + K]);
          // Rows out of range are reported after the kernel.
          bool Skip = Row == PaddingIdx || Row < 0 || Row >= Rows;
          Staged[K] = Skip ? IndexT(-1) : static_cast<IndexT>(Row);
        }
        __syncthreads();
        for (int K0 = 0; K0 < N; K0 += kRowsInFlight) {
          // All the group's loads first, then its combines.
          int64_t Row[kRowsInFlight];
          A V[kRowsInFlight], Scale[kRowsInFlight];
#pragma unroll
          for (int U = 0; U < kRowsInFlight; ++U) {
            int K = K0 + U;
            Row[U] = K < N ? static_cast<int64_t>(Staged[K]) : -1;
            bool Load = Active && Row[U] >= 0;
            V[U] = Load ? toAcc(W[Row[U] * WS0 + J * WS1]) : A(0);
            Scale[U] = Load && PerSample ? toAcc(PerSample[Chunk + K]) : A(1);
          }
#pragma unroll
          for (int U = 0; U < kRowsInFlight; ++U) {
            if (Row[U] < 0)
              continue;
            if (Mode == kModeMax) {
              // The first row of a bag sets the maximum; NaN wins.
              if (Count == 0 || V[U] > Acc || V[U] != V[U]) {
                Acc = V[U];
                ArgMax = Row[U];
              }
            } else {
              Acc += Scale[U] * V[U];
            }
            ++Count;
          }
        }
      }
      if (Active) {
        if (Mode == kModeMean && Count > 0)
          Acc /= A(Count);
        Out[Bag * D + J] = fromAcc<T>(Acc);
        if (Mode == kModeMax && Count > 0)
          MaxIdx[Bag * D + J] = static_cast<IndexT>(ArgMax);
      }
      if (J == 0)
        BagSize[Bag] = static_cast<IndexT>(Count);
    }
  }
}

/// embedding_bag's checks of kernels::checkEmbeddingBagIndices, raised on
/// \p Flag with a kernels::EmbeddingBagError code, and offset2bag into
/// \p Bags (when not null): the number of offsets after the first that
/// are at or before each index, found by binary search in the offsets.
template <typename IndexT>
__global__ void checkBagsKernel(const IndexT *Idx, const IndexT *Off, int64_t N,
                                int64_t NumOffsets, int64_t Rows, IndexT *Bags,
                                unsigned long long *Flag) {
  using E = kernels::EmbeddingBagError;
  int64_t Total = N > NumOffsets ? N : NumOffsets;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    if (L < NumOffsets) {
      int64_t O = static_cast<int64_t>(Off[L]);
      if (L == 0 && O != 0)
        raiseError(Flag, int(E::FirstOffsetNotZero), O);
      if (L == NumOffsets - 1 && O > N)
        raiseError(Flag, int(E::LastOffsetPastTheEnd), O);
      if (L > 0 && static_cast<int64_t>(Off[L - 1]) > O)
        raiseError(Flag, int(E::DecreasingOffsets), L);
    }
    if (L < N) {
      int64_t Row = static_cast<int64_t>(Idx[L]);
      if (Row < 0 || Row >= Rows)
        raiseError(Flag, int(E::IndexOutOfRange), Row);
      if (Bags) {
        // The first offset after offsets[0] that is past L.
        int64_t Lo = 1, Hi = NumOffsets;
        while (Lo < Hi) {
          int64_t Mid = Lo + (Hi - Lo) / 2;
          if (static_cast<int64_t>(Off[Mid]) <= L)
            Lo = Mid + 1;
          else
            Hi = Mid;
        }
        Bags[L] = static_cast<IndexT>(Lo - 1);
      }
    }
  }
}

} // namespace

SK_IMPL_FUNC(embedding_out_cuda)
(const Tensor &weight, const Tensor &indices, int64_t padding_idx,
 bool scale_grad_by_freq, bool sparse, const Tensor &out) {
  int64_t N = indices.numel();
  int64_t D = weight.size(1);
  if (N == 0 || D == 0)
    return;
  Tensor Idx = indices.contiguous();
  OutputBuffer Out(out);
  cuda::DeviceCheck Check;
  auto Run = [&](auto IndexTag) {
    using IndexT = decltype(IndexTag);
    const IndexT *Index = static_cast<const IndexT *>(Idx.data_ptr());
    if (weight.stride(1) == 1) {
      gatherRows(Out.get(), weight, Index, N, Check.get());
      return;
    }
    dispatchElementSize(weight.scalar_type(), [&](auto Tag) {
      using Word = decltype(Tag);
      embeddingKernel<Word, IndexT>
          <<<blocksFor(N * D), kThreads, 0, currentStream()>>>(
              static_cast<const Word *>(weight.data_ptr()), Index,
              static_cast<Word *>(Out.get().data_ptr()), N, D, weight.size(0),
              weight.stride(0), weight.stride(1), Check.get());
      SK_CUDA_KERNEL_LAUNCH_CHECK();
    });
  };
  if (Idx.scalar_type() == kLong)
    Run(int64_t{});
  else
    Run(int32_t{});
  Check.reportLater([](int64_t, int64_t) {
    SK_CHECK_INDEX(false, "index out of range in self");
  });
  Out.finish();
}

SK_IMPL_FUNC(embedding_bag_out_cuda)
(const Tensor &weight, const Tensor &indices, const Tensor &offsets,
 bool scale_grad_by_freq, int64_t mode, bool sparse,
 OptionalTensorRef per_sample_weights, bool include_last_offset,
 int64_t padding_idx, const Tensor &out0, const Tensor &out1,
 const Tensor &out2, const Tensor &out3) {
  Tensor Idx = indices.contiguous();
  Tensor Off = offsets.contiguous();
  bool IsLong = Idx.scalar_type() == kLong;
  int64_t N = Idx.numel();
  int64_t NumOffsets = Off.numel();
  int64_t NumBags = out0.size(0);
  int64_t Rows = weight.size(0);
  cuda::DeviceCheck Checks;
  OutputBuffer Bags(out1);
  bool WantBags = out1.numel() == N && N > 0;
  auto Check = [&](auto IndexTag) {
    using IndexT = decltype(IndexTag);
    checkBagsKernel<IndexT>
        <<<blocksFor(std::max(N, NumOffsets)), kThreads, 0, currentStream()>>>(
            static_cast<const IndexT *>(Idx.data_ptr()),
            static_cast<const IndexT *>(Off.data_ptr()), N, NumOffsets, Rows,
            WantBags ? static_cast<IndexT *>(Bags.get().data_ptr()) : nullptr,
            Checks.get());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  };
  if (N > 0 || NumOffsets > 0) {
    if (IsLong)
      Check(int64_t{});
    else
      Check(int32_t{});
  }
  if (WantBags)
    Bags.finish();
  // Reported once the bags are reduced (the kernel skips rows out of
  // range), at the next wait.
  auto ReportErrors = [&] {
    Checks.reportLater([N](int64_t Code, int64_t Value) {
      kernels::reportEmbeddingBagError(
          static_cast<kernels::EmbeddingBagError>(Code), Value, N);
    });
  };
  out3.zero_();
  if (NumBags == 0) {
    ReportErrors();
    return;
  }
  int64_t BagOffsets = include_last_offset ? NumOffsets : NumBags;
  int64_t D = weight.size(1);
  Tensor PerSample =
      per_sample_weights ? per_sample_weights->contiguous() : Tensor();
  OutputBuffer Out(out0), BagSize(out2), MaxIdx(out3);
  if (MaxIdx.isTemporary())
    MaxIdx.get().zero_();
  dispatchDtypes<dtypes::Floating>(
      weight.scalar_type(), "embedding_bag_cuda", [&](auto Tag) {
        using T = decltype(Tag);
        using E = DeviceElement<T>;
        auto Run = [&](auto IndexTag) {
          using IndexT = decltype(IndexTag);
          embeddingBagKernel<E, IndexT>
              <<<blocksFor(NumBags, 1), reduceThreads(D), 0, currentStream()>>>(
                  devicePtr<T>(weight), weight.stride(0), weight.stride(1),
                  static_cast<const IndexT *>(Idx.data_ptr()),
                  static_cast<const IndexT *>(Off.data_ptr()), N, BagOffsets,
                  NumBags, D, Rows, mode,
                  PerSample.defined() ? devicePtr<T>(PerSample) : nullptr,
                  padding_idx, devicePtr<T>(Out.get()),
                  static_cast<IndexT *>(BagSize.get().data_ptr()),
                  static_cast<IndexT *>(MaxIdx.get().data_ptr()));
          SK_CUDA_KERNEL_LAUNCH_CHECK();
        };
        if (IsLong)
          Run(int64_t{});
        else
          Run(int32_t{});
      });
  ReportErrors();
  Out.finish();
  BagSize.finish();
  MaxIdx.finish();
}

} // namespace sk
