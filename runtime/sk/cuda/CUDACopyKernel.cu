//===--- CUDACopyKernel.cu - Strided copies on the device -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A grid-stride loop over the elements of a copy (CUDACopyKernel.h). Each
/// thread splits its linear index over the sizes once and reads both
/// offsets from it (StridedShape::offsets). Errors of the launch are reported
/// by the caller's SK_CUDA_KERNEL_LAUNCH_CHECK.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDACopyKernel.h"
#include "sk/cuda/CUDAGridStride.h"

#include "sk/ops/Convert.h"

namespace sk {
namespace cuda {
namespace detail {

namespace {

/// Offsets and the linear index fit 32 bits in \p Index; 64 bits
/// otherwise (StridedShape::fitsInt32).
template <typename To, typename From, typename Index>
__global__ void copyKernel(To *Dst, const From *Src, StridedShape<2> Shape,
                           Index N) {
  for (Index I = blockIdx.x * Index(blockDim.x) + threadIdx.x; I < N;
       I += Index(gridDim.x) * blockDim.x) {
    Index Offsets[2];
    Shape.offsets(I, Offsets);
    Dst[Offsets[0]] = sk::detail::convertElement<To>(Src[Offsets[1]]);
  }
}

template <typename To, typename From>
void launch(void *Dst, const void *Src, const StridedShape<2> &Shape, int64_t N,
            cudaStream_t Stream) {
  int Blocks = gridStrideBlocks(N);
  if (Shape.fitsInt32(N))
    copyKernel<To, From, uint32_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<To *>(Dst), static_cast<const From *>(Src), Shape,
        static_cast<uint32_t>(N));
  else
    copyKernel<To, From, int64_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<To *>(Dst), static_cast<const From *>(Src), Shape, N);
}

} // namespace

void launchCopy(void *Dst, ScalarType DstDtype, const void *Src,
                ScalarType SrcDtype, const StridedShape<2> &Shape, int64_t N,
                cudaStream_t Stream) {
  if (N <= 0)
    return;
  visitScalarType(DstDtype, [&](auto To) {
    visitScalarType(SrcDtype, [&](auto From) {
      launch<decltype(To), decltype(From)>(Dst, Src, Shape, N, Stream);
    });
  });
}

} // namespace detail
} // namespace cuda
} // namespace sk
