//===--- IntegerMath.h - Element arithmetic shared by CPU and CUDA -*- C++
//-*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The element functions the CPU and CUDA impls of add, sub, mul and pow
/// must agree on, callable from host and device code (SK_HOST_DEVICE).
///
/// Integer arithmetic wraps around, as PyTorch's does in practice; going
/// through uint64_t keeps it defined (no signed overflow, no promotion of
/// uint16_t products to int).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_INTEGERMATH_H
#define SKC_KERNELS_SHARED_INTEGERMATH_H

#include "sk/iter/DtypeDispatch.h"
#include "sk/util/HostDevice.h"

#include <cstdint>
#include <type_traits>

namespace sk {
namespace kernels {

template <typename T> SK_HOST_DEVICE inline T wrapAdd(T A, T B) {
  if constexpr (kIsInteger<T>)
    return static_cast<T>(static_cast<uint64_t>(A) + static_cast<uint64_t>(B));
  else
    return A + B;
}
template <typename T> SK_HOST_DEVICE inline T wrapSub(T A, T B) {
  if constexpr (kIsInteger<T>)
    return static_cast<T>(static_cast<uint64_t>(A) - static_cast<uint64_t>(B));
  else
    return A - B;
}
template <typename T> SK_HOST_DEVICE inline T wrapMul(T A, T B) {
  if constexpr (kIsInteger<T>)
    return static_cast<T>(static_cast<uint64_t>(A) * static_cast<uint64_t>(B));
  else
    return A * B;
}

/// Integer powers by squaring (c10's powi): negative exponents give 0
/// except for bases 1 and -1.
template <typename T> SK_HOST_DEVICE inline T powInteger(T Base, T Exp) {
  if constexpr (std::is_signed_v<T>) {
    if (Exp < 0) {
      if (Base == 1)
        return 1;
      if (Base == -1)
        return (Exp % 2) != 0 ? T(-1) : T(1);
      return 0;
    }
  }
  T Result = 1;
  while (Exp) {
    if (Exp & 1)
      Result = wrapMul(Result, Base);
    Exp /= 2;
    Base = wrapMul(Base, Base);
  }
  return Result;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_INTEGERMATH_H
