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

std::vector<std::string> getOutputFileNames(const EmitOptions &Opts,
                                            OutputSet Set) {
  std::vector<std::string> Names;
  if (Set != OutputSet::Library) {
    Names = {"NativeMetaFunctions.h", "NativeFunctions.h", "Operators.h",
             "Functions.h"};
    for (unsigned I = 0; I != Opts.Shards; ++I)
      Names.push_back(getShardedName("Operators", I, Opts.Shards));
    Names.push_back("RegisterSchema.cpp");
  }
  if (Set == OutputSet::Schema)
    return Names;
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
                                   const EmitOptions &Opts, OutputSet Set) {
  std::vector<GeneratedFile> Files;
  if (Set != OutputSet::Library) {
    // What the sources define must not change these files.
    EmitOptions SchemaOnly = Opts;
    SchemaOnly.DefinedNativeKernels.reset();
    Files = emitNativeFunctionHeaders(Model, SchemaOnly);
    EmitModel EM(Model, SchemaOnly);
    emitOperatorFiles(EM, Files);
    Files.push_back(emitSchemaRegistration(EM));
  }
  if (Set == OutputSet::Schema)
    return Files;
  EmitModel EM(Model, Opts);
  for (DispatchKey K : getEmittedKeys(Opts))
    emitBackendFiles(EM, K, Files);
  return Files;
}

} // namespace skc
