//===--- SchemaSyntax.cpp - The grammar of 'func:' strings ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/schema/SchemaSyntax.h"

#include <algorithm>

namespace sk::schema {

// The character classes of the grammar, in ASCII whatever the locale.
static bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\v' || C == '\f' ||
         C == '\r';
}
static bool isDigit(char C) { return C >= '0' && C <= '9'; }
static bool isLower(char C) { return C >= 'a' && C <= 'z'; }
static bool isAlpha(char C) { return isLower(C) || (C >= 'A' && C <= 'Z'); }
static bool isIdentifierChar(char C) {
  return isAlpha(C) || isDigit(C) || C == '_';
}

std::string_view describe(ExpectedItem E) {
  static constexpr std::string_view Descriptions[] = {
      "an operator name",
      "an overload name",
      "'('",
      "')' or ','",
      "an argument type",
      "an argument name",
      "'->'",
      "a return type",
      "')' or ',' after a return",
      "end of schema",
      "a default value",
      "']' to end the list default",
      "a closing quote",
      "')' to end the alias annotation",
      "']' to end the list type",
  };
  return Descriptions[static_cast<unsigned>(E)];
}

std::string SyntaxError::message(std::string_view Text) const {
  auto Quoted = [&](SourceSpan S) {
    return "'" + std::string(Text.substr(S.Begin, S.End - S.Begin)) + "'";
  };
  switch (K) {
  case Expected:
    return "expected " + std::string(describe(What));
  case NestedNamespace:
    return "operator namespace " + Quoted(Span) +
           " must be a single identifier";
  case UnknownType:
    return "unknown type " + Quoted(Span);
  case TypeTooDeep:
    return "type nests more than " + std::to_string(MaxTypeNesting) +
           " '?' and '[]' suffixes";
  case BadListSize:
    return "list size " + Quoted(Span) + " must be a positive integer";
  case InvalidAnnotation:
    return "invalid alias annotation " + Quoted(Span);
  case AnnotationWriteSet:
    return "a write annotation may name only one alias set: " + Quoted(Span);
  case AnnotationBothSets:
    return "alias annotation " + Quoted(Span) +
           " has more than one alias set both before and after '->'";
  case KwargMarkerTwice:
    return "keyword-only marker '*' can only occur once";
  case ReturnDefault:
    return "return values cannot have default values";
  }
  return "invalid schema";
}

namespace {

/// A recursive-descent parser that stops at the first error. Every parse
/// method returns false after filling Error.
class Parser {
public:
  Parser(std::string_view Src, SyntaxError &Error) : Src(Src), Error(Error) {}

  bool parse(SchemaSyntax &S);

private:
  // Lexing.
  void skipSpace() {
    while (Pos < Src.size() && isSpace(Src[Pos]))
      ++Pos;
  }
  /// The next character after white space, or 0 at the end.
  char peek() {
    skipSpace();
    return Pos < Src.size() ? Src[Pos] : 0;
  }
  bool startsWith(size_t At, std::string_view Token) const {
    return Src.substr(std::min(At, Src.size())).substr(0, Token.size()) ==
           Token;
  }
  bool tryConsume(std::string_view Token) {
    skipSpace();
    if (!startsWith(Pos, Token))
      return false;
    Pos += Token.size();
    return true;
  }
  /// Lexes [A-Za-z_][A-Za-z0-9_]*; empty if there is none.
  std::string_view lexIdentifier() {
    skipSpace();
    size_t Start = Pos;
    if (Pos < Src.size() && (isAlpha(Src[Pos]) || Src[Pos] == '_'))
      while (Pos < Src.size() && isIdentifierChar(Src[Pos]))
        ++Pos;
    return slice(Start, Pos);
  }
  std::string_view slice(size_t Begin, size_t End) const {
    return Src.substr(Begin, End - Begin);
  }

  bool fail(SyntaxError::Kind K, size_t Offset, SourceSpan Span) {
    Error.K = K;
    Error.Offset = Offset;
    Error.Span = Span;
    return false;
  }
  /// Fails, saying that \p What was expected at the current position.
  bool expected(ExpectedItem What) {
    skipSpace();
    Error.What = What;
    return fail(SyntaxError::Expected, Pos, {Pos, Pos + 1});
  }

  // Grammar.
  bool parseName(SchemaSyntax &S);
  bool parseArguments(SchemaSyntax &S);
  bool parseType(TypeSyntax &T);
  bool parseAlias(AliasSyntax &A);
  bool parseDefault(DefaultSyntax &D);
  bool parseReturns(SchemaSyntax &S);
  bool parseReturn(ReturnSyntax &R);

