//===--- Softmax.cu - _softmax and _log_softmax on CUDA -------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of _softmax and _log_softmax (meta functions in the CPU
/// file). The input is read as a contiguous [Outer, Dim, Inner] tensor and
/// the contiguous output written in the same order. When the reduced
/// dimension is the innermost (Inner == 1), a row of at most 1024 values is
/// held in one warp's registers, read once and written once (in vectors of
/// 4 where it can), its maximum and sum reduced with shuffles (as
/// PyTorch's persistent softmax does); a
/// longer row is reduced by one block in one pass over it (Note [Online
/// softmax on CUDA]) and written in a second. Where the row fits in the
/// block's shared memory and its addresses allow 16-byte vectors, the
/// first pass also keeps it there, for the second to read (PyTorch's
/// cunn_SoftMaxForwardSmem): one read of global memory, not two.
/// Otherwise one thread walks each column of Dim values (maximum, then the
/// sum of exponentials, then the output). The arithmetic is in float32 for
/// float16, bfloat16 and float32 inputs, in float64 for float64;
/// half_to_float writes the float32 result.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "AlignedVector.h"
#include "DeviceUtils.cuh"
#include "OnlineSoftmax.h"
#include "shared/SizesAround.h"

#include "sk/cuda/CUDAFunctions.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>

