//===--- CUDAGridStride.h - Launch shape of grid-stride kernels -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The block size and grid size of the runtime's own grid-stride loops
/// (CUDAFill.cu, CUDACopyKernel.cu), private to the backend.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAGRIDSTRIDE_H
#define SK_CUDA_CUDAGRIDSTRIDE_H

#include <algorithm>
#include <cstdint>

namespace sk {
namespace cuda {
namespace detail {

constexpr int kGridStrideThreads = 256;
/// Enough blocks to fill every SM several times over; the grid-stride loop
/// covers the rest.
constexpr int64_t kMaxGridStrideBlocks = 65535;

/// The blocks of kGridStrideThreads for \p N elements.
inline int gridStrideBlocks(int64_t N) {
  return static_cast<int>(std::min<int64_t>(
      (N + kGridStrideThreads - 1) / kGridStrideThreads, kMaxGridStrideBlocks));
}

} // namespace detail
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDAGRIDSTRIDE_H
