//===--- Embedding.cpp - embedding and embedding_bag ----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `embedding` (structured): output row i is weight row indices[i], copied
/// as bytes, so every dtype works. `_embedding_bag` (structured, four
/// outputs) and its composite `embedding_bag`: bags of rows reduced by sum
/// (optionally weighted per sample), mean or max.
///
/// _embedding_bag's outputs follow PyTorch's CPU kernel (and its meta
/// registration): output [B, D]; offset2bag [n] (the bag of each index),
/// or [0] on PyTorch's fast sum path (float32/float16 weight with
/// unit-stride rows, no padding_idx) where the CPU kernel does not make
/// it; bag_size [B]; max_indices [B, D] in max mode, else [B]. skc fills
/// every output it returns: bag_size counts each bag's non-padding
/// indices in every mode, and max_indices (zero outside max mode, and for
/// empty bags) holds the row each maximum came from.
///
//===----------------------------------------------------------------------===//

#include "shared/Embedding.h"
#include "Functions.h"
#include "NativeFunctions.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

// The sum and the maximum of a bag's rows are compiled for every Highway
// target and called for the best one the CPU has (Note [Highway dynamic
// dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/Embedding.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

/// The rows of the bag Idx[Start, Stop) that are not \p PaddingIdx.
static int64_t countBagRows(const void *Idx, bool IsLong, int64_t Start,
                            int64_t Stop, int64_t PaddingIdx) {
  int64_t Count = 0;
  for (int64_t I = Start; I < Stop; ++I)
    Count += kernels::indexAt(Idx, IsLong, I) != PaddingIdx;
  return Count;
}

/// Fetches the row a few indices after \p I (before \p Stop) of the float
/// table \p W into the cache: rows are random, so the hardware cannot
/// guess them.
static void prefetchRowAhead(const float *W, int64_t RowStride, int64_t D,
                             const void *Idx, bool IsLong, int64_t I,
                             int64_t Stop) {
  constexpr int64_t kAhead = 16;
  if (I + kAhead >= Stop)
    return;
  const char *Next = reinterpret_cast<const char *>(
      W + kernels::indexAt(Idx, IsLong, I + kAhead) * RowStride);
  for (int64_t B = 0; B < D * int64_t(sizeof(float)); B += 64)
    __builtin_prefetch(Next + B);
}

/// Sums the rows Idx[Start, Stop) of the float table \p W (contiguous rows
/// of \p D values, \p RowStride apart), skipping \p PaddingIdx, into
/// \p Out; returns how many rows it added. Eight vector accumulators hold
/// a band of columns across the whole bag, and the row a few indices
/// ahead is fetched while one is added, as fbgemm's kernels do.
static int64_t sumBagRows(const float *W, int64_t RowStride, int64_t D,
                          const void *Idx, bool IsLong, int64_t Start,
                          int64_t Stop, int64_t PaddingIdx, float *Out) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> Tag;
  using V = hn::Vec<decltype(Tag)>;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  auto RowAt = [&](int64_t I) { return kernels::indexAt(Idx, IsLong, I); };
  int64_t Count = countBagRows(Idx, IsLong, Start, Stop, PaddingIdx);
  int64_t J = 0;
  for (; J + 8 * L <= D; J += 8 * L) {
    V A[8];
    for (V &X : A)
      X = hn::Zero(Tag);
    for (int64_t I = Start; I < Stop; ++I) {
      if (J == 0)
        prefetchRowAhead(W, RowStride, D, Idx, IsLong, I, Stop);
      int64_t Row = RowAt(I);
      if (Row == PaddingIdx)
        continue;
      const float *P = W + Row * RowStride + J;
      for (int K = 0; K < 8; ++K)
        A[K] = hn::Add(A[K], hn::LoadU(Tag, P + K * L));
    }
    for (int K = 0; K < 8; ++K)
      hn::StoreU(A[K], Tag, Out + J + K * L);
  }
  for (; J < D; J += L) {
    const hn::CappedTag<float, 1> One;
    int64_t Width = std::min(L, D - J);
    for (int64_t C = J; C < J + Width; ++C) {
      auto Acc = hn::Zero(One);
      for (int64_t I = Start; I < Stop; ++I) {
        int64_t Row = RowAt(I);
        if (Row != PaddingIdx)
          Acc = hn::Add(Acc, hn::LoadU(One, W + Row * RowStride + C));
      }
      Out[C] = hn::GetLane(Acc);
    }
  }
  return Count;
}