namespace sk {
namespace {

using namespace cuda_kernels;
using cuda::OnlineSum;

template <typename A> __device__ __forceinline__ A expAcc(A V) {
  return exp(V);
}
template <> __device__ __forceinline__ float expAcc(float V) { return expf(V); }
template <typename A> __device__ __forceinline__ A logAcc(A V) {
  return log(V);
}
template <> __device__ __forceinline__ float logAcc(float V) { return logf(V); }

/// The merge of every thread's \p V over the block (every thread gets it),
/// as blockReduceSum.
template <typename A>
__device__ OnlineSum<A> blockReduceOnline(OnlineSum<A> V,
                                          OnlineSum<A> *Shared) {
  return blockReduce(
      V, Shared,
      [](OnlineSum<A> X, int Offset) {
        ShuffleDownWarp Shuffle;
        return OnlineSum<A>{Shuffle(X.Max, Offset), Shuffle(X.Sum, Offset)};
      },
      [](OnlineSum<A> X, OnlineSum<A> Y) {
        X.merge(Y);
        return X;
      },
      [] { return OnlineSum<A>::empty(); });
}

/// One block per row of \p Dim contiguous values.
template <typename In, typename Out>
__global__ void softmaxRowsKernel(const In *X, Out *Y, int64_t Rows,
                                  int64_t Dim, bool Log) {
  using A = AccType<In>;
  __shared__ OnlineSum<A> Shared[32];
  for (int64_t R = blockIdx.x; R < Rows; R += gridDim.x) {
    const In *XRow = X + R * Dim;
    Out *YRow = Y + R * Dim;
    OnlineSum<A> Row = OnlineSum<A>::empty();
    for (int64_t I = threadIdx.x; I < Dim; I += blockDim.x)
      Row.add(toAcc(XRow[I]));
    Row = blockReduceOnline(Row, Shared);
    A Max = Row.Max, Sum = Row.rowSum();
    A LogSum = logAcc(Sum), Inv = A(1) / Sum;
    for (int64_t I = threadIdx.x; I < Dim; I += blockDim.x) {
      A V = toAcc(XRow[I]);
      YRow[I] = fromAcc<Out>(Log ? (V - Max) - LogSum : expAcc(V - Max) * Inv);
    }
  }
}

/// The vectors each thread of softmaxSmemRowsKernel loads before it uses
/// any: the loads in flight hide the memory's latency.
constexpr int kSmemRowUnroll = 4;

/// softmaxRowsKernel for rows of \p Dim values, Dim a multiple of Vec,
/// whose rows start 16-byte aligned in X and Vec * sizeof(Out)-byte aligned
/// in Y. The first pass reads the row in vectors of Vec elements and keeps
/// them in the dynamic shared memory (Dim * sizeof(In) bytes); the second
/// reads them there. Each thread reads back only the vectors it stored,
/// so the passes need no barrier between them.
template <typename In, typename Out, int Vec>
__global__ void softmaxSmemRowsKernel(const In *X, Out *Y, int64_t Rows,
                                      int64_t Dim, bool Log) {
  using A = AccType<In>;
  using InVec = cuda::AlignedVector<In, Vec>;
  using OutVec = cuda::AlignedVector<Out, Vec>;
  extern __shared__ __align__(16) unsigned char RowBytes[];
  InVec *Row = reinterpret_cast<InVec *>(RowBytes);
  __shared__ OnlineSum<A> Shared[32];
  const int64_t Vectors = Dim / Vec;
  const int64_t Step = blockDim.x;
  for (int64_t R = blockIdx.x; R < Rows; R += gridDim.x) {
    const InVec *XRow = reinterpret_cast<const InVec *>(X + R * Dim);
    OutVec *YRow = reinterpret_cast<OutVec *>(Y + R * Dim);
    OnlineSum<A> Sums = OnlineSum<A>::empty();
    for (int64_t First = threadIdx.x; First < Vectors;
         First += kSmemRowUnroll * Step) {
      InVec Chunk[kSmemRowUnroll];
#pragma unroll
      for (int K = 0; K < kSmemRowUnroll; ++K)
        if (First + K * Step < Vectors)
          Chunk[K] = XRow[First + K * Step];
#pragma unroll
      for (int K = 0; K < kSmemRowUnroll; ++K) {
        if (First + K * Step < Vectors) {
          Row[First + K * Step] = Chunk[K];
#pragma unroll
          for (int E = 0; E < Vec; ++E)
            Sums.add(toAcc(Chunk[K].V[E]));
        }
      }
    }
    Sums = blockReduceOnline(Sums, Shared);
    A Max = Sums.Max, Sum = Sums.rowSum();
    A LogSum = logAcc(Sum), Inv = A(1) / Sum;
    for (int64_t I = threadIdx.x; I < Vectors; I += Step) {
      InVec Chunk = Row[I];
      OutVec Result;
#pragma unroll
      for (int E = 0; E < Vec; ++E) {
        A V = toAcc(Chunk.V[E]);
        Result.V[E] =
            fromAcc<Out>(Log ? (V - Max) - LogSum : expAcc(V - Max) * Inv);
      }
      YRow[I] = Result;
    }
  }
}

/// What a block of softmaxSmemRowsKernel<In, Out, Vec> may hold on one
/// device.
struct SmemRowsLimits {
  /// Dynamic shared memory a block may have: the device's opt-in limit
  /// less the kernel's static shared memory (the reduction's).
  int64_t MaxRowBytes = 0;
  /// Shared memory a block takes besides its row: the kernel's static
  /// shared memory and what the driver reserves for each block.
  int64_t BlockOverhead = 0;
  /// Shared memory an SM has.
  int64_t BytesPerSM = 0;
  /// Threads a block may have: the kernel's registers' limit, in warps.
  int MaxThreads = 0;
};

/// SmemRowsLimits of softmaxSmemRowsKernel<In, Out, Vec> on the current
/// device, \p Device, asked of the driver once per device, which is also
/// when the kernel opts into all of that dynamic shared memory (above 48
/// KB a kernel must ask for it): a launch then makes no driver call but
/// itself. (A mutex, not std::call_once: libstdc++'s call_once can hang
/// after its function throws, as a CUDA error makes it.)
template <typename In, typename Out, int Vec>
SmemRowsLimits smemRowsLimits(int Device) {
  static std::mutex Mutex;
  static std::array<std::optional<SmemRowsLimits>, cuda::kMaxCUDADevices>
      Limits;
  // The output was allocated on Device, which the allocator checks.
  SK_INTERNAL_ASSERT(Device >= 0 && Device < cuda::kMaxCUDADevices, "device ",
                     Device);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Limits[Device]) {
    auto Kernel = softmaxSmemRowsKernel<In, Out, Vec>;
    cudaFuncAttributes Attributes;
    SK_CUDA_CHECK(cudaFuncGetAttributes(&Attributes, Kernel));
    int BlockBytes = 0, BytesPerSM = 0, Reserved = 0;
    SK_CUDA_CHECK(cudaDeviceGetAttribute(
        &BlockBytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, Device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(
        &BytesPerSM, cudaDevAttrMaxSharedMemoryPerMultiprocessor, Device));
    SK_CUDA_CHECK(cudaDeviceGetAttribute(
        &Reserved, cudaDevAttrReservedSharedMemoryPerBlock, Device));
    const int Static = static_cast<int>(Attributes.sharedSizeBytes);
    SK_CUDA_CHECK(cudaFuncSetAttribute(
        Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        BlockBytes - Static));
    Limits[Device] =
        SmemRowsLimits{BlockBytes - Static, Static + Reserved, BytesPerSM,
                       Attributes.maxThreadsPerBlock / 32 * 32};
  }
  return *Limits[Device];
}

/// Launches softmaxSmemRowsKernel where the rows allow it; false where
/// not (too long for the shared memory, or misaligned).
template <typename In, typename Out>
bool launchSmemRows(const In *X, Out *Y, int64_t Rows, int64_t Dim, bool Log,
                    cudaStream_t Stream) {
  constexpr int Vec = 16 / sizeof(In);
  const int64_t Bytes = Dim * int64_t(sizeof(In));
  if (Dim % Vec != 0 || !cuda::isAlignedForVector(X, sizeof(In), Vec) ||
      !cuda::isAlignedForVector(Y, sizeof(Out), Vec))
    return false;
  int Device = 0;
  SK_CUDA_CHECK(cudaGetDevice(&Device));
  const SmemRowsLimits Limits = smemRowsLimits<In, Out, Vec>(Device);
  if (Bytes > Limits.MaxRowBytes)
    return false;
  // A row that leaves room for one block per SM (a float32 row of 32000)
  // gets a block of 1024 threads rather than 512: at 512, the SM would
  // hold a quarter of the threads it can, and half the loads in flight.
  // Either is capped by what the kernel's registers allow on this device.
  const int64_t BlockBytes = Bytes + Limits.BlockOverhead;
  int Threads =
      2 * BlockBytes > Limits.BytesPerSM ? 1024 : reduceThreads(Dim / Vec);
  Threads = std::min(Threads, Limits.MaxThreads);
  softmaxSmemRowsKernel<In, Out, Vec>
      <<<blocksFor(Rows, 1), Threads, Bytes, Stream>>>(X, Y, Rows, Dim, Log);
  return true;
}

/// The longest row softmaxWarpRowsKernel takes, and its warps per block.
constexpr int64_t kMaxWarpRow = 1024;
constexpr int kWarpRowsPerBlock = 4;

/// One warp per row of \p Dim <= 32 * PerLane contiguous values, which
/// stay in registers. Lane L holds the Vec-element vectors L, L + 32, ...
/// of the row, read and written with one access each (PyTorch's
/// persistent softmax loads 4 at a time too); Vec > 1 needs Dim a multiple
/// of it and rows aligned for it.
template <typename In, typename Out, int PerLane, int Vec>
__global__ void softmaxWarpRowsKernel(const In *X, Out *Y, int64_t Rows,
                                      int Dim, bool Log) {
  static_assert(PerLane % Vec == 0, "a lane holds whole vectors");
  using A = AccType<In>;
  constexpr int Groups = PerLane / Vec;
  const int Lane = threadIdx.x % 32;
  for (int64_t R = int64_t(blockIdx.x) * kWarpRowsPerBlock + threadIdx.x / 32;
       R < Rows; R += int64_t(gridDim.x) * kWarpRowsPerBlock) {
    const In *XRow = X + R * Dim;
    Out *YRow = Y + R * Dim;
    A V[PerLane];
    A Max = -A(INFINITY);
    // NaN wins, as in the CPU kernel's maximum.
    auto Hold = [&](int K, A E) {
      V[K] = E;
      Max = (E > Max || E != E) ? E : Max;
    };
    if constexpr (Vec == 1) {
#pragma unroll
      for (int K = 0; K < PerLane; ++K) {
        int I = Lane + 32 * K;
        Hold(K, I < Dim ? toAcc(XRow[I]) : -A(INFINITY));
      }
    } else {
#pragma unroll
      for (int G = 0; G < Groups; ++G) {
        int First = (G * 32 + Lane) * Vec;
        cuda::AlignedVector<In, Vec> Loaded;
        if (First < Dim)
          Loaded = *reinterpret_cast<const cuda::AlignedVector<In, Vec> *>(
              XRow + First);
#pragma unroll
        for (int J = 0; J < Vec; ++J)
          Hold(G * Vec + J, First < Dim ? toAcc(Loaded.V[J]) : -A(INFINITY));
      }
    }
    // Butterflies: every lane ends with the same maximum and sum.
#pragma unroll
    for (int Offset = 16; Offset > 0; Offset /= 2) {
      A Other = __shfl_xor_sync(0xffffffffu, Max, Offset);
      Max = (Other > Max || Other != Other) ? Other : Max;
    }
    // softmax keeps each exp for its output, so it takes one per element.
    A Sum = 0;
#pragma unroll
    for (int K = 0; K < PerLane; ++K)
      if ((K / Vec * 32 + Lane) * Vec < Dim) {
        A E = expAcc(V[K] - Max);
        Sum += E;
        if (!Log)
          V[K] = E;
      }
#pragma unroll
    for (int Offset = 16; Offset > 0; Offset /= 2)
      Sum += __shfl_xor_sync(0xffffffffu, Sum, Offset);
    A LogSum = logAcc(Sum), Inv = A(1) / Sum;
    auto Result = [&](int K) {
      return fromAcc<Out>(Log ? (V[K] - Max) - LogSum : V[K] * Inv);
    };
    if constexpr (Vec == 1) {
#pragma unroll
      for (int K = 0; K < PerLane; ++K) {
        int I = Lane + 32 * K;
        if (I < Dim)
          YRow[I] = Result(K);
      }
    } else {
#pragma unroll
      for (int G = 0; G < Groups; ++G) {
        int First = (G * 32 + Lane) * Vec;
        if (First >= Dim)
          continue;
        cuda::AlignedVector<Out, Vec> Stored;
#pragma unroll
        for (int J = 0; J < Vec; ++J)
          Stored.V[J] = Result(G * Vec + J);
        *reinterpret_cast<cuda::AlignedVector<Out, Vec> *>(YRow + First) =
            Stored;
      }
    }
  }
}

/// softmaxWarpRowsKernel with the fewest registers per lane for \p Dim, in
/// vectors of 4 where Dim and the addresses allow.
template <typename In, typename Out>
void launchWarpRows(const In *X, Out *Y, int64_t Rows, int64_t Dim, bool Log,
                    cudaStream_t Stream) {
  unsigned Blocks = blocksFor(Rows, kWarpRowsPerBlock);
  unsigned Threads = 32 * kWarpRowsPerBlock;
  int D = static_cast<int>(Dim);
  bool Vectors = Dim % 4 == 0 && cuda::isAlignedForVector(X, sizeof(In), 4) &&
                 cuda::isAlignedForVector(Y, sizeof(Out), 4);
  auto Launch = [&](auto PerLane) {
    constexpr int P = decltype(PerLane)::value;
    // At most 16 bytes an access: float64 rows stay scalar.
    if constexpr (P % 4 == 0 && sizeof(In) <= 4 && sizeof(Out) <= 4) {
      if (Vectors) {
        softmaxWarpRowsKernel<In, Out, P, 4>
            <<<Blocks, Threads, 0, Stream>>>(X, Y, Rows, D, Log);
        return;
      }
    }
    softmaxWarpRowsKernel<In, Out, P, 1>
        <<<Blocks, Threads, 0, Stream>>>(X, Y, Rows, D, Log);
  };
  withCeiling<1, 2, 4, 8, 16, 32>((Dim + 31) / 32, Launch, [&] {
    SK_INTERNAL_ASSERT(false, "a row of ", Dim, " values for one warp");
  });
}

/// One thread per column (o, j) of an [Outer, Dim, Inner] tensor.
template <typename In, typename Out>
__global__ void softmaxColumnsKernel(const In *X, Out *Y, int64_t Outer,
                                     int64_t Dim, int64_t Inner, bool Log) {
  using A = AccType<In>;
  int64_t Columns = Outer * Inner;
  for (int64_t C = globalIndex(); C < Columns; C += gridStride()) {
    int64_t O = C / Inner, J = C % Inner;
    const In *XCol = X + O * Dim * Inner + J;
    Out *YCol = Y + O * Dim * Inner + J;
    A Max = -INFINITY;
    for (int64_t D = 0; D < Dim; ++D) {
      A V = toAcc(XCol[D * Inner]);
      Max = (V > Max || V != V) ? V : Max;
    }
    A Sum = 0;
    for (int64_t D = 0; D < Dim; ++D)
      Sum += expAcc(toAcc(XCol[D * Inner]) - Max);
    A LogSum = logAcc(Sum), Inv = A(1) / Sum;
    for (int64_t D = 0; D < Dim; ++D) {
      A V = toAcc(XCol[D * Inner]);
      YCol[D * Inner] =
          fromAcc<Out>(Log ? (V - Max) - LogSum : expAcc(V - Max) * Inv);
    }
  }
}

template <typename InT, typename OutT>
void launchSoftmax(const Tensor &In, const Tensor &Out, int64_t Outer,
                   int64_t Dim, int64_t Inner, bool Log) {
  using I = DeviceElement<InT>;
  using O = DeviceElement<OutT>;
  cudaStream_t Stream = currentStream();
  if (Inner == 1 && Dim <= kMaxWarpRow) {
    launchWarpRows(devicePtr<InT>(In), devicePtr<OutT>(Out), Outer, Dim, Log,
                   Stream);
  } else if (Inner == 1) {
    if (!launchSmemRows(devicePtr<InT>(In), devicePtr<OutT>(Out), Outer, Dim,
                        Log, Stream))
      softmaxRowsKernel<I, O>
          <<<blocksFor(Outer, 1), reduceThreads(Dim), 0, Stream>>>(
              devicePtr<InT>(In), devicePtr<OutT>(Out), Outer, Dim, Log);
  } else {
    softmaxColumnsKernel<I, O>
        <<<blocksFor(Outer * Inner), kThreads, 0, Stream>>>(
            devicePtr<InT>(In), devicePtr<OutT>(Out), Outer, Dim, Inner, Log);
  }
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

void softmaxImpl(const Tensor &self, int64_t dim, const Tensor &out, bool Log) {
  if (self.numel() == 0)
    return;
  int64_t Dim = maybeWrapDim(dim, self.dim());
  Tensor In = self.contiguous();
  kernels::SizesAround Around = kernels::sizesAround(self.sizes(), Dim);
  int64_t Outer = Around.Outer, Inner = Around.Inner;
  int64_t Size = self.dim() == 0 ? 1 : self.size(Dim);
  bool ToFloat = out.scalar_type() != self.scalar_type();
  OutputBuffer Out(out);
  dispatchDtypes<dtypes::Floating>(
      self.scalar_type(), Log ? "log_softmax_cuda" : "softmax_cuda",
      [&](auto Tag) {
        using T = decltype(Tag);
        if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
          if (ToFloat) {
            launchSoftmax<T, float>(In, Out.get(), Outer, Size, Inner, Log);
            return;
          }
        }
        launchSoftmax<T, T>(In, Out.get(), Outer, Size, Inner, Log);
      });
  Out.finish();
}

} // namespace

SK_IMPL_FUNC(softmax_out_cuda)
(const Tensor &self, int64_t dim, bool half_to_float, const Tensor &out) {
  softmaxImpl(self, dim, out, /*Log=*/false);
}

SK_IMPL_FUNC(log_softmax_out_cuda)
(const Tensor &self, int64_t dim, bool half_to_float, const Tensor &out) {
  softmaxImpl(self, dim, out, /*Log=*/true);
}

} // namespace sk
