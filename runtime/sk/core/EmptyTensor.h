//===--- EmptyTensor.h - Allocation without dispatch ------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The allocation primitives behind `sk::empty` (at::detail::empty_cpu and
/// empty_meta). Kernels and generated structured wrappers call these
/// directly: a functional wrapper allocates its output without going
/// through the dispatcher.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_EMPTYTENSOR_H
#define SK_CORE_EMPTYTENSOR_H

#include "sk/core/Tensor.h"

namespace sk {
namespace detail {

/// Checks that \p Sizes are non-negative and that the tensor's byte size
/// does not overflow; returns the byte size. \p Op names the caller in the
/// error.
size_t computeStorageBytes(const char *Op, IntArrayRef Sizes,
                           IntArrayRef Strides, size_t ItemSize);

/// Reports, naming empty(), a negative size in \p Sizes or an overflow of
/// its byte size; returns only when a partial product overflowed but a
/// size is zero (\p Numel is 0 then).
[[gnu::cold]] void reportBadEmptySizes(IntArrayRef Sizes, size_t ItemSize,
                                       int64_t Numel);

/// Note [Inline row-major allocation]: a row-major tensor, the common case,
/// in one pass over the sizes, which lays them out and checks them at once
/// (TensorImpl's RowMajorTag constructor); the storage, if any, comes
/// after, and bad sizes are reported before it is allocated. It is always
/// inlined, so that empty_cpu, empty_meta and the factory kernels allocate
/// without a further call and with the device tests folded away: for a
/// meta tensor that is most of the work. Call it from hot paths only;
/// elsewhere call empty_cpu or empty_meta.
[[gnu::always_inline]] inline Tensor
empty_row_major(IntArrayRef Sizes, ScalarType Dtype, Device Dev) {
  SK_CHECK(Dtype != ScalarType::Undefined, "empty(): dtype is undefined");
  bool SizesOk;
  IntrusivePtr<TensorImpl> Impl = IntrusivePtr<TensorImpl>::make(
      TensorImpl::RowMajorTag(), Dtype, Dev, Sizes, SizesOk);
  size_t ItemSize = elementSize(Dtype);
  if (SK_UNLIKELY(!SizesOk))
    reportBadEmptySizes(Sizes, ItemSize, Impl->numel());
  if (!Dev.is_meta())
    Impl->set_storage(
        Storage::make(static_cast<size_t>(Impl->numel()) * ItemSize,
                      getAllocator(Dev.type()), /*Resizable=*/true));
  return Tensor(std::move(Impl));
}

/// Any device with a registered allocator; dispatches on \p Dev only.
Tensor empty_generic(IntArrayRef Sizes, ScalarType Dtype, Device Dev,
                     std::optional<MemoryFormat> Format = std::nullopt);

/// Whether \p Format asks for row-major strides.
inline bool isRowMajorFormat(std::optional<MemoryFormat> Format) {
  return !Format || *Format == MemoryFormat::Contiguous;
}

/// A tensor of \p Sizes of Options.dtype() on Options.device(), without
/// dispatch (what TensorIterator and structured functional outputs
/// allocate): with \p Strides, or, when they are empty, row-major or in
/// Options' memory format. Row-major meta tensors, the outputs of shape
/// inference, are allocated inline (Note [Inline row-major allocation]):
/// a call there cost a meta TensorIterator build about 9 % of its time.
/// Row-major CPU tensors go straight to empty_cpu.
[[gnu::always_inline]] inline Tensor empty_with_options(IntArrayRef Sizes,
                                                        IntArrayRef Strides,
                                                        TensorOptions Options);
/// empty_with_options out of line, for every device and layout.
Tensor empty_with_options_generic(IntArrayRef Sizes, IntArrayRef Strides,
                                  TensorOptions Options);

Tensor empty_cpu(IntArrayRef Sizes, ScalarType Dtype,
                 std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided_cpu(IntArrayRef Sizes, IntArrayRef Strides,
                         ScalarType Dtype);
Tensor empty_meta(IntArrayRef Sizes, ScalarType Dtype,
                  std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided_meta(IntArrayRef Sizes, IntArrayRef Strides,
                          ScalarType Dtype);
Tensor empty_strided_generic(IntArrayRef Sizes, IntArrayRef Strides,
                             ScalarType Dtype, Device Dev);

inline Tensor empty_with_options(IntArrayRef Sizes, IntArrayRef Strides,
                                 TensorOptions Options) {
  if (!Strides.empty() || !isRowMajorFormat(Options.memory_format_opt()))
    return empty_with_options_generic(Sizes, Strides, Options);
  Device Dev = Options.device();
  if (Dev.is_meta())
    return empty_row_major(Sizes, Options.dtype(), kMeta);
  // Straight to the CPU allocation: the generic path's two calls and
  // layout tests were a tenth of a small CPU tensor's allocation.
  if (Dev.is_cpu())
    return empty_cpu(Sizes, Options.dtype());
  return empty_with_options_generic(Sizes, Strides, Options);
}

} // namespace detail
} // namespace sk

#endif // SK_CORE_EMPTYTENSOR_H
