//===--- CUDAFill.cu - The fill kernels of the CUDA backend ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Grid-stride loops that store one element's bytes everywhere (CUDAFill.h).
/// Errors of the launch are reported by the caller's
/// SK_CUDA_KERNEL_LAUNCH_CHECK: this file includes no runtime header but
/// the strided shape's, so that nvcc compiles only what runs on the
/// device.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAFill.h"
#include "sk/cuda/CUDAGridStride.h"

namespace sk {
namespace cuda {
namespace detail {

namespace {

template <typename T> __global__ void fillKernel(T *Data, int64_t N, T Value) {
  for (int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; I < N;
       I += int64_t(gridDim.x) * blockDim.x)
    Data[I] = Value;
}

template <typename T, typename Index>
__global__ void fillStridedKernel(T *Data, StridedShape<1> Shape, Index N,
                                  T Value) {
  for (Index I = blockIdx.x * Index(blockDim.x) + threadIdx.x; I < N;
       I += Index(gridDim.x) * blockDim.x) {
    Index Offset[1];
    Shape.offsets(I, Offset);
    Data[Offset[0]] = Value;
  }
}

template <typename T>
void launch(void *Data, int64_t N, uint64_t Pattern, cudaStream_t Stream) {
  fillKernel<T><<<gridStrideBlocks(N), kGridStrideThreads, 0, Stream>>>(
      static_cast<T *>(Data), N, static_cast<T>(Pattern));
}

template <typename T>
void launchStrided(void *Data, const StridedShape<1> &Shape, int64_t N,
                   uint64_t Pattern, cudaStream_t Stream) {
  int Blocks = gridStrideBlocks(N);
  T Value = static_cast<T>(Pattern);
  if (Shape.fitsInt32(N))
    fillStridedKernel<T, uint32_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<T *>(Data), Shape, static_cast<uint32_t>(N), Value);
  else
    fillStridedKernel<T, int64_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<T *>(Data), Shape, N, Value);
}

} // namespace

void launchFill(void *Data, int64_t N, unsigned ElemSize, uint64_t Pattern,
                cudaStream_t Stream) {
  if (N <= 0)
    return;
  switch (ElemSize) {
  case 1:
    return launch<uint8_t>(Data, N, Pattern, Stream);
  case 2:
    return launch<uint16_t>(Data, N, Pattern, Stream);
  case 4:
    return launch<uint32_t>(Data, N, Pattern, Stream);
  default:
    return launch<uint64_t>(Data, N, Pattern, Stream);
  }
}

void launchFillStrided(void *Data, const StridedShape<1> &Shape, int64_t N,
                       unsigned ElemSize, uint64_t Pattern,
                       cudaStream_t Stream) {
  if (N <= 0)
    return;
  switch (ElemSize) {
  case 1:
    return launchStrided<uint8_t>(Data, Shape, N, Pattern, Stream);
  case 2:
    return launchStrided<uint16_t>(Data, Shape, N, Pattern, Stream);
  case 4:
    return launchStrided<uint32_t>(Data, Shape, N, Pattern, Stream);
  default:
    return launchStrided<uint64_t>(Data, Shape, N, Pattern, Stream);
  }
}

} // namespace detail
} // namespace cuda
} // namespace sk
