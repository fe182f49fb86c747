//===--- CUDACopyKernel.cu - Strided copies on the device -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A grid-stride loop over the elements of a copy (CUDACopyKernel.h). Each
/// thread splits its linear index over the sizes once and reads both
/// offsets from it. Errors of the launch are reported by the caller's
/// SK_CUDA_KERNEL_LAUNCH_CHECK.
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
/// otherwise (a division in 32 bits is several times cheaper).
template <typename To, typename From, typename Index>
__global__ void copyKernel(To *Dst, const From *Src, CopyGeometry G, Index N) {
  for (Index I = blockIdx.x * Index(blockDim.x) + threadIdx.x; I < N;
       I += Index(gridDim.x) * blockDim.x) {
    Index Rest = I, DstOffset = 0, SrcOffset = 0;
    for (int D = G.Rank - 1; D >= 0; --D) {
      Index Size = static_cast<Index>(G.Sizes[D]);
      Index Coordinate = Rest % Size;
      Rest /= Size;
      DstOffset += Coordinate * static_cast<Index>(G.DstStrides[D]);
      SrcOffset += Coordinate * static_cast<Index>(G.SrcStrides[D]);
    }
    Dst[DstOffset] = sk::detail::convertElement<To>(Src[SrcOffset]);
  }
}

/// The element past the last one \p Strides reach.
int64_t extent(const CopyGeometry &G, const int64_t *Strides) {
  int64_t Last = 0;
  for (int D = 0; D != G.Rank; ++D)
    Last += (G.Sizes[D] - 1) * Strides[D];
  return Last + 1;
}

template <typename To, typename From>
void launch(void *Dst, const void *Src, const CopyGeometry &G, int64_t N,
            cudaStream_t Stream) {
  int Blocks = gridStrideBlocks(N);
  constexpr int64_t Max32 = INT32_MAX;
  if (N <= Max32 && extent(G, G.DstStrides) <= Max32 &&
      extent(G, G.SrcStrides) <= Max32)
    copyKernel<To, From, uint32_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<To *>(Dst), static_cast<const From *>(Src), G,
        static_cast<uint32_t>(N));
  else
    copyKernel<To, From, int64_t><<<Blocks, kGridStrideThreads, 0, Stream>>>(
        static_cast<To *>(Dst), static_cast<const From *>(Src), G, N);
}

} // namespace

void launchCopy(void *Dst, ScalarType DstDtype, const void *Src,
                ScalarType SrcDtype, const CopyGeometry &G, int64_t N,
                cudaStream_t Stream) {
  if (N <= 0)
    return;
  visitScalarType(DstDtype, [&](auto To) {
    visitScalarType(SrcDtype, [&](auto From) {
      launch<decltype(To), decltype(From)>(Dst, Src, G, N, Stream);
    });
  });
}

} // namespace detail
} // namespace cuda
} // namespace sk
