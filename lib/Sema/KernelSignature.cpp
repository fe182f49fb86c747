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

using Name = CppType::Name;

static const CppType *get(Name N, ArrayRef<const CppType *> Args = {},
                          unsigned Size = 0) {
  return CppType::get(N, Args, Size);
}
static const CppType *constRef(const CppType *T) {
  return CppType::getConstRef(T);
}
static const CppType *ref(const CppType *T) { return CppType::getRef(T); }
static const CppType *optional(const CppType *T) {
  return CppType::getOptional(T);
}

// Which schema types have a C++ type is one rule, shared with the runtime's
// registration check: sk::schema::TypeShape (Note [Runtime types of schema
// types]). The functions below print those types, and only those; a type
// the rule admits but they miss comes back null, which the vocabulary test
// (test/unit/Vocabulary) catches.

static bool hasArgumentCppType(const Type *T) {
  std::optional<sk::schema::TypeShape> S = T->getShape();
  return S && S->hasArgumentCppType();
}

static bool hasReturnCppType(const Type *T) {
  std::optional<sk::schema::TypeShape> S = T->getShape();
  return S && S->hasReturnCppType();
}

/// The type of a value of base type \p K (no references), or null.
static const CppType *getValueType(BaseTypeKind K) {
  switch (K) {
  case BaseTypeKind::Tensor:
    return get(Name::Tensor);
  case BaseTypeKind::Int:
  case BaseTypeKind::SymInt:
    return get(Name::Int64);
  case BaseTypeKind::Float:
    return get(Name::Double);
  case BaseTypeKind::Bool:
  case BaseTypeKind::SymBool:
    return get(Name::Bool);
  case BaseTypeKind::Str:
    return get(Name::StringView);
  case BaseTypeKind::Scalar:
    return get(Name::Scalar);
  case BaseTypeKind::ScalarType:
    return get(Name::ScalarType);
  case BaseTypeKind::Device:
    return get(Name::Device);
  case BaseTypeKind::MemoryFormat:
    return get(Name::MemoryFormat);
  default:
    return nullptr;
  }
}

/// The parameter type shared by both APIs for \p T, when there is one; the
/// API-specific cases (tensors, scalars, optionals of them) are handled by
/// the callers first.
static const CppType *getCommonType(const Type *T) {
  if (T->isBase()) {
    const CppType *V = getValueType(T->getBaseKind());
    if (V && T->getBaseKind() == BaseTypeKind::Scalar)
      return constRef(V);
    return V;
  }
  if (T->isOptional()) {
    const Type *E = T->getElement();
    if (E->isBase(BaseTypeKind::Generator))
      return CppType::getPointer(get(Name::Generator));
    if (E->isList() && (E->getElement()->isBase(BaseTypeKind::Int) ||
                        E->getElement()->isBase(BaseTypeKind::SymInt)))
      return get(Name::OptionalIntArrayRef);
    if (E->isList() && E->getElement()->isBase(BaseTypeKind::Float))
      return get(Name::OptionalArrayRef, get(Name::Double));
    if (!E->isBase())
      return nullptr;
    const CppType *V = getValueType(E->getBaseKind());
    return V ? optional(V) : nullptr;
  }
  if (T->isList()) {
    const Type *E = T->getElement();
    if (E->isBase(BaseTypeKind::Int) || E->isBase(BaseTypeKind::SymInt))
      return get(Name::IntArrayRef);
    if (E->isBase(BaseTypeKind::Tensor))
      return get(Name::TensorList);
    if (E->isBase(BaseTypeKind::Bool) && T->getListSize())
      return get(Name::Array, get(Name::Bool), T->getListSize());
    if (E->isBase(BaseTypeKind::Float))
      return get(Name::ArrayRef, get(Name::Double));
    if (E->isBase(BaseTypeKind::Scalar))
      return get(Name::ArrayRef, get(Name::Scalar));
    return nullptr;
  }
  return nullptr;
}

