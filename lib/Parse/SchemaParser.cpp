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

/// The most `?` and `[]` suffixes one type may have.
static constexpr unsigned MaxTypeNesting = 8;

namespace {

/// What err_schema_expected says was expected, in its %select order.
enum class Expected {
  OperatorName,
  OverloadName,
  LParen,
  RParenOrComma,
  ArgumentType,
  ArgumentName,
  Arrow,
  ReturnType,
  RParenOrCommaAfterReturn,
  EndOfSchema,
  DefaultValue,
  RSquare,
  ClosingQuote,
  AnnotationRParen,
  ListTypeRSquare,
};

class SchemaParser {
public:
  SchemaParser(const YAMLScalar &Text, TypeContext &Types,
               DiagnosticsEngine &Diags)
      : Src(Text.Value), Text(Text), Types(Types), Diags(Diags) {}

  std::optional<FunctionSchema> parse();

private:
  // Lexing.
  void skipSpace() {
    while (Pos < Src.size() && isSpace(Src[Pos]))
      ++Pos;
  }
  bool atEnd() {
    skipSpace();
    return Pos == Src.size();
  }
  /// The next character after white space, or 0 at the end.
  char peek() {
    skipSpace();
    return Pos < Src.size() ? Src[Pos] : 0;
  }
  bool tryConsume(StringRef Token) {
    skipSpace();
    if (!Src.substr(Pos).starts_with(Token))
      return false;
    Pos += Token.size();
    return true;
  }
  /// Lexes [A-Za-z_][A-Za-z0-9_]*; empty if there is none.
  StringRef lexIdentifier() {
    skipSpace();
    size_t Start = Pos;
    if (Pos < Src.size() && (isAlpha(Src[Pos]) || Src[Pos] == '_')) {
      ++Pos;
      while (Pos < Src.size() && (isAlnum(Src[Pos]) || Src[Pos] == '_'))
        ++Pos;
    }
    return Src.slice(Start, Pos);
  }

  SMLoc loc(size_t Offset) const { return Text.locAt(Offset); }
  SMRange range(size_t Begin, size_t End) const {
    return Text.rangeAt(Begin, End - Begin);
  }

  /// Reports that \p What was expected at the current position.
  std::nullopt_t expected(Expected What) {
    skipSpace();
    Diags.report(loc(Pos), diag::err_schema_expected)
        << static_cast<unsigned>(What) << range(Pos, Pos + 1);
    return std::nullopt;
  }

  // Grammar.
  bool parseOperatorName(OperatorName &Name);
  bool parseArguments(FunctionSchema &Schema);
  bool parseType(const Type *&Ty, std::optional<AliasAnnotation> &Annotation,
                 SMRange &TypeRange);
  bool parseAnnotation(AliasAnnotation &Annotation);
  bool parseDefault(DefaultValue &Default);
  bool parseReturns(FunctionSchema &Schema);
  bool parseReturn(Return &R);

  // Rules over the parsed pieces.
  bool checkName(const OperatorName &Name);
  bool partitionArguments(FunctionSchema &Schema);
  bool checkDefault(const Argument &A);
  void checkCanonical(const FunctionSchema &Schema);

  StringRef Src;
  const YAMLScalar &Text;
  TypeContext &Types;
  DiagnosticsEngine &Diags;
  size_t Pos = 0;
};

} // namespace

std::optional<FunctionSchema> SchemaParser::parse() {
  FunctionSchema Schema;
  size_t Start = (skipSpace(), Pos);
  if (!parseOperatorName(Schema.Name))
    return std::nullopt;
  if (!tryConsume("("))
    return expected(Expected::LParen);
  if (!parseArguments(Schema))
    return std::nullopt;
  if (!tryConsume("->"))
    return expected(Expected::Arrow);
  if (!parseReturns(Schema))
    return std::nullopt;
  if (!atEnd())
    return expected(Expected::EndOfSchema);
  Schema.Range = range(Start, Pos);

  if (!checkName(Schema.Name) || !partitionArguments(Schema))
    return std::nullopt;
  checkCanonical(Schema);
  return Schema;
}

