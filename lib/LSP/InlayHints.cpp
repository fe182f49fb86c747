//===--- InlayHints.cpp - The schema argument of each kernel parameter ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SchemaLookup.h"

#include "skc/Sema/KernelSignature.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// The signature \p S must have, from its schema entry.
static const KernelSignature *getSignature(const KernelSymbol &S,
                                           const KernelUse &U,
                                           SignatureOrError &Storage) {
  const NativeFunctionsGroup *G = U.Function->Group;
  switch (S.Kind) {
  case KernelDeclKind::Meta:
    if (!G)
      return nullptr;
    Storage = getMetaSignature(*G);
    break;
  case KernelDeclKind::Impl:
    if (!G)
      return nullptr;
    Storage = getImplSignature(*G);
    break;
  case KernelDeclKind::Native:
    Storage = getNativeSignature(*U.Function);
    break;
  }
  return std::get_if<KernelSignature>(&Storage);
}

std::vector<lsp::InlayHint> getInlayHints(const ProjectState &State,
                                          StringRef Path) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return {};
  std::vector<lsp::InlayHint> Hints;
  for (const KernelSymbol &S : State.getIndex().getKernels(Path)) {
    std::vector<KernelUse> Uses = findUses(Schema->A.Model, S.Kind, S.Name);
    if (Uses.empty())
      continue;
    SignatureOrError Storage;
    const KernelSignature *Sig = getSignature(S, Uses.front(), Storage);
    if (!Sig)
      continue;
    for (size_t I = 0, E = std::min(S.ParamStarts.size(), Sig->Params.size());
         I != E; ++I) {
      lsp::InlayHint Hint(lsp::InlayHintKind::Parameter, S.ParamStarts[I]);
      raw_string_ostream OS(Hint.label);
      if (const Argument *A = Sig->Params[I].SchemaArg)
        A->print(OS);
      else
        OS << "precomputed " << Sig->Params[I].Name;
      OS << ":";
      Hint.paddingRight = true;
      Hints.push_back(std::move(Hint));
    }
  }
  return Hints;
}

} // namespace skc
