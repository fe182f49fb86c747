//===--- EmitModel.cpp - What the emitters share about each function ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "EmitModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace skc {

/// The C++ spelling of a schema string literal ('fro', "valid") as a
/// double-quoted literal.
static std::string getCppStringDefault(StringRef Spelling) {
  if (Spelling.size() < 2)
    return "\"\"";
  char Quote = Spelling.front();
  StringRef Body = Spelling.drop_front().drop_back();
  if (Quote == '"')
    return Spelling.str();
  // A single-quoted literal may hold unescaped double quotes.
  std::string Out = "\"";
  for (size_t I = 0; I != Body.size(); ++I) {
    if (Body[I] == '\\' && I + 1 != Body.size()) {
      Out += Body[I];
      Out += Body[++I];
      continue;
    }
    if (Body[I] == '"')
      Out += '\\';
    Out += Body[I];
  }
  return Out + "\"";
}

/// PyTorch's `int reduction=Mean` names at::Reduction's enumerators.
static std::optional<StringRef> getReductionValue(StringRef Name) {
  return StringSwitch<std::optional<StringRef>>(Name)
      .Case("None", StringRef("0"))
      .Case("Mean", StringRef("1"))
      .Case("Sum", StringRef("2"))
      .Default(std::nullopt);
}

static std::optional<StringRef> getScalarTypeName(StringRef Name) {
  return StringSwitch<std::optional<StringRef>>(Name)
      .Case("bool", StringRef("Bool"))
      .Case("uint8", StringRef("Byte"))
      .Case("int8", StringRef("Char"))
      .Case("int16", StringRef("Short"))
      .Case("int", StringRef("Int"))
      .Case("long", StringRef("Long"))
      .Case("half", StringRef("Half"))
      .Case("bfloat16", StringRef("BFloat16"))
      .Case("float", StringRef("Float"))
      .Case("double", StringRef("Double"))
      .Default(std::nullopt);
}

static std::optional<StringRef> getMemoryFormatName(StringRef Name) {
  return StringSwitch<std::optional<StringRef>>(Name)
      .Case("contiguous_format", StringRef("Contiguous"))
      .Case("preserve_format", StringRef("Preserve"))
      .Case("channels_last", StringRef("ChannelsLast"))
      .Case("channels_last_3d", StringRef("ChannelsLast3d"))
      .Default(std::nullopt);
}

/// One scalar element of a default: `True`, `-1`, `1e-05`, `long`.
static std::optional<std::string> getScalarDefault(StringRef Spelling,
                                                   const Type *T) {
  Spelling = Spelling.trim();
  if (Spelling == "True")
    return std::string("true");
  if (Spelling == "False")
    return std::string("false");
  if (T->isBase(BaseTypeKind::ScalarType))
    if (std::optional<StringRef> N = getScalarTypeName(Spelling))
      return qualified(CppType::Name::ScalarType) + "::" + N->str();
  if (T->isBase(BaseTypeKind::MemoryFormat))
    if (std::optional<StringRef> N = getMemoryFormatName(Spelling))
      return qualified(CppType::Name::MemoryFormat) + "::" + N->str();
  if (std::optional<StringRef> R = getReductionValue(Spelling))
    return R->str();
  if (!Spelling.empty() &&
      (isDigit(Spelling.front()) || Spelling.front() == '-' ||
       Spelling.front() == '.'))
    return Spelling.str();
  return std::nullopt;
}

std::string getCppDefaultArgument(const Argument &A, const CppType *T) {
  if (!A.Default)
    return "";
  const DefaultValue &D = *A.Default;
  const Type *Ty = A.Ty;
  if (D.Kind == DefaultValue::DefaultKind::None) {
    if (T->isPointer())
      return "nullptr";
    return "::std::nullopt";
  }
  if (Ty->isOptional())
    Ty = Ty->getElement();
  if (D.Kind == DefaultValue::DefaultKind::String)
    return getCppStringDefault(D.Spelling);
  if (D.Kind == DefaultValue::DefaultKind::List) {
    StringRef Body = StringRef(D.Spelling).trim().drop_front().drop_back();
    SmallVector<StringRef, 4> Elements;
    Body.split(Elements, ',', -1, /*KeepEmpty=*/false);
    const Type *Element = Ty->isList() ? Ty->getElement() : Ty;
    std::string Out;
    for (StringRef E : Elements) {
      std::optional<std::string> V = getScalarDefault(E, Element);
      if (!V)
        return "";
      Out += (Out.empty() ? "" : ", ") + *V;
    }
    // std::array<bool, N> needs the inner braces.
    if (T->isNamed(CppType::Name::Array))
      return "{{" + Out + "}}";
    return "{" + Out + "}";
  }
  std::optional<std::string> V = getScalarDefault(D.Spelling, Ty);
  if (!V)
    return "";
  // `int[2] stride=1` is a one-element list, as torchgen passes it.
  if (Ty->isList())
    return "{" + *V + "}";
  return *V;
}

std::string getReturnSpelling(const CppType *T) {
  std::string Q = T->getQualifiedSpelling();
  return T->isReference() || T->isPointer() ? Q : Q + " ";
}

std::string getQualifiedKernelName(const BackendKernel &K) {
  if (K.Namespace.empty() || K.Namespace == "at::native")
    return "::sk::native::" + K.Kernel;
  return "::" + K.Namespace + "::" + K.Kernel;
}

