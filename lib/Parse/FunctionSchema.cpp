//===--- FunctionSchema.cpp - The parsed form of a 'func:' string ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Parse/FunctionSchema.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

std::optional<sk::schema::TypeShape> Type::getShape() const {
  // The suffixes, outermost first, then in the order they are written.
  SmallVector<sk::schema::TypeSuffix, 4> Suffixes;
  const Type *T = this;
  for (; T->isOptional() || T->isList(); T = T->getElement())
    Suffixes.push_back({T->isList(), T->isList() ? T->getListSize() : 0});
  std::reverse(Suffixes.begin(), Suffixes.end());
  sk::schema::ValueKind Kind = T->isBase()
                                   ? sk::schema::getValueKind(T->getBaseKind())
                                   : sk::schema::ValueKind::Other;
  return sk::schema::TypeShape::get(Kind, Suffixes.data(), Suffixes.size());
}

bool Type::isTensorLike() const {
  const Type *T = this;
  if (T->isList())
    T = T->getElement();
  return T->stripOptional()->isBase(BaseTypeKind::Tensor);
}

/// Prints \p T with \p Annotation after its base type, where the schema
/// language writes it: `Tensor(a!)?[]`.
static void printTypeWithAnnotation(raw_ostream &OS, const Type *T,
                                    const AliasAnnotation *Annotation) {
  switch (T->getKind()) {
  case Type::TK_Base:
    OS << sk::schema::getSpelling(T->getBaseKind());
    if (Annotation) {
      OS << '(';
      Annotation->print(OS);
      OS << ')';
    }
    return;
  case Type::TK_CustomClass:
    OS << "__torch__.torch.classes." << T->getClassName();
    return;
  case Type::TK_Optional:
    printTypeWithAnnotation(OS, T->getElement(), Annotation);
    OS << '?';
    return;
  case Type::TK_List:
    printTypeWithAnnotation(OS, T->getElement(), Annotation);
    OS << '[';
    if (T->getListSize())
      OS << T->getListSize();
    OS << ']';
    return;
  }
  llvm_unreachable("covered switch");
}

void Type::print(raw_ostream &OS) const {
  printTypeWithAnnotation(OS, this, nullptr);
}

std::string Type::getAsString() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

TypeContext::TypeContext() {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind)                                    \
  {                                                                            \
    auto T = std::unique_ptr<Type>(new Type(Type::TK_Base));                   \
    T->Base = BaseTypeKind::Enumerator;                                        \
    BaseTypes.push_back(unique(std::move(T)));                                 \
  }
#include "sk/core/SchemaBaseTypes.def"
}

TypeContext::~TypeContext() = default;

const Type *TypeContext::unique(std::unique_ptr<Type> T) {
  auto Key = std::make_tuple(static_cast<int>(T->Kind) * 256 +
                                 static_cast<int>(T->Base),
                             T->Element, T->ListSize, T->ClassName);
  auto [It, Inserted] = Types.try_emplace(Key, nullptr);
  if (Inserted)
    It->second = std::move(T);
  return It->second.get();
}

const Type *TypeContext::getOptional(const Type *Element) {
  auto T = std::unique_ptr<Type>(new Type(Type::TK_Optional));
  T->Element = Element;
  return unique(std::move(T));
}

const Type *TypeContext::getList(const Type *Element, unsigned Size) {
  auto T = std::unique_ptr<Type>(new Type(Type::TK_List));
  T->Element = Element;
  T->ListSize = Size;
  return unique(std::move(T));
}

const Type *TypeContext::getCustomClass(StringRef Name) {
  auto T = std::unique_ptr<Type>(new Type(Type::TK_CustomClass));
  T->ClassName = Name.str();
  return unique(std::move(T));
}

//===----------------------------------------------------------------------===//
// Annotations, arguments, returns
//===----------------------------------------------------------------------===//

/// Prints alias sets as `a|b`.
static void printAliasSets(raw_ostream &OS, StringRef Sets) {
  for (size_t I = 0; I != Sets.size(); ++I) {
    if (I)
      OS << '|';
    OS << Sets[I];
  }
}

void AliasAnnotation::print(raw_ostream &OS) const {
  printAliasSets(OS, Before);
  if (IsWrite)
    OS << '!';
  if (After.empty())
    return;
  OS << " -> ";
  printAliasSets(OS, After);
}

std::string AliasAnnotation::getAsString() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

void Argument::print(raw_ostream &OS) const {
  printTypeWithAnnotation(OS, Ty, Annotation ? &*Annotation : nullptr);
  OS << ' ' << Name;
  if (Default)
    OS << '=' << Default->Spelling;
}

void Return::print(raw_ostream &OS) const {
  printTypeWithAnnotation(OS, Ty, Annotation ? &*Annotation : nullptr);
  if (!Name.empty())
    OS << ' ' << Name;
}

//===----------------------------------------------------------------------===//
// Operator names
//===----------------------------------------------------------------------===//

/// The dunder names that have an augmented-assignment (inplace) form.
static bool isAugmentedAssignmentName(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"add", "sub", "mul", "div", "mod", "pow"}, true)
      .Cases({"lshift", "rshift", "and", "xor", "or"}, true)
      .Default(false);
}