/// max mode of sumBagRows: the column-wise maximum of the bag's rows into
/// \p Out and the row each came from into \p ArgMax (0 and 0 for an empty
/// bag); a later row replaces the maximum where it is greater or NaN, as
/// the scalar loop does. Rows are indexed in int32 lanes beside the float
/// ones, so the caller keeps row indices below 2^31.
static int64_t maxBagRows(const float *W, int64_t RowStride, int64_t D,
                          const void *Idx, bool IsLong, int64_t Start,
                          int64_t Stop, int64_t PaddingIdx, float *Out,
                          int32_t *ArgMax) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> Tag;
  const hn::RebindToSigned<decltype(Tag)> TagI;
  using V = hn::Vec<decltype(Tag)>;
  using VI = hn::Vec<decltype(TagI)>;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  auto RowAt = [&](int64_t I) { return kernels::indexAt(Idx, IsLong, I); };
  int64_t Count = countBagRows(Idx, IsLong, Start, Stop, PaddingIdx);
  int64_t J = 0;
  for (; J + 4 * L <= D; J += 4 * L) {
    V M[4];
    VI A[4];
    for (int K = 0; K < 4; ++K) {
      M[K] = hn::Zero(Tag);
      A[K] = hn::Zero(TagI);
    }
    bool First = true;
    for (int64_t I = Start; I < Stop; ++I) {
      if (J == 0)
        prefetchRowAhead(W, RowStride, D, Idx, IsLong, I, Stop);
      int64_t Row = RowAt(I);
      if (Row == PaddingIdx)
        continue;
      const float *P = W + Row * RowStride + J;
      const VI R = hn::Set(TagI, static_cast<int32_t>(Row));
      for (int K = 0; K < 4; ++K) {
        V X = hn::LoadU(Tag, P + K * L);
        auto Take = First ? hn::FirstN(Tag, size_t(L))
                          : hn::Or(hn::Gt(X, M[K]), hn::IsNaN(X));
        M[K] = hn::IfThenElse(Take, X, M[K]);
        A[K] = hn::IfThenElse(hn::RebindMask(TagI, Take), R, A[K]);
      }
      First = false;
    }
    for (int K = 0; K < 4; ++K) {
      hn::StoreU(M[K], Tag, Out + J + K * L);
      hn::StoreU(A[K], TagI, ArgMax + J + K * L);
    }
  }
  for (; J < D; ++J) {
    float Max = 0;
    int32_t Arg = 0;
    bool First = true;
    for (int64_t I = Start; I < Stop; ++I) {
      int64_t Row = RowAt(I);
      if (Row == PaddingIdx)
        continue;
      float X = W[Row * RowStride + J];
      if (First || X > Max || std::isnan(X)) {
        Max = X;
        Arg = static_cast<int32_t>(Row);
      }
      First = false;
    }
    Out[J] = Max;
    ArgMax[J] = Arg;
  }
  return Count;
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(sumBagRows);
HWY_EXPORT(maxBagRows);

using kernels::indexAt;

