//===--- MemoryFormat.cpp - Dense stride orders ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/MemoryFormat.h"

#include <algorithm>

namespace sk {

std::ostream &operator<<(std::ostream &OS, MemoryFormat F) {
  switch (F) {
  case MemoryFormat::Contiguous:
    return OS << "torch.contiguous_format";
  case MemoryFormat::Preserve:
    return OS << "torch.preserve_format";
  case MemoryFormat::ChannelsLast:
    return OS << "torch.channels_last";
  case MemoryFormat::ChannelsLast3d:
    return OS << "torch.channels_last_3d";
  }
  return OS << "unknown memory format";
}

/// \p A * \p B modulo 2^64: defined where int64 multiplication would
/// overflow. Sizes whose strides wrap have more elements than int64 counts;
/// computeStorageBytes and TensorImpl reject those.
static int64_t mulWrapping(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}

std::vector<int64_t> contiguousStrides(IntArrayRef Sizes) {
  std::vector<int64_t> Strides(Sizes.size());
  int64_t Stride = 1;
  for (size_t I = Sizes.size(); I-- > 0;) {
    Strides[I] = Stride;
    Stride = mulWrapping(Stride, std::max<int64_t>(Sizes[I], 1));
  }
  return Strides;
}

std::vector<int64_t> stridesForMemoryFormat(IntArrayRef Sizes,
                                            MemoryFormat Format) {
  // Channels-last orders: the channel dimension (1) varies fastest.
  static constexpr int Order4[] = {1, 3, 2, 0};
  static constexpr int Order5[] = {1, 4, 3, 2, 0};
  const int *Order = nullptr;
  if (Format == MemoryFormat::ChannelsLast && Sizes.size() == 4)
    Order = Order4;
  else if (Format == MemoryFormat::ChannelsLast3d && Sizes.size() == 5)
    Order = Order5;
  if (!Order)
    return contiguousStrides(Sizes);
  std::vector<int64_t> Strides(Sizes.size());
  int64_t Stride = 1;
  for (size_t I = 0; I != Sizes.size(); ++I) {
    Strides[Order[I]] = Stride;
    Stride = mulWrapping(Stride, std::max<int64_t>(Sizes[Order[I]], 1));
  }
  return Strides;
}

} // namespace sk
