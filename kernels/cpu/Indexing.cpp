//===--- Indexing.cpp - index_select, take, gather, masked_select, nonzero ===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Structured kernels that read elements at computed positions. The three
/// gathers (index_select, take, gather) share one TensorIterator loop over
/// the output, a restrided view of self and the index; masked_select and
/// nonzero have output shapes that depend on the data (Note [Data-dependent
/// output shapes] in sk/iter/DataDependentShape.h).
///
//===----------------------------------------------------------------------===//

#include "shared/Indexing.h"
#include "Functions.h"
#include "NativeFunctions.h"
#include "shared/SizesAround.h"

#include "sk/iter/MemoryOverlap.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace sk {

/// Calls \p Fn(Ptrs) for every element of \p Sizes in row-major order,
/// where Ptrs[I] addresses the element in operand I (base \p Bases[I],
/// element strides \p Strides[I], element size \p ElemSizes[I]).
template <size_t N, typename Fn>
static void walkRowMajor(IntArrayRef Sizes,
                         const std::array<const char *, N> &Bases,
                         const std::array<IntArrayRef, N> &Strides,
                         const std::array<int64_t, N> &ElemSizes, Fn &&F) {
  int64_t Rank = static_cast<int64_t>(Sizes.size());
  for (int64_t S : Sizes)
    if (S == 0)
      return;
  if (Rank == 0) {
    F(Bases);
    return;
  }
  std::vector<int64_t> Counter(static_cast<size_t>(Rank), 0);
  std::array<const char *, N> Ptrs = Bases;
  int64_t Inner = Sizes[Rank - 1];
  std::array<int64_t, N> InnerStep;
  for (size_t I = 0; I != N; ++I)
    InnerStep[I] = Strides[I][Rank - 1] * ElemSizes[I];
  for (;;) {
    std::array<const char *, N> P = Ptrs;
    for (int64_t J = 0; J < Inner; ++J) {
      F(P);
      for (size_t I = 0; I != N; ++I)
        P[I] += InnerStep[I];
    }
    // Carry into the outer dimensions.
    int64_t D = Rank - 2;
    for (; D >= 0; --D) {
      if (++Counter[D] < Sizes[D]) {
        for (size_t I = 0; I != N; ++I)
          Ptrs[I] += Strides[I][D] * ElemSizes[I];
        break;
      }
      for (size_t I = 0; I != N; ++I)
        Ptrs[I] -= (Sizes[D] - 1) * Strides[I][D] * ElemSizes[I];
      Counter[D] = 0;
    }
    if (D < 0)
      return;
  }
}

/// Whether the element at \p P of dtype \p T is non-zero (NaN is).
template <typename T> static bool isNonzero(const char *P) {
  T V;
  std::memcpy(&V, P, sizeof V);
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return static_cast<float>(V) != 0.0f;
  else
    return V != T(0);
}

/// The number of non-zero elements of \p T, any strides (an expanded mask
/// counts its repeated elements). Reads the data: see Note [Data-dependent
/// output shapes] in sk/iter/DataDependentShape.h. A tensor on another
/// device (CUDA) is counted from a copy on the CPU.
// Note [Nonzero in chunks]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// A large contiguous input is cut into chunks of consecutive elements, a
// few per thread. Each chunk counts its non-zero elements in parallel;
// nonzero's impl then turns the counts into each chunk's first output row
// (a prefix sum) and writes the chunks in parallel, each starting from the
// multi-index of its first element. PyTorch's CPU kernel works the same
// way.

/// The chunks of Note [Nonzero in chunks] for \p N elements: chunk C is
/// [N * C / Chunks, N * (C + 1) / Chunks). One chunk below the grain size
/// or on one thread, where counting again in the impl would be a pass
/// more than the serial walk's.
static int64_t getNonzeroChunks(int64_t N) {
  if (N < kGrainSize || get_num_threads() == 1)
    return 1;
  return std::max<int64_t>(
      1, std::min<int64_t>(4 * get_num_threads(), N / kGrainSize));
}

/// The non-zero elements of each chunk of the contiguous \p T, of type E.
template <typename E>
static std::vector<int64_t> countChunks(const Tensor &T, int64_t Chunks) {
  const char *Base = static_cast<const char *>(T.data_ptr());
  int64_t N = T.numel();
  std::vector<int64_t> Counts(static_cast<size_t>(Chunks), 0);
  parallel_for(0, Chunks, 1, [&](int64_t Begin, int64_t End) {
    for (int64_t C = Begin; C < End; ++C) {
      int64_t Count = 0;
      for (int64_t I = N * C / Chunks, Stop = N * (C + 1) / Chunks; I < Stop;
           ++I)
        Count += isNonzero<E>(Base + I * int64_t(sizeof(E)));
      Counts[static_cast<size_t>(C)] = Count;
    }
  });
  return Counts;
}

