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
/// elements of the dtype's size, so every dtype works.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"

namespace sk {
namespace {

using namespace cuda_kernels;

/// PyTorch's nearest_idx, \p Scale precomputed on the host in float32.
__device__ __forceinline__ int64_t nearestIdx(int64_t O, int64_t In,
                                              int64_t Out, float Scale) {
  if (Out == In)
    return O;
  if (Out == 2 * In)
    return O >> 1;
  int64_t Src = static_cast<int64_t>(floorf(__fmul_rn(float(O), Scale)));
  return Src < In - 1 ? Src : In - 1;
}

template <typename Word>
__global__ void upsampleNearest1dKernel(const Word *X, Word *Y, int64_t Rows,
                                        int64_t In, int64_t Out, float Scale) {
  int64_t Total = Rows * Out;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t R = L / Out, O = L % Out;
    Y[L] = X[R * In + nearestIdx(O, In, Out, Scale)];
  }
}

} // namespace

SK_IMPL_FUNC(upsample_nearest1d_out_cuda)
(const Tensor &self, IntArrayRef output_size, std::optional<double> scales,
 const Tensor &out) {
  int64_t Rows = self.size(0) * self.size(1);
  int64_t In = self.size(2);
  int64_t Out = output_size[0];
  if (Rows == 0)
    return;
  float Scale = scales && *scales > 0.
                    ? static_cast<float>(1.0 / *scales)
                    : static_cast<float>(In) / static_cast<float>(Out);
  Tensor X = self.contiguous();
  OutputBuffer Y(out);
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    upsampleNearest1dKernel<Word>
        <<<blocksFor(Rows * Out), kThreads, 0, currentStream()>>>(
            static_cast<const Word *>(X.data_ptr()),
            static_cast<Word *>(Y.get().data_ptr()), Rows, In, Out, Scale);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
  Y.finish();
}

} // namespace sk
