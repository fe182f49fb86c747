//===--- Views.cpp - Tensors that share their input's storage -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// view, reshape, as_strided, transpose, permute, t, narrow, slice, select,
/// expand, squeeze, unsqueeze, flatten and contiguous. Each computes new
/// sizes, strides and a storage offset and wraps the input's storage in a
/// new TensorImpl; nothing here reads or writes elements (reshape and
/// contiguous copy through clone() when they must), so all of them work on
/// meta tensors.
///
//===----------------------------------------------------------------------===//

#include "sk/ops/Views.h"
#include "sk/core/EmptyTensor.h"

#include <algorithm>
#include <limits>

namespace sk {

/// Wraps \p Dim into [0, Rank) like maybeWrapDim, but the IndexError starts
/// with the name of \p Op.
static int64_t wrapDim(const char *Op, int64_t Dim, int64_t Rank,
                       bool WrapScalar = true) {
  if (Rank <= 0) {
    SK_CHECK_INDEX(WrapScalar, Op, "(): dimension specified as ", Dim,
                   " but tensor has no dimensions");
    Rank = 1;
  }
  SK_CHECK_INDEX(Dim >= -Rank && Dim < Rank, Op,
                 "(): Dimension out of range (expected to be in range of [",
                 -Rank, ", ", Rank - 1, "], but got ", Dim, ")");
  return Dim < 0 ? Dim + Rank : Dim;
}

/// \p A * \p B and \p A + \p B modulo 2^64. Stride arithmetic on real
/// tensors stays far from overflow (their extent is allocated), but a meta
/// tensor from as_strided may carry strides near 2^63; its views get
/// meaningless but defined strides instead of undefined behaviour.
static int64_t mulWrapping(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}
static int64_t addWrapping(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B));
}

std::vector<int64_t> inferSize(IntArrayRef Shape, int64_t Numel,
                               const char *Op) {
  std::vector<int64_t> Result = Shape.vec();
  int64_t NewSize = 1;
  bool Overflow = false;
  std::optional<size_t> InferDim;
  for (size_t D = 0; D != Shape.size(); ++D) {
    if (Shape[D] == -1) {
      SK_CHECK(!InferDim, Op,
               "(): only one dimension can be inferred, but "
               "shape ",
               Shape, " has more than one -1");
      InferDim = D;
      continue;
    }
    SK_CHECK(Shape[D] >= 0, Op, "(): invalid shape dimension ", Shape[D],
             " in shape ", Shape);
    Overflow |= __builtin_mul_overflow(NewSize, Shape[D], &NewSize);
  }
  bool Fits = !Overflow && (Numel == NewSize ||
                            (InferDim && NewSize > 0 && Numel % NewSize == 0));
  SK_CHECK(Fits, Op, "(): shape '", Shape, "' is invalid for input of size ",
           Numel);
  if (InferDim) {
    SK_CHECK(NewSize != 0, Op,
             "(): cannot reshape tensor of 0 elements into "
             "shape ",
             Shape,
             " because the unspecified dimension size -1 can be any value "
             "and is ambiguous");
    Result[*InferDim] = Numel / NewSize;
  }
  return Result;
}