  std::string_view Src;
  SyntaxError &Error;
  size_t Pos = 0;
};

} // namespace

bool Parser::parse(SchemaSyntax &S) {
  skipSpace();
  size_t Start = Pos;
  if (!parseName(S))
    return false;
  if (!tryConsume("("))
    return expected(ExpectedItem::LParen);
  if (!parseArguments(S))
    return false;
  if (!tryConsume("->"))
    return expected(ExpectedItem::Arrow);
  if (!parseReturns(S))
    return false;
  if (peek() != 0)
    return expected(ExpectedItem::EndOfSchema);
  size_t End = Src.size();
  while (End > Start && isSpace(Src[End - 1]))
    --End;
  S.Span = {Start, End};
  return true;
}

bool Parser::parseName(SchemaSyntax &S) {
  skipSpace();
  size_t Start = Pos;
  std::string_view First = lexIdentifier();
  if (First.empty())
    return expected(ExpectedItem::OperatorName);
  std::string_view Name = First;
  if (startsWith(Pos, "::")) {
    Pos += 2;
    Name = lexIdentifier();
    if (Name.empty())
      return expected(ExpectedItem::OperatorName);
    if (startsWith(Pos, "::")) {
      size_t NamespaceEnd = Pos;
      while (startsWith(Pos, "::")) {
        NamespaceEnd = Pos;
        Pos += 2;
        lexIdentifier();
      }
      return fail(SyntaxError::NestedNamespace, Start, {Start, NamespaceEnd});
    }
    S.Namespace = First;
  }
  S.Name = Name;
  if (Pos < Src.size() && Src[Pos] == '.') {
    size_t OverloadStart = ++Pos;
    while (Pos < Src.size() && isIdentifierChar(Src[Pos]))
      ++Pos;
    if (Pos == OverloadStart)
      return expected(ExpectedItem::OverloadName);
    S.Overload = slice(OverloadStart, Pos);
  }
  S.NameSpan = {Start, Pos};
  return true;
}

bool Parser::parseArguments(SchemaSyntax &S) {
  if (tryConsume(")"))
    return true;
  while (true) {
    skipSpace();
    size_t ArgStart = Pos;
    if (tryConsume("*")) {
      if (S.KwargOnlyStart >= 0)
        return fail(SyntaxError::KwargMarkerTwice, ArgStart,
                    {ArgStart, Pos});
      S.KwargOnlyStart = static_cast<int>(S.Arguments.size());
    } else {
      ArgumentSyntax A;
      if (!parseType(A.Type))
        return false;
      skipSpace();
      size_t NameStart = Pos;
      A.Name = lexIdentifier();
      if (A.Name.empty())
        return expected(ExpectedItem::ArgumentName);
      A.NameSpan = {NameStart, Pos};
      if (tryConsume("=")) {
        A.Default.emplace();
        if (!parseDefault(*A.Default))
          return false;
      }
      A.Span = {ArgStart, Pos};
      A.IsKwargOnly = S.KwargOnlyStart >= 0;
      S.Arguments.push_back(std::move(A));
    }
    if (tryConsume(")"))
      return true;
    if (!tryConsume(","))
      return expected(ExpectedItem::RParenOrComma);
  }
}

bool Parser::parseType(TypeSyntax &T) {
  skipSpace();
  size_t Start = Pos;
  std::string_view Name = lexIdentifier();
  if (Name.empty())
    return expected(ExpectedItem::ArgumentType);

  static constexpr std::string_view CustomClassPrefix =
      "__torch__.torch.classes.";
  if (Name == "__torch__" && startsWith(Start, CustomClassPrefix)) {
    Pos = Start + CustomClassPrefix.size();
    size_t ClassStart = Pos;
    while (Pos < Src.size() &&
           (isIdentifierChar(Src[Pos]) || Src[Pos] == '.'))
      ++Pos;
    T.ClassName = slice(ClassStart, Pos);
  } else if (std::optional<BaseType> B = lookupBaseType(Name)) {
    T.Base = *B;
  } else {
    return fail(SyntaxError::UnknownType, Start, {Start, Pos});
  }

  // The annotation sits right after the base type: `Tensor(a!)[]`.
  if (Pos < Src.size() && Src[Pos] == '(') {
    T.Alias.emplace();
    if (!parseAlias(*T.Alias))
      return false;
  }

  while (Pos < Src.size() && (Src[Pos] == '?' || Src[Pos] == '[')) {
    if (T.Suffixes.size() == MaxTypeNesting)
      return fail(SyntaxError::TypeTooDeep, Pos, {Start, Pos});
    if (Src[Pos] == '?') {
      ++Pos;
      T.Suffixes.push_back({/*IsList=*/false, 0});
      continue;
    }
    size_t SizeStart = ++Pos;
    while (Pos < Src.size() && Src[Pos] != ']' && Src[Pos] != ',' &&
           Src[Pos] != ')')
      ++Pos;
    if (Pos == Src.size() || Src[Pos] != ']')
      return expected(ExpectedItem::ListTypeRSquare);
    std::string_view SizeText = slice(SizeStart, Pos);
    uint32_t Size = 0;
    bool Valid = SizeText.size() <= 9 &&
                 std::all_of(SizeText.begin(), SizeText.end(), isDigit);
    for (char C : SizeText)
      Size = Size * 10 + static_cast<uint32_t>(C - '0');
    if (!Valid || (!SizeText.empty() && Size == 0))
      return fail(SyntaxError::BadListSize, SizeStart, {SizeStart, Pos});
    ++Pos;
    T.Suffixes.push_back({/*IsList=*/true, Size});
  }
  T.Span = {Start, Pos};
  return true;
}

