//===--- FunctionSchema.h - The parsed form of a 'func:' string -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The function-schema grammar of native_functions.yaml (see
/// docs/schema-reference.md):
///
///   [ns::]name[.overload](TYPE[(ALIAS)] NAME[=DEFAULT], ..., *, ...) -> RET
///
/// Types are uniqued in a TypeContext, so they compare by pointer. Every
/// piece keeps the source range it was parsed from; print() gives back the
/// canonical spelling, which is the original text for every entry of
/// PyTorch's own file.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_PARSE_FUNCTIONSCHEMA_H
#define SKC_PARSE_FUNCTIONSCHEMA_H

#include "sk/schema/BaseType.h"
#include "sk/schema/SchemaSyntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace skc {

/// The base types of the schema language, shared with the runtime.
using BaseTypeKind = sk::schema::BaseType;

/// A schema type: `Tensor`, `int?`, `Tensor?[]`, `int[2]`, or a custom class.
/// Uniqued by TypeContext; compare with ==.
class Type {
public:
  enum TypeKind : uint8_t { TK_Base, TK_Optional, TK_List, TK_CustomClass };

  TypeKind getKind() const { return Kind; }
  bool isBase() const { return Kind == TK_Base; }
  bool isOptional() const { return Kind == TK_Optional; }
  bool isList() const { return Kind == TK_List; }
  bool isCustomClass() const { return Kind == TK_CustomClass; }

  /// For base types.
  BaseTypeKind getBaseKind() const {
    assert(isBase() && "not a base type");
    return Base;
  }
  bool isBase(BaseTypeKind K) const { return isBase() && Base == K; }
  /// For optional and list types.
  const Type *getElement() const {
    assert((isOptional() || isList()) && "type has no element type");
    return Element;
  }
  /// For list types: the N of `T[N]`, or 0 for `T[]`.
  unsigned getListSize() const {
    assert(isList() && "not a list type");
    return ListSize;
  }
  /// For custom classes: the dotted name after `__torch__.torch.classes.`.
  llvm::StringRef getClassName() const { return ClassName; }

  /// Whether this is `Tensor`, `Tensor?`, `Tensor[]` or `Tensor?[]`, the
  /// only types that may carry an alias annotation.
  bool isTensorLike() const;
  /// Strips one level of `?`.
  const Type *stripOptional() const { return isOptional() ? Element : this; }
  /// What the runtime holds of this type; std::nullopt when it cannot hold
  /// it. Its methods say whether the type has a runtime C++ type.
  std::optional<sk::schema::TypeShape> getShape() const;

  void print(llvm::raw_ostream &OS) const;
  std::string getAsString() const;

private:
  friend class TypeContext;
  Type(TypeKind Kind) : Kind(Kind) {}

  TypeKind Kind;
  BaseTypeKind Base = BaseTypeKind::Tensor;
  unsigned ListSize = 0;
  const Type *Element = nullptr;
  std::string ClassName;
};

/// Owns and uniques types.
class TypeContext {
public:
  TypeContext();
  ~TypeContext();
  TypeContext(const TypeContext &) = delete;
  TypeContext &operator=(const TypeContext &) = delete;

  const Type *getBase(BaseTypeKind K) const {
    return BaseTypes[static_cast<unsigned>(K)];
  }
  const Type *getOptional(const Type *Element);
  const Type *getList(const Type *Element, unsigned Size);
  const Type *getCustomClass(llvm::StringRef Name);

private:
  const Type *unique(std::unique_ptr<Type> T);

  llvm::SmallVector<const Type *, 20> BaseTypes;
  std::map<std::tuple<int, const Type *, unsigned, std::string>,
           std::unique_ptr<Type>>
      Types;
};

/// An alias annotation: `a`, `a!`, `a|b`, `a -> *`, `a! -> a|b`.
struct AliasAnnotation {
  /// The sets before `->`, as letters in order.
  std::string Before;
  bool IsWrite = false;
  /// The sets after `->`; "*" for the wildcard; empty when there is no `->`.
  std::string After;
  llvm::SMRange Range;

  bool operator==(const AliasAnnotation &O) const {
    return Before == O.Before && IsWrite == O.IsWrite && After == O.After;
  }
  bool operator!=(const AliasAnnotation &O) const { return !(*this == O); }
  void print(llvm::raw_ostream &OS) const;
  std::string getAsString() const;
};

