//===--- DeviceUtils.cuh - Helpers of the CUDA kernels ---------*- CUDA -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the CUDA impls of the linear algebra, indexing, tensor list and NN
/// families share: the device type of a dtype (sk::Half is __half's bits),
/// conversions to and from the accumulation type, launch sizes, block
/// reductions, the shape of a tensor as a kernel argument, a
/// device-side error flag, the row gather of embedding and index_select,
/// and a contiguous stand-in for an out= tensor of other strides.
///
/// Kernels choose the C++ type of a dtype through sk::dispatchDtypes and
/// friends (docs/kernels.md#dtypes), then map it with DeviceType.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_DEVICEUTILS_CUH
#define SKC_KERNELS_CUDA_DEVICEUTILS_CUH

#include "OffsetCalculator.h"

#include "sk/core/OpMathType.h"
#include "sk/core/Tensor.h"
#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/cuda/DeviceChecks.h"
#include "sk/ops/Factories.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace sk {
namespace cuda_kernels {

//===--- Types ------------------------------------------------------------===//

/// The device type of the host element type \p T: __half and
/// __nv_bfloat16 for sk::Half and sk::BFloat16 (same bits), else T.
template <typename T> struct DeviceElementOf { using type = T; };
template <> struct DeviceElementOf<Half> { using type = __half; };
template <> struct DeviceElementOf<BFloat16> { using type = __nv_bfloat16; };
template <typename T> using DeviceElement = typename DeviceElementOf<T>::type;

/// The accumulation type of the device type \p T: float for the 16-bit
/// floats, else T (opmath_type on the device).
template <typename T> struct AccTypeOf { using type = T; };
template <> struct AccTypeOf<__half> { using type = float; };
template <> struct AccTypeOf<__nv_bfloat16> { using type = float; };
template <typename T> using AccType = typename AccTypeOf<T>::type;

template <typename T> __device__ __forceinline__ AccType<T> toAcc(T V) {
  return static_cast<AccType<T>>(V);
}
template <> __device__ __forceinline__ float toAcc(__half V) {
  return __half2float(V);
}
template <> __device__ __forceinline__ float toAcc(__nv_bfloat16 V) {
  return __bfloat162float(V);
}

/// \p V converted to the device type \p T (round to nearest even).
template <typename T, typename A> __device__ __forceinline__ T fromAcc(A V) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(static_cast<float>(V));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16_rn(static_cast<float>(V));
  else
    return static_cast<T>(V);
}

/// Whether \p V is NaN; integers never are.
template <typename A> __device__ __forceinline__ bool isNaN(A V) {
  if constexpr (std::is_floating_point_v<A>)
    return V != V;
  else
    return false;
}

/// Whether the device value \p V is non-zero (NaN is).
template <typename D> __device__ __forceinline__ bool isNonzero(D V) {
  if constexpr (std::is_same_v<D, __half> || std::is_same_v<D, __nv_bfloat16>)
    return toAcc(V) != 0.0f;
  else
    return V != D(0);
}

/// A device pointer to the elements of \p T as the device type of E.
template <typename E> DeviceElement<E> *devicePtr(const Tensor &T) {
  return static_cast<DeviceElement<E> *>(T.data_ptr());
}

//===--- Launches ---------------------------------------------------------===//

constexpr int kThreads = 256;
/// Grids are capped here; kernels loop with a grid stride over the rest.
constexpr int64_t kMaxBlocks = 65535;

/// Blocks of kThreads for \p N elements, at least one.
inline unsigned blocksFor(int64_t N, int Threads = kThreads) {
  return static_cast<unsigned>(
      std::clamp<int64_t>((N + Threads - 1) / Threads, int64_t(1), kMaxBlocks));
}

inline cudaStream_t currentStream() { return cuda::getCurrentCUDAStream(); }

/// The global index of this thread and the grid's stride, as int64.
__device__ __forceinline__ int64_t globalIndex() {
  return blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
}
__device__ __forceinline__ int64_t gridStride() {
  return int64_t(gridDim.x) * blockDim.x;
}

/// Whether a grid-stride loop over \p N elements may count in int32_t:
/// every index below N, and one grid's stride past it (at most kMaxBlocks
/// blocks of 1024 threads).
inline bool fitsInt32GridIndex(int64_t N) {
  return N + kMaxBlocks * 1024 <= std::numeric_limits<int32_t>::max();
}

//===--- Block reductions -------------------------------------------------===//

