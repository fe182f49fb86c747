//===--- SchemaParser.cpp - Parse 'func:' strings -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Parse/SchemaParser.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Suggest.h"
#include "skc/Parse/YAMLNode.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace skc {

namespace {

using DefaultKind = DefaultValue::DefaultKind;
using sk::schema::SourceSpan;
using sk::schema::SyntaxError;

/// Turns the shared grammar's syntax tree (sk/schema/SchemaSyntax.h) into a
/// FunctionSchema, and applies the rules over it with diagnostics.
class SchemaBuilder {
public:
  SchemaBuilder(const YAMLScalar &Text, TypeContext &Types,
                DiagnosticsEngine &Diags)
      : Src(Text.Value), Text(Text), Types(Types), Diags(Diags) {}

  std::optional<FunctionSchema> build();

private:
  SMLoc loc(size_t Offset) const { return Text.locAt(Offset); }
  SMRange range(SourceSpan S) const {
    return Text.rangeAt(S.Begin, S.End - S.Begin);
  }
  StringRef slice(SourceSpan S) const { return Src.slice(S.Begin, S.End); }

  void report(const SyntaxError &E);
  bool buildType(const sk::schema::TypeSyntax &Syntax, const Type *&Ty,
                 std::optional<AliasAnnotation> &Annotation,
                 SMRange &TypeRange);

  // Rules over the parsed pieces.
  bool checkName(const OperatorName &Name);
  bool partitionArguments(FunctionSchema &Schema);
  bool checkDefault(const Argument &A);
  void checkCanonical(const FunctionSchema &Schema);

  StringRef Src;
  const YAMLScalar &Text;
  TypeContext &Types;
  DiagnosticsEngine &Diags;
};

} // namespace

/// Suggests the base type closest to \p Name, or returns an empty string.
static std::string suggestBaseType(StringRef Name) {
  SmallVector<StringRef, 24> Candidates;
  sk::schema::forEachBaseTypeSpelling(
      [&](std::string_view S) { Candidates.push_back(S); });
  return suggestClosest(Name, Candidates);
}

void SchemaBuilder::report(const SyntaxError &E) {
  SMLoc Loc = loc(E.Offset);
  SMRange Range = range(E.Span);
  switch (E.K) {
  case SyntaxError::Expected:
    Diags.report(Loc, diag::err_schema_expected)
        << StringRef(sk::schema::describe(E.What)) << Range;
    return;
  case SyntaxError::NestedNamespace:
    Diags.report(Loc, diag::err_schema_nested_namespace)
        << slice(E.Span) << Range;
    return;
  case SyntaxError::UnknownType: {
    StringRef Name = slice(E.Span);
    std::string Suggestion = suggestBaseType(Name);
    if (Suggestion.empty())
      Diags.report(Loc, diag::err_schema_unknown_type) << Name << Range;
    else
      Diags.report(Loc, diag::err_schema_unknown_type_suggest)
          << Name << Suggestion << Range
          << FixItHint::replace(Range, Suggestion);
    return;
  }
  case SyntaxError::TypeTooDeep:
    Diags.report(Loc, diag::err_schema_type_too_deep)
        << sk::schema::MaxTypeNesting << Range;
    return;
  case SyntaxError::BadListSize:
    Diags.report(Loc, diag::err_schema_bad_list_size) << slice(E.Span) << Range;
    return;
  case SyntaxError::InvalidAnnotation:
  case SyntaxError::AnnotationWriteSet:
  case SyntaxError::AnnotationBothSets: {
    StringRef Body = slice(E.Span).drop_front().drop_back();
    if (E.K == SyntaxError::InvalidAnnotation)
      Diags.report(Loc, diag::err_schema_invalid_annotation) << Body << Range;
    else if (E.K == SyntaxError::AnnotationWriteSet)
      Diags.report(Loc, diag::err_schema_annotation_write_set)
          << Body << static_cast<unsigned>(count(Body.split("->").first, '|') + 1)
          << Range;
    else
      Diags.report(Loc, diag::err_schema_annotation_both_sets) << Body << Range;
    return;
  }
  case SyntaxError::KwargMarkerTwice:
    Diags.report(Loc, diag::err_schema_kwarg_marker_twice) << Range;
    return;
  case SyntaxError::ReturnDefault:
    Diags.report(Loc, diag::err_schema_return_default) << Range;
    return;
  }
  llvm_unreachable("unknown schema syntax error");
}