// Note [View stride compatibility]
// A view keeps every element where it is, so each dimension of the new
// shape must step through memory with one stride. Split the old shape into
// chunks of dimensions that are contiguous with each other (stride[i] ==
// stride[i+1] * size[i+1], size-1 dimensions fitting anywhere); walking
// both shapes from the innermost dimension, the new dimensions must cover
// each chunk exactly, and inside a chunk their strides follow from the
// chunk's innermost stride. A new dimension that straddles two chunks makes
// the view impossible. This is at::detail::computeStride's rule.
std::optional<std::vector<int64_t>> computeStride(IntArrayRef OldSizes,
                                                  IntArrayRef OldStrides,
                                                  IntArrayRef NewSizes) {
  size_t NewRank = NewSizes.size();
  if (OldSizes.empty())
    return std::vector<int64_t>(NewRank, 1);

  int64_t Numel = 1;
  for (int64_t S : OldSizes)
    Numel *= S;
  // With no elements any strides will do: keep the old ones when the shape
  // is unchanged, as NumPy does, else use row-major ones.
  if (Numel == 0) {
    if (OldSizes.equals(NewSizes))
      return OldStrides.vec();
    return contiguousStrides(NewSizes);
  }

  std::vector<int64_t> NewStrides(NewRank);
  int64_t ViewD = static_cast<int64_t>(NewRank) - 1;
  int64_t ChunkBaseStride = OldStrides.back();
  int64_t TensorNumel = 1;
  int64_t ViewNumel = 1;
  for (int64_t TensorD = static_cast<int64_t>(OldSizes.size()) - 1;
       TensorD >= 0; --TensorD) {
    TensorNumel *= OldSizes[TensorD];
    bool ChunkEnds =
        TensorD == 0 ||
        (OldSizes[TensorD - 1] != 1 &&
         OldStrides[TensorD - 1] != mulWrapping(TensorNumel, ChunkBaseStride));
    if (!ChunkEnds)
      continue;
    while (ViewD >= 0 && (ViewNumel < TensorNumel || NewSizes[ViewD] == 1)) {
      NewStrides[ViewD] = mulWrapping(ViewNumel, ChunkBaseStride);
      ViewNumel *= NewSizes[ViewD];
      --ViewD;
    }
    if (ViewNumel != TensorNumel)
      return std::nullopt;
    if (TensorD > 0) {
      ChunkBaseStride = OldStrides[TensorD - 1];
      TensorNumel = 1;
      ViewNumel = 1;
    }
  }
  if (ViewD != -1)
    return std::nullopt;
  return NewStrides;
}

Tensor makeView(const Tensor &Self, IntArrayRef Sizes, IntArrayRef Strides,
                int64_t StorageOffset) {
  SK_CHECK(Self.defined(), "cannot take a view of an undefined tensor");
  const TensorImpl &Base = *Self.unsafeGetTensorImpl();
  auto Impl = IntrusivePtr<TensorImpl>::make(Base.storage(), Base.dtype(),
                                             Base.device());
  Impl->set_sizes_and_strides(Sizes, Strides, StorageOffset);
  return Tensor(std::move(Impl));
}

/// A view of \p Self with its own geometry (Tensor::alias).
static Tensor alias(const Tensor &Self) {
  return makeView(Self, Self.sizes(), Self.strides(), Self.storage_offset());
}

Tensor Tensor::view(IntArrayRef Sizes) const {
  std::vector<int64_t> NewSizes = inferSize(Sizes, numel(), "view");
  std::optional<std::vector<int64_t>> NewStrides =
      computeStride(sizes(), strides(), NewSizes);
  SK_CHECK(NewStrides,
           "view size is not compatible with input tensor's size and stride "
           "(at least one dimension spans across two contiguous subspaces). "
           "Use .reshape(...) instead. (view(): input sizes ",
           sizes(), ", strides ", strides(), ", requested sizes ", Sizes, ")");
  return makeView(*this, NewSizes, *NewStrides, storage_offset());
}

Tensor Tensor::reshape(IntArrayRef Sizes) const {
  std::vector<int64_t> NewSizes = inferSize(Sizes, numel(), "reshape");
  if (std::optional<std::vector<int64_t>> NewStrides =
          computeStride(sizes(), strides(), NewSizes))
    return makeView(*this, NewSizes, *NewStrides, storage_offset());
  Tensor Copy = clone(MemoryFormat::Contiguous);
  return makeView(Copy, NewSizes, contiguousStrides(NewSizes),
                  Copy.storage_offset());
}

