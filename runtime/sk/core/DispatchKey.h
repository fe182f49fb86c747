//===--- DispatchKey.h - The keys of the dispatcher -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Dispatch keys in priority order, lowest first: the dispatcher runs the
/// kernel of the highest key in a call's key set (see docs/dispatcher.md and
/// c10/core/DispatchKey.h). Runtime keys fit in a 64-bit DispatchKeySet;
/// alias keys come after them and only name groups of runtime keys at
/// registration time.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_DISPATCHKEY_H
#define SK_CORE_DISPATCHKEY_H

#include "sk/core/Device.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace sk {

enum class DispatchKey : uint8_t {
  Undefined = 0,
  // The backends, whose kernels compute (Meta's compute shapes only), then
  // the keys above them.
#define SK_BACKEND_KEY(Name, Selectable, DeviceGuard) Name,
#define SK_FUNCTIONALITY_KEY(Name) Name,
#include "sk/core/DispatchKeys.def"
  EndOfRuntimeKeys,

  // Alias keys, registration only, numbered from EndOfRuntimeKeys on (the
  // .def cannot give the first one that value itself).
  BeforeAliasKeys = EndOfRuntimeKeys - 1,
#define SK_ALIAS_KEY(Name) Name,
#include "sk/core/DispatchKeys.def"
  EndOfAliasKeys,
};

constexpr int NumRuntimeKeys = static_cast<int>(DispatchKey::EndOfRuntimeKeys);
static_assert(NumRuntimeKeys <= 64, "runtime keys must fit a DispatchKeySet");

constexpr bool isAliasKey(DispatchKey K) {
  return K >= DispatchKey::EndOfRuntimeKeys && K < DispatchKey::EndOfAliasKeys;
}
constexpr bool isBackendKey(DispatchKey K) {
  switch (K) {
#define SK_BACKEND_KEY(Name, Selectable, DeviceGuard) case DispatchKey::Name:
#include "sk/core/DispatchKeys.def"
    return true;
  default:
    return false;
  }
}

std::string_view toString(DispatchKey K);
std::ostream &operator<<(std::ostream &OS, DispatchKey K);
/// Parses a key's name ("CPU", "CompositeImplicitAutograd").
std::optional<DispatchKey> parseDispatchKey(std::string_view Name);

/// The backend key of tensors on \p T.
constexpr DispatchKey backendKeyOf(DeviceType T) {
  switch (T) {
  case DeviceType::CPU:
    return DispatchKey::CPU;
  case DeviceType::CUDA:
    return DispatchKey::CUDA;
  case DeviceType::Meta:
    return DispatchKey::Meta;
  case DeviceType::PrivateUse1:
    return DispatchKey::PrivateUse1;
  }
  return DispatchKey::Undefined;
}

} // namespace sk

#endif // SK_CORE_DISPATCHKEY_H
