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

Tensor empty_cpu(IntArrayRef Sizes, ScalarType Dtype,
                 std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided_cpu(IntArrayRef Sizes, IntArrayRef Strides,
                         ScalarType Dtype);
Tensor empty_meta(IntArrayRef Sizes, ScalarType Dtype,
                  std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided_meta(IntArrayRef Sizes, IntArrayRef Strides,
                          ScalarType Dtype);
/// Any device with a registered allocator; dispatches on \p Dev only.
Tensor empty_generic(IntArrayRef Sizes, ScalarType Dtype, Device Dev,
                     std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided_generic(IntArrayRef Sizes, IntArrayRef Strides,
                             ScalarType Dtype, Device Dev);

} // namespace detail
} // namespace sk

#endif // SK_CORE_EMPTYTENSOR_H