bool SchemaBuilder::buildType(const sk::schema::TypeSyntax &Syntax,
                              const Type *&Ty,
                              std::optional<AliasAnnotation> &Annotation,
                              SMRange &TypeRange) {
  Ty = Syntax.Base ? Types.getBase(*Syntax.Base)
                   : Types.getCustomClass(Syntax.ClassName);
  for (const sk::schema::TypeSuffix &S : Syntax.Suffixes)
    Ty = S.IsList ? Types.getList(Ty, S.ListSize) : Types.getOptional(Ty);
  TypeRange = range(Syntax.Span);
  if (!Syntax.Alias)
    return true;
  Annotation.emplace();
  Annotation->Before = Syntax.Alias->Before;
  Annotation->IsWrite = Syntax.Alias->IsWrite;
  Annotation->After = Syntax.Alias->After;
  Annotation->Range = range(Syntax.Alias->Span);
  if (Ty->isTensorLike())
    return true;
  Diags.report(Annotation->Range.Start, diag::err_schema_annotation_not_tensor)
      << Ty->getAsString() << Annotation->Range;
  return false;
}

std::optional<FunctionSchema> SchemaBuilder::build() {
  sk::schema::SchemaSyntax Syntax;
  SyntaxError Error;
  if (!sk::schema::parseSchema(Src, Syntax, Error)) {
    report(Error);
    return std::nullopt;
  }

  FunctionSchema Schema;
  Schema.Name.Namespace = std::string(Syntax.Namespace);
  Schema.Name.Name = std::string(Syntax.Name);
  Schema.Name.Overload = std::string(Syntax.Overload);
  Schema.Name.Range = range(Syntax.NameSpan);
  Schema.Name.classify();
  for (const sk::schema::ArgumentSyntax &S : Syntax.Arguments) {
    Argument A;
    if (!buildType(S.Type, A.Ty, A.Annotation, A.TypeRange))
      return std::nullopt;
    A.Name = std::string(S.Name);
    A.NameRange = range(S.NameSpan);
    if (S.Default) {
      DefaultValue &D = A.Default.emplace();
      D.Kind = S.Default->Kind;
      D.ElementKinds.assign(S.Default->ElementKinds.begin(),
                            S.Default->ElementKinds.end());
      D.Spelling = std::string(S.Default->Spelling);
      D.Range = range(S.Default->Span);
    }
    A.IsKwargOnly = S.IsKwargOnly;
    A.Range = range(S.Span);
    Schema.Arguments.push_back(std::move(A));
  }
  Schema.KwargOnlyStart = Syntax.KwargOnlyStart;
  for (const sk::schema::ReturnSyntax &S : Syntax.Returns) {
    Return R;
    SMRange TypeRange;
    if (!buildType(S.Type, R.Ty, R.Annotation, TypeRange))
      return std::nullopt;
    R.Name = std::string(S.Name);
    R.Range = range(S.Span);
    Schema.Returns.push_back(std::move(R));
  }
  Schema.Range = range(Syntax.Span);

  if (!checkName(Schema.Name) || !partitionArguments(Schema))
    return std::nullopt;
  checkCanonical(Schema);
  return Schema;
}

bool SchemaBuilder::checkName(const OperatorName &Name) {
  if (StringRef(Name.Name).ends_with("_out")) {
    Diags.report(Name.Range.Start, diag::err_schema_reserved_out_suffix)
        << Name.Name << Name.Range;
    return false;
  }
  // (A dunder name has no '_' inside, so it never ends in '_functional'.)
  if (Name.FunctionalOverload && Name.Inplace) {
    Diags.report(Name.Range.Start, diag::err_schema_functional_suffix)
        << Name.Name << Name.Range;
    return false;
  }
  return true;
}