void OperatorName::classify() {
  StringRef N = Name;
  Inplace = Dunder = FunctionalOverload = false;
  if (N.size() > 4 && N.starts_with("__") && N.ends_with("__") &&
      !N.drop_front(2).drop_back(2).contains('_')) {
    Dunder = true;
    N = N.drop_front(2).drop_back(2);
    if (N.starts_with("i") && isAugmentedAssignmentName(N.drop_front())) {
      Inplace = true;
      N = N.drop_front();
    }
  } else if (N.ends_with("_")) {
    Inplace = true;
    N = N.drop_back();
  }
  if (N.ends_with("_functional")) {
    FunctionalOverload = true;
    N = N.drop_back(strlen("_functional"));
  }
  Base = N.str();
}

std::string OperatorName::getAsString() const {
  if (Overload.empty())
    return Name;
  return Name + "." + Overload;
}

std::string OperatorName::getUnambiguousName() const {
  if (Overload.empty())
    return Name;
  return Name + "_" + Overload;
}

StringRef getSchemaKindName(SchemaKind K) {
  switch (K) {
  case SchemaKind::Functional:
    return "functional";
  case SchemaKind::Inplace:
    return "inplace";
  case SchemaKind::Out:
    return "out";
  case SchemaKind::Mutable:
    return "mutable";
  case SchemaKind::Scratch:
    return "scratch";
  }
  llvm_unreachable("covered switch");
}

//===----------------------------------------------------------------------===//
// FunctionSchema
//===----------------------------------------------------------------------===//

SchemaKind FunctionSchema::getKind() const {
  if (Name.Inplace)
    return SchemaKind::Inplace;
  for (const Argument &A : getOutArguments())
    if (StringRef(A.Name).starts_with("_scratch_"))
      return SchemaKind::Scratch;
  if (hasOutArguments())
    return SchemaKind::Out;
  // Mutable: a positional argument after `self` (or any positional argument
  // when there is no `self`) is written to.
  for (unsigned I = SelfIndex + 1, E = Arguments.size(); I < E; ++I)
    if (isPositional(I) && Arguments[I].isWrite())
      return SchemaKind::Mutable;
  return SchemaKind::Functional;
}

const Argument *FunctionSchema::findArgument(StringRef ArgName) const {
  for (const Argument &A : Arguments)
    if (A.Name == ArgName)
      return &A;
  return nullptr;
}

/// Prints returns as the schema language writes them: `()`, `Tensor`, or
/// `(Tensor a, Tensor b)`.
static void printReturns(raw_ostream &OS, ArrayRef<Return> Returns) {
  if (Returns.size() == 1) {
    Returns.front().print(OS);
    return;
  }
  OS << '(';
  for (size_t I = 0; I != Returns.size(); ++I) {
    if (I)
      OS << ", ";
    Returns[I].print(OS);
  }
  OS << ')';
}

void FunctionSchema::print(raw_ostream &OS) const {
  if (!Name.Namespace.empty())
    OS << Name.Namespace << "::";
  OS << Name.getAsString() << '(';
  for (size_t I = 0; I != Arguments.size(); ++I) {
    if (I)
      OS << ", ";
    if (static_cast<int>(I) == KwargOnlyStart)
      OS << "*, ";
    Arguments[I].print(OS);
  }
  if (KwargOnlyStart == static_cast<int>(Arguments.size()))
    OS << (Arguments.empty() ? "*" : ", *");
  OS << ") -> ";
  printReturns(OS, Returns);
}

std::string FunctionSchema::getAsString() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

std::string FunctionSchema::getSignatureKey() const {
  std::string Key;
  raw_string_ostream OS(Key);
  if (Name.Dunder)
    OS << "__" << Name.Base << "__";
  else
    OS << Name.Base;
  OS << '(';

  bool First = true;
  bool SawKwargOnly = false;
  for (unsigned I = 0, E = Arguments.size(); I != E; ++I) {
    const Argument &A = Arguments[I];
    if (A.IsOut)
      break;
    if (TensorOptionsStart >= 0 && static_cast<int>(I) >= TensorOptionsStart &&
        static_cast<int>(I) < TensorOptionsStart + 4)
      continue;
    if (!First)
      OS << ", ";
    First = false;
    if (A.IsKwargOnly && !SawKwargOnly) {
      OS << "*, ";
      SawKwargOnly = true;
    }
    A.Ty->print(OS);
    OS << ' ' << A.Name;
    if (A.Default)
      OS << '=' << A.Default->Spelling;
  }
  OS << ") -> (";

  // Returns without names or annotations, then the mutable inputs that are
  // not returned: self, the out arguments, and mutable positional arguments.
  First = true;
  auto AddReturnType = [&](const Type *T) {
    if (!First)
      OS << ", ";
    First = false;
    T->print(OS);
  };
  for (const Return &R : Returns)
    AddReturnType(R.Ty);
  auto IsReturned = [&](const Argument &A) {
    for (const Return &R : Returns)
      if (R.Annotation && *R.Annotation == *A.Annotation)
        return true;
    return false;
  };
  auto AddIfUnreturnedWrite = [&](const Argument &A) {
    if (A.isWrite() && !IsReturned(A))
      AddReturnType(A.Ty);
  };
  if (const Argument *Self = getSelf())
    AddIfUnreturnedWrite(*Self);
  for (const Argument &A : getOutArguments())
    AddIfUnreturnedWrite(A);
  for (unsigned I = SelfIndex + 1, E = Arguments.size(); I < E; ++I)
    if (isPositional(I))
      AddIfUnreturnedWrite(Arguments[I]);
  OS << ')';
  return Key;
}

} // namespace skc
