//===--- OptionalArrayRef.h - An optional view of an array ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `int[]?` and `float[]?` arguments: an ArrayRef, or nothing, as c10's
/// OptionalArrayRef. std::optional<ArrayRef<T>> is not safe to take from a
/// braced list: `f(x, {1})` picks optional's converting constructor from
/// `int`, which makes the int64_t inside that constructor and keeps a view
/// of it, dead before `f` reads it. OptionalArrayRef takes a braced list as
/// a list (its array lives to the end of the caller's full-expression) and
/// never takes a single element.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_OPTIONALARRAYREF_H
#define SK_UTIL_OPTIONALARRAYREF_H

#include "sk/util/ArrayRef.h"

#include <initializer_list>
#include <optional>
#include <type_traits>

namespace sk {

template <typename T> class OptionalArrayRef {
public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}
  constexpr OptionalArrayRef(const std::optional<ArrayRef<T>> &Other) noexcept
      : Wrapped(Other) {}

  /// Anything an ArrayRef views (an ArrayRef, a std::vector, a std::array),
  /// but not one element, whose conversion to T would be a temporary.
  template <typename U,
            typename = std::enable_if_t<
                !std::is_same_v<std::decay_t<U>, OptionalArrayRef> &&
                !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                std::is_constructible_v<ArrayRef<T>, U &&> &&
                !std::is_convertible_v<U &&, T>>>
  constexpr OptionalArrayRef(U &&Value) noexcept(
      std::is_nothrow_constructible_v<ArrayRef<T>, U &&>)
      : Wrapped(ArrayRef<T>(std::forward<U>(Value))) {}

  /// A braced list, `{1}` or `{0, 1}`: valid to the end of the full
  /// expression that holds it, as every argument is.
  constexpr OptionalArrayRef(const std::initializer_list<T> &List)
      : Wrapped(ArrayRef<T>(List)) {}

  constexpr bool has_value() const noexcept { return Wrapped.has_value(); }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const ArrayRef<T> &value() const & { return Wrapped.value(); }
  constexpr const ArrayRef<T> &operator*() const & { return *Wrapped; }
  constexpr const ArrayRef<T> *operator->() const noexcept {
    return &*Wrapped;
  }
  constexpr ArrayRef<T> value_or(ArrayRef<T> Default) const {
    return Wrapped.value_or(Default);
  }
  void reset() noexcept { Wrapped.reset(); }
  std::optional<ArrayRef<T>> toOptional() const { return Wrapped; }

  friend constexpr bool operator==(const OptionalArrayRef &A,
                                   std::nullopt_t) noexcept {
    return !A.has_value();
  }
  friend constexpr bool operator!=(const OptionalArrayRef &A,
                                   std::nullopt_t) noexcept {
    return A.has_value();
  }

private:
  std::optional<ArrayRef<T>> Wrapped;
};

} // namespace sk

#endif // SK_UTIL_OPTIONALARRAYREF_H
