//===--- SchemaLookup.cpp - From a place to the model and back ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "SchemaLookup.h"
#include "SourcePositions.h"

using namespace llvm;

namespace skc {

const NativeFunction *findFunctionAt(const OperatorModel &Model, SMLoc Loc) {
  if (!Loc.isValid())
    return nullptr;
  // Entries are in file order; the one that holds Loc is the last that
  // starts at or before it.
  const NativeFunction *Found = nullptr;
  for (const std::unique_ptr<NativeFunction> &F : Model.getFunctions()) {
    if (F->Entry->Loc.getPointer() > Loc.getPointer())
      break;
    Found = F.get();
  }
  return Found;
}

StringRef getEntryText(const OperatorModel &Model, const NativeFunction &F,
                       StringRef SchemaText) {
  auto LineStart = [&](SMLoc Loc) {
    size_t Offset = Loc.getPointer() - SchemaText.data();
    size_t NewLine = SchemaText.take_front(Offset).rfind('\n');
    return NewLine == StringRef::npos ? 0 : NewLine + 1;
  };
  size_t Start = LineStart(F.Entry->Loc);
  size_t End = SchemaText.size();
  for (const std::unique_ptr<NativeFunction> &Next : Model.getFunctions())
    if (Next->Entry->Loc.getPointer() > F.Entry->Loc.getPointer())
      End = std::min(End, LineStart(Next->Entry->Loc));
  // Drop the blank lines and the comments that come before the next entry.
  StringRef Text = SchemaText.slice(Start, End);
  while (true) {
    StringRef Trimmed = Text.rtrim();
    size_t LastLine = Trimmed.rfind('\n');
    StringRef Last = LastLine == StringRef::npos
                         ? Trimmed
                         : Trimmed.drop_front(LastLine + 1);
    if (LastLine == StringRef::npos || !Last.ltrim().starts_with("#"))
      return Trimmed;
    Text = Trimmed.take_front(LastLine);
  }
}

const BackendKernel *findDispatchAt(const NativeFunction &F, SMLoc Loc) {
  for (const BackendKernel &K : F.Dispatch)
    for (SMRange R : {K.KeyRange, K.KernelRange})
      if (R.isValid() && R.Start.getPointer() <= Loc.getPointer() &&
          Loc.getPointer() <= R.End.getPointer())
        return &K;
  return nullptr;
}

std::pair<KernelDeclKind, std::string>
getDefinitionName(const BackendKernel &K) {
  if (K.Structured)
    return {KernelDeclKind::Impl, (StructuredClassPrefix + K.Kernel).str()};
  return {KernelDeclKind::Native, K.Kernel};
}

std::vector<KernelUse> findUses(const OperatorModel &Model, KernelDeclKind Kind,
                                StringRef Name) {
  std::vector<KernelUse> Uses;
  if (Kind == KernelDeclKind::Meta) {
    for (const NativeFunctionsGroup &G : Model.getGroups())
      if (G.isStructured() &&
          (StructuredClassPrefix + G.getMetaName()).str() == Name)
        Uses.push_back({G.Out, nullptr});
    return Uses;
  }
  for (const std::unique_ptr<NativeFunction> &F : Model.getFunctions())
    for (const BackendKernel &K : F->Dispatch)
      if (!K.Implicit &&
          getDefinitionName(K) == std::make_pair(Kind, Name.str()))
        Uses.push_back({F.get(), &K});
  return Uses;
}

const KernelSymbol *findKernelAt(ArrayRef<KernelSymbol> Symbols,
                                 lsp::Position P) {
  for (const KernelSymbol &S : Symbols)
    if (contains(S.HeadRange, P) || contains(S.NameRange, P))
      return &S;
  return nullptr;
}

} // namespace skc