/// The combination of every thread's \p V over the block; every thread
/// gets it. Each warp combines its values in a tree of shuffles, then the
/// first warp combines the warps' results, passed through \p Shared (32
/// values). \p ShuffleDown(V, Offset) is __shfl_down_sync of a value
/// (field by field for a struct), \p Combine(V, W) merges two, and
/// \p Empty() is the value of a lane without a warp. blockDim.x is a
/// multiple of 32.
///
/// Not CUB's: cub::BlockReduce needs the block's size at compile time,
/// and these blocks' sizes follow their rows (reduceThreads); with
/// cub::WarpReduce for the warp steps, kernels took more registers
/// (docs/cuda.md, "Reductions with CUB").
template <typename S, typename ShuffleFn, typename CombineFn, typename EmptyFn>
__device__ S blockReduce(S V, S *Shared, ShuffleFn ShuffleDown,
                         CombineFn Combine, EmptyFn Empty) {
  auto ReduceWarp = [&](S X) {
    for (int Offset = 16; Offset > 0; Offset /= 2)
      X = Combine(X, ShuffleDown(X, Offset));
    return X;
  };
  V = ReduceWarp(V);
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  __syncthreads(); // Shared may still be read by a previous reduction.
  if (Lane == 0)
    Shared[Warp] = V;
  __syncthreads();
  if (Warp == 0) {
    V = ReduceWarp(Lane < int(blockDim.x / 32) ? Shared[Lane] : Empty());
    __syncwarp(); // Every lane has read Shared before lane 0 writes it.
    if (Lane == 0)
      Shared[0] = V;
  }
  __syncthreads();
  return Shared[0];
}

/// __shfl_down_sync of a whole warp, for blockReduce.
struct ShuffleDownWarp {
  template <typename A> __device__ A operator()(A V, int Offset) const {
    return __shfl_down_sync(0xffffffffu, V, Offset);
  }
};

/// The sum of \p V over the block (every thread gets it). \p Shared holds
/// 32 values; blockDim.x is a multiple of 32.
template <typename A> __device__ A blockReduceSum(A V, A *Shared) {
  return blockReduce(
      V, Shared, ShuffleDownWarp(), [](A X, A Y) { return X + Y; },
      [] { return A(0); });
}

/// The maximum of \p V over the block (NaN ignored unless every value is
/// NaN), as blockReduceSum.
template <typename A> __device__ A blockReduceMax(A V, A *Shared) {
  return blockReduce(
      V, Shared, ShuffleDownWarp(),
      [](A X, A Y) { return (X > Y || Y != Y) ? X : Y; },
      [Shared] { return Shared[0]; });
}

/// The most threads reduceThreads gives a block.
/// __launch_bounds__(kMaxReduceThreads, 1) holds a kernel to the 128
/// registers a thread that such a block may take.
constexpr int kMaxReduceThreads = 512;

/// Threads for a block that reduces rows of \p N elements: a power of 2
/// from 32 to kMaxReduceThreads.
inline int reduceThreads(int64_t N) {
  int T = 32;
  while (T < kMaxReduceThreads && T < N)
    T *= 2;
  return T;
}

/// Calls \p F(std::integral_constant<int, P>()) for the first P of
/// \p Options (ascending) that is at least \p N, or \p Otherwise() when
/// none is: a count known at run time as the template argument of a
/// kernel that sizes a register array by it.
template <int... Options, typename Fn, typename OtherwiseFn>
void withCeiling(int64_t N, Fn &&F, OtherwiseFn &&Otherwise) {
  bool Called =
      ((N <= Options && (F(std::integral_constant<int, Options>()), true)) ||
       ...);
  if (!Called)
    Otherwise();
}

//===--- Shapes -----------------------------------------------------------===//

/// PyTorch's MAX_DIMS, as the elementwise launcher's.
using cuda::kMaxDims;

/// The sizes of a tensor of up to kMaxDims dimensions, by value as a kernel
/// argument. (Offsets of strided operands come from an OffsetCalculator,
/// OffsetCalculator.h.)
struct KernelShape {
  int Rank;
  int64_t Sizes[kMaxDims];
};

/// Fails unless \p Sizes has at most kMaxDims dimensions.
inline void checkKernelDims(IntArrayRef Sizes) {
  SK_CHECK(Sizes.size() <= size_t(kMaxDims), "CUDA kernels support at most ",
           kMaxDims, " dimensions, but got ", Sizes.size());
}

