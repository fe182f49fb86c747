//===--- CUDAFill.h - The fill kernels of the CUDA backend ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Launchers of the device kernels in CUDAFill.cu, private to the backend.
/// They take an element's bit pattern rather than a dtype: filling is a
/// store of the same 1, 2, 4 or 8 bytes everywhere, so four kernel
/// instantiations serve all ten dtypes, and this header needs none of the
/// runtime's headers but the strided shape's (nvcc compiles CUDAFill.cu
/// alone).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAFILL_H
#define SK_CUDA_CUDAFILL_H

#include "sk/cuda/CUDAStridedShape.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace sk {
namespace cuda {
namespace detail {

/// Stores the low \p ElemSize bytes (1, 2, 4 or 8) of \p Pattern into the
/// \p N elements at \p Data, on \p Stream.
void launchFill(void *Data, int64_t N, unsigned ElemSize, uint64_t Pattern,
                cudaStream_t Stream);

/// launchFill over the \p N elements of a strided tensor at \p Data, of
/// shape \p Shape.
void launchFillStrided(void *Data, const StridedShape<1> &Shape, int64_t N,
                       unsigned ElemSize, uint64_t Pattern,
                       cudaStream_t Stream);

} // namespace detail
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDAFILL_H