/// A default value, kept as written (`[-2,-1]` and `[-2, -1]` both occur in
/// PyTorch's file) and classified.
struct DefaultValue {
  using DefaultKind = sk::schema::DefaultKind;
  DefaultKind Kind = DefaultKind::None;
  std::string Spelling;
  /// For lists: the kinds of the elements.
  llvm::SmallVector<DefaultKind, 2> ElementKinds;
  llvm::SMRange Range;
};

struct Argument {
  std::string Name;
  const Type *Ty = nullptr;
  std::optional<AliasAnnotation> Annotation;
  std::optional<DefaultValue> Default;
  bool IsKwargOnly = false;
  /// Mutable keyword-only arguments and everything after the first of them.
  bool IsOut = false;
  llvm::SMRange Range;
  llvm::SMRange TypeRange;
  llvm::SMRange NameRange;

  bool isWrite() const { return Annotation && Annotation->IsWrite; }
  void print(llvm::raw_ostream &OS) const;
};

struct Return {
  /// Empty for an unnamed return.
  std::string Name;
  const Type *Ty = nullptr;
  std::optional<AliasAnnotation> Annotation;
  llvm::SMRange Range;

  bool isWrite() const { return Annotation && Annotation->IsWrite; }
  void print(llvm::raw_ostream &OS) const;
};

/// `[ns::]name[.overload]`, with the facts torchgen derives from the name.
struct OperatorName {
  /// Empty for the default namespace.
  std::string Namespace;
  /// As written: `add_`, `__iadd__`, `native_batch_norm_functional`.
  std::string Name;
  std::string Overload;

  /// The name with inplace `_`, dunder `__`/`__i` and `_functional` removed.
  std::string Base;
  bool Inplace = false;
  bool Dunder = false;
  bool FunctionalOverload = false;

  llvm::SMRange Range;

  /// `name[.overload]`, as torchgen prints an OperatorName.
  std::string getAsString() const;
  /// `ns::name[.overload]`, or getAsString() in the default namespace.
  std::string getQualifiedName() const {
    return Namespace.empty() ? getAsString()
                             : Namespace + "::" + getAsString();
  }
  /// `name_overload`, or `name` when there is no overload.
  std::string getUnambiguousName() const;
  /// Fills Base, Inplace, Dunder and FunctionalOverload from Name.
  void classify();
};

/// What a schema does with its arguments (torchgen's SchemaKind).
enum class SchemaKind : uint8_t { Functional, Inplace, Out, Mutable, Scratch };

/// The index used by %select in diagnostics and the name in dumps.
llvm::StringRef getSchemaKindName(SchemaKind K);

class FunctionSchema {
public:
  OperatorName Name;
  llvm::SmallVector<Argument, 6> Arguments;
  llvm::SmallVector<Return, 1> Returns;
  /// Index of the first keyword-only argument (the one after `*`), or -1.
  int KwargOnlyStart = -1;
  /// Index of the argument named `self` among the positional ones, or -1.
  int SelfIndex = -1;
  /// Index of the first out argument, or -1.
  int FirstOut = -1;
  /// Index of `dtype` in a dtype/layout/device/pin_memory group, or -1.
  int TensorOptionsStart = -1;
  llvm::SMRange Range;

  SchemaKind getKind() const;
  bool hasOutArguments() const { return FirstOut >= 0; }
  bool hasTensorOptions() const { return TensorOptionsStart >= 0; }
  llvm::ArrayRef<Argument> getOutArguments() const {
    if (FirstOut < 0)
      return {};
    return llvm::ArrayRef<Argument>(Arguments).drop_front(FirstOut);
  }
  const Argument *getSelf() const {
    return SelfIndex < 0 ? nullptr : &Arguments[SelfIndex];
  }
  const Argument *findArgument(llvm::StringRef Name) const;
  bool isPositional(unsigned Index) const {
    return KwargOnlyStart < 0 || static_cast<int>(Index) < KwargOnlyStart;
  }

  /// Prints the canonical form: `, ` between items, one space around `->`.
  void print(llvm::raw_ostream &OS) const;
  std::string getAsString() const;

  /// torchgen's signature(): the grouping key shared by the functional,
  /// inplace and out= variants of one operator. Drops the overload, inplace
  /// marker, out arguments, TensorOptions and annotations, and turns
  /// un-returned mutable inputs into returns.
  std::string getSignatureKey() const;
};

} // namespace skc

#endif // SKC_PARSE_FUNCTIONSCHEMA_H
