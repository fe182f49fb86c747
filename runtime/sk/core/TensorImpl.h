//===--- TensorImpl.h - The state behind a Tensor handle --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A TensorImpl is a strided view into a Storage: sizes, strides, storage
/// offset, dtype and device, plus the dispatch keys of its device.
///
/// Invariants (checkInvariants()):
///  - sizes().size() == strides().size(), every size >= 0;
///  - numel() is the product of sizes();
///  - the contiguity flags agree with sizes and strides;
///  - a meta tensor has no storage; a CPU tensor with elements has a storage
///    large enough for every element it can address.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_TENSORIMPL_H
#define SK_CORE_TENSORIMPL_H

#include "sk/core/DispatchKeySet.h"
#include "sk/core/MemoryFormat.h"
#include "sk/core/ScalarType.h"
#include "sk/core/SizesAndStrides.h"
#include "sk/core/Storage.h"
#include "sk/util/Analysis.h"
#include "sk/util/FreeListCache.h"

namespace sk {

class TensorImpl : public IntrusiveTarget {
public:
  /// A tensor over \p S (null for meta tensors) with sizes {0}.
  TensorImpl(Storage S, ScalarType Dtype, Device Dev);

  struct ContiguousTag {};
  /// A row-major tensor of \p Sizes over \p S, whose element count
  /// \p Numel the caller has computed and checked. The fast path of
  /// allocation, inline: one pass over the sizes, and of the contiguity
  /// flags only the channels-last ones are computed (and only for ranks 4
  /// and 5), since a row-major tensor is contiguous and dense.
  TensorImpl(ContiguousTag, Storage S, ScalarType Dtype, Device Dev,
             IntArrayRef Sizes, int64_t Numel)
      : Store(std::move(S)), SS(Sizes.size()), Numel(Numel),
        KeySet(backendKeyOf(Dev.type())), Dtype(Dtype), Dev(Dev) {
    int64_t *SizesOut = SS.sizesData();
    int64_t *StridesOut = SS.stridesData();
    int64_t Stride = 1;
    for (size_t I = Sizes.size(); I-- > 0;) {
      SizesOut[I] = Sizes[I];
      StridesOut[I] = Stride;
      // Wraps only when Numel is 0, where strides do not matter.
      Stride = static_cast<int64_t>(
          static_cast<uint64_t>(Stride) *
          static_cast<uint64_t>(Sizes[I] > 1 ? Sizes[I] : 1));
    }
    // Row-major is also channels-last when the channel dimension does not
    // matter (C == 1, or H == W == 1); only ranks 4 and 5 can be.
    if (SK_UNLIKELY(Sizes.size() == 4 || Sizes.size() == 5))
      refreshChannelsLastFlags();
  }

  struct RowMajorTag {};
  /// A row-major tensor of \p Sizes without storage (the caller adds it,
  /// now that numel() is known), checking \p Sizes in the pass that lays
  /// them out (Note [Inline row-major allocation] in EmptyTensor.h):
  /// \p SizesOk is false when a size is negative or the element or byte
  /// count overflows, and numel() is then meaningful only when it is 0.
  TensorImpl(RowMajorTag, ScalarType Dtype, Device Dev, IntArrayRef Sizes,
             bool &SizesOk)
      : SS(Sizes.size()), KeySet(backendKeyOf(Dev.type())), Dtype(Dtype),
        Dev(Dev) {
    int64_t *SizesOut = SS.sizesData();
    int64_t *StridesOut = SS.stridesData();
    int64_t Stride = 1;
    int64_t Count = 1;
    bool Bad = false;
    for (size_t I = Sizes.size(); I-- > 0;) {
      int64_t Size = Sizes[I];
      SizesOut[I] = Size;
      StridesOut[I] = Stride;
      // Without a zero size, every partial product is at most the full
      // one, so the order of multiplication does not change whether it
      // overflows; with one, the count is 0 whatever overflowed before.
      Bad |= Size < 0;
      Bad |= __builtin_mul_overflow(Count, Size, &Count);
      // Wraps only when the count is 0, where strides do not matter.
      Stride = static_cast<int64_t>(static_cast<uint64_t>(Stride) *
                                    static_cast<uint64_t>(Size > 1 ? Size : 1));
    }
    int64_t Bytes;
    Bad |=
        __builtin_mul_overflow(Count, static_cast<int64_t>(itemsize()), &Bytes);
    Numel = Count;
    SizesOk = !Bad;
    if (SK_UNLIKELY(Sizes.size() == 4 || Sizes.size() == 5))
      refreshChannelsLastFlags();
  }