/// The non-zero elements of \p T, counted on its device: for CUDA, one
/// 8-byte read back (Note [Selection on CUDA] in cuda/Indexing.cu).
static int64_t countNonzero(const Tensor &T) {
  return sk::count_nonzero(T, IntArrayRef()).item<int64_t>();
}

//===----------------------------------------------------------------------===//
// The gather loop
//===----------------------------------------------------------------------===//

namespace {
/// One gather: Out[i] = *(Src[i] + Index[i] * DimStrideBytes), over a
/// TensorIterator of (Out, Src, Index) whose Src is self restrided with
/// stride 0 along the indexed dimension.
struct GatherSpec {
  const char *Op;
  /// The size of the indexed dimension: indices must lie in [0, DimSize),
  /// or in [-DimSize, DimSize) when WrapNegative.
  int64_t DimSize;
  int64_t DimStrideBytes;
  int64_t Dim;
  bool WrapNegative;
};
} // namespace

template <typename IndexT, size_t ElemBytes>
static void gatherLoop(TensorIterator &Iter, const GatherSpec &S) {
  Iter.for_each([&S](char **Data, const int64_t *Strides, int64_t N) {
    // Locals, not loads through Data, Strides and S at every element:
    // the byte stores below may alias those as far as the compiler knows,
    // and reloading them kept the loads of one element from overlapping
    // the next's (a cache miss each, in a gather).
    char *Out = Data[0];
    const char *Src = Data[1];
    const char *Index = Data[2];
    const int64_t OutStride = Strides[0], SrcStride = Strides[1],
                  IndexStride = Strides[2];
    const int64_t DimSize = S.DimSize, DimStride = S.DimStrideBytes;
    if (IndexStride == int64_t(sizeof(IndexT)) && SrcStride == 0 &&
        OutStride == int64_t(ElemBytes)) {
      // A row along the indexed dimension (gather's common case): check
      // the row's indices, then copy with nothing between the loads.
      const IndexT *Ix = reinterpret_cast<const IndexT *>(Index);
      bool AllInRange = true;
      for (int64_t I = 0; I < N; ++I)
        AllInRange &= Ix[I] >= 0 && Ix[I] < DimSize;
      if (AllInRange) {
        for (int64_t I = 0; I < N; ++I)
          std::memcpy(Out + I * int64_t(ElemBytes),
                      Src + static_cast<int64_t>(Ix[I]) * DimStride, ElemBytes);
        return;
      }
    }
    for (int64_t I = 0; I < N; ++I) {
      IndexT Raw;
      std::memcpy(&Raw, Index + I * IndexStride, sizeof Raw);
      int64_t Idx = static_cast<int64_t>(Raw);
      if (SK_UNLIKELY(Idx < 0 || Idx >= DimSize)) {
        if (!S.WrapNegative || Idx < -DimSize || Idx >= DimSize)
          kernels::reportIndexOutOfRange(S.Op, Idx, S.Dim, DimSize,
                                         S.WrapNegative);
        Idx += DimSize;
      }
      std::memcpy(Out + I * OutStride, Src + I * SrcStride + Idx * DimStride,
                  ElemBytes);
    }
  });
}

/// Runs the gather \p S into \p Out from \p Src (same sizes as Out, stride
/// 0 along the indexed dimension) at \p Index (same sizes as Out).
static void runGather(const Tensor &Out, const Tensor &Src, const Tensor &Index,
                      const GatherSpec &S) {
  if (Out.numel() == 0)
    return;
  TensorIterator Iter = TensorIteratorConfig()
                            .set_check_mem_overlap(false)
                            .check_all_same_dtype(false)
                            .resize_outputs(false)
                            .add_output(Out)
                            .add_input(Src)
                            .add_input(Index)
                            .declare_static_shape(Out.sizes())
                            .build();
  bool Int32 = Index.scalar_type() == kInt;
  auto Run = [&](auto IndexTag) {
    using IndexT = decltype(IndexTag);
    dispatchElementSize(Out.scalar_type(), [&](auto Tag) {
      gatherLoop<IndexT, sizeof(Tag)>(Iter, S);
    });
  };
  if (Int32)
    Run(int32_t{});
  else
    Run(int64_t{});
}

//===----------------------------------------------------------------------===//
// index_select
//===----------------------------------------------------------------------===//

