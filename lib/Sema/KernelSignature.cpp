//===--- KernelSignature.cpp - The C++ signatures kernels must have -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/KernelSignature.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// A runtime type, spelled as authors write it and as generated code does.
static CppType sk(StringRef Name) {
  return {Name.str(), ("::sk::" + Name).str()};
}
static CppType builtin(StringRef Name) { return {Name.str(), Name.str()}; }
static CppType constRef(CppType T) {
  return {"const " + T.Author + " &", "const " + T.Qualified + " &"};
}
static CppType ref(CppType T) { return {T.Author + " &", T.Qualified + " &"}; }
static CppType optional(CppType T) {
  return {"std::optional<" + T.Author + ">",
          "::std::optional<" + T.Qualified + ">"};
}

/// The type of a value of base type \p K (no references), or none.
static std::optional<CppType> getValueType(BaseTypeKind K) {
  switch (K) {
  case BaseTypeKind::Tensor:
    return sk("Tensor");
  case BaseTypeKind::Int:
  case BaseTypeKind::SymInt:
    return builtin("int64_t");
  case BaseTypeKind::Float:
    return builtin("double");
  case BaseTypeKind::Bool:
  case BaseTypeKind::SymBool:
    return builtin("bool");
  case BaseTypeKind::Str:
    return CppType{"std::string_view", "::std::string_view"};
  case BaseTypeKind::Scalar:
    return sk("Scalar");
  case BaseTypeKind::ScalarType:
    return sk("ScalarType");
  case BaseTypeKind::Device:
    return sk("Device");
  case BaseTypeKind::MemoryFormat:
    return sk("MemoryFormat");
  default:
    // Dimname, DeviceIndex, Layout, QScheme, Storage, Stream, GraphModule,
    // ... have no runtime type.
    return std::nullopt;
  }
}

/// The parameter type shared by both APIs for \p T, when there is one; the
/// API-specific cases (tensors, scalars, optionals of them) are handled by
/// the callers first.
static std::optional<CppType> getCommonType(const Type *T) {
  if (T->isBase()) {
    std::optional<CppType> V = getValueType(T->getBaseKind());
    if (V && T->getBaseKind() == BaseTypeKind::Scalar)
      return constRef(*V);
    return V;
  }
  if (T->isOptional()) {
    const Type *E = T->getElement();
    if (E->isBase(BaseTypeKind::Generator))
      return sk("Generator *");
    if (E->isList() && (E->getElement()->isBase(BaseTypeKind::Int) ||
                        E->getElement()->isBase(BaseTypeKind::SymInt)))
      return sk("OptionalIntArrayRef");
    if (E->isList() && E->getElement()->isBase(BaseTypeKind::Float))
      return optional(sk("ArrayRef<double>"));
    if (!E->isBase())
      return std::nullopt;
    std::optional<CppType> V = getValueType(E->getBaseKind());
    if (!V)
      return std::nullopt;
    return optional(*V);
  }
  if (T->isList()) {
    const Type *E = T->getElement();
    if (E->isBase(BaseTypeKind::Int) || E->isBase(BaseTypeKind::SymInt))
      return sk("IntArrayRef");
    if (E->isBase(BaseTypeKind::Tensor))
      return sk("TensorList");
    if (E->isBase(BaseTypeKind::Bool) && T->getListSize())
      return CppType{
          ("std::array<bool, " + Twine(T->getListSize()) + ">").str(),
          ("::std::array<bool, " + Twine(T->getListSize()) + ">").str()};
    if (E->isBase(BaseTypeKind::Float))
      return sk("ArrayRef<double>");
    if (E->isBase(BaseTypeKind::Scalar))
      return CppType{"ArrayRef<Scalar>", "::sk::ArrayRef<::sk::Scalar>"};
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<CppType> getStructuredType(const Argument &A) {
  const Type *T = A.Ty;
  // Never a mutable reference: outputs are written through the MetaBase
  // machinery, not by reassigning parameters.
  if (T->isBase(BaseTypeKind::Tensor))
    return constRef(sk("Tensor"));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return sk("OptionalTensorRef");
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Scalar))
    return sk("OptionalScalarRef");
  return getCommonType(T);
}

std::optional<CppType> getNativeType(const Argument &A) {
  const Type *T = A.Ty;
  if (T->isBase(BaseTypeKind::Tensor))
    return A.isWrite() ? ref(sk("Tensor")) : constRef(sk("Tensor"));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return constRef(optional(sk("Tensor")));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Scalar))
    return constRef(optional(sk("Scalar")));
  return getCommonType(T);
}