Tensor Tensor::as_strided(IntArrayRef Sizes, IntArrayRef Strides,
                          std::optional<int64_t> StorageOffset) const {
  int64_t Offset = StorageOffset.value_or(storage_offset());
  SK_CHECK(Sizes.size() == Strides.size(),
           "as_strided(): mismatch in length of sizes (", Sizes.size(),
           ") and strides (", Strides.size(), ")");
  for (int64_t S : Strides)
    SK_CHECK(S >= 0,
             "as_strided(): Negative strides are not supported at the "
             "moment, got strides: ",
             Strides);
  SK_CHECK(Offset >= 0, "as_strided(): Tensor: invalid storage offset ",
           Offset);
  // Checks the sizes and that the extent does not overflow.
  size_t Bytes =
      detail::computeStorageBytes("as_strided", Sizes, Strides, itemsize());
  const TensorImpl &Self = *unsafeGetTensorImpl();
  if (Self.has_storage() && Bytes > 0) {
    size_t Required;
    bool Overflow = __builtin_mul_overflow(static_cast<size_t>(Offset),
                                           itemsize(), &Required) ||
                    __builtin_add_overflow(Required, Bytes, &Required);
    size_t Available = Self.storage()->nbytes();
    SK_CHECK(!Overflow && Required <= Available,
             "as_strided(): setStorage: sizes ", Sizes, ", strides ", Strides,
             ", storage offset ", Offset, ", and itemsize ", itemsize(),
             " requiring a storage size of ", Required,
             " are out of bounds for storage of size ", Available);
  }
  return makeView(*this, Sizes, Strides, Offset);
}

Tensor Tensor::transpose(int64_t Dim0, int64_t Dim1) const {
  int64_t Rank = dim();
  Dim0 = wrapDim("transpose", Dim0, Rank);
  Dim1 = wrapDim("transpose", Dim1, Rank);
  if (Dim0 == Dim1)
    return alias(*this);
  std::vector<int64_t> Sizes = sizes().vec(), Strides = strides().vec();
  std::swap(Sizes[Dim0], Sizes[Dim1]);
  std::swap(Strides[Dim0], Strides[Dim1]);
  return makeView(*this, Sizes, Strides, storage_offset());
}

Tensor Tensor::permute(IntArrayRef Dims) const {
  int64_t Rank = dim();
  SK_CHECK(static_cast<int64_t>(Dims.size()) == Rank,
           "permute(): number of dimensions in the tensor input does not "
           "match the length of the desired ordering of dimensions i.e. "
           "input.dim() = ",
           Rank, " is not equal to len(dims) = ", Dims.size());
  std::vector<int64_t> Sizes(Rank), Strides(Rank);
  std::vector<bool> Seen(Rank, false);
  for (int64_t I = 0; I != Rank; ++I) {
    int64_t D = wrapDim("permute", Dims[I], Rank);
    SK_CHECK(!Seen[D], "permute(): duplicate dims are not allowed, but got ",
             Dims);
    Seen[D] = true;
    Sizes[I] = sizes()[D];
    Strides[I] = strides()[D];
  }
  return makeView(*this, Sizes, Strides, storage_offset());
}

Tensor Tensor::t() const {
  SK_CHECK(dim() <= 2,
           "t() expects a tensor with <= 2 dimensions, but self is ", dim(),
           "D");
  if (dim() < 2)
    return transpose(0, 0);
  return transpose(0, 1);
}