SK_PRECOMPUTE_META_FUNC(index_select)
(const Tensor &self, int64_t dim, const Tensor &index) {
  int64_t Dim = maybeWrapDim(dim, self.dim());
  SK_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a "
                             "vector");
  SK_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
           "index_select(): Expected dtype int32 or int64 for index, but got ",
           index.scalar_type());
  SK_CHECK(self.dim() > 0 || index.numel() == 1,
           "index_select(): Index to scalar can have only 1 value, got ",
           index.numel(), " value(s)");
  std::vector<int64_t> Sizes = self.sizes().vec();
  if (self.dim() > 0)
    Sizes[Dim] = index.numel();
  SK_CHECK(self.dim() == 0 || self.size(Dim) > 0 || index.numel() == 0,
           "index_select(): cannot select ", index.numel(),
           " entries from dimension ", Dim, " of size 0");
  set_output_raw_strided(0, Sizes, {}, self.options());
  const Tensor &Out = maybe_get_output();
  if (!Out.is_meta()) {
    assert_no_internal_overlap(Out);
    assert_no_overlap(Out, self);
    assert_no_overlap(Out, index);
  }
  return SK_PRECOMPUTE_STRUCT(index_select)().set_dim(Dim);
}

SK_IMPL_FUNC(index_select_out)
(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &out) {
  if (out.numel() == 0)
    return;
  int64_t N = index.numel();
  int64_t DimSize = self.dim() == 0 ? 1 : self.size(dim);
  GatherSpec S{"index_select", DimSize,
               self.dim() == 0
                   ? 0
                   : self.stride(dim) * static_cast<int64_t>(self.itemsize()),
               dim, /*WrapNegative=*/false};

  if (self.is_contiguous() && out.is_contiguous() && self.dim() > 0) {
    // Row-major: each index selects one contiguous block of Inner
    // elements per outer row. Check every index before writing.
    std::vector<int64_t> Indices(static_cast<size_t>(N));
    Tensor Idx = index.reshape({N});
    bool Int32 = Idx.scalar_type() == kInt;
    const char *IdxData = static_cast<const char *>(Idx.data_ptr());
    int64_t IdxStep = Idx.stride(0) * static_cast<int64_t>(Idx.itemsize());
    for (int64_t J = 0; J < N; ++J) {
      const char *P = IdxData + J * IdxStep;
      int64_t V = Int32 ? *reinterpret_cast<const int32_t *>(P)
                        : *reinterpret_cast<const int64_t *>(P);
      if (V < 0 || V >= DimSize)
        kernels::reportIndexOutOfRange(S.Op, V, S.Dim, S.DimSize,
                                       S.WrapNegative);
      Indices[J] = V;
    }
    kernels::SizesAround Around = kernels::sizesAround(self.sizes(), dim);
    int64_t Outer = Around.Outer, Inner = Around.Inner;
    int64_t Bytes = Inner * static_cast<int64_t>(self.itemsize());
    const char *Src = static_cast<const char *>(self.data_ptr());
    char *Dst = static_cast<char *>(out.data_ptr());
    parallel_for(0, Outer * N,
                 std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, Inner)),
                 [&](int64_t Begin, int64_t End) {
                   for (int64_t R = Begin; R < End; ++R) {
                     int64_t O = R / N, J = R % N;
                     std::memcpy(Dst + R * Bytes,
                                 Src + (O * DimSize + Indices[J]) * Bytes,
                                 static_cast<size_t>(Bytes));
                   }
                 });
    return;
  }

  // Any strides: the index runs along dim, broadcast over the rest.
  runGather(out, kernels::restrideAlong(self, out.sizes(), dim),
            kernels::indexAlong(index, self, out, dim), S);
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

SK_META_FUNC(take)(const Tensor &self, const Tensor &index) {
  SK_CHECK(index.scalar_type() == kLong,
           "take(): Expected a long tensor for index, but got ",
           index.scalar_type());
  SK_CHECK_INDEX(self.numel() > 0 || index.numel() == 0,
                 "take(): tried to take from an empty tensor");
  // Contiguous, whatever the index's layout: PyTorch resizes the output to
  // the index's sizes before its TensorIterator sees it.
  set_output_raw_strided(0, index.sizes(), {}, self.options());
  const Tensor &Out = maybe_get_output();
  if (!Out.is_meta()) {
    assert_no_internal_overlap(Out);
    assert_no_overlap(Out, index);
    assert_no_overlap(Out, self);
  }
}