namespace {

constexpr int64_t kModeSum = 0;
constexpr int64_t kModeMean = 1;
constexpr int64_t kModeMax = 2;

/// PyTorch's checkScalarTypes wording for an index argument.
void checkIndexType(const char *Op, const char *Name, int Position,
                    const Tensor &T) {
  SK_CHECK(T.scalar_type() == kLong || T.scalar_type() == kInt,
           "Expected tensor for argument #", Position, " '", Name,
           "' to have one of the following scalar types: Long, Int; but got ",
           T.scalar_type(), " instead (while checking arguments for ", Op, ")");
}

/// Writes \p V at position \p I of the int32 or int64 array \p Data.
inline void setIndex(void *Data, bool IsLong, int64_t I, int64_t V) {
  if (IsLong)
    static_cast<int64_t *>(Data)[I] = V;
  else
    static_cast<int32_t *>(Data)[I] = static_cast<int32_t>(V);
}

template <typename T>
void embeddingBagKernel(const Tensor &Weight, const void *Idx, const void *Off,
                        bool IsLong, int64_t NumIndices, int64_t NumOffsets,
                        int64_t NumBags, int64_t Mode, const Tensor *PerSample,
                        int64_t PaddingIdx, const Tensor &Output, void *BagSize,
                        void *MaxIdx) {
  using Acc = opmath_type<T>;
  const T *W = Weight.data_ptr<T>();
  int64_t D = Weight.size(1);
  int64_t WS0 = Weight.stride(0), WS1 = Weight.stride(1);
  Tensor PSKeep;
  const Acc *PS = nullptr;
  if (PerSample) {
    PSKeep = PerSample->to(scalarTypeOf<Acc>()).contiguous();
    PS = PSKeep.data_ptr<Acc>();
  }
  T *Out = Output.data_ptr<T>();
  int64_t Grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(D, 1));
  // Row indices fit maxBagRows's int32 lanes.
  bool RowsFitInt32 = Weight.size(0) <= std::numeric_limits<int32_t>::max();
  parallel_for(0, NumBags, Grain, [&](int64_t Begin, int64_t End) {
    std::vector<Acc> Sum(D);
    std::vector<int32_t> ArgMax;
    for (int64_t Bag = Begin; Bag < End; ++Bag) {
      int64_t Start = indexAt(Off, IsLong, Bag);
      int64_t Stop =
          Bag + 1 < NumOffsets ? indexAt(Off, IsLong, Bag + 1) : NumIndices;
      if constexpr (std::is_same_v<T, float>) {
        if (Mode == kModeMax && WS1 == 1 && RowsFitInt32) {
          ArgMax.resize(static_cast<size_t>(D));
          int64_t Count = HWY_DYNAMIC_DISPATCH(maxBagRows)(
              W, WS0, D, Idx, IsLong, Start, Stop, PaddingIdx, Out + Bag * D,
              ArgMax.data());
          for (int64_t J = 0; J < D; ++J)
            setIndex(MaxIdx, IsLong, Bag * D + J, ArgMax[J]);
          setIndex(BagSize, IsLong, Bag, Count);
          continue;
        }
        if (Mode != kModeMax && WS1 == 1 && !PS) {
          // The common case: contiguous float rows, unweighted.
          int64_t Count = HWY_DYNAMIC_DISPATCH(sumBagRows)(
              W, WS0, D, Idx, IsLong, Start, Stop, PaddingIdx, Out + Bag * D);
          if (Mode == kModeMean && Count > 0)
            for (int64_t J = 0; J < D; ++J)
              Out[Bag * D + J] /= float(Count);
          setIndex(BagSize, IsLong, Bag, Count);
          continue;
        }
      }
      std::fill(Sum.begin(), Sum.end(), Acc(0));
      int64_t Count = 0;
      for (int64_t I = Start; I < Stop; ++I) {
        int64_t Row = indexAt(Idx, IsLong, I);
        if (Row == PaddingIdx)
          continue;
        const T *WRow = W + Row * WS0;
        if (Mode == kModeMax) {
          for (int64_t J = 0; J < D; ++J) {
            Acc V = static_cast<Acc>(WRow[J * WS1]);
            // The first row of a bag sets the maximum; NaN wins, as in
            // PyTorch's max.
            if (Count == 0 || V > Sum[J] || std::isnan(V)) {
              Sum[J] = V;
              setIndex(MaxIdx, IsLong, Bag * D + J, Row);
            }
          }
        } else {
          Acc Scale = PS ? PS[I] : Acc(1);
          for (int64_t J = 0; J < D; ++J)
            Sum[J] += Scale * static_cast<Acc>(WRow[J * WS1]);
        }
        ++Count;
      }
      if (Mode == kModeMean && Count > 0)
        for (int64_t J = 0; J < D; ++J)
          Sum[J] /= Acc(Count);
      for (int64_t J = 0; J < D; ++J)
        Out[Bag * D + J] = detail::convertElement<T>(Sum[J]);
      setIndex(BagSize, IsLong, Bag, Count);
    }
  });
}

} // namespace

