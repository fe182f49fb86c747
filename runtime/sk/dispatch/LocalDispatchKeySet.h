//===--- LocalDispatchKeySet.h - Thread-local included/excluded keys -*- C++ -*-//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Each thread adds keys to every call (included: BackendSelect by default,
/// Tracer while a trace runs) and removes keys from every call (excluded).
/// The dispatcher runs the highest key of
///   (keys of the tensor arguments | included) - excluded.
///
/// Note [Zero-initialised TLS]
/// The thread-local state is a plain struct of integers that is all zeros
/// by default, so reading it needs no initialisation guard. It stores the
/// included set XOR the default included set, which makes "all zeros" mean
/// "the defaults".
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_LOCALDISPATCHKEYSET_H
#define SK_DISPATCH_LOCALDISPATCHKEYSET_H

#include "sk/core/DispatchKeySet.h"

namespace sk {

/// Keys every call includes unless excluded: BackendSelect, which is a
/// fallthrough for every op that has no BackendSelect kernel.
constexpr DispatchKeySet kDefaultIncludedKeys{DispatchKey::BackendSelect};

namespace detail {
struct RawLocalDispatchKeySet {
  uint64_t IncludedXorDefault;
  uint64_t Excluded;
};

inline RawLocalDispatchKeySet &localDispatchKeySet() {
  static thread_local RawLocalDispatchKeySet State{0, 0};
  return State;
}
} // namespace detail

inline DispatchKeySet tlsIncludedKeys() {
  return DispatchKeySet::fromRaw(
      detail::localDispatchKeySet().IncludedXorDefault ^
      kDefaultIncludedKeys.raw());
}
inline DispatchKeySet tlsExcludedKeys() {
  return DispatchKeySet::fromRaw(detail::localDispatchKeySet().Excluded);
}

/// Includes \p Keys in every call on this thread while alive.
class IncludeDispatchKeyGuard {
public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet Keys)
      : Saved(detail::localDispatchKeySet()) {
    DispatchKeySet Included = tlsIncludedKeys() | Keys;
    detail::localDispatchKeySet().IncludedXorDefault =
        Included.raw() ^ kDefaultIncludedKeys.raw();
  }
  explicit IncludeDispatchKeyGuard(DispatchKey K)
      : IncludeDispatchKeyGuard(DispatchKeySet(K)) {}
  ~IncludeDispatchKeyGuard() { detail::localDispatchKeySet() = Saved; }
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard &) = delete;
  IncludeDispatchKeyGuard &operator=(const IncludeDispatchKeyGuard &) = delete;

private:
  detail::RawLocalDispatchKeySet Saved;
};

/// Excludes \p Keys from every call on this thread while alive.
class ExcludeDispatchKeyGuard {
public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet Keys)
      : Saved(detail::localDispatchKeySet()) {
    detail::localDispatchKeySet().Excluded |= Keys.raw();
  }
  explicit ExcludeDispatchKeyGuard(DispatchKey K)
      : ExcludeDispatchKeyGuard(DispatchKeySet(K)) {}
  ~ExcludeDispatchKeyGuard() { detail::localDispatchKeySet() = Saved; }
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard &) = delete;
  ExcludeDispatchKeyGuard &operator=(const ExcludeDispatchKeyGuard &) = delete;

private:
  detail::RawLocalDispatchKeySet Saved;
};

} // namespace sk

#endif // SK_DISPATCH_LOCALDISPATCHKEYSET_H
