//===--- TensorImpl.cpp - The state behind a Tensor handle ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/TensorImpl.h"
#include "sk/util/SmallVector.h"

#include <algorithm>
#include <numeric>

namespace sk {

TensorImpl::TensorImpl(Storage S, ScalarType Dtype, Device Dev)
    : Store(std::move(S)), KeySet(backendKeyOf(Dev.type())), Dtype(Dtype),
      Dev(Dev) {
  refreshNumelAndContiguity();
}

TensorImpl::TensorImpl(StridedTag, Storage S, ScalarType Dtype, Device Dev,
                       IntArrayRef Sizes, IntArrayRef Strides)
    : Store(std::move(S)), SS(Sizes.size()), KeySet(backendKeyOf(Dev.type())),
      Dtype(Dtype), Dev(Dev) {
  SK_INTERNAL_ASSERT(Sizes.size() == Strides.size());
  int64_t *SizesOut = SS.sizesData();
  int64_t *StridesOut = SS.stridesData();
  for (size_t I = 0; I != Sizes.size(); ++I) {
    SizesOut[I] = Sizes[I];
    StridesOut[I] = Strides[I];
  }
  refreshNumelAndContiguity();
}

void TensorImpl::dataOfStoragelessTensor() const {
  SK_CHECK_NOT_IMPLEMENTED(
      !is_meta(),
      "Cannot access data of a tensor on the meta device: meta "
      "tensors have shapes and dtypes but no data (sizes ",
      sizes(), ", dtype ", Dtype, ")");
  SK_CHECK(false, "Cannot access data of a tensor that has no storage");
}

/// Row-major contiguity, ignoring the strides of size-1 dimensions.
static bool computeContiguous(IntArrayRef Sizes, IntArrayRef Strides,
                              int64_t Numel) {
  if (Numel == 0)
    return true;
  int64_t Expected = 1;
  for (size_t I = Sizes.size(); I-- > 0;) {
    if (Sizes[I] == 1)
      continue;
    if (Strides[I] != Expected)
      return false;
    Expected *= Sizes[I];
  }
  return true;
}

/// Contiguity in the order \p Order (innermost first).
static bool computeContiguousInOrder(IntArrayRef Sizes, IntArrayRef Strides,
                                     const int *Order, size_t Rank) {
  if (Sizes.size() != Rank)
    return false;
  int64_t Expected = 1;
  for (size_t I = 0; I != Rank; ++I) {
    int D = Order[I];
    if (Sizes[D] == 0)
      return true;
    if (Sizes[D] != 1 && Strides[D] != Expected)
      return false;
    Expected *= Sizes[D];
  }
  return true;
}

/// Whether some permutation of the dimensions is contiguous.
static bool computeNonOverlappingAndDense(IntArrayRef Sizes,
                                          IntArrayRef Strides) {
  size_t Rank = Sizes.size();
  SmallVector<size_t, SizesAndStrides::kInlineDims> Perm(Rank);
  std::iota(Perm.begin(), Perm.end(), 0);
  std::sort(Perm.begin(), Perm.end(), [&](size_t A, size_t B) {
    if (Sizes[A] < 2)
      return false;
    if (Sizes[B] < 2)
      return true;
    return Strides[A] < Strides[B];
  });
  int64_t Expected = 1;
  for (size_t I : Perm) {
    if (Sizes[I] == 1)
      continue;
    if (Strides[I] != Expected)
      return false;
    Expected *= Sizes[I];
  }
  return true;
}

void TensorImpl::refreshChannelsLastFlags() {
  static constexpr int Order4[] = {1, 3, 2, 0};
  static constexpr int Order5[] = {1, 4, 3, 2, 0};
  IsChannelsLastContiguous =
      computeContiguousInOrder(sizes(), strides(), Order4, 4);
  IsChannelsLast3dContiguous =
      computeContiguousInOrder(sizes(), strides(), Order5, 5);
}

void TensorImpl::refreshNumelAndContiguity() {
  IntArrayRef Sizes = sizes(), Strides = strides();
  // Without a zero size the product fits (set_sizes_and_strides checked);
  // with one, the partial products before it might not.
  Numel = 0;
  if (std::find(Sizes.begin(), Sizes.end(), 0) == Sizes.end()) {
    Numel = 1;
    for (int64_t S : Sizes)
      Numel *= S;
  }
  IsContiguous = computeContiguous(Sizes, Strides, Numel);
  refreshChannelsLastFlags();
  IsNonOverlappingAndDense = IsContiguous || IsChannelsLastContiguous ||
                             IsChannelsLast3dContiguous ||
                             computeNonOverlappingAndDense(Sizes, Strides);
}

void TensorImpl::set_sizes_and_strides(IntArrayRef Sizes, IntArrayRef Strides,
                                       std::optional<int64_t> Offset) {
  SK_CHECK(Sizes.size() == Strides.size(), "dimensionality of sizes (",
           Sizes.size(), ") must match dimensionality of strides (",
           Strides.size(), ")");
  int64_t Numel = 1;
  bool Overflow = false;
  for (int64_t S : Sizes) {
    SK_CHECK(S >= 0, "Trying to create tensor with negative dimension ", S,
             ": ", Sizes);
    Overflow |= __builtin_mul_overflow(Numel, S, &Numel);
  }
  bool HasZero = std::find(Sizes.begin(), Sizes.end(), 0) != Sizes.end();
  SK_CHECK(!Overflow || HasZero, "Trying to create tensor with sizes ", Sizes,
           ": the number of elements overflows int64");
  SS.set(Sizes, Strides);
  if (Offset)
    StorageOffset = *Offset;
  refreshNumelAndContiguity();
}

void TensorImpl::set_sizes_contiguous(IntArrayRef Sizes) {
  std::vector<int64_t> Strides = contiguousStrides(Sizes);
  set_sizes_and_strides(Sizes, Strides);
}

size_t TensorImpl::required_storage_bytes() const {
  if (Numel == 0)
    return 0;
  int64_t MaxOffset = StorageOffset;
  for (size_t I = 0; I != SS.size(); ++I)
    MaxOffset += (sizes()[I] - 1) * strides()[I];
  return static_cast<size_t>(MaxOffset + 1) * itemsize();
}

void TensorImpl::resize(IntArrayRef Sizes, std::optional<MemoryFormat> Format) {
  std::vector<int64_t> Strides =
      stridesForMemoryFormat(Sizes, Format.value_or(MemoryFormat::Contiguous));
  set_sizes_and_strides(Sizes, Strides);
  if (Store.defined())
    Store->grow(required_storage_bytes());
}

void TensorImpl::checkInvariants() const {
  SK_INTERNAL_ASSERT(sizes().size() == strides().size());
  // Partial products may overflow before a zero size (sizes {2^40, 2^40,
  // 0} make an empty tensor); the count is 0 then whatever they were.
  int64_t N = 1;
  bool Overflow = false;
  for (int64_t S : sizes()) {
    SK_INTERNAL_ASSERT(S >= 0, "negative size in ", sizes());
    Overflow |= __builtin_mul_overflow(N, S, &N);
  }
  SK_INTERNAL_ASSERT(N == Numel && (!Overflow || N == 0), "numel ", Numel,
                     " but sizes ", sizes());
  SK_INTERNAL_ASSERT(IsContiguous ==
                     computeContiguous(sizes(), strides(), Numel));
  SK_INTERNAL_ASSERT(!is_meta() || !Store.defined(),
                     "a meta tensor must not have storage");
  if (Store.defined())
    SK_INTERNAL_ASSERT(required_storage_bytes() <= Store->nbytes(),
                       "storage of ", Store->nbytes(),
                       " bytes is too small for sizes ", sizes(),
                       " and strides ", strides());
}

} // namespace sk
