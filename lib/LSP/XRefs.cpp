//===--- XRefs.cpp - Definition and references, schema and kernels --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SchemaLookup.h"
#include "SourcePositions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace skc {

static PlaceInFile getPlace(const CheckedSchema &Schema, StringRef File,
                            SMRange R) {
  return {File.str(), toLSPRange(*Schema.SM, R)};
}

/// The schema entries that name the kernel \p Kind \p Name: each dispatch
/// entry's kernel name, or a meta function's `structured: True` entry.
static std::vector<PlaceInFile> getSchemaPlaces(const ProjectState &State,
                                                KernelDeclKind Kind,
                                                StringRef Name) {
  const CheckedSchema &Schema = *State.getSchema();
  std::vector<PlaceInFile> Places;
  for (const KernelUse &U : findUses(Schema.A.Model, Kind, Name)) {
    SMRange R = U.Kernel ? U.Kernel->KernelRange
                         : U.Function->Entry->getKeyRange("structured");
    if (!R.isValid())
      R = U.Function->Entry->getKeyRange("func");
    Places.push_back(getPlace(Schema, State.getProject().Inv.SchemaPath, R));
  }
  return Places;
}

static std::vector<PlaceInFile>
getDefinitions(const ProjectState &State, KernelDeclKind Kind, StringRef Name) {
  std::vector<PlaceInFile> Places;
  for (const KernelSymbol &S : State.getIndex().find(Kind, Name))
    Places.push_back({S.File, S.NameRange});
  return Places;
}

/// The wrapper the build generated for \p F: the line after its
/// `// ns::name.overload` comment in Functions.h.
static std::optional<PlaceInFile> findWrapper(const Project &P,
                                              const NativeFunction &F) {
  if (P.GeneratedDir.empty())
    return std::nullopt;
  SmallString<256> Path(P.GeneratedDir);
  sys::path::append(Path, "Functions.h");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  StringRef Text = (*Buffer)->getBuffer();
  std::string Comment = "// " + P.Inv.Namespace + "::" + F.getName() + "\n";
  size_t At = Text.find(Comment);
  if (At == StringRef::npos)
    return std::nullopt;
  int Line = static_cast<int>(Text.take_front(At).count('\n')) + 1;
  StringRef Wrapper = Text.drop_front(At + Comment.size());
  Wrapper = Wrapper.take_until([](char C) { return C == '\n'; });
  return PlaceInFile{
      Path.str().str(),
      lsp::Range(lsp::Position(Line, 0), lsp::Position(Line, Wrapper.size()))};
}

std::vector<PlaceInFile> getDefinition(const ProjectState &State,
                                       StringRef Path, lsp::Position P) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return {};
  if (Path != State.getProject().Inv.SchemaPath) {
    std::vector<KernelSymbol> Kernels = State.getIndex().getKernels(Path);
    const KernelSymbol *S = findKernelAt(Kernels, P);
    return S ? getSchemaPlaces(State, S->Kind, S->Name)
             : std::vector<PlaceInFile>();
  }
  SMLoc Loc = fromLSPPosition(*Schema->SM, Schema->getSchemaBuffer(), P);
  const NativeFunction *F = findFunctionAt(Schema->A.Model, Loc);
  if (!F)
    return {};
  if (const BackendKernel *K = findDispatchAt(*F, Loc)) {
    auto [Kind, Name] = getDefinitionName(*K);
    return getDefinitions(State, Kind, Name);
  }
  // On the operator's name: its wrapper, and its meta function.
  SMRange Name = F->getSchema().Name.Range;
  if (!Name.isValid() || !contains(toLSPRange(*Schema->SM, Name), P))
    return {};
  std::vector<PlaceInFile> Places;
  if (std::optional<PlaceInFile> Wrapper = findWrapper(State.getProject(), *F))
    Places.push_back(std::move(*Wrapper));
  if (F->Group && F->Group->isStructured())
    for (PlaceInFile &Meta : getDefinitions(
             State, KernelDeclKind::Meta,
             (StructuredClassPrefix + F->Group->getMetaName()).str()))
      Places.push_back(std::move(Meta));
  return Places;
}

std::vector<PlaceInFile> getReferences(const ProjectState &State,
                                       StringRef Path, lsp::Position P) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return {};
  std::optional<std::pair<KernelDeclKind, std::string>> Kernel;
  if (Path == State.getProject().Inv.SchemaPath) {
    SMLoc Loc = fromLSPPosition(*Schema->SM, Schema->getSchemaBuffer(), P);
    if (const NativeFunction *F = findFunctionAt(Schema->A.Model, Loc))
      if (const BackendKernel *K = findDispatchAt(*F, Loc))
        Kernel = getDefinitionName(*K);
  } else {
    std::vector<KernelSymbol> Kernels = State.getIndex().getKernels(Path);
    if (const KernelSymbol *S = findKernelAt(Kernels, P))
      Kernel = {S->Kind, S->Name};
  }
  if (!Kernel)
    return {};
  std::vector<PlaceInFile> Places =
      getDefinitions(State, Kernel->first, Kernel->second);
  for (PlaceInFile &Use : getSchemaPlaces(State, Kernel->first, Kernel->second))
    Places.push_back(std::move(Use));
  return Places;
}

} // namespace skc
