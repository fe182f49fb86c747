//===--- DispatchKey.cpp - Keys a schema's dispatch table names -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/DispatchKey.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Identifier.h"
#include "skc/Parse/SchemaFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <string_view>

using namespace llvm;

namespace skc {

namespace {
struct BuiltinKey {
  StringRef Name;
  bool Structured;
  bool Alias;
  /// Empty for Undefined.
  StringRef RuntimeKey;
};
} // namespace

static constexpr StringRef runtimeKeyName(const char *Name) {
  return std::string_view(Name) == "Undefined" ? StringRef() : StringRef(Name);
}

// Constant-initialized, so that other static initializers (skc's --help
// text) may read it.
static constexpr BuiltinKey BuiltinKeys[] = {
#define SK_SCHEMA_KEY(Name, Structured, Alias, RuntimeKey)                     \
  {#Name, Structured, Alias, runtimeKeyName(#RuntimeKey)},
#include "sk/core/DispatchKeys.def"
};
static_assert(std::size(BuiltinKeys) == NumBuiltinDispatchKeys);

static const BuiltinKey *getBuiltin(DispatchKey K) {
  unsigned I = static_cast<unsigned>(K);
  return I < NumBuiltinDispatchKeys ? &BuiltinKeys[I] : nullptr;
}

StringRef getDispatchKeyName(DispatchKey K) {
  const BuiltinKey *B = getBuiltin(K);
  assert(B && "a catalogue's key is named by its catalogue");
  return B ? B->Name : StringRef();
}

StringRef getRuntimeKeyName(DispatchKey K) {
  const BuiltinKey *B = getBuiltin(K);
  return B ? B->RuntimeKey : StringRef();
}

bool isAliasKey(DispatchKey K) {
  const BuiltinKey *B = getBuiltin(K);
  return B && B->Alias;
}

bool isRuntimeKernelKey(DispatchKey K) {
  return !getRuntimeKeyName(K).empty();
}

std::optional<DispatchKey> lookupBuiltinDispatchKey(StringRef Name) {
  return StringSwitch<std::optional<DispatchKey>>(Name)
#define SK_SCHEMA_KEY(Key, Structured, Alias, RuntimeKey)                      \
  .Case(#Key, DispatchKey::Key)
#include "sk/core/DispatchKeys.def"
      .Default(std::nullopt);
}

ArrayRef<DispatchKey> getSelectableBackends() {
  static const std::vector<DispatchKey> Keys = [] {
    std::vector<DispatchKey> Selectable;
#define SK_BACKEND_KEY(Name, IsSelectable, DeviceGuard)                        \
  if (IsSelectable)                                                            \
    Selectable.push_back(DispatchKey::Name);
#include "sk/core/DispatchKeys.def"
    return Selectable;
  }();
  return Keys;
}

bool usesDeviceGuard(DispatchKey K) {
  switch (K) {
#define SK_BACKEND_KEY(Name, Selectable, DeviceGuard)                          \
  case DispatchKey::Name:                                                      \
    return DeviceGuard;
#include "sk/core/DispatchKeys.def"
  default:
    return false;
  }
}

DispatchKeyCatalogue::DispatchKeyCatalogue() {
  for (const BuiltinKey &B : BuiltinKeys) {
    ByName[B.Name] = static_cast<DispatchKey>(Keys.size());
    Names.push_back(B.Name.str());
    Keys.push_back({B.Name.str(), B.Structured, B.Alias, B.RuntimeKey.str()});
  }
}

std::optional<DispatchKey> DispatchKeyCatalogue::lookup(StringRef Name) const {
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return std::nullopt;
  return It->second;
}

std::vector<StringRef> DispatchKeyCatalogue::getNames() const {
  return {Names.begin(), Names.end()};
}

void DispatchKeyCatalogue::addKeys(const DispatchKeysFile &File,
                                   DiagnosticsEngine &Diags) {
  StringMap<SMLoc> Added;
  for (const DispatchKeysFile::Entry &E : File.Entries) {
    StringRef Name = E.Key.Value;
    if (!isIdentifier(Name)) {
      Diags.report(E.Key.Loc, diag::err_dispatch_keys_file_bad_name)
          << Name << E.Key.getRange();
      continue;
    }
    if (ByName.count(Name)) {
      auto Previous = Added.find(Name);
      Diags.report(E.Key.Loc, diag::err_dispatch_keys_file_redefinition)
          << Name << (Previous != Added.end()) << E.Key.getRange();
      if (Previous != Added.end())
        Diags.report(Previous->second, diag::note_previous_definition);
      continue;
    }
    if (E.Runtime) {
      std::optional<DispatchKey> Target = lookupBuiltinDispatchKey(E.Runtime->Value);
      if (!Target || !is_contained(getSelectableBackends(), *Target)) {
        SmallVector<StringRef, 8> Backends;
        for (DispatchKey K : getSelectableBackends())
          Backends.push_back(getDispatchKeyName(K));
        Diags.report(E.Runtime->Loc, diag::err_dispatch_keys_file_bad_runtime)
            << E.Runtime->Value << join(Backends, ", ")
            << E.Runtime->getRange();
        continue;
      }
      // Another name for a runtime backend: its entries are that key's.
      ByName[Name] = *Target;
    } else {
      ByName[Name] = static_cast<DispatchKey>(Keys.size());
      Keys.push_back({Name.str(), E.Structured, E.Alias, ""});
    }
    Names.push_back(Name.str());
    Added[Name] = E.Key.Loc;
  }
}

} // namespace skc
