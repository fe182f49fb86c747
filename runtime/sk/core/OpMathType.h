//===--- OpMathType.h - The type kernels compute a dtype in -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// opmath_type<T> (ATen's at::opmath_type): the type CPU and CUDA kernels
/// compute elements of type T in, float for Half and BFloat16.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_OPMATHTYPE_H
#define SK_CORE_OPMATHTYPE_H

#include "sk/core/Half.h"

namespace sk {

template <typename T> struct OpMathType { using type = T; };
template <> struct OpMathType<Half> { using type = float; };
template <> struct OpMathType<BFloat16> { using type = float; };
template <typename T> using opmath_type = typename OpMathType<T>::type;

} // namespace sk

#endif // SK_CORE_OPMATHTYPE_H
