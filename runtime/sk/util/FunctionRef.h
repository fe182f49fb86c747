//===--- FunctionRef.h - A non-owning reference to a callable ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `FunctionRef<R(Args...)>` (llvm::function_ref, c10::function_ref): a
/// callable's address and a trampoline, two words, no allocation. The loops
/// of the TensorIterator take their bodies this way instead of as a
/// std::function. The referenced callable must outlive the call.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_FUNCTIONREF_H
#define SK_UTIL_FUNCTIONREF_H

#include <cstdint>
#include <type_traits>
#include <utility>

namespace sk {

template <typename Fn> class FunctionRef;

template <typename Ret, typename... Params> class FunctionRef<Ret(Params...)> {
public:
  FunctionRef() = default;
  template <typename Callable,
            typename = std::enable_if_t<
                !std::is_same_v<std::decay_t<Callable>, FunctionRef> &&
                std::is_invocable_r_v<Ret, Callable &, Params...>>>
  FunctionRef(Callable &&C)
      : Callback(callbackFn<std::remove_reference_t<Callable>>),
        Callee(reinterpret_cast<intptr_t>(&C)) {}

  Ret operator()(Params... Ps) const {
    return Callback(Callee, std::forward<Params>(Ps)...);
  }
  explicit operator bool() const { return Callback != nullptr; }

private:
  template <typename Callable>
  static Ret callbackFn(intptr_t Callee, Params... Ps) {
    return (*reinterpret_cast<Callable *>(Callee))(std::forward<Params>(Ps)...);
  }

  Ret (*Callback)(intptr_t, Params...) = nullptr;
  intptr_t Callee = 0;
};

} // namespace sk

#endif // SK_UTIL_FUNCTIONREF_H
