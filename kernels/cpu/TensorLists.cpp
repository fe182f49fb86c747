//===--- TensorLists.cpp - cat and stack ----------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Structured kernels over a Tensor[] argument. cat follows PyTorch's meta
/// function: legacy 1-D empty tensors are skipped, the dtype is the result
/// type of all inputs, and the output takes the inputs' memory format when
/// they agree on one. stack is cat of the inputs unsqueezed at dim, with
/// PyTorch's output strides; PyTorch cannot make it structured (it is a
/// composite over cat), so its meta tensors and out= go through cat's.
///
//===----------------------------------------------------------------------===//

#include "shared/TensorLists.h"
#include "NativeFunctions.h"
#include "shared/SizesAround.h"

#include "sk/iter/CopyBytes.h"
#include "sk/iter/MemoryOverlap.h"
#include "sk/iter/TypePromotion.h"
#include "sk/ops/Views.h"

#include <algorithm>
#include <vector>

namespace sk {

using kernels::catShouldSkip;
using kernels::unsqueezeAll;

static int64_t legacyCatWrapDim(int64_t Dim, TensorList Tensors) {
  for (const Tensor &T : Tensors)
    if (!catShouldSkip(T))
      return maybeWrapDim(Dim, T.dim());
  return Dim;
}

/// Whether \p Strides order the dimensions of \p Sizes as \p Order
/// (fastest first), PyTorch's is_channels_last_strides_2d/3d: ambiguous
/// layouts (size-1 dimensions with equal strides) count as row-major.
static bool stridesFollowOrder(IntArrayRef Sizes, IntArrayRef Strides,
                               ArrayRef<int> Order) {
  if (Strides[1] == 0)
    return false;
  int64_t Min = 0;
  for (int D : Order) {
    if (Sizes[D] == 0 || Strides[D] < Min)
      return false;
    if (D == 0 && Min == Strides[1])
      return false;
    Min = Strides[D];
    if (Sizes[D] > 1)
      Min *= Sizes[D];
  }
  return true;
}

/// PyTorch's Tensor::suggest_memory_format. Tensor::suggest_memory_format
/// of the runtime answers differently where a size-1 dimension makes the
/// layout ambiguous (it says ChannelsLast only for tensors that are not
/// also row-major, PyTorch decides by the stride order), and cat's output
/// layout must be PyTorch's.
static MemoryFormat suggestMemoryFormat(const Tensor &T) {
  static constexpr int Order4[] = {1, 3, 2, 0};
  static constexpr int Order5[] = {1, 4, 3, 2, 0};
  if (T.dim() == 4 && stridesFollowOrder(T.sizes(), T.strides(), Order4))
    return MemoryFormat::ChannelsLast;
  if (T.dim() == 5 && stridesFollowOrder(T.sizes(), T.strides(), Order5))
    return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

/// The output's memory format: the one the inputs suggest when they all
/// suggest the same non-default one, else Contiguous.
static MemoryFormat catMemoryFormat(TensorList Tensors) {
  std::optional<MemoryFormat> Format;
  for (const Tensor &T : Tensors) {
    MemoryFormat F = suggestMemoryFormat(T);
    if (F == MemoryFormat::Contiguous)
      return F;
    if (Format && *Format != F)
      return MemoryFormat::Contiguous;
    Format = F;
  }
  return Format.value_or(MemoryFormat::Contiguous);
}

namespace {
/// What cat's meta function decides, shared with stack's.
struct CatOutput {
  std::vector<int64_t> Sizes;
  ScalarType Dtype;
  MemoryFormat Format;
  Device Dev;
  int64_t Dim;
  /// Whether some input is not skipped.
  bool FoundValid;
};
} // namespace

/// PyTorch's cat meta function, without set_output: the output of
/// concatenating \p Tensors along \p Dim into \p Out (undefined in the
/// functional variant).
static CatOutput computeCatOutput(TensorList Tensors, int64_t Dim,
                                  const Tensor &Out) {
  for (size_t I = 0; I != Tensors.size(); ++I)
    SK_CHECK(Tensors[I].dim() > 0, "zero-dimensional tensor (at position ", I,
             ") cannot be concatenated");
  Dim = legacyCatWrapDim(Dim, Tensors);
  SK_CHECK(!Tensors.empty(), "torch.cat(): expected a non-empty list of "
                             "Tensors");
  for (size_t I = 1; I != Tensors.size(); ++I)
    SK_CHECK(Tensors[I].device() == Tensors[0].device(),
             "Expected all tensors to be on the same device, but found at "
             "least two devices, ",
             Tensors[0].device(), " and ", Tensors[I].device(),
             "! (tensor number ", I, " in the list)");

  CatOutput R{{0},
              result_type(Tensors),
              catMemoryFormat(Tensors),
              Tensors[0].device(),
              Dim,
              false};
  if (Out.defined()) {
    SK_CHECK(canCast(R.Dtype, Out.scalar_type()),
             "torch.cat(): input types can't be cast to the desired output "
             "type ",
             Out.scalar_type());
    R.Dtype = Out.scalar_type();
  }

  size_t Valid = Tensors.size();
  for (size_t I = 0; I != Tensors.size(); ++I)
    if (!catShouldSkip(Tensors[I])) {
      Valid = I;
      break;
    }
  if (Valid == Tensors.size())
    return R;

  R.FoundValid = true;
  const Tensor &First = Tensors[Valid];
  int64_t SizeAtDim = 0;
  for (size_t I = 0; I != Tensors.size(); ++I) {
    const Tensor &T = Tensors[I];
    if (catShouldSkip(T))
      continue;
    SK_CHECK(T.dim() == First.dim(),
             "Tensors must have same number of dimensions: got ", First.dim(),
             " and ", T.dim());
    for (int64_t D = 0; D != First.dim(); ++D)
      SK_CHECK(D == Dim || T.size(D) == First.size(D),
               "Sizes of tensors must match except in dimension ", Dim,
               ". Expected size ", First.size(D), " but got size ", T.size(D),
               " for tensor number ", I, " in the list.");
    SizeAtDim += T.size(Dim);
  }
  R.Sizes = First.sizes().vec();
  R.Sizes[Dim] = SizeAtDim;
  return R;
}

/// The overlap checks of cat.out and stack.out, once \p Out has its size.
static void checkCatOverlap(const Tensor &Out, TensorList Tensors) {
  if (!Out.defined() || Out.is_meta())
    return;
  assert_no_internal_overlap(Out);
  for (const Tensor &T : Tensors)
    assert_no_overlap(Out, T);
}

SK_PRECOMPUTE_META_FUNC(cat)(TensorList tensors, int64_t dim) {
  const Tensor &Out = maybe_get_output();
  CatOutput R = computeCatOutput(tensors, dim, Out);
  set_output_raw_strided(
      0, R.Sizes, {},
      TensorOptions().dtype(R.Dtype).device(R.Dev).memory_format(R.Format));
  if (R.FoundValid)
    checkCatOverlap(maybe_get_output(), tensors);
  return SK_PRECOMPUTE_STRUCT(cat)().set_dim(R.Dim);
}

/// Concatenates the inputs cat does not skip along \p Dim into \p Out.
static void catInto(TensorList Tensors, int64_t Dim, const Tensor &Out) {
  if (Out.numel() == 0)
    return;
  if (!kernels::catCopiesBytes(Tensors, Out)) {
    kernels::catByCopies(Tensors, Dim, Out);
    return;
  }

  // The output is Outer rows, each the inputs' row-major chunks side by
  // side.
  IntArrayRef Sizes = Out.sizes();
  auto [Outer, Inner] = kernels::sizesAround(Sizes, Dim);
  int64_t ElemSize = static_cast<int64_t>(Out.itemsize());
  struct Chunk {
    const char *Data;
    int64_t Bytes;
  };
  std::vector<Chunk> Chunks;
  for (const Tensor &T : Tensors)
    if (!catShouldSkip(T) && T.numel() != 0)
      Chunks.push_back({static_cast<const char *>(T.data_ptr()),
                        T.size(Dim) * Inner * ElemSize});
  int64_t RowBytes = Sizes[Dim] * Inner * ElemSize;
  char *Dst = static_cast<char *>(Out.data_ptr());
  if (Outer < 64) {
    // Few rows (cat along dimension 0 has one): the copies themselves are
    // split into pieces the threads share.
    constexpr int64_t kPieceBytes = int64_t(1) << 18;
    struct Piece {
      char *To;
      const char *From;
      int64_t Bytes;
    };
    std::vector<Piece> Pieces;
    for (int64_t O = 0; O < Outer; ++O) {
      char *Row = Dst + O * RowBytes;
      for (const Chunk &C : Chunks) {
        for (int64_t B = 0; B < C.Bytes; B += kPieceBytes)
          Pieces.push_back({Row + B, C.Data + O * C.Bytes + B,
                            std::min(kPieceBytes, C.Bytes - B)});
        Row += C.Bytes;
      }
    }
    int64_t NumPieces = static_cast<int64_t>(Pieces.size());
    // Below a megabyte in all, the threads would cost more than they save.
    int64_t Grain = Outer * RowBytes < (int64_t(1) << 20) ? NumPieces : 1;
    parallel_for(0, NumPieces, std::max<int64_t>(Grain, 1),
                 [&](int64_t Begin, int64_t End) {
                   for (int64_t I = Begin; I < End; ++I)
                     copyBytes(Pieces[I].To, Pieces[I].From,
                               static_cast<size_t>(Pieces[I].Bytes));
                 });
    return;
  }
  int64_t Grain =
      std::max<int64_t>(1, kGrainSize * 4 / std::max<int64_t>(1, RowBytes));
  parallel_for(0, Outer, Grain, [&](int64_t Begin, int64_t End) {
    for (int64_t O = Begin; O < End; ++O) {
      char *Row = Dst + O * RowBytes;
      for (const Chunk &C : Chunks) {
        copyBytes(Row, C.Data + O * C.Bytes, static_cast<size_t>(C.Bytes));
        Row += C.Bytes;
      }
    }
  });
}

SK_IMPL_FUNC(cat_out)(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(tensors, dim, out);
}

SK_PRECOMPUTE_META_FUNC(stack)(TensorList tensors, int64_t dim) {
  SK_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  int64_t Rank = tensors[0].dim();
  int64_t Wrapped = maybeWrapDim(dim, Rank + 1);
  for (size_t I = 1; I != tensors.size(); ++I)
    SK_CHECK(tensors[I].sizes() == tensors[0].sizes(),
             "stack expects each tensor to be equal size, but got ",
             tensors[0].sizes(), " at entry 0 and ", tensors[I].sizes(),
             " at entry ", I);
  std::vector<int64_t> Sizes = tensors[0].sizes().vec();
  Sizes.insert(Sizes.begin() + Wrapped, static_cast<int64_t>(tensors.size()));

  // PyTorch's stack is cat along dim viewed with the new dimension split
  // out, or, along the last dim, cat of the unsqueezed inputs; its strides
  // are those of that cat's output.
  const Tensor &Out = maybe_get_output();
  bool AlongLast = Wrapped == Rank;
  CatOutput R =
      AlongLast ? computeCatOutput(unsqueezeAll(tensors, Wrapped), Wrapped, Out)
                : computeCatOutput(tensors, Wrapped, Out);
  std::vector<int64_t> Strides;
  if (AlongLast) {
    Strides = stridesForMemoryFormat(Sizes, R.Format);
  } else if (R.FoundValid) {
    std::vector<int64_t> CatStrides = stridesForMemoryFormat(R.Sizes, R.Format);
    if (std::optional<std::vector<int64_t>> Split =
            computeStride(R.Sizes, CatStrides, Sizes))
      Strides = std::move(*Split);
  }
  set_output_raw_strided(0, Sizes, Strides,
                         TensorOptions().dtype(R.Dtype).device(R.Dev));
  checkCatOverlap(maybe_get_output(), tensors);
  return SK_PRECOMPUTE_STRUCT(stack)().set_dim(Wrapped);
}

SK_IMPL_FUNC(stack_out)(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(unsqueezeAll(tensors, dim), dim, out);
}

} // namespace sk
