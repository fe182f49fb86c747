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
  case DispatchKey::CPU:
    return "CPU";
  case DispatchKey::CUDA:
    return "CUDA";
  case DispatchKey::Meta:
    return "Meta";
  case DispatchKey::PrivateUse1:
    return "PrivateUse1";
  case DispatchKey::PrivateUse2:
    return "PrivateUse2";
  case DispatchKey::PrivateUse3:
    return "PrivateUse3";
  case DispatchKey::BackendSelect:
    return "BackendSelect";
  case DispatchKey::Autograd:
    return "Autograd";
  case DispatchKey::Tracer:
    return "Tracer";
  case DispatchKey::CompositeExplicitAutograd:
    return "CompositeExplicitAutograd";
  case DispatchKey::CompositeImplicitAutograd:
    return "CompositeImplicitAutograd";
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
