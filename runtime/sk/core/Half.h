//===--- Half.h - float16 and bfloat16 storage types ------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::Half` (IEEE binary16) and `sk::BFloat16` are storage types: they
/// convert to float for arithmetic, which is how the kernels compute with
/// them (PyTorch's opmath). Conversions round to nearest even.
///
/// Under nvcc (and Clang's CUDA mode) the conversions are also __device__
/// functions, so CUDA kernels load, convert and store the same types;
/// SK_HOST_DEVICE marks them. Host code computes exactly as without CUDA;
/// device code converts with the hardware's instructions, to the same
/// values.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_HALF_H
#define SK_CORE_HALF_H

#include "sk/util/HostDevice.h"

#include <cstdint>
#include <cstring>
#include <ostream>

namespace sk {

namespace detail {
SK_HOST_DEVICE inline uint32_t floatBits(float F) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(F);
#else
  uint32_t U;
  std::memcpy(&U, &F, sizeof U);
  return U;
#endif
}
SK_HOST_DEVICE inline float bitsFloat(uint32_t U) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(U);
#else
  float F;
  std::memcpy(&F, &U, sizeof F);
  return F;
#endif
}

// On the device each conversion is the hardware's one instruction (cvt),
// where the code below takes several and branches: it rounds the same
// way, to nearest even, with the same overflow to infinity and the same
// subnormals, so every value converts as on the host. Only a NaN's bits
// may differ (the device writes its canonical NaN), as between PyTorch's
// CPU and CUDA kernels, which make the same choice.

SK_HOST_DEVICE inline uint16_t floatToHalfBits(float F) {
#if defined(__CUDA_ARCH__)
  uint16_t H;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(H) : "f"(F));
  return H;
#else
  uint32_t X = floatBits(F);
  uint32_t Sign = (X >> 16) & 0x8000u;
  uint32_t Abs = X & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // Inf or NaN; keep NaNs quiet.
    return Sign | 0x7c00u | (Abs > 0x7f800000u ? 0x200u : 0u);
  if (Abs >= 0x477ff000u) // Rounds to beyond the largest half: Inf.
    return Sign | 0x7c00u;
  if (Abs < 0x38800000u) { // Subnormal half (or zero).
    // Add 0.5 as a float so the FPU rounds the mantissa for us.
    float Scaled = bitsFloat(Abs) + 0.5f;
    return Sign | static_cast<uint16_t>(floatBits(Scaled) - 0x3f000000u);
  }
  uint32_t Mantissa = Abs + 0xc8000fffu + ((Abs >> 13) & 1u); // re-bias, RNE
  return Sign | static_cast<uint16_t>(Mantissa >> 13);
#endif
}

SK_HOST_DEVICE inline float halfBitsToFloat(uint16_t H) {
#if defined(__CUDA_ARCH__)
  float F;
  asm("cvt.f32.f16 %0, %1;" : "=f"(F) : "h"(H));
  return F;
#else
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000u) << 16;
  uint32_t Exp = (H >> 10) & 0x1fu;
  uint32_t Mantissa = H & 0x3ffu;
  if (Exp == 0) {
    // Zero or subnormal: value = Mantissa * 2^-24.
    float F = static_cast<float>(Mantissa) * 5.9604644775390625e-8f;
    return Sign ? -F : F;
  }
  if (Exp == 0x1f)
    return bitsFloat(Sign | 0x7f800000u | (Mantissa << 13));
  return bitsFloat(Sign | ((Exp + 112) << 23) | (Mantissa << 13));
#endif
}

SK_HOST_DEVICE inline uint16_t floatToBFloat16Bits(float F) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // cvt to bf16: sm_80 on
  uint16_t B;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(B) : "f"(F));
  return B;
#else
  uint32_t X = floatBits(F);
  if ((X & 0x7fffffffu) > 0x7f800000u) // NaN
    return 0x7fc0u;
  uint32_t RoundingBias = 0x7fffu + ((X >> 16) & 1u);
  return static_cast<uint16_t>((X + RoundingBias) >> 16);
#endif
}
} // namespace detail

struct alignas(2) Half {
  uint16_t X = 0;

  Half() = default;
  SK_HOST_DEVICE Half(float F) : X(detail::floatToHalfBits(F)) {}
  SK_HOST_DEVICE operator float() const {
    return detail::halfBitsToFloat(X);
  }
  SK_HOST_DEVICE static Half fromBits(uint16_t Bits) {
    Half H;
    H.X = Bits;
    return H;
  }
};

struct alignas(2) BFloat16 {
  uint16_t X = 0;

  BFloat16() = default;
  SK_HOST_DEVICE BFloat16(float F) : X(detail::floatToBFloat16Bits(F)) {}
  SK_HOST_DEVICE operator float() const {
    return detail::bitsFloat(static_cast<uint32_t>(X) << 16);
  }
  SK_HOST_DEVICE static BFloat16 fromBits(uint16_t Bits) {
    BFloat16 B;
    B.X = Bits;
    return B;
  }
};

inline std::ostream &operator<<(std::ostream &OS, Half H) {
  return OS << static_cast<float>(H);
}
inline std::ostream &operator<<(std::ostream &OS, BFloat16 B) {
  return OS << static_cast<float>(B);
}

} // namespace sk

#endif // SK_CORE_HALF_H
