//===--- AlignedVector.h - N elements for one vector access -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// AlignedVector<T, N>: N elements of T aligned to their total size, so
/// that a kernel reads or writes them with one vector access (a float4 for
/// four floats) where the address allows (ATen's aligned_vector).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_ALIGNEDVECTOR_H
#define SKC_KERNELS_CUDA_ALIGNEDVECTOR_H

#include <cstdint>

namespace sk {
namespace cuda {

template <typename T, int N> struct alignas(sizeof(T) * N) AlignedVector {
  T V[N];
};

/// Whether \p Ptr is aligned for a vector of \p VecSize elements of \p
/// ElemSize bytes.
inline bool isAlignedForVector(const void *Ptr, int64_t ElemSize, int VecSize) {
  return reinterpret_cast<uintptr_t>(Ptr) % uintptr_t(ElemSize * VecSize) == 0;
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_ALIGNEDVECTOR_H
