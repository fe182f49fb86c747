//===--- EmptyTensor.cpp - Allocation without dispatch --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"

namespace sk {
namespace detail {

size_t computeStorageBytes(const char *Op, IntArrayRef Sizes,
                           IntArrayRef Strides, size_t ItemSize) {
  uint64_t MaxIndex = 0;
  bool Empty = false;
  for (size_t I = 0; I != Sizes.size(); ++I) {
    SK_CHECK(Sizes[I] >= 0, Op,
             "(): Trying to create tensor with negative dimension ", Sizes[I],
             ": ", Sizes);
    if (Sizes[I] == 0)
      Empty = true;
  }
  if (Empty)
    return 0;
  // The element count must fit int64 (TensorImpl::numel()).
  int64_t Numel = 1;
  for (int64_t S : Sizes)
    SK_CHECK(!__builtin_mul_overflow(Numel, S, &Numel), Op,
             "(): storage size calculation overflowed with sizes=", Sizes);
  for (size_t I = 0; I != Sizes.size(); ++I) {
    uint64_t Step;
    SK_CHECK(!__builtin_mul_overflow(static_cast<uint64_t>(Sizes[I] - 1),
                                     static_cast<uint64_t>(Strides[I]),
                                     &Step) &&
                 !__builtin_add_overflow(MaxIndex, Step, &MaxIndex),
             Op, "(): storage size calculation overflowed with sizes=", Sizes,
             " and strides=", Strides);
  }
  uint64_t Bytes;
  SK_CHECK(MaxIndex != UINT64_MAX &&
               !__builtin_mul_overflow(MaxIndex + 1, ItemSize, &Bytes),
           Op, "(): storage size calculation overflowed with sizes=", Sizes);
  return static_cast<size_t>(Bytes);
}

/// Allocates a tensor of \p Sizes and \p Strides on \p Dev; meta tensors
/// get no storage.
static Tensor makeEmpty(const char *Op, IntArrayRef Sizes, IntArrayRef Strides,
                        ScalarType Dtype, Device Dev) {
  SK_CHECK(Dtype != ScalarType::Undefined, Op, "(): dtype is undefined");
  size_t Bytes = computeStorageBytes(Op, Sizes, Strides, elementSize(Dtype));
  Storage S;
  if (!Dev.is_meta())
    S = Storage::make(Bytes, getAllocator(Dev.type()), /*Resizable=*/true);
  // computeStorageBytes checked what set_sizes_and_strides would.
  return Tensor(IntrusivePtr<TensorImpl>::make(
      TensorImpl::StridedTag(), std::move(S), Dtype, Dev, Sizes, Strides));
}

void reportBadEmptySizes(IntArrayRef Sizes, size_t ItemSize, int64_t Numel) {
  // The general path says exactly what is wrong.
  std::vector<int64_t> Strides = contiguousStrides(Sizes);
  computeStorageBytes("empty", Sizes, Strides, ItemSize);
  SK_INTERNAL_ASSERT(Numel == 0, "unreported overflow for sizes ", Sizes);
}

Tensor empty_generic(IntArrayRef Sizes, ScalarType Dtype, Device Dev,
                     std::optional<MemoryFormat> Format) {
  SK_CHECK(Format != MemoryFormat::Preserve,
           "empty(): memory format preserve_format is not supported");
  if (Format && *Format != MemoryFormat::Contiguous) {
    std::vector<int64_t> Strides = stridesForMemoryFormat(Sizes, *Format);
    SK_CHECK((*Format == MemoryFormat::ChannelsLast && Sizes.size() == 4) ||
                 (*Format == MemoryFormat::ChannelsLast3d && Sizes.size() == 5),
             "empty(): ", *Format, " needs a ",
             *Format == MemoryFormat::ChannelsLast ? 4 : 5, "-d size, but got ",
             Sizes);
    return makeEmpty("empty", Sizes, Strides, Dtype, Dev);
  }
  return empty_row_major(Sizes, Dtype, Dev);
}

Tensor empty_strided_generic(IntArrayRef Sizes, IntArrayRef Strides,
                             ScalarType Dtype, Device Dev) {
  SK_CHECK(Sizes.size() == Strides.size(),
           "empty_strided(): mismatch in length of sizes (", Sizes.size(),
           ") and strides (", Strides.size(), ")");
  return makeEmpty("empty_strided", Sizes, Strides, Dtype, Dev);
}

Tensor empty_with_options_generic(IntArrayRef Sizes, IntArrayRef Strides,
                                  TensorOptions Options) {
  if (Strides.empty())
    return empty_generic(Sizes, Options.dtype(), Options.device(),
                         Options.memory_format_opt());
  return empty_strided_generic(Sizes, Strides, Options.dtype(),
                               Options.device());
}

Tensor empty_cpu(IntArrayRef Sizes, ScalarType Dtype,
                 std::optional<MemoryFormat> Format) {
  if (SK_LIKELY(isRowMajorFormat(Format)))
    return empty_row_major(Sizes, Dtype, kCPU);
  return empty_generic(Sizes, Dtype, kCPU, Format);
}
Tensor empty_strided_cpu(IntArrayRef Sizes, IntArrayRef Strides,
                         ScalarType Dtype) {
  return empty_strided_generic(Sizes, Strides, Dtype, kCPU);
}
Tensor empty_meta(IntArrayRef Sizes, ScalarType Dtype,
                  std::optional<MemoryFormat> Format) {
  if (SK_LIKELY(isRowMajorFormat(Format)))
    return empty_row_major(Sizes, Dtype, kMeta);
  return empty_generic(Sizes, Dtype, kMeta, Format);
}
Tensor empty_strided_meta(IntArrayRef Sizes, IntArrayRef Strides,
                          ScalarType Dtype) {
  return empty_strided_generic(Sizes, Strides, Dtype, kMeta);
}

} // namespace detail
} // namespace sk
