//===--- Hover.cpp - An operator and its kernels, on hover ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SchemaLookup.h"
#include "SourcePositions.h"

#include "skc/Sema/KernelSignature.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// How an author writes the kernel: `SK_IMPL_FUNC(add_out)(const Tensor
/// &self, ...)`, or why it cannot be written.
static std::string getAuthoredSignature(const SignatureOrError &S,
                                        StringRef Head,
                                        bool WithReturn = false) {
  if (const auto *Unsupported = std::get_if<UnsupportedType>(&S))
    return "// none: the runtime has no type for '" +
           Unsupported->TypeSpelling + "'";
  const KernelSignature &Sig = std::get<KernelSignature>(S);
  std::string Text;
  if (WithReturn)
    Text = Sig.Return->getAuthorSpelling() + " ";
  return Text + Head.str() + Sig.getAuthorParamList();
}

/// Where the index has \p Kind \p Name defined: "kernels/Add.cpp", or that
/// no source it has seen does.
static std::string whereDefined(const ProjectState &State, KernelDeclKind Kind,
                                StringRef Name) {
  std::vector<KernelSymbol> Found = State.getIndex().find(Kind, Name);
  if (Found.empty())
    return "no source defines it";
  std::string Text = "defined in ";
  for (size_t I = 0; I != Found.size(); ++I)
    Text += (I ? ", `" : "`") + sys::path::filename(Found[I].File).str() + ":" +
            std::to_string(Found[I].NameRange.start.line + 1) + "`";
  return Text;
}

/// The hover's text for \p F.
static std::string describe(const ProjectState &State,
                            const NativeFunction &F) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "### " << State.getProject().Inv.Namespace << "::" << F.getName()
     << "\n\n"
     << "```\n"
     << F.Entry->Func.Value << "\n```\n";
  if (const NativeFunctionsGroup *G = F.Group) {
    OS << "\nVariants:";
    ListSeparator Comma(",");
    for (const NativeFunction *Member : G->getFunctions())
      OS << Comma << " `" << Member->getName() << "` ("
         << getSchemaKindName(Member->Kind) << ")";
    OS << "\n";
  }
  OS << "\nKernels:\n";
  bool Structured = F.Group && F.Group->isStructured();
  if (Structured) {
    const NativeFunctionsGroup &G = *F.Group;
    std::string MetaName = G.getMetaName();
    bool Precomputed = !G.Out->Precomputed.empty();
    OS << "- meta, "
       << whereDefined(State, KernelDeclKind::Meta,
                       (StructuredClassPrefix + MetaName).str())
       << ":\n  ```cpp\n  "
       << getAuthoredSignature(getMetaSignature(G),
                               (Twine(Precomputed ? "SK_PRECOMPUTE_META_FUNC("
                                                  : "SK_META_FUNC(") +
                                MetaName + ")")
                                   .str())
       << "\n  ```\n";
  }
  const NativeFunction &Dispatched = Structured ? *F.Group->Out : F;
  for (const BackendKernel &K : Dispatched.Dispatch) {
    auto [Kind, Name] = getDefinitionName(K);
    OS << "- " << getDispatchKeyName(K.Key) << (K.Implicit ? " (implicit)" : "")
       << ": `" << K.Kernel << "`, " << whereDefined(State, Kind, Name)
       << ":\n  ```cpp\n  "
       << (K.Structured
               ? getAuthoredSignature(getImplSignature(*F.Group),
                                      "SK_IMPL_FUNC(" + K.Kernel + ")")
               : getAuthoredSignature(getNativeSignature(Dispatched),
                                      "SK_NATIVE_FUNC(" + K.Kernel + ")",
                                      /*WithReturn=*/true))
       << "\n  ```\n";
  }
  if (Dispatched.Dispatch.empty())
    OS << "- none: `dispatch:` is empty\n";
  return Text;
}

std::optional<lsp::Hover> getHover(const ProjectState &State, StringRef Path,
                                   lsp::Position P) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return std::nullopt;
  const OperatorModel &Model = Schema->A.Model;
  if (Path == State.getProject().Inv.SchemaPath) {
    SMLoc Loc = fromLSPPosition(*Schema->SM, Schema->getSchemaBuffer(), P);
    const NativeFunction *F = findFunctionAt(Model, Loc);
    if (!F)
      return std::nullopt;
    // The func line, or a dispatch entry.
    SMRange Range = F->Entry->Func.getRange();
    if (const BackendKernel *K = findDispatchAt(*F, Loc))
      Range = SMRange(K->KeyRange.Start, K->KernelRange.End);
    else if (toLSPPosition(*Schema->SM, F->Entry->getKeyLoc("func")).line !=
             P.line)
      return std::nullopt;
    lsp::Hover H(toLSPRange(*Schema->SM, Range));
    H.contents.value = describe(State, *F);
    return H;
  }
  std::vector<KernelSymbol> Kernels = State.getIndex().getKernels(Path);
  const KernelSymbol *S = findKernelAt(Kernels, P);
  if (!S)
    return std::nullopt;
  std::vector<KernelUse> Uses = findUses(Model, S->Kind, S->Name);
  if (Uses.empty())
    return std::nullopt;
  lsp::Hover H(S->NameRange);
  H.contents.value = describe(State, *Uses.front().Function);
  return H;
}

} // namespace skc
