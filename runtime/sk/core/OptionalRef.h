//===--- OptionalRef.h - Optional arguments without copies ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How structured meta and impl functions receive `Tensor?`, `Scalar?` and
/// `int[]?` arguments (at::OptionalTensorRef and friends): a pointer to the
/// caller's value, or nothing. Unlike `const std::optional<Tensor> &` they
/// never copy a Tensor (no refcount traffic) and bind to a Tensor, an
/// optional, or std::nullopt alike.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_OPTIONALREF_H
#define SK_CORE_OPTIONALREF_H

#include "sk/core/Scalar.h"
#include "sk/core/Tensor.h"
#include "sk/util/OptionalArrayRef.h"

#include <optional>

namespace sk {

namespace detail {
/// A nullable const reference to a T.
template <typename T> class OptionalRef {
public:
  OptionalRef() = default;
  OptionalRef(std::nullopt_t) {}
  OptionalRef(const T &Value) : Ptr(&Value) {}
  OptionalRef(const std::optional<T> &Value) : Ptr(Value ? &*Value : nullptr) {}

  bool has_value() const { return Ptr != nullptr; }
  explicit operator bool() const { return has_value(); }
  const T &operator*() const { return value(); }
  const T *operator->() const { return &value(); }
  const T &value() const {
    SK_CHECK(Ptr, "accessed the value of an empty optional argument");
    return *Ptr;
  }
  std::optional<T> toOptional() const {
    return Ptr ? std::optional<T>(*Ptr) : std::nullopt;
  }

private:
  const T *Ptr = nullptr;
};
} // namespace detail

/// `Tensor?`: also empty for an undefined Tensor, as in PyTorch.
class OptionalTensorRef : public detail::OptionalRef<Tensor> {
public:
  using detail::OptionalRef<Tensor>::OptionalRef;
  OptionalTensorRef(const Tensor &T)
      : detail::OptionalRef<Tensor>(T.defined() ? OptionalRef(T)
                                                : OptionalRef()) {}
  OptionalTensorRef(const std::optional<Tensor> &T)
      : OptionalTensorRef(T ? OptionalTensorRef(*T) : OptionalTensorRef()) {}
};

/// `Scalar?`.
using OptionalScalarRef = detail::OptionalRef<Scalar>;

/// `int[]?`: `{1}` is a list of one (sk/util/OptionalArrayRef.h).
using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

} // namespace sk

#endif // SK_CORE_OPTIONALREF_H
