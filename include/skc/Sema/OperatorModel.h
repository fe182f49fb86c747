//===--- OperatorModel.h - Operators, groups and kernels --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The op model: what a schema file means once every entry has been checked.
/// Each entry becomes a NativeFunction with its resolved dispatch table and
/// structured facts; functions that share a signature form a
/// NativeFunctionsGroup (functional + out, with optional inplace and
/// mutable variants), the unit that structured kernels are written for.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_OPERATORMODEL_H
#define SKC_SEMA_OPERATORMODEL_H

#include "skc/Parse/FunctionSchema.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/DispatchKey.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace skc {

class DiagnosticsEngine;

/// One kernel of a dispatch table.
struct BackendKernel {
  DispatchKey Key;
  /// The kernel's C++ name, without its namespace.
  std::string Kernel;
  /// The namespace it was written with (`at::native` when none was given).
  std::string Namespace;
  /// Whether this is a structured kernel (a structured function on a
  /// structured key) rather than an ordinary one.
  bool Structured = false;
  /// True for the CompositeImplicitAutograd kernel a function gets when it
  /// has no dispatch table.
  bool Implicit = false;
  llvm::SMRange KeyRange;
  llvm::SMRange KernelRange;
};

/// A line of `precomputed`: `kernel_size -> int kH, int kW` replaces an impl
/// argument; a last line without `->` adds fields.
struct PrecomputedLine {
  /// The argument replaced; empty for the line of added fields.
  std::string Replaces;
  struct Field {
    BaseTypeKind Ty;
    std::string Name;
  };
  llvm::SmallVector<Field, 2> Fields;
};

struct NativeFunctionsGroup;

/// One operator entry, checked and resolved.
struct NativeFunction {
  const SchemaEntry *Entry = nullptr;
  SchemaKind Kind = SchemaKind::Functional;
  bool HasFunctionVariant = true;
  bool HasMethodVariant = false;
  /// Sorted by key.
  llvm::SmallVector<BackendKernel, 2> Dispatch;
  bool Structured = false;
  /// The out= function this function delegates to, once resolved.
  const NativeFunction *StructuredDelegate = nullptr;
  std::string StructuredInherits;
  std::vector<PrecomputedLine> Precomputed;
  llvm::SmallVector<std::string, 1> Tags;
  llvm::SmallVector<std::string, 1> Autogen;
  /// `device_check: ExactSame` (the default) rather than `NoCheck`.
  bool DeviceCheck = true;
  bool DeviceGuard = true;
  bool ManualKernelRegistration = false;
  bool ManualCppBinding = false;
  std::string PythonModule;
  /// The group this function belongs to, if any.
  const NativeFunctionsGroup *Group = nullptr;

  const FunctionSchema &getSchema() const { return *Entry->Schema; }
  std::string getName() const { return getSchema().Name.getAsString(); }
  llvm::SMLoc getLoc() const { return Entry->Func.Loc; }
  const BackendKernel *findKernel(DispatchKey K) const;
  bool hasCompositeImplicitKernel() const {
    return findKernel(DispatchKey::CompositeImplicitAutograd) != nullptr;
  }
};

/// The variants of one operator that share a signature. Out and functional
/// are always present.
struct NativeFunctionsGroup {
  NativeFunction *Functional = nullptr;
  NativeFunction *Inplace = nullptr;
  NativeFunction *Mutable = nullptr;
  NativeFunction *Out = nullptr;

  bool isStructured() const { return Out->Structured; }
  /// The name of the meta struct: the functional variant's unambiguous name
  /// (`add_Tensor`), as torchgen names it.
  std::string getMetaName() const {
    return Functional->getSchema().Name.getUnambiguousName();
  }
  /// The members in functional, inplace, mutable, out order.
  llvm::SmallVector<NativeFunction *, 4> getFunctions() const;
};

/// Everything a schema file declares.
class OperatorModel {
public:
  OperatorModel() = default;
  OperatorModel(const OperatorModel &) = delete;
  OperatorModel &operator=(const OperatorModel &) = delete;
  OperatorModel(OperatorModel &&) = default;
  OperatorModel &operator=(OperatorModel &&) = default;

  /// The keys the schema's dispatch tables may name.
  const DispatchKeyCatalogue &getDispatchKeys() const { return DispatchKeys; }
  /// In file order.
  llvm::ArrayRef<std::unique_ptr<NativeFunction>> getFunctions() const {
    return Functions;
  }
  /// In the order of their out= function in the file.
  const std::deque<NativeFunctionsGroup> &getGroups() const { return Groups; }
  /// Looks a function up by `name[.overload]` in \p Namespace (empty for
  /// the default namespace).
  const NativeFunction *lookup(llvm::StringRef Name,
                               llvm::StringRef Namespace = "") const {
    auto It = ByName.find(Namespace.empty()
                              ? Name.str()
                              : (llvm::Twine(Namespace) + "::" + Name).str());
    return It == ByName.end() ? nullptr : It->second;
  }

private:
  friend class OperatorModelBuilder;

  DispatchKeyCatalogue DispatchKeys;
  std::vector<SchemaEntry> Entries;
  std::vector<std::unique_ptr<NativeFunction>> Functions;
  std::deque<NativeFunctionsGroup> Groups;
  /// Keyed by OperatorName::getQualifiedName().
  llvm::StringMap<NativeFunction *> ByName;
};

/// Builds the op model from the entries of one schema file, reporting every
/// rule it breaks to \p Diags. Entries whose schema did not parse are left
/// out. \p Tags is the tag catalogue, or null when there is none; \p Keys
/// the dispatch keys the tables may name.
OperatorModel buildOperatorModel(std::vector<SchemaEntry> Entries,
                                 const TagsFile *Tags,
                                 DiagnosticsEngine &Diags,
                                 DispatchKeyCatalogue Keys = {});

} // namespace skc

#endif // SKC_SEMA_OPERATORMODEL_H