SK_IMPL_FUNC(take_out)
(const Tensor &self, const Tensor &index, const Tensor &out) {
  if (out.numel() == 0)
    return;
  // take indexes self as if flattened in row-major order.
  Tensor Flat = self.reshape({self.numel()});
  GatherSpec S{"take", Flat.numel(),
               Flat.stride(0) * static_cast<int64_t>(Flat.itemsize()), 0,
               /*WrapNegative=*/true};
  std::vector<int64_t> Zeros(out.sizes().size(), 0);
  runGather(out, Flat.as_strided(out.sizes(), Zeros, Flat.storage_offset()),
            index, S);
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

SK_PRECOMPUTE_META_FUNC(gather)
(const Tensor &self, int64_t dim, const Tensor &index, bool sparse_grad) {
  int64_t Dim = maybeWrapDim(dim, self.dim());
  if (index.numel() != 0) {
    SK_CHECK(index.scalar_type() == kLong,
             "gather(): Expected dtype int64 for index, but got ",
             index.scalar_type());
    // A 0-dim tensor counts as 1-D of size 1 here (ensure_nonempty_dim).
    int64_t SelfDims = std::max<int64_t>(1, self.dim());
    SK_CHECK(SelfDims == std::max<int64_t>(1, index.dim()),
             "Index tensor must have the same number of dimensions as input "
             "tensor");
    for (int64_t D = 0; D < SelfDims; ++D) {
      int64_t IndexSize = index.dim() == 0 ? 1 : index.size(D);
      int64_t SelfSize = self.dim() == 0 ? 1 : self.size(D);
      SK_CHECK(D == Dim || IndexSize <= SelfSize,
               "Size does not match at dimension ", D, " expected index ",
               index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", Dim);
    }
  }
  set_output_raw_strided(0, index.sizes(), {}, self.options());
  const Tensor &Out = maybe_get_output();
  if (!Out.is_meta()) {
    assert_no_internal_overlap(Out);
    assert_no_overlap(Out, self);
    assert_no_partial_overlap(Out, index);
  }
  return SK_PRECOMPUTE_STRUCT(gather)().set_dim(Dim);
}

SK_IMPL_FUNC(gather_out)
(const Tensor &self, int64_t dim, const Tensor &index, bool sparse_grad,
 const Tensor &out) {
  if (out.numel() == 0)
    return;
  bool IsScalar = self.dim() == 0;
  GatherSpec S{
      "gather", IsScalar ? 1 : self.size(dim),
      IsScalar ? 0 : self.stride(dim) * static_cast<int64_t>(self.itemsize()),
      dim, /*WrapNegative=*/false};
  runGather(out, kernels::restrideAlong(self, index.sizes(), dim), index, S);
}

//===----------------------------------------------------------------------===//
// masked_select, nonzero
//===----------------------------------------------------------------------===//

SK_META_FUNC(masked_select)(const Tensor &self, const Tensor &mask) {
  SK_CHECK(mask.scalar_type() == kBool,
           "masked_select: expected BoolTensor for mask, but got ",
           mask.scalar_type());
  DimVector Shape = infer_size_dimvector(self.sizes(), mask.sizes());
  // Note [Data-dependent output shapes] in sk/iter/DataDependentShape.h.
  refuse_meta_input("masked_select", "mask", mask);
  refuse_meta_input("masked_select", "self", self);
  int64_t Count = countNonzero(mask.expand(Shape));
  set_output_raw_strided(0, {Count}, {}, self.options());
  const Tensor &Out = maybe_get_output();
  assert_no_internal_overlap(Out);
  assert_no_overlap(Out, self);
  assert_no_overlap(Out, mask);
}

SK_IMPL_FUNC(masked_select_out)
(const Tensor &self, const Tensor &mask, const Tensor &out) {
  if (out.numel() == 0)
    return;
  DimVector Shape = infer_size_dimvector(self.sizes(), mask.sizes());
  Tensor Src = self.expand(Shape), Mask = mask.expand(Shape);
  int64_t ElemSize = static_cast<int64_t>(self.itemsize());
  char *Dst = static_cast<char *>(out.data_ptr());
  int64_t DstStep = out.stride(0) * ElemSize, Written = 0, Limit = out.numel();
  walkRowMajor<2>(Shape,
                  {static_cast<const char *>(Src.data_ptr()),
                   static_cast<const char *>(Mask.data_ptr())},
                  {Src.strides(), Mask.strides()}, {ElemSize, 1},
                  [&](const std::array<const char *, 2> &P) {
                    if (!*reinterpret_cast<const bool *>(P[1]))
                      return;
                    SK_INTERNAL_ASSERT(Written < Limit,
                                       "masked_select: the mask changed "
                                       "between meta and impl");
                    std::memcpy(Dst + Written * DstStep, P[0],
                                static_cast<size_t>(ElemSize));
                    ++Written;
                  });
}

/// Writes the multi-index \p Index as one row of nonzero's output, its
/// columns \p ColStride apart.
static void writeIndexRow(int64_t *Row, int64_t ColStride,
                          const std::vector<int64_t> &Index) {
  for (size_t D = 0; D != Index.size(); ++D)
    Row[static_cast<int64_t>(D) * ColStride] = Index[D];
}

/// Advances the row-major multi-index \p Index of a tensor of \p Sizes.
static void advanceRowMajor(std::vector<int64_t> &Index, IntArrayRef Sizes) {
  for (size_t D = Index.size(); D-- != 0;) {
    if (++Index[D] < Sizes[D])
      return;
    Index[D] = 0;
  }
}

SK_META_FUNC(nonzero)(const Tensor &self) {
  // Note [Data-dependent output shapes] in sk/iter/DataDependentShape.h.
  refuse_meta_input("nonzero", "self", self);
  int64_t Count = countNonzero(self);
  // PyTorch's layout: the transpose of a contiguous [dim, Count], so that
  // each dimension's indices are contiguous (a given out= tensor of the
  // right size keeps its own).
  set_output_raw_strided(0, {Count, self.dim()},
                         {1, std::max<int64_t>(Count, 1)},
                         TensorOptions().dtype(kLong).device(self.device()));
  const Tensor &Out = maybe_get_output();
  assert_no_internal_overlap(Out);
  assert_no_overlap(Out, self);
}

SK_IMPL_FUNC(nonzero_out)(const Tensor &self, const Tensor &out) {
  int64_t Rank = self.dim();
  if (out.numel() == 0)
    return;
  int64_t *Dst = out.data_ptr<int64_t>();
  int64_t RowStride = out.stride(0), ColStride = out.stride(1);
  int64_t Row = 0, Limit = out.size(0);
  int64_t Chunks = getNonzeroChunks(self.numel());
  if (Chunks > 1 && self.is_contiguous()) {
    // Note [Nonzero in chunks].
    IntArrayRef Sizes = self.sizes();
    int64_t N = self.numel();
    visitScalarType(self.scalar_type(), [&](auto Tag) {
      using E = decltype(Tag);
      std::vector<int64_t> First = countChunks<E>(self, Chunks);
      int64_t Total = 0;
      for (int64_t &C : First)
        Total += std::exchange(C, Total);
      SK_INTERNAL_ASSERT(Total == Limit,
                         "nonzero: the input changed between meta and impl");
      const char *Base = static_cast<const char *>(self.data_ptr());
      parallel_for(0, Chunks, 1, [&](int64_t Begin, int64_t End) {
        std::vector<int64_t> Index(static_cast<size_t>(Rank));
        for (int64_t C = Begin; C < End; ++C) {
          int64_t I = N * C / Chunks, Stop = N * (C + 1) / Chunks;
          for (int64_t D = Rank - 1, Rest = I; D >= 0; --D) {
            Index[D] = Rest % Sizes[D];
            Rest /= Sizes[D];
          }
          int64_t R = First[static_cast<size_t>(C)];
          for (; I < Stop; ++I) {
            if (isNonzero<E>(Base + I * int64_t(sizeof(E))))
              writeIndexRow(Dst + R++ * RowStride, ColStride, Index);
            advanceRowMajor(Index, Sizes);
          }
        }
      });
    });
    return;
  }
  // The walk is row-major, so the multi-index of the current element is a
  // counter advanced alongside it.
  std::vector<int64_t> Index(static_cast<size_t>(Rank), 0);
  IntArrayRef Sizes = self.sizes();
  visitScalarType(self.scalar_type(), [&](auto Tag) {
    using E = decltype(Tag);
    walkRowMajor<1>(Sizes, {static_cast<const char *>(self.data_ptr())},
                    {self.strides()}, {static_cast<int64_t>(sizeof(E))},
                    [&](const std::array<const char *, 1> &P) {
                      if (isNonzero<E>(P[0])) {
                        SK_INTERNAL_ASSERT(Row < Limit,
                                           "nonzero: the input changed "
                                           "between meta and impl");
                        writeIndexRow(Dst + Row++ * RowStride, ColStride,
                                      Index);
                      }
                      advanceRowMajor(Index, Sizes);
                    });
  });
}

} // namespace sk
