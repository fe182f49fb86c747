//===--- TensorLists.cu - cat and stack on CUDA ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of cat and stack (meta functions in the CPU file). When
/// the output and every input are row-major with the output's dtype, the
/// output is Outer rows, each the inputs' row-major chunks side by side,
/// and one kernel copies up to 64 inputs (CatBatch.h). Otherwise each input
/// is copied into its slice of the output with copy_, which converts
/// dtypes and handles any strides.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "CatBatch.h"
#include "DeviceUtils.cuh"
#include "shared/SizesAround.h"
#include "shared/TensorLists.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace sk {
namespace {

using namespace cuda_kernels;

/// One launch's pieces, by value.
struct CatBatchArgs {
  cuda::CatPiece Pieces[cuda::kCatBatchSize];
  int64_t OutRowUnits;
};

/// Copies the pieces of \p Batch to \p Dst in units of \p Unit: block row
/// blockIdx.y copies piece blockIdx.y with a grid-stride loop. The batch
/// is a __grid_constant__ so that indexing its pieces by blockIdx.y reads
/// the parameter in place rather than a copy of it in every thread.
template <typename Unit>
__global__ void catBatchKernel(const __grid_constant__ CatBatchArgs Batch,
                               Unit *Dst) {
  const cuda::CatPiece &Piece = Batch.Pieces[blockIdx.y];
  const Unit *Src = reinterpret_cast<const Unit *>(Piece.Src);
  for (int64_t U = globalIndex(); U < Piece.Units; U += gridStride()) {
    int32_t I = static_cast<int32_t>(U);
    Dst[cuda::catDestinationUnit(Piece, Batch.OutRowUnits, I)] = Src[I];
  }
}

/// Launches catBatchKernel over \p Plan's pieces, kCatBatchSize at a time.
template <typename Unit>
void launchCatBatches(const cuda::CatPlan &Plan, void *Dst) {
  cudaStream_t Stream = currentStream();
  size_t Count = Plan.Pieces.size();
  for (size_t First = 0; First < Count; First += cuda::kCatBatchSize) {
    CatBatchArgs Batch;
    Batch.OutRowUnits = Plan.OutRowUnits;
    unsigned Pieces = static_cast<unsigned>(
        std::min<size_t>(Count - First, cuda::kCatBatchSize));
    int32_t MostUnits = 0;
    for (unsigned P = 0; P < Pieces; ++P) {
      Batch.Pieces[P] = Plan.Pieces[First + P];
      MostUnits = std::max(MostUnits, Batch.Pieces[P].Units);
    }
    dim3 Grid(blocksFor(MostUnits), Pieces);
    catBatchKernel<Unit>
        <<<Grid, kThreads, 0, Stream>>>(Batch, static_cast<Unit *>(Dst));
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  }
}

/// Concatenates the inputs cat does not skip along \p Dim into \p Out.
void catInto(TensorList Tensors, int64_t Dim, const Tensor &Out) {
  if (Out.numel() == 0)
    return;
  if (!kernels::catCopiesBytes(Tensors, Out)) {
    kernels::catByCopies(Tensors, Dim, Out);
    return;
  }
  IntArrayRef Sizes = Out.sizes();
  auto [Outer, Inner] = kernels::sizesAround(Sizes, Dim);
  int64_t ElemSize = Out.itemsize();
  std::vector<cuda::CatInput> Inputs;
  for (const Tensor &T : Tensors)
    if (!kernels::catShouldSkip(T))
      Inputs.push_back({T.data_ptr(), T.size(Dim) * Inner * ElemSize});
  std::optional<cuda::CatPlan> Plan = cuda::planCatBatches(
      Inputs, Out.data_ptr(), Outer, Sizes[Dim] * Inner * ElemSize);
  if (!Plan) {
    // An input of 2^31 units or more: the copy engines walk each one.
    char *Dst = static_cast<char *>(Out.data_ptr());
    size_t RowBytes = static_cast<size_t>(Sizes[Dim] * Inner * ElemSize);
    for (const cuda::CatInput &In : Inputs) {
      auto Bytes = static_cast<size_t>(In.ChunkBytes);
      if (Bytes == 0)
        continue;
      SK_CUDA_CHECK(cudaMemcpy2DAsync(
          Dst, RowBytes, In.Src, Bytes, Bytes, static_cast<size_t>(Outer),
          cudaMemcpyDeviceToDevice, currentStream()));
      Dst += Bytes;
    }
    return;
  }
  switch (Plan->UnitBytes) {
  case 16:
    return launchCatBatches<uint4>(*Plan, Out.data_ptr());
  case 8:
    return launchCatBatches<uint2>(*Plan, Out.data_ptr());
  case 4:
    return launchCatBatches<uint32_t>(*Plan, Out.data_ptr());
  case 2:
    return launchCatBatches<uint16_t>(*Plan, Out.data_ptr());
  default:
    return launchCatBatches<uint8_t>(*Plan, Out.data_ptr());
  }
}

} // namespace

SK_IMPL_FUNC(cat_out_cuda)(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(tensors, dim, out);
}

SK_IMPL_FUNC(stack_out_cuda)
(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(kernels::unsqueezeAll(tensors, dim), dim, out);
}

} // namespace sk