/// The return type of \p R, or none.
static std::optional<CppType> getReturnType(const Return &R) {
  const Type *T = R.Ty;
  if (T->isBase(BaseTypeKind::Tensor))
    return R.isWrite() ? ref(sk("Tensor")) : sk("Tensor");
  if (T->isList() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return CppType{"std::vector<Tensor>", "::std::vector<::sk::Tensor>"};
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return optional(sk("Tensor"));
  if (T->isBase()) {
    if (T->getBaseKind() == BaseTypeKind::Scalar)
      return sk("Scalar");
    return getValueType(T->getBaseKind());
  }
  return std::nullopt;
}

static std::string joinParams(const KernelSignature &S, bool Qualified) {
  std::string Out = "(";
  for (size_t I = 0; I != S.Params.size(); ++I) {
    const KernelParamSpec &P = S.Params[I];
    if (I)
      Out += ", ";
    const std::string &T = Qualified ? P.Type.Qualified : P.Type.Author;
    Out += T;
    // `const Tensor &self`, `int64_t dim`.
    if (!StringRef(T).ends_with("&") && !StringRef(T).ends_with("*"))
      Out += ' ';
    Out += P.Name;
  }
  Out += ')';
  return Out;
}

std::string KernelSignature::getAuthorParamList() const {
  return joinParams(*this, /*Qualified=*/false);
}

std::string KernelSignature::getQualifiedParamList() const {
  return joinParams(*this, /*Qualified=*/true);
}

/// Appends \p A with the structured type, or returns its unsupported type.
static std::optional<UnsupportedType>
addStructuredParam(KernelSignature &S, const Argument &A) {
  std::optional<CppType> T = getStructuredType(A);
  if (!T)
    return UnsupportedType{A.Ty->getAsString()};
  S.Params.push_back({A.Name, std::move(*T), &A});
  return std::nullopt;
}

/// The C++ type of a precomputed field of base type \p K.
static CppType getPrecomputedType(BaseTypeKind K) {
  if (std::optional<CppType> V = getValueType(K))
    return *V;
  return builtin("int64_t");
}

SignatureOrError getMetaSignature(const NativeFunctionsGroup &G) {
  KernelSignature S;
  S.Return = builtin("void");
  for (const Argument &A : G.Functional->getSchema().Arguments)
    if (std::optional<UnsupportedType> U = addStructuredParam(S, A))
      return *U;
  return S;
}

SignatureOrError getImplSignature(const NativeFunctionsGroup &G) {
  const NativeFunction &Out = *G.Out;
  KernelSignature S;
  S.Return = builtin("void");
  auto FindReplacement = [&](StringRef Name) -> const PrecomputedLine * {
    for (const PrecomputedLine &L : Out.Precomputed)
      if (L.Replaces == Name)
        return &L;
    return nullptr;
  };
  for (const Argument &A : Out.getSchema().Arguments) {
    if (A.IsOut)
      continue;
    if (const PrecomputedLine *L = FindReplacement(A.Name)) {
      for (const PrecomputedLine::Field &F : L->Fields)
        S.Params.push_back({F.Name, getPrecomputedType(F.Ty), nullptr});
      continue;
    }
    if (std::optional<UnsupportedType> U = addStructuredParam(S, A))
      return *U;
  }
  for (const PrecomputedLine &L : Out.Precomputed)
    if (L.Replaces.empty())
      for (const PrecomputedLine::Field &F : L.Fields)
        S.Params.push_back({F.Name, getPrecomputedType(F.Ty), nullptr});
  for (const Argument &A : Out.getSchema().getOutArguments()) {
    if (!A.Ty->isBase(BaseTypeKind::Tensor))
      return UnsupportedType{A.Ty->getAsString()};
    S.Params.push_back({A.Name, constRef(sk("Tensor")), &A});
  }
  return S;
}

SignatureOrError getNativeSignature(const NativeFunction &F) {
  const FunctionSchema &Schema = F.getSchema();
  KernelSignature S;
  switch (Schema.Returns.size()) {
  case 0:
    S.Return = builtin("void");
    break;
  case 1: {
    std::optional<CppType> R = getReturnType(Schema.Returns[0]);
    if (!R)
      return UnsupportedType{Schema.Returns[0].Ty->getAsString()};
    S.Return = std::move(*R);
    break;
  }
  default: {
    SmallVector<std::string, 4> Author, Qualified;
    for (const Return &Ret : Schema.Returns) {
      std::optional<CppType> R = getReturnType(Ret);
      if (!R)
        return UnsupportedType{Ret.Ty->getAsString()};
      Author.push_back(R->Author);
      Qualified.push_back(R->Qualified);
    }
    S.Return = {"std::tuple<" + join(Author, ", ") + ">",
                "::std::tuple<" + join(Qualified, ", ") + ">"};
    break;
  }
  }
  for (const Argument &A : Schema.Arguments) {
    std::optional<CppType> T = getNativeType(A);
    if (!T)
      return UnsupportedType{A.Ty->getAsString()};
    S.Params.push_back({A.Name, std::move(*T), &A});
  }
  return S;
}

} // namespace skc
