//===--- Upsample.cu - upsample_nearest1d on CUDA -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impl of upsample_nearest1d (meta function in the CPU file):
/// each output element takes input position nearest_idx(o), with the CPU's
/// float32 arithmetic (PyTorch's rule; see the CPU file), moving elements
/// of the dtype's size, so every dtype works; a thread writes a vector of
/// them where the output allows. The output row and position come from the
/// linear index by IntDivider, in 32 bits where the index fits: a 64-bit
/// division is a long instruction sequence on a GPU.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "AlignedVector.h"
#include "DeviceUtils.cuh"
#include "shared/Upsample.h"

namespace sk {
namespace {

using namespace cuda_kernels;

/// Elements of \p Word that upsampleNearest1dKernel stores with one access
/// where it can: 16 bytes, at most 8 elements.
template <typename Word>
constexpr int kUpsampleVecSize =
    sizeof(Word) >= 16 ? 1 : (16 / sizeof(Word) < 8 ? 16 / sizeof(Word) : 8);

/// Each thread writes output vectors V of \p VecSize elements, Y[L] for L
/// in [V * VecSize, (V + 1) * VecSize), with one store (VecSize > 1: rows a
/// multiple of it, \p Y aligned to a vector): the stores are two thirds
/// of the traffic of a 2x upsample, and one row and one division serve
/// the vector.
template <typename Word, typename IndexT, int VecSize>
__global__ void upsampleNearest1dKernel(const Word *X, Word *Y, IndexT Vectors,
                                        IndexT In, cuda::IntDivider<IndexT> Out,
                                        float Scale) {
  using Vector = cuda::AlignedVector<Word, VecSize>;
  for (IndexT V = IndexT(globalIndex()); V < Vectors;
       V += IndexT(gridStride())) {
    IndexT L = V * VecSize;
    IndexT R = Out.div(L), O = L - R * Out.divisor();
    const Word *Row = X + int64_t(R) * In;
    Vector Values;
#pragma unroll
    for (int J = 0; J < VecSize; ++J)
      Values.V[J] = Row[kernels::nearestIdx(O + J, In, Out.divisor(), Scale)];
    reinterpret_cast<Vector *>(Y)[V] = Values;
  }
}

} // namespace

SK_IMPL_FUNC(upsample_nearest1d_out_cuda)
(const Tensor &self, IntArrayRef output_size, std::optional<double> scales,
 const Tensor &out) {
  int64_t Rows = self.size(0) * self.size(1);
  int64_t In = self.size(2);
  int64_t Out = output_size[0];
  if (Rows == 0 || Out == 0)
    return;
  float Scale = kernels::nearestScale(In, Out, scales);
  Tensor X = self.contiguous();
  OutputBuffer Y(out);
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    constexpr int Vec = kUpsampleVecSize<Word>;
    void *Dst = Y.get().data_ptr();
    bool Vectorize =
        Out % Vec == 0 && cuda::isAlignedForVector(Dst, sizeof(Word), Vec);
    auto Launch = [&](auto Index, auto VecSize) {
      using IndexT = decltype(Index);
      int64_t Vectors = Rows * Out / VecSize;
      upsampleNearest1dKernel<Word, IndexT, VecSize>
          <<<blocksFor(Vectors), kThreads, 0, currentStream()>>>(
              static_cast<const Word *>(X.data_ptr()), static_cast<Word *>(Dst),
              IndexT(Vectors), IndexT(In),
              cuda::IntDivider<IndexT>(IndexT(Out)), Scale);
    };
    auto LaunchIn = [&](auto Index) {
      if (Vectorize)
        Launch(Index, std::integral_constant<int, Vec>());
      else
        Launch(Index, std::integral_constant<int, 1>());
    };
    // In too: nearestIdx computes 2 * In.
    if (fitsInt32GridIndex(Rows * Out) && In < (int64_t(1) << 30))
      LaunchIn(int32_t());
    else
      LaunchIn(int64_t());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
  Y.finish();
}

} // namespace sk
