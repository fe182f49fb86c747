//===--- OperatorModelPrinter.cpp - Dump the op model ---------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/OperatorModelPrinter.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

OperatorModelStats computeStats(const OperatorModel &Model) {
  OperatorModelStats S;
  for (const auto &F : Model.getFunctions()) {
    ++S.Functions;
    ++S.ByKind[static_cast<int>(F->Kind)];
    if (F->Structured)
      ++S.StructuredOut;
    if (F->Entry->StructuredDelegate)
      ++S.StructuredDelegates;
    if (F->StructuredDelegate)
      ++S.ResolvedDelegates;
  }
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    ++S.Groups;
    if (G.isStructured())
      ++S.StructuredGroups;
  }
  return S;
}

static std::string getLocation(const SourceMgr &SM, SMLoc Loc) {
  unsigned Buffer = SM.FindBufferContainingLoc(Loc);
  if (!Buffer)
    return "";
  auto [Line, Col] = SM.getLineAndColumn(Loc, Buffer);
  return (SM.getMemoryBuffer(Buffer)->getBufferIdentifier() + ":" +
          Twine(Line) + ":" + Twine(Col))
      .str();
}

static json::Value nameOrNull(const NativeFunction *F) {
  if (!F)
    return nullptr;
  return F->getName();
}

static json::Object toJSON(const NativeFunction &F,
                           const DispatchKeyCatalogue &Keys,
                           const SourceMgr &SM) {
  json::Array Variants;
  if (F.HasFunctionVariant)
    Variants.push_back("function");
  if (F.HasMethodVariant)
    Variants.push_back("method");
  json::Array Dispatch;
  for (const BackendKernel &K : F.Dispatch)
    Dispatch.push_back(json::Object{{"key", Keys.getName(K.Key)},
                                    {"kernel", K.Kernel},
                                    {"namespace", K.Namespace},
                                    {"structured", K.Structured},
                                    {"implicit", K.Implicit}});
  json::Array Precomputed;
  for (const PrecomputedLine &L : F.Precomputed) {
    json::Array Fields;
    for (const PrecomputedLine::Field &Field : L.Fields)
      Fields.push_back(json::Object{{"type", StringRef(sk::schema::getSpelling(Field.Ty))},
                                    {"name", Field.Name}});
    Precomputed.push_back(json::Object{
        {"replaces", L.Replaces.empty() ? json::Value(nullptr)
                                        : json::Value(L.Replaces)},
        {"fields", std::move(Fields)}});
  }
  json::Object O{
      {"name", F.getName()},
      {"schema", F.getSchema().getAsString()},
      {"location", getLocation(SM, F.getLoc())},
      {"kind", getSchemaKindName(F.Kind)},
      {"signature", F.getSchema().getSignatureKey()},
      {"variants", std::move(Variants)},
      {"dispatch", std::move(Dispatch)},
      {"structured", F.Structured},
      {"structured_delegate", nameOrNull(F.StructuredDelegate)},
      {"tags", json::Array(F.Tags)},
      {"autogen", json::Array(F.Autogen)},
      {"device_check", F.DeviceCheck ? "ExactSame" : "NoCheck"},
      {"device_guard", F.DeviceGuard},
      {"group", F.Group ? json::Value(F.Group->Out->getName())
                        : json::Value(nullptr)}};
  if (!F.StructuredInherits.empty())
    O["structured_inherits"] = F.StructuredInherits;
  if (!Precomputed.empty())
    O["precomputed"] = std::move(Precomputed);
  if (!F.PythonModule.empty())
    O["python_module"] = F.PythonModule;
  return O;
}