bool SchemaParser::parseOperatorName(OperatorName &Name) {
  size_t Start = (skipSpace(), Pos);
  StringRef First = lexIdentifier();
  if (First.empty())
    return expected(Expected::OperatorName), false;
  StringRef OpName = First;
  if (Src.substr(Pos).starts_with("::")) {
    Pos += 2;
    OpName = lexIdentifier();
    if (OpName.empty())
      return expected(Expected::OperatorName), false;
    if (Src.substr(Pos).starts_with("::")) {
      while (Src.substr(Pos).starts_with("::")) {
        Pos += 2;
        OpName = lexIdentifier();
      }
      Diags.report(loc(Start), diag::err_schema_nested_namespace)
          << Src.slice(Start, Pos - OpName.size() - 2)
          << range(Start, Pos - OpName.size() - 2);
      return false;
    }
    Name.Namespace = First.str();
  }
  Name.Name = OpName.str();
  if (Pos < Src.size() && Src[Pos] == '.') {
    ++Pos;
    size_t OverloadStart = Pos;
    while (Pos < Src.size() && (isAlnum(Src[Pos]) || Src[Pos] == '_'))
      ++Pos;
    if (Pos == OverloadStart)
      return expected(Expected::OverloadName), false;
    Name.Overload = Src.slice(OverloadStart, Pos).str();
  }
  Name.Range = range(Start, Pos);
  Name.classify();
  return true;
}

bool SchemaParser::checkName(const OperatorName &Name) {
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

bool SchemaParser::parseArguments(FunctionSchema &Schema) {
  if (tryConsume(")"))
    return true;
  while (true) {
    skipSpace();
    size_t ArgStart = Pos;
    if (tryConsume("*")) {
      if (Schema.KwargOnlyStart >= 0) {
        Diags.report(loc(ArgStart), diag::err_schema_kwarg_marker_twice)
            << range(ArgStart, Pos);
        return false;
      }
      Schema.KwargOnlyStart = Schema.Arguments.size();
    } else {
      Argument A;
      if (!parseType(A.Ty, A.Annotation, A.TypeRange))
        return false;
      skipSpace();
      size_t NameStart = Pos;
      StringRef Name = lexIdentifier();
      if (Name.empty())
        return expected(Expected::ArgumentName), false;
      A.Name = Name.str();
      A.NameRange = range(NameStart, Pos);
      if (tryConsume("=")) {
        A.Default.emplace();
        if (!parseDefault(*A.Default))
          return false;
      }
      A.Range = range(ArgStart, Pos);
      A.IsKwargOnly = Schema.KwargOnlyStart >= 0;
      Schema.Arguments.push_back(std::move(A));
    }
    if (tryConsume(")"))
      return true;
    if (!tryConsume(","))
      return expected(Expected::RParenOrComma), false;
  }
}

/// Suggests the base type closest to \p Name, or returns an empty string.
static std::string suggestBaseType(StringRef Name) {
  SmallVector<StringRef, 20> Candidates;
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) Candidates.push_back(Spelling);
#include "sk/core/SchemaBaseTypes.def"
  return suggestClosest(Name, Candidates);
}