SK_META_FUNC(embedding)
(const Tensor &weight, const Tensor &indices, int64_t padding_idx,
 bool scale_grad_by_freq, bool sparse) {
  SK_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  checkIndexType("embedding", "indices", 1, indices);
  std::vector<int64_t> Sizes(indices.sizes().begin(), indices.sizes().end());
  Sizes.push_back(weight.size(1));
  set_output_contiguous(0, Sizes, weight.options());
}

SK_IMPL_FUNC(embedding_out)
(const Tensor &weight, const Tensor &indices, int64_t padding_idx,
 bool scale_grad_by_freq, bool sparse, const Tensor &out) {
  int64_t N = indices.numel();
  int64_t D = weight.size(1);
  if (N == 0 || D == 0)
    return;
  Tensor Idx = indices.contiguous();
  // Rows are copied as bytes: the dtype does not matter, only the
  // element size. A row with unit stride is one memcpy.
  Tensor W = weight.stride(1) == 1 ? weight : weight.contiguous();
  size_t Item = weight.itemsize();
  int64_t Rows = weight.size(0);
  const char *Src = static_cast<const char *>(W.data_ptr());
  char *Dst = static_cast<char *>(out.data_ptr());
  bool IsLong = Idx.scalar_type() == kLong;
  const void *IdxData = Idx.data_ptr();
  int64_t RowBytes = D * static_cast<int64_t>(Item);
  int64_t Stride0 = W.stride(0) * static_cast<int64_t>(Item);
  int64_t Grain = std::max<int64_t>(1, kGrainSize / D);
  parallel_for(0, N, Grain, [&](int64_t Begin, int64_t End) {
    for (int64_t I = Begin; I < End; ++I) {
      int64_t Row = indexAt(IdxData, IsLong, I);
      SK_CHECK_INDEX(Row >= 0 && Row < Rows, "index out of range in self");
      std::memcpy(Dst + I * RowBytes, Src + Row * Stride0, RowBytes);
    }
  });
}

SK_META_FUNC(_embedding_bag)
(const Tensor &weight, const Tensor &indices, const Tensor &offsets,
 bool scale_grad_by_freq, int64_t mode, bool sparse,
 OptionalTensorRef per_sample_weights, bool include_last_offset,
 int64_t padding_idx) {
  checkIndexType("embedding_bag", "indices", 1, indices);
  checkIndexType("embedding_bag", "offsets", 1, offsets);
  SK_CHECK(indices.scalar_type() == offsets.scalar_type(),
           "embedding_bag(): expected indices and offsets to have the same "
           "dtype, but got ",
           indices.scalar_type(), " and ", offsets.scalar_type());
  ScalarType Type = weight.scalar_type();
  SK_CHECK(isFloatingType(Type),
           "Expected tensor for argument #1 'weight' to have one of the "
           "following scalar types: Half, BFloat16, Float, Double; but got ",
           Type, " instead (while checking arguments for embedding_bag)");
  SK_CHECK(weight.dim() == 2,
           "weight has to be a 2D Tensor, but got Tensor of dimension ",
           weight.dim());
  SK_CHECK(indices.dim() == 1,
           "_embedding_bag(): expected 1-D indices, but got Tensor of "
           "dimension ",
           indices.dim());
  SK_CHECK(offsets.dim() == 1,
           "offsets has to be a 1D Tensor, but got Tensor of dimension ",
           offsets.dim());
  SK_CHECK(mode == kModeSum || mode == kModeMean || mode == kModeMax,
           "_embedding_bag(): mode must be 0 (sum), 1 (mean) or 2 (max), but "
           "got ",
           mode);
  if (per_sample_weights) {
    SK_CHECK(mode == kModeSum,
             "embedding_bag: per_sample_weights only supported with "
             "mode='sum'");
    SK_CHECK(per_sample_weights->scalar_type() == Type,
             "embedding_bag(): expected per_sample_weights to have dtype ",
             Type, " (the weight's), but got ",
             per_sample_weights->scalar_type());
    SK_CHECK(per_sample_weights->dim() == 1,
             "embedding_bag(): expected 1-D per_sample_weights, but got "
             "Tensor of dimension ",
             per_sample_weights->dim());
    SK_CHECK(per_sample_weights->numel() == indices.numel(),
             "embedding_bag(): expected per_sample_weights to have as many "
             "elements as indices (",
             indices.numel(), "), but got ", per_sample_weights->numel());
  }
  if (include_last_offset)
    SK_CHECK(offsets.size(0) >= 1,
             "include_last_offset: number of offset should be at least 1");
  int64_t NumBags = offsets.size(0) - (include_last_offset ? 1 : 0);
  int64_t D = weight.size(1);
  // PyTorch's CPU kernel skips offset2bag on its fast sum path.
  bool FastPathSum =
      (Type == kFloat || Type == kHalf) && weight.stride(1) == 1 &&
      padding_idx < 0 &&
      (!per_sample_weights || per_sample_weights->stride(0) == 1);
  int64_t Offset2BagSize =
      mode == kModeSum && FastPathSum ? 0 : indices.size(0);
  TensorOptions IndexOptions = offsets.options();
  set_output_contiguous(0, {NumBags, D}, weight.options());
  set_output_contiguous(1, {Offset2BagSize}, IndexOptions);
  set_output_contiguous(2, {NumBags}, IndexOptions);
  std::vector<int64_t> MaxIndicesSizes = {NumBags};
  if (mode == kModeMax)
    MaxIndicesSizes.push_back(D);
  set_output_contiguous(3, MaxIndicesSizes, IndexOptions);
}

