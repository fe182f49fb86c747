//===--- DispatchKeySet.h - A set of runtime dispatch keys ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A 64-bit set of runtime keys; bit K stands for DispatchKey K, so the
/// highest-priority key is the highest set bit (one `clz`).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_DISPATCHKEYSET_H
#define SK_CORE_DISPATCHKEYSET_H

#include "sk/core/DispatchKey.h"

#include <cstdint>
#include <initializer_list>
#include <ostream>

namespace sk {

class DispatchKeySet {
public:
  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(DispatchKey K)
      : Bits(K == DispatchKey::Undefined ? 0 : bit(K)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> Keys) {
    for (DispatchKey K : Keys)
      Bits |= DispatchKeySet(K).Bits;
  }
  static constexpr DispatchKeySet fromRaw(uint64_t Raw) {
    DispatchKeySet S;
    S.Bits = Raw;
    return S;
  }
  /// Every runtime key of lower priority than \p K (for redispatch).
  static constexpr DispatchKeySet below(DispatchKey K) {
    return fromRaw((bit(K) - 1) & ~uint64_t(1)); // bit 0 is Undefined
  }
  /// Every runtime key.
  static constexpr DispatchKeySet full() {
    return fromRaw(((uint64_t(1) << NumRuntimeKeys) - 1) & ~uint64_t(1));
  }

  constexpr bool has(DispatchKey K) const { return Bits & bit(K); }
  constexpr bool empty() const { return Bits == 0; }
  constexpr uint64_t raw() const { return Bits; }

  constexpr DispatchKeySet add(DispatchKey K) const {
    return *this | DispatchKeySet(K);
  }
  constexpr DispatchKeySet remove(DispatchKey K) const {
    return fromRaw(Bits & ~bit(K));
  }
  constexpr DispatchKeySet operator|(DispatchKeySet O) const {
    return fromRaw(Bits | O.Bits);
  }
  constexpr DispatchKeySet operator&(DispatchKeySet O) const {
    return fromRaw(Bits & O.Bits);
  }
  constexpr DispatchKeySet operator-(DispatchKeySet O) const {
    return fromRaw(Bits & ~O.Bits);
  }
  constexpr bool operator==(DispatchKeySet O) const { return Bits == O.Bits; }
  constexpr bool operator!=(DispatchKeySet O) const { return Bits != O.Bits; }

  /// The key the dispatcher runs; Undefined for the empty set.
  DispatchKey highestPriorityKey() const {
    if (Bits == 0)
      return DispatchKey::Undefined;
    return static_cast<DispatchKey>(63 - __builtin_clzll(Bits));
  }

private:
  static constexpr uint64_t bit(DispatchKey K) {
    return uint64_t(1) << static_cast<unsigned>(K);
  }
  uint64_t Bits = 0;
};

std::ostream &operator<<(std::ostream &OS, DispatchKeySet S);

} // namespace sk

#endif // SK_CORE_DISPATCHKEYSET_H