bool SchemaParser::parseType(const Type *&Ty,
                             std::optional<AliasAnnotation> &Annotation,
                             SMRange &TypeRange) {
  skipSpace();
  size_t Start = Pos;
  StringRef Name = lexIdentifier();
  if (Name.empty())
    return expected(Expected::ArgumentType), false;

  static constexpr StringLiteral CustomClassPrefix = "__torch__.torch.classes.";
  if (Name == "__torch__" && Src.substr(Start).starts_with(CustomClassPrefix)) {
    Pos = Start + CustomClassPrefix.size();
    size_t ClassStart = Pos;
    while (Pos < Src.size() &&
           (isAlnum(Src[Pos]) || Src[Pos] == '_' || Src[Pos] == '.'))
      ++Pos;
    Ty = Types.getCustomClass(Src.slice(ClassStart, Pos));
  } else if (std::optional<BaseTypeKind> K = lookupBaseType(Name)) {
    Ty = Types.getBase(*K);
  } else {
    std::string Suggestion = suggestBaseType(Name);
    if (Suggestion.empty()) {
      Diags.report(loc(Start), diag::err_schema_unknown_type)
          << Name << range(Start, Pos);
    } else {
      Diags.report(loc(Start), diag::err_schema_unknown_type_suggest)
          << Name << Suggestion << range(Start, Pos)
          << FixItHint::replace(range(Start, Pos), Suggestion);
    }
    return false;
  }

  // The annotation sits right after the base type: `Tensor(a!)[]`.
  if (Pos < Src.size() && Src[Pos] == '(') {
    Annotation.emplace();
    if (!parseAnnotation(*Annotation))
      return false;
  }

  // Suffixes apply left to right: `int[]?` is an optional list. PyTorch
  // nests two deep at most (`Tensor?[]`); a bound keeps every recursive walk
  // of a type (printing, C++ types) within the stack.
  unsigned Depth = 0;
  while (Pos < Src.size()) {
    if ((Src[Pos] == '?' || Src[Pos] == '[') && ++Depth > MaxTypeNesting) {
      Diags.report(loc(Pos), diag::err_schema_type_too_deep)
          << MaxTypeNesting << range(Start, Pos);
      return false;
    }
    if (Src[Pos] == '?') {
      ++Pos;
      Ty = Types.getOptional(Ty);
      continue;
    }
    if (Src[Pos] != '[')
      break;
    size_t SizeStart = ++Pos;
    while (Pos < Src.size() && Src[Pos] != ']' && Src[Pos] != ',' &&
           Src[Pos] != ')')
      ++Pos;
    if (Pos == Src.size() || Src[Pos] != ']')
      return expected(Expected::ListTypeRSquare), false;
    StringRef SizeText = Src.slice(SizeStart, Pos);
    unsigned Size = 0;
    if (!SizeText.empty() && (SizeText.getAsInteger(10, Size) || Size == 0)) {
      Diags.report(loc(SizeStart), diag::err_schema_bad_list_size)
          << SizeText << range(SizeStart, Pos);
      return false;
    }
    ++Pos;
    Ty = Types.getList(Ty, Size);
  }
  TypeRange = range(Start, Pos);

  if (Annotation && !Ty->isTensorLike()) {
    Diags.report(Annotation->Range.Start,
                 diag::err_schema_annotation_not_tensor)
        << Ty->getAsString() << Annotation->Range;
    return false;
  }
  return true;
}

/// Lexes `a|b|c` at \p Pos into \p Sets; false if there is no letter.
static bool lexAliasSets(StringRef Src, size_t &Pos, std::string &Sets) {
  while (true) {
    if (Pos >= Src.size() || !isLower(Src[Pos]))
      return false;
    Sets += Src[Pos++];
    if (Pos >= Src.size() || Src[Pos] != '|')
      return true;
    ++Pos;
  }
}

bool SchemaParser::parseAnnotation(AliasAnnotation &Annotation) {
  size_t Open = Pos++;
  size_t Close = Src.find(')', Pos);
  if (Close == StringRef::npos) {
    Pos = Src.size();
    return expected(Expected::AnnotationRParen), false;
  }
  StringRef Body = Src.slice(Pos, Close);
  Annotation.Range = range(Open, Close + 1);

  // The grammar of torchgen's regex:
  //   [a-z](\|[a-z])* !? ( -> (\*|[a-z](\|[a-z])*) )?
  size_t P = 0;
  bool Valid = lexAliasSets(Body, P, Annotation.Before);
  if (Valid && P < Body.size() && Body[P] == '!') {
    Annotation.IsWrite = true;
    ++P;
  }
  if (Valid && P < Body.size()) {
    StringRef Rest = Body.substr(P).ltrim();
    Valid = Rest.consume_front("->");
    Rest = Rest.ltrim();
    size_t AfterPos = Body.size() - Rest.size();
    if (Valid && Rest == "*")
      Annotation.After = "*";
    else if (Valid)
      Valid = lexAliasSets(Body, AfterPos, Annotation.After) &&
              AfterPos == Body.size();
  }
  Pos = Close + 1;
  if (!Valid) {
    Diags.report(loc(Open + 1), diag::err_schema_invalid_annotation)
        << Body << Annotation.Range;
    return false;
  }
  if (Annotation.IsWrite && Annotation.Before.size() > 1) {
    Diags.report(loc(Open + 1), diag::err_schema_annotation_write_set)
        << Body << Annotation.Before.size() << Annotation.Range;
    return false;
  }
  if (Annotation.Before.size() > 1 && Annotation.After.size() > 1) {
    Diags.report(loc(Open + 1), diag::err_schema_annotation_both_sets)
        << Body << Annotation.Range;
    return false;
  }
  return true;
}

