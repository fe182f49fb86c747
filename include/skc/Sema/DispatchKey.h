//===--- DispatchKey.h - Keys a schema's dispatch table names ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The dispatch keys a schema file's `dispatch:` tables may name. The
/// built-in ones come from the runtime's sk/core/DispatchKeys.def, the one
/// list both sides share; a project adds its own with a catalogue file
/// (`skc --dispatch-keys`), which a DispatchKeyCatalogue holds.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_DISPATCHKEY_H
#define SKC_SEMA_DISPATCHKEY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skc {

class DiagnosticsEngine;
struct DispatchKeysFile;

/// A key of a dispatch table. The built-in keys are the enumerators; keys a
/// project's catalogue adds follow them, numbered by their catalogue.
enum class DispatchKey : uint16_t {
#define SK_SCHEMA_KEY(Name, Structured, Alias, RuntimeKey) Name,
#include "sk/core/DispatchKeys.def"
};

/// The number of built-in keys; the first key a catalogue adds is this one.
constexpr unsigned NumBuiltinDispatchKeys = 0
#define SK_SCHEMA_KEY(Name, Structured, Alias, RuntimeKey) +1
#include "sk/core/DispatchKeys.def"
    ;

/// What a schema's dispatch key means to skc.
struct DispatchKeyInfo {
  std::string Name;
  /// Structured out= functions get structured kernels for it.
  bool Structured = false;
  /// It registers one kernel for many backends (CompositeImplicitAutograd).
  bool Alias = false;
  /// The runtime key its kernels register under; empty when the runtime runs
  /// no kernels of this key.
  std::string RuntimeKey;
};

/// The facts of a built-in key. A key a catalogue adds is never a runtime
/// key: these functions answer for it as for a key the runtime does not run
/// (its name is its catalogue's to give).
llvm::StringRef getDispatchKeyName(DispatchKey K);
/// An alias key the runtime registers (`CompositeImplicitAutograd`, ...).
bool isAliasKey(DispatchKey K);
/// A key whose kernels skc's runtime runs, and so whose kernels are
/// declared in the generated headers and written in kernel sources: the
/// runtime's backends (CPU, CUDA, Meta, PrivateUse1-3) and the composite
/// alias keys that register one kernel for all of them.
bool isRuntimeKernelKey(DispatchKey K);
/// The runtime key \p K's kernels register under (CompositeExplicitAutograd
/// for CompositeExplicitAutogradNonFunctional), or an empty string.
llvm::StringRef getRuntimeKeyName(DispatchKey K);
/// Looks a built-in key up by name.
std::optional<DispatchKey> lookupBuiltinDispatchKey(llvm::StringRef Name);

/// The runtime's backends a project may build kernels for (`--backend`), in
/// the runtime's priority order: CPU, CUDA, PrivateUse1..3.
llvm::ArrayRef<DispatchKey> getSelectableBackends();
/// Whether kernels of backend \p K run under a device guard.
bool usesDeviceGuard(DispatchKey K);

/// The keys one schema file may name: the built-in ones and those of the
/// project's catalogue file.
class DispatchKeyCatalogue {
public:
  /// The built-in keys only.
  DispatchKeyCatalogue();

  /// Adds the keys of \p File, reporting a key that is already defined or
  /// whose `runtime:` is not a key the runtime runs. A key with `runtime:`
  /// is another name for that key (a renamed PrivateUse1); one without is a
  /// new key, whose kernels skc checks the schema of but does not generate.
  void addKeys(const DispatchKeysFile &File, DiagnosticsEngine &Diags);

  std::optional<DispatchKey> lookup(llvm::StringRef Name) const;
  const DispatchKeyInfo &getInfo(DispatchKey K) const {
    return Keys[static_cast<unsigned>(K)];
  }
  llvm::StringRef getName(DispatchKey K) const { return getInfo(K).Name; }
  /// Every name a dispatch table may use, built-in ones first, for
  /// did-you-mean.
  std::vector<llvm::StringRef> getNames() const;

private:
  std::vector<DispatchKeyInfo> Keys;
  std::vector<std::string> Names;
  /// Names to keys, renamed keys included.
  llvm::StringMap<DispatchKey> ByName;
};

} // namespace skc

#endif // SKC_SEMA_DISPATCHKEY_H