/// Whether arguments [I, I + 4) of \p Schema are the TensorOptions group
/// `dtype, layout, device, pin_memory` (each optional or not).
static bool isTensorOptionsGroup(const FunctionSchema &Schema, unsigned I) {
  static const std::pair<StringRef, BaseTypeKind> Group[] = {
      {"dtype", BaseTypeKind::ScalarType},
      {"layout", BaseTypeKind::Layout},
      {"device", BaseTypeKind::Device},
      {"pin_memory", BaseTypeKind::Bool}};
  if (I + 4 > Schema.Arguments.size())
    return false;
  for (unsigned J = 0; J != 4; ++J) {
    const Argument &A = Schema.Arguments[I + J];
    if (A.Name != Group[J].first || A.IsOut ||
        !A.Ty->stripOptional()->isBase(Group[J].second))
      return false;
  }
  return true;
}

bool SchemaBuilder::partitionArguments(FunctionSchema &Schema) {
  StringSet<> Names;
  for (const Argument &A : Schema.Arguments) {
    if (!Names.insert(A.Name).second) {
      Diags.report(A.NameRange.Start, diag::err_schema_duplicate_argument)
          << A.Name << A.NameRange;
      return false;
    }
  }

  // Out arguments: the first mutable keyword-only argument and all after it.
  for (unsigned I = 0, E = Schema.Arguments.size(); I != E; ++I) {
    Argument &A = Schema.Arguments[I];
    if (Schema.FirstOut < 0) {
      if (A.IsKwargOnly && A.isWrite()) {
        Schema.FirstOut = I;
        A.IsOut = true;
      }
      continue;
    }
    if (!A.isWrite()) {
      Diags.report(A.Range.Start, diag::err_schema_out_not_last)
          << A.Name << Schema.Arguments[Schema.FirstOut].Name << A.Range;
      return false;
    }
    A.IsOut = true;
  }

  for (unsigned I = 0, E = Schema.Arguments.size(); I != E; ++I) {
    if (Schema.isPositional(I) && Schema.Arguments[I].Name == "self") {
      Schema.SelfIndex = I;
      break;
    }
  }
  for (int I = 0; I < Schema.SelfIndex; ++I) {
    const Argument &A = Schema.Arguments[I];
    if (A.isWrite()) {
      Diags.report(A.Range.Start, diag::err_schema_mutable_before_self)
          << A.Name << A.Range;
      return false;
    }
  }

  for (unsigned I = std::max(Schema.KwargOnlyStart, 0),
                E = Schema.Arguments.size();
       I < E; ++I) {
    if (isTensorOptionsGroup(Schema, I)) {
      Schema.TensorOptionsStart = I;
      break;
    }
  }
  if (Schema.KwargOnlyStart < 0)
    Schema.TensorOptionsStart = -1;

  for (const Argument &A : Schema.Arguments)
    if (A.Default && !checkDefault(A))
      return false;
  return true;
}

/// Whether an identifier default \p Spelling names a value of base type
/// \p K (the enumerators the schema language knows).
static bool isEnumeratorOf(BaseTypeKind K, StringRef Spelling) {
  switch (K) {
  case BaseTypeKind::Int:
  case BaseTypeKind::SymInt:
    // at::Reduction.
    return Spelling == "Mean" || Spelling == "Sum";
  case BaseTypeKind::ScalarType:
    return StringSwitch<bool>(Spelling)
        .Cases({"bool", "byte", "char", "short", "int", "long"}, true)
        .Cases({"half", "float", "double", "bfloat16"}, true)
        .Cases({"chalf", "cfloat", "cdouble"}, true)
        .Default(false);
  case BaseTypeKind::MemoryFormat:
    return StringSwitch<bool>(Spelling)
        .Cases({"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"}, true)
        .Default(false);
  case BaseTypeKind::Layout:
    return StringSwitch<bool>(Spelling)
        .Cases({"strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn"}, true)
        .Default(false);
  case BaseTypeKind::QScheme:
    return StringSwitch<bool>(Spelling)
        .Cases({"per_tensor_affine", "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric", "per_channel_affine_float_qparams"}, true)
        .Default(false);
  default:
    return false;
  }
}