  /// TensorImpls come from a per-thread free list (Note [Per-thread free
  /// lists]).
  static void *operator new(size_t Size) {
    return ObjectCache<TensorImpl>::allocateObject(Size);
  }
  static void operator delete(void *P, size_t Size) noexcept {
    ObjectCache<TensorImpl>::deallocateObject(P, Size);
  }

  struct StridedTag {};
  /// A tensor of \p Sizes and \p Strides (of equal length) over \p S,
  /// which the caller has checked: sizes non-negative, the element count
  /// and the bytes addressed within range (detail::computeStorageBytes).
  /// The contiguity flags are computed once.
  TensorImpl(StridedTag, Storage S, ScalarType Dtype, Device Dev,
             IntArrayRef Sizes, IntArrayRef Strides);

  IntArrayRef sizes() const { return SS.sizes(); }
  IntArrayRef strides() const { return SS.strides(); }
  int64_t dim() const { return static_cast<int64_t>(SS.size()); }
  int64_t numel() const { return Numel; }
  int64_t storage_offset() const { return StorageOffset; }
  ScalarType dtype() const { return Dtype; }
  size_t itemsize() const { return elementSize(Dtype); }
  Device device() const { return Dev; }
  DispatchKeySet key_set() const { return KeySet; }
  bool is_meta() const { return Dev.is_meta(); }
  bool has_storage() const { return Store.defined(); }
  const Storage &storage() const { return Store; }

  bool is_contiguous(MemoryFormat F = MemoryFormat::Contiguous) const {
    switch (F) {
    case MemoryFormat::ChannelsLast:
      return IsChannelsLastContiguous;
    case MemoryFormat::ChannelsLast3d:
      return IsChannelsLast3dContiguous;
    default:
      return IsContiguous;
    }
  }
  /// Whether the elements cover a dense block in some dimension order.
  bool is_non_overlapping_and_dense() const { return IsNonOverlappingAndDense; }

  /// A number wrapped into a 0-dim tensor for type promotion (a Scalar
  /// operand): it does not widen the result dtype.
  bool is_wrapped_number() const { return IsWrappedNumber; }
  void set_wrapped_number(bool W) {
    SK_INTERNAL_ASSERT(dim() == 0, "only 0-dim tensors can be wrapped numbers");
    IsWrappedNumber = W;
  }

  /// The address of element 0; an error for meta tensors, which have no
  /// data.
  SK_READS_DATA void *data() const {
    if (SK_UNLIKELY(!Store.defined()))
      dataOfStoragelessTensor();
    return static_cast<char *>(Store->data()) +
           StorageOffset * static_cast<int64_t>(itemsize());
  }

  void set_sizes_and_strides(IntArrayRef Sizes, IntArrayRef Strides,
                             std::optional<int64_t> Offset = std::nullopt);
  void set_sizes_contiguous(IntArrayRef Sizes);
  void set_storage_offset(int64_t Offset) { StorageOffset = Offset; }
  void set_storage(Storage S) { Store = std::move(S); }
  /// Changes the dtype of an empty-storage tensor (used by allocation).
  void set_dtype(ScalarType D) { Dtype = D; }

  /// Resizes to \p Sizes (contiguous, or in \p Format), growing the storage
  /// when needed; the data that was there stays where it was.
  void resize(IntArrayRef Sizes,
              std::optional<MemoryFormat> Format = std::nullopt);
  /// The bytes the storage needs to address every element.
  size_t required_storage_bytes() const;

  void checkInvariants() const;

private:
  [[noreturn]] void dataOfStoragelessTensor() const;
  void refreshNumelAndContiguity();
  void refreshChannelsLastFlags();

  Storage Store;
  SizesAndStrides SS;
  int64_t StorageOffset = 0;
  int64_t Numel = 0;
  DispatchKeySet KeySet;
  ScalarType Dtype;
  Device Dev;
  bool IsContiguous = true;
  bool IsChannelsLastContiguous = false;
  bool IsChannelsLast3dContiguous = false;
  bool IsNonOverlappingAndDense = true;
  bool IsWrappedNumber = false;
};

} // namespace sk

#endif // SK_CORE_TENSORIMPL_H
