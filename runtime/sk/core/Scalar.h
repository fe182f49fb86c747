//===--- Scalar.h - A number that is not a tensor ---------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::Scalar` (c10::Scalar): a bool, an integer or a floating-point number,
/// as an op argument (`alpha`, `value`). In type promotion a Scalar counts
/// as a wrapped number: it decides the category (bool < integral < floating)
/// but not the width, so `int8 tensor + 1000` stays int8 and `float16
/// tensor * 2.5` stays float16.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_SCALAR_H
#define SK_CORE_SCALAR_H

#include "sk/core/ScalarType.h"
#include "sk/util/Exception.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

namespace sk {

class Scalar {
public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(bool V) : Tag(kBool) { Value.I = V; }
  Scalar(double V) : Tag(kDouble) { Value.D = V; }
  Scalar(float V) : Scalar(static_cast<double>(V)) {}
  Scalar(Half V) : Scalar(static_cast<double>(static_cast<float>(V))) {}
  Scalar(BFloat16 V) : Scalar(static_cast<double>(static_cast<float>(V))) {}
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  Scalar(T V) : Tag(kLong) {
    Value.I = static_cast<int64_t>(V);
  }

  /// kBool, kLong or kDouble: how the number was given.
  ScalarType type() const { return Tag; }
  bool isFloatingPoint() const { return Tag == kDouble; }
  bool isIntegral(bool IncludeBool) const {
    return Tag == kLong || (IncludeBool && Tag == kBool);
  }
  bool isBoolean() const { return Tag == kBool; }

  /// Converts to \p T; a value that does not fit (an integer too large for
  /// an int8, a fractional value into an integer) is an error.
  template <typename T> T to() const;
  /// Converts to \p T as a C cast would (for kernels that already checked).
  template <typename T> T toUnchecked() const {
    if (Tag == kDouble)
      return static_cast<T>(Value.D);
    return static_cast<T>(Value.I);
  }
  double toDouble() const { return toUnchecked<double>(); }
  int64_t toLong() const { return to<int64_t>(); }
  bool toBool() const { return to<bool>(); }

  bool equal(const Scalar &O) const {
    if (Tag == kDouble || O.Tag == kDouble)
      return toDouble() == O.toDouble();
    return Value.I == O.Value.I;
  }

private:
  ScalarType Tag;
  union {
    double D;
    int64_t I;
  } Value;
};

std::ostream &operator<<(std::ostream &OS, const Scalar &S);

namespace detail {
[[noreturn]] void scalarOverflow(const Scalar &S, ScalarType To);
} // namespace detail

template <typename T> T Scalar::to() const {
  if constexpr (std::is_same_v<T, bool>) {
    return Tag == kDouble ? Value.D != 0 : Value.I != 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (Tag == kDouble) {
      double D = Value.D;
      if (!std::isfinite(D) || D != std::trunc(D) ||
          D < static_cast<double>(std::numeric_limits<T>::lowest()) ||
          D > static_cast<double>(std::numeric_limits<T>::max()))
        detail::scalarOverflow(*this, scalarTypeOf<T>());
      return static_cast<T>(D);
    }
    int64_t I = Value.I;
    if constexpr (!std::is_same_v<T, int64_t>) {
      if (I < static_cast<int64_t>(std::numeric_limits<T>::lowest()) ||
          I > static_cast<int64_t>(std::numeric_limits<T>::max()))
        detail::scalarOverflow(*this, scalarTypeOf<T>());
    }
    return static_cast<T>(I);
  } else {
    // Floating targets: out-of-range values become inf, as in PyTorch.
    return static_cast<T>(toUnchecked<double>());
  }
}

} // namespace sk

#endif // SK_CORE_SCALAR_H
