//===--- OperatorModel.cpp - Operators, groups and kernels ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/OperatorModel.h"
#include "OperatorModelBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace skc {

const BackendKernel *NativeFunction::findKernel(DispatchKey K) const {
  const BackendKernel *It = find_if(
      Dispatch, [K](const BackendKernel &B) { return B.Key == K; });
  return It == Dispatch.end() ? nullptr : It;
}

OperatorModel OperatorModelBuilder::build(std::vector<SchemaEntry> Entries) {
  Model.Entries = std::move(Entries);
  Model.Functions.reserve(Model.Entries.size());
  for (const SchemaEntry &E : Model.Entries) {
    if (!E.Schema || !checkSchema(*E.Schema))
      continue;
    auto F = std::make_unique<NativeFunction>();
    F->Entry = &E;
    // A function that breaks an entry rule stays in the model when its name
    // is sound, so that its delegates do not report it as missing.
    checkEntry(*F);
    if (registerName(*F))
      Model.Functions.push_back(std::move(F));
  }
  checkAutogenTargets();
  resolveDelegates();
  formGroups();
  return std::move(Model);
}

OperatorModel buildOperatorModel(std::vector<SchemaEntry> Entries,
                                 const TagsFile *Tags,
                                 DiagnosticsEngine &Diags,
                                 DispatchKeyCatalogue Keys) {
  return OperatorModelBuilder(Tags, std::move(Keys), Diags)
      .build(std::move(Entries));
}

} // namespace skc
