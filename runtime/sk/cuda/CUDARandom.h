//===--- CUDARandom.h - Random numbers drawn on the device ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Launchers of the random-number kernels in CUDARandom.cu, private to the
/// backend; like CUDAFill.h, this header needs none of the runtime's.
/// Note [Random numbers on CUDA] in CUDARandom.cu.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDARANDOM_H
#define SK_CUDA_CUDARANDOM_H

#include <cuda_runtime_api.h>

#include <cstdint>

namespace sk {
namespace cuda {
namespace detail {

/// The element types rand and randn fill.
enum class RandomType { Float, Double, Half, BFloat16 };

enum class Distribution { Uniform, Normal };

/// How far a fill of \p N elements of type \p T advances each thread's
/// Philox subsequence, in 32-bit values: the generator's next offset is
/// this much later.
uint64_t randomOffsetIncrement(int64_t N, RandomType T);

/// Fills the \p N contiguous elements at \p Data with values of
/// \p Distribution, drawn with Philox4x32-10 keyed by \p Seed from
/// \p Offset on, on \p Stream.
void launchRandom(void *Data, int64_t N, RandomType T,
                  Distribution Distribution, uint64_t Seed, uint64_t Offset,
                  cudaStream_t Stream);

} // namespace detail
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDARANDOM_H
