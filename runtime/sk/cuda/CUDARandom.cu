//===--- CUDARandom.cu - rand and randn on the device ---------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernels behind rand and randn on CUDA tensors, with cuRAND's
/// device-side Philox4x32-10 (curand_kernel.h, header-only).
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDARandom.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <curand_kernel.h>

#include <algorithm>
#include <type_traits>

namespace sk {
namespace cuda {
namespace detail {

// Note [Random numbers on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// rand and randn draw on the device, as PyTorch's CUDA generator does,
// instead of drawing on the host and copying. Philox is counter-based: the
// values are a function of (seed, subsequence, offset), so every thread
// starts its own subsequence (its index in the grid) at the generator's
// current offset, and no state lives on the device. Each thread draws four
// 32-bit values at a time (curand4 and the Box-Muller of curand_normal4 /
// curand_normal2_double), which make four values, or two doubles, of
// consecutive elements, then strides by the grid. The generator's offset
// then advances by what each thread drew (randomOffsetIncrement), so the
// next call continues every subsequence.
//
// The grid depends on N alone (at most kMaxBlocks blocks), not on the
// device, so a seed gives the same values on every GPU. They are not the
// CPU's values for the same seed (the CPU draws from a Mersenne Twister),
// nor PyTorch's: PyTorch sizes its grid by the device's SMs.
//
// Uniform values are k / 2^b from the top b bits of a draw, with b the
// precision of the dtype (24 for float32, 53 for float64 from two draws,
// 11 for float16, 8 for bfloat16): exact in that dtype and never 1, as on
// the CPU. Normal values are computed in float (double for float64) and
// rounded to the dtype.

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 1024;

int valuesPerDraw(RandomType T) { return T == RandomType::Double ? 2 : 4; }

int64_t blocksFor(int64_t N, RandomType T) {
  int64_t PerBlock = int64_t(kThreads) * valuesPerDraw(T);
  return std::clamp<int64_t>((N + PerBlock - 1) / PerBlock, 1, kMaxBlocks);
}

uint64_t randomOffsetIncrement(int64_t N, RandomType T) {
  int64_t PerRound = blocksFor(N, T) * kThreads * valuesPerDraw(T);
  uint64_t Rounds = static_cast<uint64_t>((N + PerRound - 1) / PerRound);
  return Rounds * 4; // Four 32-bit values a round.
}

namespace {

/// The precision in bits of the 16- and 32-bit float types.
template <typename T> __host__ __device__ constexpr int precisionBits() {
  if constexpr (std::is_same_v<T, __half>)
    return 11;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return 8;
  else
    return 24;
}

template <typename T> __device__ T fromFloat(float V) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(V);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16_rn(V);
  else
    return V;
}

/// k / 2^Bits from the top \p Bits of \p X.
template <int Bits> __device__ float uniformFloat(unsigned X) {
  return static_cast<float>(X >> (32 - Bits)) * (1.0f / float(1u << Bits));
}

/// k / 2^53 from the top 53 bits of \p Hi and \p Lo.
__device__ double uniformDouble(unsigned Hi, unsigned Lo) {
  unsigned long long Bits =
      ((static_cast<unsigned long long>(Hi) << 32) | Lo) >> 11;
  return static_cast<double>(Bits) * (1.0 / 9007199254740992.0);
}

template <typename T, bool Normal>
__global__ void randomKernel(T *Out, int64_t N, unsigned long long Seed,
                             unsigned long long Offset) {
  int64_t Index = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  int64_t Threads = int64_t(gridDim.x) * blockDim.x;
  curandStatePhilox4_32_10_t State;
  curand_init(Seed, static_cast<unsigned long long>(Index), Offset, &State);
  constexpr int PerDraw = std::is_same_v<T, double> ? 2 : 4;
  for (int64_t Base = Index * PerDraw; Base < N; Base += Threads * PerDraw) {
    T V[PerDraw];
    if constexpr (std::is_same_v<T, double>) {
      if constexpr (Normal) {
        double2 D = curand_normal2_double(&State);
        V[0] = D.x;
        V[1] = D.y;
      } else {
        uint4 R = curand4(&State);
        V[0] = uniformDouble(R.x, R.y);
        V[1] = uniformDouble(R.z, R.w);
      }
    } else {
      float F[4];
      if constexpr (Normal) {
        float4 R = curand_normal4(&State);
        F[0] = R.x, F[1] = R.y, F[2] = R.z, F[3] = R.w;
      } else {
        constexpr int Bits = precisionBits<T>();
        uint4 R = curand4(&State);
        F[0] = uniformFloat<Bits>(R.x), F[1] = uniformFloat<Bits>(R.y);
        F[2] = uniformFloat<Bits>(R.z), F[3] = uniformFloat<Bits>(R.w);
      }
      for (int K = 0; K < 4; ++K)
        V[K] = fromFloat<T>(F[K]);
    }
    for (int K = 0; K < PerDraw && Base + K < N; ++K)
      Out[Base + K] = V[K];
  }
}

template <typename T>
void launchTyped(void *Data, int64_t N, RandomType Type, Distribution D,
                 uint64_t Seed, uint64_t Offset, cudaStream_t Stream) {
  unsigned Blocks = static_cast<unsigned>(blocksFor(N, Type));
  if (D == Distribution::Normal)
    randomKernel<T, true><<<Blocks, kThreads, 0, Stream>>>(
        static_cast<T *>(Data), N, Seed, Offset);
  else
    randomKernel<T, false><<<Blocks, kThreads, 0, Stream>>>(
        static_cast<T *>(Data), N, Seed, Offset);
}

} // namespace

void launchRandom(void *Data, int64_t N, RandomType T, Distribution D,
                  uint64_t Seed, uint64_t Offset, cudaStream_t Stream) {
  if (N == 0)
    return;
  switch (T) {
  case RandomType::Float:
    return launchTyped<float>(Data, N, T, D, Seed, Offset, Stream);
  case RandomType::Double:
    return launchTyped<double>(Data, N, T, D, Seed, Offset, Stream);
  case RandomType::Half:
    return launchTyped<__half>(Data, N, T, D, Seed, Offset, Stream);
  case RandomType::BFloat16:
    return launchTyped<__nv_bfloat16>(Data, N, T, D, Seed, Offset, Stream);
  }
}

} // namespace detail
} // namespace cuda
} // namespace sk
