//===--- DispatchKey.cpp - The keys of the dispatcher ---------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/DispatchKey.h"
#include "sk/core/DispatchKeySet.h"

namespace sk {

std::string_view toString(DispatchKey K) {
  switch (K) {
  case DispatchKey::Undefined:
    return "Undefined";
#define SK_BACKEND_KEY(Name, Selectable, DeviceGuard)                          \
  case DispatchKey::Name:                                                      \
    return #Name;
#define SK_FUNCTIONALITY_KEY(Name)                                             \
  case DispatchKey::Name:                                                      \
    return #Name;
#define SK_ALIAS_KEY(Name)                                                     \
  case DispatchKey::Name:                                                      \
    return #Name;
#include "sk/core/DispatchKeys.def"
  case DispatchKey::EndOfAliasKeys:
    break;
  }
  return "Unknown";
}

std::ostream &operator<<(std::ostream &OS, DispatchKey K) {
  return OS << toString(K);
}

std::ostream &operator<<(std::ostream &OS, DispatchKeySet S) {
  OS << "DispatchKeySet(";
  bool First = true;
  for (int I = NumRuntimeKeys - 1; I > 0; --I) {
    auto K = static_cast<DispatchKey>(I);
    if (!S.has(K))
      continue;
    OS << (First ? "" : ", ") << K;
    First = false;
  }
  return OS << ')';
}

std::optional<DispatchKey> parseDispatchKey(std::string_view Name) {
  for (int I = 0; I < static_cast<int>(DispatchKey::EndOfAliasKeys); ++I) {
    auto K = static_cast<DispatchKey>(I);
    if (toString(K) == Name)
      return K;
  }
  return std::nullopt;
}

} // namespace sk