SK_IMPL_FUNC(embedding_bag_out)
(const Tensor &weight, const Tensor &indices, const Tensor &offsets,
 bool scale_grad_by_freq, int64_t mode, bool sparse,
 OptionalTensorRef per_sample_weights, bool include_last_offset,
 int64_t padding_idx, const Tensor &out0, const Tensor &out1,
 const Tensor &out2, const Tensor &out3) {
  Tensor Idx = indices.contiguous();
  Tensor Off = offsets.contiguous();
  bool IsLong = Idx.scalar_type() == kLong;
  const void *IdxData = Idx.data_ptr();
  const void *OffData = Off.data_ptr();
  int64_t N = Idx.numel();
  int64_t NumOffsets = Off.numel();
  int64_t NumBags = out0.size(0);
  int64_t Rows = weight.size(0);

  kernels::checkEmbeddingBagIndices(IdxData, OffData, IsLong, N, NumOffsets,
                                    Rows);

  // Indices are never negative, so a negative padding_idx (PyTorch passes
  // -1) matches none.
  int64_t PaddingIdx = padding_idx;

  // offset2bag: the bag each index falls in (the cumulative count of
  // offsets at or before it, as PyTorch's index_add + cumsum computes).
  if (out1.numel() == N) {
    int64_t Bag = 0;
    for (int64_t I = 0; I < N; ++I) {
      while (Bag + 1 < NumOffsets && indexAt(OffData, IsLong, Bag + 1) <= I)
        ++Bag;
      setIndex(out1.data_ptr(), IsLong, I, Bag);
    }
  }
  out3.zero_();
  if (NumBags == 0)
    return;
  // With include_last_offset the last offset ends the last bag; without,
  // the last bag runs to the end of indices.
  int64_t BagOffsets = include_last_offset ? NumOffsets : NumBags;
  dispatchDtypes<dtypes::Floating>(
      weight.scalar_type(), "embedding_bag_cpu", [&](auto Tag) {
        embeddingBagKernel<decltype(Tag)>(
            weight, IdxData, OffData, IsLong, N, BagOffsets, NumBags, mode,
            per_sample_weights ? &*per_sample_weights : nullptr, PaddingIdx,
            out0, out2.data_ptr(), out3.data_ptr());
      });
}

std::tuple<Tensor, Tensor, Tensor, Tensor> SK_NATIVE_FUNC(embedding_bag)(
    const Tensor &weight, const Tensor &indices, const Tensor &offsets,
    bool scale_grad_by_freq, int64_t mode, bool sparse,
    const std::optional<Tensor> &per_sample_weights, bool include_last_offset) {
  return sk::_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode,
                            sparse, per_sample_weights, include_last_offset,
                            /*padding_idx=*/-1);
}

} // namespace sk
#endif // HWY_ONCE