/// Classifies a scalar literal of a default value; std::nullopt if it is
/// not one.
static std::optional<DefaultValue::DefaultKind>
classifyScalarLiteral(StringRef S) {
  if (S == "True" || S == "False")
    return DefaultValue::DK_Bool;
  if (S == "None")
    return DefaultValue::DK_None;
  StringRef Unsigned = S;
  Unsigned.consume_front("-");
  if (Unsigned == "inf" || Unsigned == "nan")
    return DefaultValue::DK_Float;
  if (!Unsigned.empty() && all_of(Unsigned, isDigit))
    return DefaultValue::DK_Int;
  // [0-9]*\.?[0-9]*([eE][+-]?[0-9]+)? with at least one digit before the
  // exponent and a '.' or an exponent.
  size_t P = 0, Digits = 0;
  bool Dot = false, Exponent = false;
  while (P < Unsigned.size() && isDigit(Unsigned[P]))
    ++P, ++Digits;
  if (P < Unsigned.size() && Unsigned[P] == '.') {
    Dot = true;
    ++P;
    while (P < Unsigned.size() && isDigit(Unsigned[P]))
      ++P, ++Digits;
  }
  if (Digits && P < Unsigned.size() && (Unsigned[P] == 'e' || Unsigned[P] == 'E')) {
    ++P;
    if (P < Unsigned.size() && (Unsigned[P] == '+' || Unsigned[P] == '-'))
      ++P;
    size_t ExpStart = P;
    while (P < Unsigned.size() && isDigit(Unsigned[P]))
      ++P;
    Exponent = P != ExpStart;
    if (!Exponent)
      return std::nullopt;
  }
  if (Digits && P == Unsigned.size() && (Dot || Exponent))
    return DefaultValue::DK_Float;
  if (!S.empty() && (isAlpha(S[0]) || S[0] == '_') &&
      all_of(S, [](char C) { return isAlnum(C) || C == '_'; }))
    return DefaultValue::DK_Identifier;
  return std::nullopt;
}

bool SchemaParser::parseDefault(DefaultValue &Default) {
  skipSpace();
  size_t Start = Pos;
  if (Pos < Src.size() && (Src[Pos] == '\'' || Src[Pos] == '"')) {
    char Quote = Src[Pos++];
    while (Pos < Src.size() && Src[Pos] != Quote)
      Pos += Src[Pos] == '\\' ? 2 : 1;
    if (Pos >= Src.size()) {
      Pos = Src.size();
      return expected(Expected::ClosingQuote), false;
    }
    ++Pos;
    Default.Kind = DefaultValue::DK_String;
  } else if (Pos < Src.size() && Src[Pos] == '[') {
    size_t Close = Src.find(']', Pos);
    size_t Stop = Src.find_first_of("()", Pos);
    if (Close == StringRef::npos || Close > Stop) {
      Pos = std::min(Stop, Src.size());
      return expected(Expected::RSquare), false;
    }
    StringRef Body = Src.slice(Pos + 1, Close).trim();
    Default.Kind = DefaultValue::DK_List;
    if (!Body.empty()) {
      SmallVector<StringRef, 4> Elements;
      Body.split(Elements, ',');
      size_t ElementStart = Pos + 1;
      for (StringRef E : Elements) {
        std::optional<DefaultValue::DefaultKind> K =
            classifyScalarLiteral(E.trim());
        if (!K) {
          Pos = ElementStart + (E.size() - E.ltrim().size());
          return expected(Expected::DefaultValue), false;
        }
        Default.ElementKinds.push_back(*K);
        ElementStart += E.size() + 1;
      }
    }
    Pos = Close + 1;
  } else {
    while (Pos < Src.size() && Src[Pos] != ',' && Src[Pos] != ')' &&
           !isSpace(Src[Pos]))
      ++Pos;
    std::optional<DefaultValue::DefaultKind> K =
        classifyScalarLiteral(Src.slice(Start, Pos));
    if (!K) {
      Pos = Start;
      return expected(Expected::DefaultValue), false;
    }
    Default.Kind = *K;
  }
  Default.Spelling = Src.slice(Start, Pos).str();
  Default.Range = range(Start, Pos);
  return true;
}

