//===--- Emitters.cpp - Every file skc generates --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "EmitModel.h"
#include "skc/Emit/Emitters.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace skc {

/// The keys whose files are generated, in a fixed order: the backends
/// asked for, then Meta and the composite keys, which are always there.
static SmallVector<DispatchKey, 8> getEmittedKeys(const EmitOptions &Opts) {
  SmallVector<DispatchKey, 8> Keys;
  for (DispatchKey K : getSelectableBackends())
    if (is_contained(Opts.Backends, K))
      Keys.push_back(K);
  Keys.append({DispatchKey::Meta, DispatchKey::CompositeExplicitAutograd,
               DispatchKey::CompositeImplicitAutograd});
  return Keys;
}

std::vector<std::string> getOutputFileNames(const EmitOptions &Opts) {
  std::vector<std::string> Names = {"NativeMetaFunctions.h",
                                    "NativeFunctions.h", "Operators.h",
                                    "Functions.h"};
  for (unsigned I = 0; I != Opts.Shards; ++I)
    Names.push_back(getShardedName("Operators", I, Opts.Shards));
  Names.push_back("RegisterSchema.cpp");
  for (DispatchKey K : getEmittedKeys(Opts)) {
    for (unsigned I = 0; I != Opts.Shards; ++I)
      Names.push_back(
          getShardedName(("Register" + getDispatchKeyName(K)).str(), I,
                         Opts.Shards));
    Names.push_back((getDispatchKeyName(K) + "Functions.h").str());
  }
  return Names;
}

std::vector<GeneratedFile> emitAll(const OperatorModel &Model,
                                   const EmitOptions &Opts) {
  std::vector<GeneratedFile> Files = emitNativeFunctionHeaders(Model, Opts);
  EmitModel EM(Model, Opts);
  emitOperatorFiles(EM, Files);
  Files.push_back(emitSchemaRegistration(EM));
  for (DispatchKey K : getEmittedKeys(Opts))
    emitBackendFiles(EM, K, Files);
  return Files;
}

} // namespace skc