/// The KernelShape of \p Sizes.
inline KernelShape kernelShape(IntArrayRef Sizes) {
  checkKernelDims(Sizes);
  KernelShape S{};
  S.Rank = static_cast<int>(Sizes.size());
  for (int D = 0; D < S.Rank; ++D)
    S.Sizes[D] = Sizes[D];
  return S;
}

//===--- Device checks ----------------------------------------------------===//

/// Records a failed check in \p Flag (a cuda::DeviceCheck's record, Note
/// [Device checks]) with the non-zero \p Code and \p Value, unless another
/// thread did first.
__device__ __forceinline__ void
raiseError(unsigned long long *Flag, unsigned long long Code, int64_t Value) {
  if (atomicCAS(Flag, 0ull, Code) == 0ull)
    Flag[1] = static_cast<unsigned long long>(Value);
}

//===--- Row gathers ------------------------------------------------------===//

/// Row r of the row-major \p Out [N, RowWords] = row Index[r] of \p Src
/// (rows \p SrcRowWords apart), for Index in [0, \p Rows); an index out of
/// range raises \p Flag with it.
template <typename Word, typename IndexT>
__global__ void gatherRowsKernel(Word *Out, const Word *Src,
                                 const IndexT *Index, int64_t N,
                                 int64_t RowWords, int64_t SrcRowWords,
                                 int64_t Rows, unsigned long long *Flag) {
  int64_t Total = N * RowWords;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t R = L / RowWords, C = L - R * RowWords;
    int64_t Row = static_cast<int64_t>(Index[R]);
    if (Row < 0 || Row >= Rows) {
      raiseError(Flag, 1, Row);
      Out[L] = Word{}; // defined, where the index is bad
      continue;
    }
    Out[L] = Src[Row * SrcRowWords + C];
  }
}

/// embedding and index_select along dim 0 when rows are contiguous: row r
/// of the contiguous \p Out [N, D] = row Index[r] of \p Src [Rows, D]
/// (unit stride within a row). Rows move as 16-byte words where their
/// bytes, the row stride and both pointers allow, else as elements.
template <typename IndexT>
void gatherRows(const Tensor &Out, const Tensor &Src, const IndexT *Index,
                int64_t N, unsigned long long *Flag) {
  int64_t D = Src.size(1), Rows = Src.size(0);
  int64_t Item = static_cast<int64_t>(Src.itemsize());
  int64_t RowBytes = D * Item, StrideBytes = Src.stride(0) * Item;
  auto Aligned = [](const void *P) {
    return reinterpret_cast<uintptr_t>(P) % 16 == 0;
  };
  cudaStream_t Stream = currentStream();
  if (RowBytes % 16 == 0 && StrideBytes % 16 == 0 && Aligned(Src.data_ptr()) &&
      Aligned(Out.data_ptr())) {
    int64_t Words = RowBytes / 16;
    gatherRowsKernel<uint4, IndexT>
        <<<blocksFor(N * Words), kThreads, 0, Stream>>>(
            static_cast<uint4 *>(Out.data_ptr()),
            static_cast<const uint4 *>(Src.data_ptr()), Index, N, Words,
            StrideBytes / 16, Rows, Flag);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  dispatchElementSize(Src.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    gatherRowsKernel<Word, IndexT><<<blocksFor(N * D), kThreads, 0, Stream>>>(
        static_cast<Word *>(Out.data_ptr()),
        static_cast<const Word *>(Src.data_ptr()), Index, N, D, Src.stride(0),
        Rows, Flag);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

//===--- Outputs ----------------------------------------------------------===//

/// The tensor a kernel writes for \p Out: Out itself when it has the
/// strides \p Format gives its sizes, else a temporary of that layout
/// that finish() copies into Out.
class OutputBuffer {
public:
  explicit OutputBuffer(const Tensor &Out,
                        MemoryFormat Format = MemoryFormat::Contiguous)
      : Out(Out) {
    if (Out.is_contiguous(Format))
      Buffer = Out;
    else
      Buffer = empty(Out.sizes(), Out.options().memory_format(Format));
  }
  const Tensor &get() const { return Buffer; }
  /// Whether the kernel writes a temporary; copy Out into it first where
  /// the kernel reads the output.
  bool isTemporary() const { return !Buffer.is_same(Out); }
  void finish() const {
    if (isTemporary())
      Out.copy_(Buffer);
  }

private:
  Tensor Out;
  Tensor Buffer;
};

} // namespace cuda_kernels
} // namespace sk

#endif // SKC_KERNELS_CUDA_DEVICEUTILS_CUH