const CppType *getStructuredType(const Argument &A) {
  const Type *T = A.Ty;
  if (!hasArgumentCppType(T))
    return nullptr;
  // Never a mutable reference: outputs are written through the MetaBase
  // machinery, not by reassigning parameters.
  if (T->isBase(BaseTypeKind::Tensor))
    return constRef(get(Name::Tensor));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return get(Name::OptionalTensorRef);
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Scalar))
    return get(Name::OptionalScalarRef);
  return getCommonType(T);
}

const CppType *getNativeType(const Argument &A) {
  const Type *T = A.Ty;
  if (!hasArgumentCppType(T))
    return nullptr;
  if (T->isBase(BaseTypeKind::Tensor))
    return A.isWrite() ? ref(get(Name::Tensor)) : constRef(get(Name::Tensor));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return constRef(optional(get(Name::Tensor)));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Scalar))
    return constRef(optional(get(Name::Scalar)));
  return getCommonType(T);
}

/// The return type of \p R, or null.
static const CppType *getReturnType(const Return &R) {
  const Type *T = R.Ty;
  if (!hasReturnCppType(T))
    return nullptr;
  if (T->isBase(BaseTypeKind::Tensor))
    return R.isWrite() ? ref(get(Name::Tensor)) : get(Name::Tensor);
  if (T->isList() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return get(Name::Vector, get(Name::Tensor));
  if (T->isOptional() && T->getElement()->isBase(BaseTypeKind::Tensor))
    return optional(get(Name::Tensor));
  if (T->isBase())
    return getValueType(T->getBaseKind());
  return nullptr;
}

static std::string joinParams(const KernelSignature &S, bool Qualified) {
  SmallVector<std::string, 8> Params;
  for (const KernelParamSpec &P : S.Params) {
    Params.push_back(P.Type->getDeclaration(P.Name, Qualified));
    // The generated declaration marks out arguments for skc's checks of
    // the definitions (SK_OUT_ARGUMENT, sk/util/Analysis.h).
    if (Qualified && P.SchemaArg && P.SchemaArg->IsOut)
      Params.back() += " SK_OUT_ARGUMENT";
  }
  return "(" + join(Params, ", ") + ")";
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
  const CppType *T = getStructuredType(A);
  if (!T)
    return UnsupportedType{A.Ty->getAsString()};
  S.Params.push_back({A.Name, T, &A});
  return std::nullopt;
}

/// The C++ type of a precomputed field of base type \p K.
static const CppType *getPrecomputedType(BaseTypeKind K) {
  if (const CppType *V = getValueType(K))
    return V;
  return get(Name::Int64);
}

SignatureOrError getMetaSignature(const NativeFunctionsGroup &G) {
  KernelSignature S;
  for (const Argument &A : G.Functional->getSchema().Arguments)
    if (std::optional<UnsupportedType> U = addStructuredParam(S, A))
      return *U;
  return S;
}

SignatureOrError getImplSignature(const NativeFunctionsGroup &G) {
  const NativeFunction &Out = *G.Out;
  KernelSignature S;
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
    S.Params.push_back({A.Name, constRef(get(Name::Tensor)), &A});
  }
  return S;
}

SignatureOrError getNativeSignature(const NativeFunction &F) {
  const FunctionSchema &Schema = F.getSchema();
  KernelSignature S;
  switch (Schema.Returns.size()) {
  case 0:
    break;
  case 1:
    S.Return = getReturnType(Schema.Returns[0]);
    if (!S.Return)
      return UnsupportedType{Schema.Returns[0].Ty->getAsString()};
    break;
  default: {
    SmallVector<const CppType *, 4> Elements;
    for (const Return &Ret : Schema.Returns) {
      Elements.push_back(getReturnType(Ret));
      if (!Elements.back())
        return UnsupportedType{Ret.Ty->getAsString()};
    }
    S.Return = get(Name::Tuple, Elements);
    break;
  }
  }
  for (const Argument &A : Schema.Arguments) {
    const CppType *T = getNativeType(A);
    if (!T)
      return UnsupportedType{A.Ty->getAsString()};
    S.Params.push_back({A.Name, T, &A});
  }
  return S;
}

} // namespace skc