/// Lexes `a|b|c` at \p Pos of \p Body into \p Sets; false if there is no
/// letter where one must be.
static bool lexAliasSets(std::string_view Body, size_t &Pos,
                         std::string &Sets) {
  while (true) {
    if (Pos >= Body.size() || !isLower(Body[Pos]))
      return false;
    Sets += Body[Pos++];
    if (Pos >= Body.size() || Body[Pos] != '|')
      return true;
    ++Pos;
  }
}

bool Parser::parseAlias(AliasSyntax &A) {
  size_t Open = Pos++;
  size_t Close = Src.find(')', Pos);
  if (Close == std::string_view::npos) {
    Pos = Src.size();
    return expected(ExpectedItem::AnnotationRParen);
  }
  std::string_view Body = slice(Pos, Close);
  A.Span = {Open, Close + 1};
  Pos = Close + 1;

  // The grammar of torchgen's regex:
  //   [a-z](\|[a-z])* !? ( -> (\*|[a-z](\|[a-z])*) )?
  size_t P = 0;
  bool Valid = lexAliasSets(Body, P, A.Before);
  if (Valid && P < Body.size() && Body[P] == '!') {
    A.IsWrite = true;
    ++P;
  }
  if (Valid && P < Body.size()) {
    while (P < Body.size() && isSpace(Body[P]))
      ++P;
    Valid = Body.substr(P, 2) == "->";
    P += 2;
    while (P < Body.size() && isSpace(Body[P]))
      ++P;
    if (Valid && Body.substr(std::min(P, Body.size())) == "*")
      A.After = "*";
    else if (Valid)
      Valid = lexAliasSets(Body, P, A.After) && P == Body.size();
  }
  if (!Valid)
    return fail(SyntaxError::InvalidAnnotation, Open + 1, A.Span);
  if (A.IsWrite && A.Before.size() > 1)
    return fail(SyntaxError::AnnotationWriteSet, Open + 1, A.Span);
  if (A.Before.size() > 1 && A.After.size() > 1)
    return fail(SyntaxError::AnnotationBothSets, Open + 1, A.Span);
  return true;
}

/// Classifies a literal of a default value; std::nullopt if it is not one.
static std::optional<DefaultKind> classifyLiteral(std::string_view S) {
  if (S == "True" || S == "False")
    return DefaultKind::Bool;
  if (S == "None")
    return DefaultKind::None;
  std::string_view Unsigned = S;
  if (!Unsigned.empty() && Unsigned[0] == '-')
    Unsigned.remove_prefix(1);
  if (Unsigned == "inf" || Unsigned == "nan")
    return DefaultKind::Float;
  if (!Unsigned.empty() &&
      std::all_of(Unsigned.begin(), Unsigned.end(), isDigit))
    return DefaultKind::Int;
  // [0-9]*\.?[0-9]*([eE][+-]?[0-9]+)? with at least one digit before the
  // exponent, and a '.' or an exponent.
  size_t P = 0, Digits = 0;
  bool Dot = false, Exponent = false;
  for (; P < Unsigned.size() && isDigit(Unsigned[P]); ++P)
    ++Digits;
  if (P < Unsigned.size() && Unsigned[P] == '.') {
    Dot = true;
    for (++P; P < Unsigned.size() && isDigit(Unsigned[P]); ++P)
      ++Digits;
  }
  if (Digits && P < Unsigned.size() &&
      (Unsigned[P] == 'e' || Unsigned[P] == 'E')) {
    ++P;
    if (P < Unsigned.size() && (Unsigned[P] == '+' || Unsigned[P] == '-'))
      ++P;
    size_t ExponentStart = P;
    while (P < Unsigned.size() && isDigit(Unsigned[P]))
      ++P;
    Exponent = P != ExponentStart;
    if (!Exponent)
      return std::nullopt;
  }
  if (Digits && P == Unsigned.size() && (Dot || Exponent))
    return DefaultKind::Float;
  if (!S.empty() && (isAlpha(S[0]) || S[0] == '_') &&
      std::all_of(S.begin(), S.end(), isIdentifierChar))
    return DefaultKind::Identifier;
  return std::nullopt;
}