std::string EmittedFunction::getParamList(const CppApiDecl &D,
                                          bool WithDefaults) const {
  // Defaults only on the trailing parameters that all have one.
  size_t FirstDefault = D.Order.size();
  if (WithDefaults && D.WithDefaults)
    while (FirstDefault != 0 && !Defaults[D.Order[FirstDefault - 1]].empty())
      --FirstDefault;
  std::string Out = "(";
  for (size_t I = 0; I != D.Order.size(); ++I) {
    const KernelParamSpec &P = Sig.Params[D.Order[I]];
    if (I)
      Out += ", ";
    Out += P.Type->getDeclaration(P.Name, /*Qualified=*/true);
    if (I >= FirstDefault)
      Out += " = " + Defaults[D.Order[I]];
  }
  return Out + ")";
}

std::string EmittedFunction::getDispatcherParamList() const {
  CppApiDecl D{"", {}, false};
  for (unsigned I = 0; I != Sig.Params.size(); ++I)
    D.Order.push_back(I);
  return getParamList(D, /*WithDefaults=*/false);
}

std::string EmittedFunction::getArgNames() const {
  std::string Out;
  for (const KernelParamSpec &P : Sig.Params)
    Out += (Out.empty() ? "" : ", ") + P.Name;
  return Out;
}

/// The C++ API declarations of \p EF (torchgen's naming): `add`, `add_`,
/// and for out= functions `add_out(out, self, ...)` with defaults and
/// `add_outf(self, ..., out)` without.
static void addApiDecls(EmittedFunction &EF) {
  const FunctionSchema &S = EF.getSchema();
  unsigned N = EF.Sig.Params.size();
  if (S.getKind() != SchemaKind::Out) {
    CppApiDecl D{S.Name.Name, {}, true};
    for (unsigned I = 0; I != N; ++I)
      D.Order.push_back(I);
    EF.ApiDecls.push_back(std::move(D));
    return;
  }
  CppApiDecl Out{S.Name.Name + "_out", {}, true};
  CppApiDecl OutF{S.Name.Name + "_outf", {}, false};
  unsigned FirstOut = S.FirstOut;
  for (unsigned I = FirstOut; I != N; ++I)
    Out.Order.push_back(I);
  for (unsigned I = 0; I != FirstOut; ++I)
    Out.Order.push_back(I);
  for (unsigned I = 0; I != N; ++I)
    OutF.Order.push_back(I);
  EF.ApiDecls.push_back(std::move(Out));
  EF.ApiDecls.push_back(std::move(OutF));
}

EmitModel::EmitModel(const OperatorModel &Model, const EmitOptions &Opts)
    : Model(Model), Opts(Opts) {
  std::vector<const NativeFunction *> Sorted;
  for (const auto &F : Model.getFunctions())
    Sorted.push_back(F.get());
  llvm::sort(Sorted, [](const NativeFunction *A, const NativeFunction *B) {
    return A->getSchema().Name.getQualifiedName() <
           B->getSchema().Name.getQualifiedName();
  });

  std::set<std::string> Idents;
  for (const NativeFunction *F : Sorted) {
    const OperatorName &Name = F->getSchema().Name;
    SignatureOrError Sig = getNativeSignature(*F);
    if (const auto *U = std::get_if<UnsupportedType>(&Sig)) {
      Skipped[Name.getQualifiedName()] = "'" + U->TypeSpelling + "'";
      continue;
    }
    EmittedFunction EF;
    EF.F = F;
    EF.Sig = std::move(std::get<KernelSignature>(Sig));
    EF.Ident = (Name.Namespace.empty() || Name.Namespace == Opts.Namespace
                    ? ""
                    : Name.Namespace + "_") +
               Name.getUnambiguousName();
    for (unsigned N = 2; !Idents.insert(EF.Ident).second; ++N)
      EF.Ident = Name.getUnambiguousName() + "_" + std::to_string(N);
    EF.DispatcherNamespace =
        Name.Namespace.empty() ? Opts.Namespace : Name.Namespace;
    EF.CppNamespace = Opts.CppNamespace;
    if (!Name.Namespace.empty() && Name.Namespace != Opts.Namespace)
      EF.CppNamespace += "::" + Name.Namespace;
    for (const KernelParamSpec &P : EF.Sig.Params)
      EF.Defaults.push_back(getCppDefaultArgument(*P.SchemaArg, P.Type));
    addApiDecls(EF);
    ByFunction[F] = Functions.size();
    Functions.push_back(std::move(EF));
  }

  // int and SymInt (and other pairs of schema types) can map to one C++
  // type: the first declaration in sorted order wins.
  std::set<std::string> Seen;
  for (const EmittedFunction &EF : Functions)
    for (const CppApiDecl &D : EF.ApiDecls) {
      std::string Key = EF.CppNamespace + "::" + D.Name + "(";
      for (unsigned I : D.Order)
        Key += EF.Sig.Params[I].Type->getQualifiedSpelling() + ",";
      if (!Seen.insert(Key).second)
        ShadowedDecls.insert({&EF, D.Name});
    }
}

bool EmitModel::isKernelRegistered(const NativeFunction &F,
                                   const BackendKernel &K) const {
  if (F.ManualKernelRegistration)
    return false;
  if (!K.Implicit || !Opts.DefinedNativeKernels)
    return true;
  return Opts.DefinedNativeKernels->contains(K.Kernel);
}

void EmitModel::writeSkipped(raw_ostream &OS) const {
  if (Skipped.empty())
    return;
  OS << "\n// Not generated: these operators use types the runtime does not "
        "have.\n";
  for (const auto &[Name, Why] : Skipped)
    OS << "//   " << Name << ": " << Why << '\n';
}

} // namespace skc