json::Value toJSON(const OperatorModel &Model, const SourceMgr &SM) {
  json::Array Functions;
  for (const auto &F : Model.getFunctions())
    Functions.push_back(toJSON(*F, Model.getDispatchKeys(), SM));
  json::Array Groups;
  for (const NativeFunctionsGroup &G : Model.getGroups())
    Groups.push_back(json::Object{{"meta_name", G.getMetaName()},
                                  {"structured", G.isStructured()},
                                  {"functional", nameOrNull(G.Functional)},
                                  {"inplace", nameOrNull(G.Inplace)},
                                  {"mutable", nameOrNull(G.Mutable)},
                                  {"out", nameOrNull(G.Out)}});
  OperatorModelStats S = computeStats(Model);
  return json::Object{
      {"functions", std::move(Functions)},
      {"groups", std::move(Groups)},
      {"stats", json::Object{{"functions", S.Functions},
                             {"groups", S.Groups},
                             {"structured_groups", S.StructuredGroups},
                             {"structured_out", S.StructuredOut},
                             {"structured_delegates", S.StructuredDelegates}}}};
}

void printOperatorModel(const OperatorModel &Model, const SourceMgr &SM,
                        raw_ostream &OS) {
  for (const auto &FP : Model.getFunctions()) {
    const NativeFunction &F = *FP;
    OS << F.getName() << " [" << getSchemaKindName(F.Kind) << "]  "
       << getLocation(SM, F.getLoc()) << '\n';
    OS << "  schema:     " << F.getSchema().getAsString() << '\n';
    OS << "  variants:   "
       << (F.HasFunctionVariant && F.HasMethodVariant ? "function, method"
           : F.HasMethodVariant                       ? "method"
                                                      : "function")
       << '\n';
    if (F.Structured) {
      OS << "  structured: out=";
      if (!F.StructuredInherits.empty())
        OS << " (inherits " << F.StructuredInherits << ')';
      OS << '\n';
    }
    if (F.StructuredDelegate)
      OS << "  delegate:   " << F.StructuredDelegate->getName() << '\n';
    for (const PrecomputedLine &L : F.Precomputed) {
      OS << "  precompute: " << (L.Replaces.empty() ? "+" : L.Replaces)
         << " ->";
      for (const PrecomputedLine::Field &Field : L.Fields)
        OS << ' ' << sk::schema::getSpelling(Field.Ty) << ' ' << Field.Name;
      OS << '\n';
    }
    for (const BackendKernel &K : F.Dispatch) {
      OS << "  dispatch:   " << Model.getDispatchKeys().getName(K.Key) << " -> "
         << K.Namespace << "::" << K.Kernel;
      if (K.Structured)
        OS << " (structured)";
      if (K.Implicit)
        OS << " (implicit)";
      OS << '\n';
    }
    if (!F.Tags.empty())
      OS << "  tags:       " << join(F.Tags, ", ") << '\n';
    if (!F.Autogen.empty())
      OS << "  autogen:    " << join(F.Autogen, ", ") << '\n';
  }
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    OS << "group " << G.getMetaName()
       << (G.isStructured() ? " (structured)" : "") << '\n';
    OS << "  functional: " << G.Functional->getName() << '\n';
    if (G.Inplace)
      OS << "  inplace:    " << G.Inplace->getName() << '\n';
    if (G.Mutable)
      OS << "  mutable:    " << G.Mutable->getName() << '\n';
    OS << "  out:        " << G.Out->getName() << '\n';
  }
}

void printStats(const OperatorModelStats &S, raw_ostream &OS) {
  OS << "functions:            " << S.Functions << " ("
     << S.ByKind[static_cast<int>(SchemaKind::Functional)] << " functional, "
     << S.ByKind[static_cast<int>(SchemaKind::Inplace)] << " inplace, "
     << S.ByKind[static_cast<int>(SchemaKind::Out)] << " out=, "
     << S.ByKind[static_cast<int>(SchemaKind::Mutable)] << " mutable, "
     << S.ByKind[static_cast<int>(SchemaKind::Scratch)] << " scratch)\n";
  OS << "groups:               " << S.Groups << " (" << S.StructuredGroups
     << " structured)\n";
  OS << "structured out=:      " << S.StructuredOut << '\n';
  OS << "structured_delegate:  " << S.StructuredDelegates << " ("
     << S.ResolvedDelegates << " resolved)\n";
}

} // namespace skc