Tensor Tensor::narrow(int64_t Dim, int64_t Start, int64_t Length) const {
  SK_CHECK(dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  Dim = wrapDim("narrow", Dim, dim());
  SK_CHECK(Length >= 0, "narrow(): length must be non-negative, but got ",
           Length);
  int64_t Size = sizes()[Dim];
  // Start == Size is a valid (empty) start though not a valid index.
  SK_CHECK_INDEX(Start >= -Size && Start <= Size, "narrow(): start ", Start,
                 " out of range for dimension ", Dim, " of size ", Size,
                 " (expected to be in range of [", -Size, ", ", Size, "])");
  if (Start < 0)
    Start += Size;
  SK_CHECK(Start <= Size - Length, "narrow(): start (", Start, ") + length (",
           Length, ") exceeds dimension size (", Size, ").");
  return slice(Dim, Start, Start + Length, 1);
}

Tensor Tensor::slice(int64_t Dim, std::optional<int64_t> Start,
                     std::optional<int64_t> End, int64_t Step) const {
  SK_CHECK(dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  Dim = wrapDim("slice", Dim, dim());
  SK_CHECK(Step > 0, "slice(): slice step must be positive, but got ", Step);
  int64_t Size = sizes()[Dim];
  int64_t StartVal = Start.value_or(0);
  int64_t EndVal = End.value_or(std::numeric_limits<int64_t>::max());
  // Python semantics: negative bounds count from the end, then clamp.
  if (StartVal < 0)
    StartVal = StartVal < -Size ? 0 : StartVal + Size;
  if (EndVal < 0)
    EndVal = EndVal < -Size ? 0 : EndVal + Size;
  StartVal = std::min(StartVal, Size);
  EndVal = std::clamp(EndVal, StartVal, Size);
  int64_t Length = EndVal - StartVal;
  std::vector<int64_t> Sizes = sizes().vec(), Strides = strides().vec();
  int64_t Offset =
      addWrapping(storage_offset(), mulWrapping(StartVal, Strides[Dim]));
  Sizes[Dim] = Length == 0 ? 0 : (Length - 1) / Step + 1;
  // A step beyond the size selects one element; its stride is moot.
  Strides[Dim] = mulWrapping(Strides[Dim], Sizes[Dim] > 1 ? Step : 1);
  return makeView(*this, Sizes, Strides, Offset);
}

Tensor Tensor::select(int64_t Dim, int64_t Index) const {
  SK_CHECK_INDEX(dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  Dim = wrapDim("select", Dim, dim());
  int64_t Size = sizes()[Dim];
  SK_CHECK_INDEX(Index >= -Size && Index < Size, "select(): index ", Index,
                 " out of range for tensor of size ", sizes(), " at dimension ",
                 Dim);
  if (Index < 0)
    Index += Size;
  std::vector<int64_t> Sizes = sizes().vec(), Strides = strides().vec();
  int64_t Offset =
      addWrapping(storage_offset(), mulWrapping(Index, Strides[Dim]));
  Sizes.erase(Sizes.begin() + Dim);
  Strides.erase(Strides.begin() + Dim);
  return makeView(*this, Sizes, Strides, Offset);
}

Tensor Tensor::expand(IntArrayRef Sizes) const {
  int64_t Rank = static_cast<int64_t>(Sizes.size());
  int64_t SelfRank = dim();
  SK_CHECK(Rank >= SelfRank, "expand(tensor of size ", sizes(),
           ", size=", Sizes, "): the number of sizes provided (", Rank,
           ") must be greater or equal to the number of dimensions in the "
           "tensor (",
           SelfRank, ")");
  std::vector<int64_t> NewSizes(Rank), NewStrides(Rank);
  for (int64_t I = Rank - 1; I >= 0; --I) {
    int64_t SelfD = SelfRank - (Rank - I);
    int64_t Size = 1, Stride;
    if (SelfD >= 0) {
      Size = sizes()[SelfD];
      Stride = strides()[SelfD];
    } else {
      // A new leading dimension of size 1 gets the stride it would have if
      // it were contiguous with the dimension inside it.
      Stride =
          I + 1 < Rank ? mulWrapping(NewSizes[I + 1], NewStrides[I + 1]) : 1;
    }
    int64_t Target = Sizes[I];
    if (Target == -1) {
      SK_CHECK(SelfD >= 0,
               "expand(): The expanded size of the tensor (-1) "
               "isn't allowed in a leading, non-existing "
               "dimension ",
               I);
      Target = Size;
    }
    SK_CHECK(Target >= 0,
             "expand(): Trying to create tensor with negative "
             "dimension ",
             Target, ": ", Sizes);
    if (Size != Target) {
      SK_CHECK(Size == 1, "The expanded size of the tensor (", Target,
               ") must match the existing size (", Size,
               ") at non-singleton dimension ", I, ".  Target sizes: ", Sizes,
               ".  Tensor sizes: ", sizes());
      Size = Target;
      Stride = 0;
    }
    NewSizes[I] = Size;
    NewStrides[I] = Stride;
  }
  return makeView(*this, NewSizes, NewStrides, storage_offset());
}

Tensor Tensor::expand_as(const Tensor &Other) const {
  return expand(Other.sizes());
}

Tensor Tensor::squeeze() const {
  std::vector<int64_t> Sizes, Strides;
  for (int64_t D = 0, Rank = dim(); D != Rank; ++D) {
    if (sizes()[D] == 1)
      continue;
    Sizes.push_back(sizes()[D]);
    Strides.push_back(strides()[D]);
  }
  return makeView(*this, Sizes, Strides, storage_offset());
}

Tensor Tensor::squeeze(int64_t Dim) const {
  Dim = wrapDim("squeeze", Dim, dim());
  if (dim() == 0 || sizes()[Dim] != 1)
    return alias(*this);
  std::vector<int64_t> Sizes = sizes().vec(), Strides = strides().vec();
  Sizes.erase(Sizes.begin() + Dim);
  Strides.erase(Strides.begin() + Dim);
  return makeView(*this, Sizes, Strides, storage_offset());
}

Tensor Tensor::unsqueeze(int64_t Dim) const {
  int64_t Rank = dim();
  Dim = wrapDim("unsqueeze", Dim, Rank + 1);
  std::vector<int64_t> Sizes = sizes().vec(), Strides = strides().vec();
  int64_t Stride = Dim >= Rank ? 1 : mulWrapping(Sizes[Dim], Strides[Dim]);
  Sizes.insert(Sizes.begin() + Dim, 1);
  Strides.insert(Strides.begin() + Dim, Stride);
  return makeView(*this, Sizes, Strides, storage_offset());
}

Tensor Tensor::flatten(int64_t StartDim, int64_t EndDim) const {
  int64_t Rank = dim();
  StartDim = wrapDim("flatten", StartDim, Rank);
  EndDim = wrapDim("flatten", EndDim, Rank);
  if (Rank == 0)
    return reshape({1});
  if (StartDim == EndDim)
    return *this;
  SK_CHECK(StartDim <= EndDim, "flatten() has invalid args: start_dim (",
           StartDim, ") cannot come after end_dim (", EndDim, ")");
  std::vector<int64_t> Sizes(sizes().begin(), sizes().begin() + StartDim);
  int64_t Flat = 1;
  for (int64_t D = StartDim; D <= EndDim; ++D)
    Flat *= sizes()[D];
  Sizes.push_back(Flat);
  Sizes.insert(Sizes.end(), sizes().begin() + EndDim + 1, sizes().end());
  return reshape(Sizes);
}

Tensor Tensor::contiguous(MemoryFormat F) const {
  SK_CHECK(F != MemoryFormat::Preserve,
           "contiguous(): preserve memory format is unsupported by the "
           "contiguous operator");
  SK_CHECK(F != MemoryFormat::ChannelsLast || dim() == 4,
           "contiguous(): required rank 4 tensor to use channels_last "
           "format, but got sizes ",
           sizes());
  SK_CHECK(F != MemoryFormat::ChannelsLast3d || dim() == 5,
           "contiguous(): required rank 5 tensor to use channels_last_3d "
           "format, but got sizes ",
           sizes());
  if (is_contiguous(F))
    return *this;
  return clone(F);
}

} // namespace sk
