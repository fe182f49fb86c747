//===--- OperatorModelBuilder.h - Checks that build the op model -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The builder behind buildOperatorModel(). Its checks are split by concern:
/// SchemaChecks.cpp (invariants of one schema), EntryChecks.cpp (the other
/// fields of one entry), DispatchChecks.cpp (dispatch tables),
/// StructuredChecks.cpp (structured fields, delegates and groups).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_SEMA_OPERATORMODELBUILDER_H
#define SKC_LIB_SEMA_OPERATORMODELBUILDER_H

#include "skc/Basic/Diagnostic.h"
#include "skc/Sema/OperatorModel.h"

namespace skc {

class OperatorModelBuilder {
public:
  OperatorModelBuilder(const TagsFile *Tags, DispatchKeyCatalogue Keys,
                       DiagnosticsEngine &Diags)
      : Tags(Tags), Diags(Diags) {
    Model.DispatchKeys = std::move(Keys);
  }

  OperatorModel build(std::vector<SchemaEntry> Entries);

private:
  // SchemaChecks.cpp: torchgen's FunctionSchema.__post_init__.
  bool checkSchema(const FunctionSchema &Schema);

  // EntryChecks.cpp: variants, device_check, tags, autogen, ...
  bool checkEntry(NativeFunction &F);
  bool checkVariants(NativeFunction &F);
  bool checkTags(NativeFunction &F);
  bool checkAutogen(NativeFunction &F);
  bool checkCppNoDefaultArgs(const NativeFunction &F);
  /// Across entries: operator names are unique.
  bool registerName(NativeFunction &F);
  /// Across entries: 'autogen' names no operator that is declared.
  void checkAutogenTargets();

  // DispatchChecks.cpp.
  bool checkDispatch(NativeFunction &F);

  // StructuredChecks.cpp.
  bool checkStructuredFields(NativeFunction &F);
  bool checkPrecomputed(NativeFunction &F);
  bool checkUfuncInnerLoop(const NativeFunction &F);
  void resolveDelegates();
  void formGroups();
  void checkGroup(const NativeFunctionsGroup &G);

  const TagsFile *Tags;
  DiagnosticsEngine &Diags;
  OperatorModel Model;
};

} // namespace skc

#endif // SKC_LIB_SEMA_OPERATORMODELBUILDER_H