bool Parser::parseDefault(DefaultSyntax &D) {
  skipSpace();
  size_t Start = Pos;
  if (Pos < Src.size() && (Src[Pos] == '\'' || Src[Pos] == '"')) {
    char Quote = Src[Pos++];
    while (Pos < Src.size() && Src[Pos] != Quote)
      Pos += Src[Pos] == '\\' ? 2 : 1;
    if (Pos >= Src.size()) {
      Pos = Src.size();
      return expected(ExpectedItem::ClosingQuote);
    }
    ++Pos;
    D.Kind = DefaultKind::String;
  } else if (Pos < Src.size() && Src[Pos] == '[') {
    size_t Close = Src.find(']', Pos);
    size_t Stop = Src.find_first_of("()", Pos);
    if (Close == std::string_view::npos || Close > Stop) {
      Pos = std::min(Stop, Src.size());
      return expected(ExpectedItem::RSquare);
    }
    D.Kind = DefaultKind::List;
    std::string_view Body = slice(Pos + 1, Close);
    bool Empty = std::all_of(Body.begin(), Body.end(), isSpace);
    for (size_t ElementStart = Pos + 1; !Empty && ElementStart <= Close;) {
      size_t ElementEnd = std::min(Src.find(',', ElementStart), Close);
      size_t Begin = ElementStart, End = ElementEnd;
      while (Begin < End && isSpace(Src[Begin]))
        ++Begin;
      while (End > Begin && isSpace(Src[End - 1]))
        --End;
      std::optional<DefaultKind> K = classifyLiteral(slice(Begin, End));
      if (!K) {
        Pos = Begin;
        return expected(ExpectedItem::DefaultValue);
      }
      D.ElementKinds.push_back(*K);
      ElementStart = ElementEnd + 1;
    }
    Pos = Close + 1;
  } else {
    while (Pos < Src.size() && Src[Pos] != ',' && Src[Pos] != ')' &&
           !isSpace(Src[Pos]))
      ++Pos;
    std::optional<DefaultKind> K = classifyLiteral(slice(Start, Pos));
    if (!K) {
      Pos = Start;
      return expected(ExpectedItem::DefaultValue);
    }
    D.Kind = *K;
  }
  D.Spelling = slice(Start, Pos);
  D.Span = {Start, Pos};
  return true;
}

bool Parser::parseReturns(SchemaSyntax &S) {
  if (!tryConsume("(")) {
    S.Returns.emplace_back();
    return parseReturn(S.Returns.back());
  }
  if (tryConsume(")"))
    return true;
  while (true) {
    S.Returns.emplace_back();
    if (!parseReturn(S.Returns.back()))
      return false;
    if (tryConsume(")"))
      return true;
    if (!tryConsume(","))
      return expected(ExpectedItem::RParenOrCommaAfterReturn);
  }
}

bool Parser::parseReturn(ReturnSyntax &R) {
  skipSpace();
  size_t Start = Pos;
  char Next = peek();
  if (Next == 0 || Next == ')' || Next == ',')
    return expected(ExpectedItem::ReturnType);
  if (!parseType(R.Type))
    return false;
  R.Name = lexIdentifier();
  if (peek() == '=')
    return fail(SyntaxError::ReturnDefault, Pos, {Pos, Pos + 1});
  R.Span = {Start, Pos};
  return true;
}

bool parseSchema(std::string_view Text, SchemaSyntax &Syntax,
                 SyntaxError &Error) {
  return Parser(Text, Error).parse(Syntax);
}

std::optional<TypeShape> getShape(const TypeSyntax &T) {
  return TypeShape::get(T.Base ? getValueKind(*T.Base) : ValueKind::Other,
                        T.Suffixes.data(), T.Suffixes.size());
}

} // namespace sk::schema
