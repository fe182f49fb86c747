//===--- CUDAFill.cu - The fill kernels of the CUDA backend ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Grid-stride loops that store one element's bytes everywhere (CUDAFill.h).
/// Errors of the launch are reported by the caller's
/// SK_CUDA_KERNEL_LAUNCH_CHECK: this file includes no runtime header, so
/// that nvcc compiles only what runs on the device.
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

template <typename T>
__global__ void fillStridedKernel(T *Data, FillGeometry G, int64_t N, T Value) {
  for (int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; I < N;
       I += int64_t(gridDim.x) * blockDim.x) {
    // The element's offset: the linear index split over the sizes,
    // innermost dimension last.
    int64_t Rest = I, Offset = 0;
    for (int D = G.Rank - 1; D >= 0; --D) {
      Offset += (Rest % G.Sizes[D]) * G.Strides[D];
      Rest /= G.Sizes[D];
    }
    Data[Offset] = Value;
  }
}

template <typename T>
void launch(void *Data, int64_t N, uint64_t Pattern, cudaStream_t Stream) {
  fillKernel<T><<<gridStrideBlocks(N), kGridStrideThreads, 0, Stream>>>(
      static_cast<T *>(Data), N, static_cast<T>(Pattern));
}

template <typename T>
void launchStrided(void *Data, const FillGeometry &G, int64_t N,
                   uint64_t Pattern, cudaStream_t Stream) {
  fillStridedKernel<T><<<gridStrideBlocks(N), kGridStrideThreads, 0, Stream>>>(
      static_cast<T *>(Data), G, N, static_cast<T>(Pattern));
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

void launchFillStrided(void *Data, const FillGeometry &G, int64_t N,
                       unsigned ElemSize, uint64_t Pattern,
                       cudaStream_t Stream) {
  if (N <= 0)
    return;
  switch (ElemSize) {
  case 1:
    return launchStrided<uint8_t>(Data, G, N, Pattern, Stream);
  case 2:
    return launchStrided<uint16_t>(Data, G, N, Pattern, Stream);
  case 4:
    return launchStrided<uint32_t>(Data, G, N, Pattern, Stream);
  default:
    return launchStrided<uint64_t>(Data, G, N, Pattern, Stream);
  }
}

} // namespace detail
} // namespace cuda
} // namespace sk
