//===--- Upsample.cu - upsample_nearest1d on CUDA -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impl of upsample_nearest1d (meta function in the CPU file):
/// one thread per output element takes input position nearest_idx(o), with
/// the CPU's float32 arithmetic (PyTorch's rule; see the CPU file), moving
/// elements of the dtype's size, so every dtype works. The output row and
/// position come from the linear index by IntDivider, in 32 bits where the
/// index fits: a 64-bit division is a long instruction sequence on a GPU.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"

namespace sk {
namespace {

using namespace cuda_kernels;

/// PyTorch's nearest_idx, \p Scale precomputed on the host in float32.
template <typename IndexT>
__device__ __forceinline__ IndexT nearestIdx(IndexT O, IndexT In, IndexT Out,
                                             float Scale) {
  if (Out == In)
    return O;
  if (Out == 2 * In)
    return O >> 1;
  auto Src = static_cast<IndexT>(floorf(__fmul_rn(float(O), Scale)));
  return Src < In - 1 ? Src : In - 1;
}

template <typename Word, typename IndexT>
__global__ void upsampleNearest1dKernel(const Word *X, Word *Y, IndexT Total,
                                        IndexT In, cuda::IntDivider<IndexT> Out,
                                        float Scale) {
  for (IndexT L = IndexT(globalIndex()); L < Total; L += IndexT(gridStride())) {
    IndexT R = Out.div(L), O = L - R * Out.divisor();
    Y[L] = X[int64_t(R) * In + nearestIdx(O, In, Out.divisor(), Scale)];
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
  float Scale = scales && *scales > 0.
                    ? static_cast<float>(1.0 / *scales)
                    : static_cast<float>(In) / static_cast<float>(Out);
  Tensor X = self.contiguous();
  OutputBuffer Y(out);
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    auto Launch = [&](auto Index) {
      using IndexT = decltype(Index);
      upsampleNearest1dKernel<Word, IndexT>
          <<<blocksFor(Rows * Out), kThreads, 0, currentStream()>>>(
              static_cast<const Word *>(X.data_ptr()),
              static_cast<Word *>(Y.get().data_ptr()), IndexT(Rows * Out),
              IndexT(In), cuda::IntDivider<IndexT>(IndexT(Out)), Scale);
    };
    // In too: nearestIdx computes 2 * In.
    if (fitsInt32GridIndex(Rows * Out) && In < (int64_t(1) << 30))
      Launch(int32_t());
    else
      Launch(int64_t());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
  Y.finish();
}

} // namespace sk
