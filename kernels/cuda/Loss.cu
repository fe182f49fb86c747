//===--- Loss.cu - binary_cross_entropy on CUDA ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impl of binary_cross_entropy (meta function in the CPU file):
/// the CPU's per-element loss, in float32 for the 16-bit dtypes, over
/// contiguous copies of the inputs (the weight expanded to the input's
/// size). Without reduction it is written element by element; with one,
/// each of a fixed number of blocks sums a grid-strided share in double
/// and a second kernel adds the blocks' sums in a fixed tree, so the
/// result does not depend on timing. An input or target outside [0, 1]
/// is a device check (Note [Device checks] in sk/cuda/DeviceChecks.h):
/// the CPU's error comes at the host's next wait for the stream.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"

namespace sk {
namespace {

using namespace cuda_kernels;

constexpr int64_t kReductionNone = 0;
constexpr int64_t kReductionMean = 1;

/// Codes of the error flag.
constexpr unsigned long long kBadInput = 1;
constexpr unsigned long long kBadTarget = 2;

/// The blocks of the reducing kernel: a fixed count, so that the order of
/// the final sum depends on N only; with kThreads threads, about one wave
/// of a GPU of 132 SMs.
constexpr int kReduceBlocks = 1024;
/// The elements each thread of the reducing kernel loads before it
/// computes any: the loads in flight hide the memory's latency.
constexpr int kReduceUnroll = 4;

template <typename A> __device__ __forceinline__ A log1pAcc(A V) {
  return log1p(V);
}
template <typename A> __device__ __forceinline__ A logAcc(A V) {
  return log(V);
}

/// The loss of one element, or 0 after raising \p Flag for a value out of
/// range.
template <typename A>
__device__ __forceinline__ A bceLoss(A X, A Y, unsigned long long *Flag) {
  if (!(X >= A(0) && X <= A(1))) {
    raiseError(Flag, kBadInput, 0);
    return A(0);
  }
  if (!(Y >= A(0) && Y <= A(1))) {
    raiseError(Flag, kBadTarget, 0);
    return A(0);
  }
  A L1 = log1pAcc(-X), L0 = logAcc(X);
  return (Y - A(1)) * (L1 > A(-100) ? L1 : A(-100)) -
         Y * (L0 > A(-100) ? L0 : A(-100));
}

template <typename T>
__global__ void bceKernel(const T *X, const T *Y, const T *W, T *Out, int64_t N,
                          unsigned long long *Flag) {
  for (int64_t I = globalIndex(); I < N; I += gridStride()) {
    auto L = bceLoss(toAcc(X[I]), toAcc(Y[I]), Flag);
    if (W)
      L *= toAcc(W[I]);
    Out[I] = fromAcc<T>(L);
  }
}

/// Block b's sum of the losses of elements b * kThreads + t + k * stride
/// (thread t, k = 0, 1, ...), added in that order, into Partial[b].
template <typename T>
__global__ void bceSumKernel(const T *X, const T *Y, const T *W, int64_t N,
                             double *Partial, unsigned long long *Flag) {
  using A = AccType<T>;
  __shared__ double Shared[32];
  double Sum = 0;
  const int64_t Stride = gridStride();
  for (int64_t First = globalIndex(); First < N;
       First += kReduceUnroll * Stride) {
    A Xs[kReduceUnroll], Ys[kReduceUnroll], Ws[kReduceUnroll];
#pragma unroll
    for (int K = 0; K < kReduceUnroll; ++K) {
      int64_t I = First + K * Stride;
      if (I < N) {
        Xs[K] = toAcc(X[I]);
        Ys[K] = toAcc(Y[I]);
        Ws[K] = W ? toAcc(W[I]) : A(1);
      }
    }
#pragma unroll
    for (int K = 0; K < kReduceUnroll; ++K) {
      if (First + K * Stride < N) {
        A L = bceLoss(Xs[K], Ys[K], Flag);
        if (W)
          L *= Ws[K];
        Sum += static_cast<double>(L);
      }
    }
  }
  Sum = blockReduceSum(Sum, Shared);
  if (threadIdx.x == 0)
    Partial[blockIdx.x] = Sum;
}

/// One block of kThreads: the blocks' sums, thread t adding sums t,
/// t + kThreads, ... and blockReduceSum's fixed tree the threads'; the
/// mean if asked, into Out.
template <typename T>
__global__ void bceFinishKernel(const double *Partial, int Blocks, int64_t N,
                                bool Mean, T *Out) {
  __shared__ double Shared[32];
  double Total = 0;
  for (int B = threadIdx.x; B < Blocks; B += blockDim.x)
    Total += Partial[B];
  Total = blockReduceSum(Total, Shared);
  // The mean of no elements is NaN, as torch.mean's.
  if (threadIdx.x == 0)
    *Out = fromAcc<T>(Mean ? Total / double(N) : Total);
}

/// Throws the CPU's error for a failed check of code \p Code.
void reportOutOfRange(int64_t Code, int64_t) {
  SK_CHECK(Code != int64_t(kBadInput),
           "all elements of input should be between 0 and 1");
  SK_CHECK(false, "all elements of target should be between 0 and 1");
}

} // namespace

SK_IMPL_FUNC(binary_cross_entropy_out_cuda)
(const Tensor &self, const Tensor &target, OptionalTensorRef weight,
 int64_t reduction, const Tensor &out) {
  Tensor X = self.contiguous();
  Tensor Y = target.contiguous();
  Tensor W;
  if (weight)
    W = weight->expand(self.sizes()).contiguous();
  int64_t N = self.numel();
  if (reduction == kReductionNone && N == 0)
    return;
  cuda::DeviceCheck Check;
  cudaStream_t Stream = currentStream();
  if (reduction == kReductionNone) {
    // An unreduced loss takes self's layout; the kernel writes row-major.
    OutputBuffer Out(out);
    dispatchDtypes<dtypes::Floating>(
        self.scalar_type(), "binary_cross_entropy_cuda", [&](auto Tag) {
          using T = decltype(Tag);
          bceKernel<DeviceElement<T>><<<blocksFor(N), kThreads, 0, Stream>>>(
              devicePtr<T>(X), devicePtr<T>(Y),
              W.defined() ? devicePtr<T>(W) : nullptr, devicePtr<T>(Out.get()),
              N, Check.get());
          SK_CUDA_KERNEL_LAUNCH_CHECK();
        });
    Check.reportLater(reportOutOfRange);
    Out.finish();
    return;
  }
  DataPtr Partial = cuda::CUDACachingAllocator::allocateTempStorage(
      kReduceBlocks * sizeof(double));
  dispatchDtypes<dtypes::Floating>(
      self.scalar_type(), "binary_cross_entropy_cuda", [&](auto Tag) {
        using T = decltype(Tag);
        using D = DeviceElement<T>;
        double *P = static_cast<double *>(Partial.get());
        bceSumKernel<D><<<kReduceBlocks, kThreads, 0, Stream>>>(
            devicePtr<T>(X), devicePtr<T>(Y),
            W.defined() ? devicePtr<T>(W) : nullptr, N, P, Check.get());
        SK_CUDA_KERNEL_LAUNCH_CHECK();
        bceFinishKernel<D><<<1, kThreads, 0, Stream>>>(
            P, kReduceBlocks, N, reduction == kReductionMean,
            devicePtr<T>(out));
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      });
  Check.reportLater(reportOutOfRange);
}

} // namespace sk
