//===--- MemoryFormat.h - Dense stride orders -------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_MEMORYFORMAT_H
#define SK_CORE_MEMORYFORMAT_H

#include "sk/util/ArrayRef.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace sk {

/// Contiguous is row-major; ChannelsLast is NHWC order for 4-d tensors and
/// ChannelsLast3d NDHWC for 5-d ones; Preserve asks an op to keep its
/// input's format.
enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d
};

std::ostream &operator<<(std::ostream &OS, MemoryFormat F);

/// Row-major strides for \p Sizes (size-0 and size-1 dims get the stride
/// they would have with size 1, as PyTorch does).
std::vector<int64_t> contiguousStrides(IntArrayRef Sizes);
/// Strides of \p Sizes in \p Format; Contiguous unless the rank fits it.
std::vector<int64_t> stridesForMemoryFormat(IntArrayRef Sizes,
                                            MemoryFormat Format);

} // namespace sk

#endif // SK_CORE_MEMORYFORMAT_H