/// Whether a scalar literal of kind \p K spelled \p Spelling is a value of
/// type \p T.
static bool scalarFits(const Type *T, DefaultKind K,
                       StringRef Spelling) {
  if (!T->isBase())
    return false;
  switch (T->getBaseKind()) {
  case BaseTypeKind::Int:
  case BaseTypeKind::SymInt:
    return K == DefaultKind::Int ||
           (K == DefaultKind::Identifier &&
            isEnumeratorOf(T->getBaseKind(), Spelling));
  case BaseTypeKind::Float:
    return K == DefaultKind::Int || K == DefaultKind::Float;
  case BaseTypeKind::Scalar:
    return K == DefaultKind::Int || K == DefaultKind::Float ||
           K == DefaultKind::Bool;
  case BaseTypeKind::Bool:
    return K == DefaultKind::Bool;
  case BaseTypeKind::Str:
  case BaseTypeKind::Device:
    return K == DefaultKind::String;
  default:
    return K == DefaultKind::Identifier &&
           isEnumeratorOf(T->getBaseKind(), Spelling);
  }
}

bool SchemaBuilder::checkDefault(const Argument &A) {
  const DefaultValue &D = *A.Default;
  const Type *T = A.Ty;
  bool Fits;
  if (D.Kind == DefaultKind::None) {
    Fits = T->isOptional();
  } else {
    T = T->stripOptional();
    if (T->isList() && D.Kind == DefaultKind::List) {
      Fits = all_of(D.ElementKinds, [&](DefaultValue::DefaultKind K) {
        // Elements are checked by kind only; identifiers in lists are rare
        // enough that their spelling does not matter here.
        return scalarFits(T->getElement(), K,
                          K == DefaultKind::Identifier ? "Mean" : "");
      });
    } else if (T->isList() && T->getListSize() == 0) {
      Diags.report(D.Range.Start, diag::err_schema_list_default_expected)
          << A.Ty->getAsString() << D.Spelling << D.Range;
      return false;
    } else if (T->isList()) {
      // `int[2] stride=1`: a sized list takes a scalar for every element.
      Fits = scalarFits(T->getElement(), D.Kind, D.Spelling);
    } else {
      Fits = D.Kind != DefaultKind::List &&
             scalarFits(T, D.Kind, D.Spelling);
    }
  }
  if (Fits)
    return true;
  Diags.report(D.Range.Start, diag::err_schema_default_mismatch)
      << D.Spelling << A.Ty->getAsString() << D.Range << A.TypeRange;
  return false;
}

void SchemaBuilder::checkCanonical(const FunctionSchema &Schema) {
  std::string Canonical = Schema.getAsString();
  if (Canonical == Src)
    return;
  Diags.report(Schema.Range.Start, diag::warn_schema_not_canonical)
      << Canonical << Text.getRange()
      << FixItHint::replace(Text.getRange(), Canonical);
}

std::optional<FunctionSchema> parseFunctionSchema(const YAMLScalar &Text,
                                                  TypeContext &Types,
                                                  DiagnosticsEngine &Diags) {
  return SchemaBuilder(Text, Types, Diags).build();
}

std::optional<OperatorName> parseOperatorName(StringRef Text) {
  auto IsIdentifier = [](StringRef S) {
    return !S.empty() && (isAlpha(S[0]) || S[0] == '_') &&
           all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
  };
  OperatorName Name;
  StringRef Rest = Text;
  size_t Colons = Rest.find("::");
  if (Colons != StringRef::npos) {
    Name.Namespace = Rest.take_front(Colons).str();
    Rest = Rest.drop_front(Colons + 2);
    if (!IsIdentifier(Name.Namespace))
      return std::nullopt;
  }
  auto [N, Overload] = Rest.split('.');
  if (!IsIdentifier(N))
    return std::nullopt;
  if (Rest.contains('.') &&
      (Overload.empty() ||
       !all_of(Overload, [](char C) { return isAlnum(C) || C == '_'; })))
    return std::nullopt;
  Name.Name = N.str();
  Name.Overload = Overload.str();
  Name.classify();
  return Name;
}

} // namespace skc
