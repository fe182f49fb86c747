//===--- SchemaFile.h - Entries of a native_functions.yaml file -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The syntactic layer over a schema file: each `- func: ...` entry with its
/// keys checked for spelling, uniqueness and value shape, and its `func`
/// parsed. What the values mean, and how entries relate, is Sema's job.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_PARSE_SCHEMAFILE_H
#define SKC_PARSE_SCHEMAFILE_H

#include "skc/Parse/FunctionSchema.h"
#include "skc/Parse/YAMLNode.h"

#include "llvm/ADT/StringMap.h"

#include <optional>
#include <utility>
#include <vector>

namespace skc {

class DiagnosticsEngine;

/// One `key: value` of a mapping-valued field such as `dispatch`.
using YAMLScalarPair = std::pair<YAMLScalar, YAMLScalar>;

/// One operator entry. Optional fields are absent when the key is.
struct SchemaEntry {
  /// The `- ` that starts the entry.
  llvm::SMLoc Loc;
  YAMLScalar Func;
  /// The parsed `func`; absent when it did not parse.
  std::optional<FunctionSchema> Schema;

  std::optional<YAMLScalar> Variants;
  /// `dispatch`: each key list (`CPU, CUDA`) with its kernel name.
  std::optional<std::vector<YAMLScalarPair>> Dispatch;
  std::optional<bool> Structured;
  std::optional<YAMLScalar> StructuredDelegate;
  std::optional<YAMLScalar> StructuredInherits;
  std::optional<std::vector<YAMLScalar>> Precomputed;
  /// `ufunc_inner_loop`; the string form is stored as a `Generic` entry.
  std::optional<std::vector<YAMLScalarPair>> UfuncInnerLoop;
  std::optional<YAMLScalar> DeviceCheck;
  std::optional<bool> DeviceGuard;
  std::optional<std::vector<YAMLScalar>> Tags;
  std::optional<YAMLScalar> Autogen;
  std::optional<bool> ManualKernelRegistration;
  std::optional<bool> ManualCppBinding;
  std::optional<YAMLScalar> PythonModule;
  std::optional<YAMLScalar> CategoryOverride;
  std::optional<std::vector<YAMLScalar>> CppNoDefaultArgs;
  std::optional<bool> UseConstRefForMutableTensors;

  /// The range of each key present in the entry.
  llvm::StringMap<llvm::SMRange> KeyRanges;

  /// Where key \p Key is written, or the entry's location if it is absent.
  llvm::SMLoc getKeyLoc(llvm::StringRef Key) const {
    auto It = KeyRanges.find(Key);
    return It == KeyRanges.end() ? Loc : It->second.Start;
  }
  llvm::SMRange getKeyRange(llvm::StringRef Key) const {
    auto It = KeyRanges.find(Key);
    return It == KeyRanges.end() ? llvm::SMRange() : It->second;
  }
};

/// The keys an entry may have, in the order docs/schema-reference.md lists
/// them.
llvm::ArrayRef<llvm::StringRef> getSchemaEntryKeys();

/// Reads the operator entries of SourceMgr buffer \p BufferID. Entries whose
/// structure is broken are reported and dropped; an entry whose `func` does
/// not parse is kept without a Schema so later checks can skip it. \p Cache
/// keeps what an editor's next read need not read again (readYAML).
std::vector<SchemaEntry> parseSchemaFile(unsigned BufferID, TypeContext &Types,
                                         DiagnosticsEngine &Diags,
                                         YAMLReadCache *Cache = nullptr);

/// The tags a tags.yaml file declares: `- tag: NAME` / `desc: TEXT` pairs.
struct TagsFile {
  llvm::StringMap<llvm::SMLoc> Tags;
};

TagsFile parseTagsFile(unsigned BufferID, DiagnosticsEngine &Diags);

/// The dispatch keys a project's catalogue file adds (`--dispatch-keys`):
/// `- key: NAME` with optional `desc: TEXT`, `structured: BOOL`,
/// `alias: BOOL` and `runtime: KEY` (docs/schema-reference.md).
struct DispatchKeysFile {
  struct Entry {
    YAMLScalar Key;
    bool Structured = false;
    bool Alias = false;
    /// The runtime key the new key is another name for; empty if none.
    std::optional<YAMLScalar> Runtime;
  };
  std::vector<Entry> Entries;
};

DispatchKeysFile parseDispatchKeysFile(unsigned BufferID,
                                       DiagnosticsEngine &Diags);

} // namespace skc

#endif // SKC_PARSE_SCHEMAFILE_H