bool SchemaParser::parseReturns(FunctionSchema &Schema) {
  if (!tryConsume("(")) {
    Return R;
    if (!parseReturn(R))
      return false;
    Schema.Returns.push_back(std::move(R));
    return true;
  }
  if (tryConsume(")"))
    return true;
  while (true) {
    Return R;
    if (!parseReturn(R))
      return false;
    Schema.Returns.push_back(std::move(R));
    if (tryConsume(")"))
      return true;
    if (!tryConsume(","))
      return expected(Expected::RParenOrCommaAfterReturn), false;
  }
}

bool SchemaParser::parseReturn(Return &R) {
  skipSpace();
  size_t Start = Pos;
  SMRange TypeRange;
  if (peek() == 0 || peek() == ')' || peek() == ',')
    return expected(Expected::ReturnType), false;
  if (!parseType(R.Ty, R.Annotation, TypeRange))
    return false;
  R.Name = lexIdentifier().str();
  if (peek() == '=') {
    Diags.report(loc(Pos), diag::err_schema_return_default)
        << range(Pos, Pos + 1);
    return false;
  }
  R.Range = range(Start, Pos);
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

bool SchemaParser::partitionArguments(FunctionSchema &Schema) {
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
static bool scalarFits(const Type *T, DefaultValue::DefaultKind K,
                       StringRef Spelling) {
  if (!T->isBase())
    return false;
  switch (T->getBaseKind()) {
  case BaseTypeKind::Int:
  case BaseTypeKind::SymInt:
    return K == DefaultValue::DK_Int ||
           (K == DefaultValue::DK_Identifier &&
            isEnumeratorOf(T->getBaseKind(), Spelling));
  case BaseTypeKind::Float:
    return K == DefaultValue::DK_Int || K == DefaultValue::DK_Float;
  case BaseTypeKind::Scalar:
    return K == DefaultValue::DK_Int || K == DefaultValue::DK_Float ||
           K == DefaultValue::DK_Bool;
  case BaseTypeKind::Bool:
    return K == DefaultValue::DK_Bool;
  case BaseTypeKind::Str:
  case BaseTypeKind::Device:
    return K == DefaultValue::DK_String;
  default:
    return K == DefaultValue::DK_Identifier &&
           isEnumeratorOf(T->getBaseKind(), Spelling);
  }
}

bool SchemaParser::checkDefault(const Argument &A) {
  const DefaultValue &D = *A.Default;
  const Type *T = A.Ty;
  bool Fits;
  if (D.Kind == DefaultValue::DK_None) {
    Fits = T->isOptional();
  } else {
    T = T->stripOptional();
    if (T->isList() && D.Kind == DefaultValue::DK_List) {
      Fits = all_of(D.ElementKinds, [&](DefaultValue::DefaultKind K) {
        // Elements are checked by kind only; identifiers in lists are rare
        // enough that their spelling does not matter here.
        return scalarFits(T->getElement(), K,
                          K == DefaultValue::DK_Identifier ? "Mean" : "");
      });
    } else if (T->isList() && T->getListSize() == 0) {
      Diags.report(D.Range.Start, diag::err_schema_list_default_expected)
          << A.Ty->getAsString() << D.Spelling << D.Range;
      return false;
    } else if (T->isList()) {
      // `int[2] stride=1`: a sized list takes a scalar for every element.
      Fits = scalarFits(T->getElement(), D.Kind, D.Spelling);
    } else {
      Fits = D.Kind != DefaultValue::DK_List &&
             scalarFits(T, D.Kind, D.Spelling);
    }
  }
  if (Fits)
    return true;
  Diags.report(D.Range.Start, diag::err_schema_default_mismatch)
      << D.Spelling << A.Ty->getAsString() << D.Range << A.TypeRange;
  return false;
}

void SchemaParser::checkCanonical(const FunctionSchema &Schema) {
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
  return SchemaParser(Text, Types, Diags).parse();
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
