//===--- OperatorSchema.cpp - The runtime form of a function schema -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/OperatorSchema.h"
#include "sk/util/Exception.h"

#include <cctype>

namespace sk {

std::ostream &operator<<(std::ostream &OS, const OperatorName &N) {
  return OS << N.str();
}

namespace {
/// A single pass over a schema string (the grammar of torchgen's
/// FunctionSchema.parse, which is also c10's):
///
///   schema   := name ['.' overload] '(' [arg (',' arg)*] ')' '->' returns
///   arg      := '*' | type name ['=' default]
///   returns  := '(' [ret (',' ret)*] ')' | ret
///   ret      := type [name]
///   type     := base ['(' alias ')'] ('?' | '[' [digits] ']')*
///
/// Errors throw sk::Error quoting the schema and the column.
class SchemaParser {
public:
  explicit SchemaParser(std::string_view Text) : Text(Text) {}

  OperatorSchema parse() {
    OperatorSchema S;
    S.Text = std::string(Text);
    parseName(S.Name);
    expect('(');
    bool KwargOnly = false;
    if (!consume(')')) {
      do {
        if (consume('*')) {
          fail(KwargOnly, "a second '*'");
          KwargOnly = true;
          continue;
        }
        SchemaArgument A = parseArgument(/*IsReturn=*/false);
        A.IsKwargOnly = KwargOnly;
        S.Arguments.push_back(std::move(A));
      } while (consume(','));
      expect(')');
    }
    skipSpace();
    fail(Text.compare(Pos, 2, "->") != 0, "expected '->'");
    Pos += 2;
    if (consume('(')) {
      if (!consume(')')) {
        do
          S.Returns.push_back(parseArgument(/*IsReturn=*/true));
        while (consume(','));
        expect(')');
      }
    } else {
      S.Returns.push_back(parseArgument(/*IsReturn=*/true));
    }
    skipSpace();
    fail(Pos != Text.size(), "unexpected text after the returns");
    return S;
  }

private:
  /// Throws when \p Failed, saying what was wrong at the current column.
  void fail(bool Failed, std::string_view Problem) const {
    if (SK_UNLIKELY(Failed))
      throw Error(detail::str("invalid schema '", Text, "': ", Problem,
                              " at column ", Pos + 1));
  }
  void skipSpace() {
    while (Pos < Text.size() && Text[Pos] == ' ')
      ++Pos;
  }
  bool consume(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  void expect(char C) {
    if (!consume(C))
      fail(true, detail::str("expected '", C, "'"));
  }
  static bool isIdentChar(char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  }
  std::string_view identifier() {
    skipSpace();
    size_t Start = Pos;
    while (Pos < Text.size() && isIdentChar(Text[Pos]))
      ++Pos;
    return Text.substr(Start, Pos - Start);
  }

  void parseName(OperatorName &N) {
    skipSpace();
    size_t Start = Pos;
    while (Pos < Text.size() && (isIdentChar(Text[Pos]) || Text[Pos] == ':'))
      ++Pos;
    N.Name = std::string(Text.substr(Start, Pos - Start));
    fail(N.Name.empty(), "missing operator name");
    if (Pos < Text.size() && Text[Pos] == '.') {
      ++Pos;
      N.Overload = std::string(identifier());
      fail(N.Overload.empty(), "missing overload name after '.'");
    }
  }

  SchemaType::BaseKind baseKind(std::string_view Name) const {
    static const std::pair<std::string_view, SchemaType::BaseKind> Bases[] = {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind)                        \
  {Spelling, SchemaType::RuntimeKind},
#include "sk/core/SchemaBaseTypes.def"
    };
    for (const auto &[Spelled, Kind] : Bases)
      if (Name == Spelled)
        return Kind;
    fail(true, detail::str("unknown type '", Name, "'"));
    return SchemaType::Other;
  }

  /// Parses a type into \p A (its type, alias annotation and IsWrite).
  void parseType(SchemaArgument &A) {
    std::string_view Base = identifier();
    fail(Base.empty(), "expected a type");
    SchemaType &T = A.Type;
    T.Base = baseKind(Base);
    T.Spelling = std::string(Base);
    if (Pos < Text.size() && Text[Pos] == '(') {
      size_t Close = Text.find(')', Pos);
      fail(Close == std::string_view::npos, "unterminated alias annotation");
      A.Alias = std::string(Text.substr(Pos + 1, Close - Pos - 1));
      fail(A.Alias.empty(), "empty alias annotation");
      A.IsWrite = A.Alias.find('!') != std::string::npos;
      Pos = Close + 1;
    }
    while (Pos < Text.size() && (Text[Pos] == '?' || Text[Pos] == '[')) {
      if (Text[Pos] == '?') {
        fail(T.IsOptional, "'?' twice");
        T.IsOptional = true;
        T.Spelling += '?';
        ++Pos;
        continue;
      }
      fail(T.IsList, "a list of lists");
      size_t Start = ++Pos;
      unsigned Size = 0;
      while (Pos < Text.size() &&
             std::isdigit(static_cast<unsigned char>(Text[Pos])))
        Size = Size * 10 + static_cast<unsigned>(Text[Pos++] - '0');
      fail(Pos == Text.size() || Text[Pos] != ']', "expected ']'");
      fail(Pos != Start && (Size == 0 || Size > 255),
           "a fixed list size must be between 1 and 255");
      ++Pos;
      T.Spelling += Text.substr(Start - 1, Pos - Start + 1);
      // `T?[]`: the `?` seen so far belongs to the elements.
      T.IsElementOptional = T.IsOptional;
      T.IsOptional = false;
      T.IsList = true;
      T.ListSize = static_cast<uint8_t>(Size);
    }
  }

  /// Skips a default value: anything up to a ',' or ')' outside brackets
  /// and quotes (`[0,1]`, `"a,b"`, `'\''`).
  std::string_view defaultValue() {
    skipSpace();
    size_t Start = Pos;
    int Depth = 0;
    for (; Pos < Text.size(); ++Pos) {
      char C = Text[Pos];
      if (C == '"' || C == '\'') {
        for (++Pos; Pos < Text.size() && Text[Pos] != C; ++Pos)
          if (Text[Pos] == '\\')
            ++Pos;
        fail(Pos >= Text.size(), "unterminated string in a default");
        continue;
      }
      if (C == '[' || C == '(')
        ++Depth;
      else if ((C == ']' || C == ')') && Depth > 0)
        --Depth;
      else if ((C == ',' || C == ')') && Depth == 0)
        break;
    }
    size_t End = Pos;
    while (End > Start && Text[End - 1] == ' ')
      --End;
    return Text.substr(Start, End - Start);
  }

  SchemaArgument parseArgument(bool IsReturn) {
    SchemaArgument A;
    parseType(A);
    A.Name = std::string(identifier());
    fail(!IsReturn && A.Name.empty(), "expected an argument name");
    if (consume('=')) {
      fail(IsReturn, "a return cannot have a default");
      A.HasDefault = true;
      A.Default = std::string(defaultValue());
      fail(A.Default.empty(), "empty default");
    }
    return A;
  }

  std::string_view Text;
  size_t Pos = 0;
};
} // namespace

OperatorSchema OperatorSchema::parse(std::string_view Text) {
  return SchemaParser(Text).parse();
}

// Note [Runtime types of schema types]
// skc gives an op a typed C++ API and unboxed kernels only when every one
// of its types maps to a runtime C++ type; the runtime mirrors that rule
// here, so that the registration check and skc agree on what can run:
//
//   Tensor int SymInt float bool str Scalar ScalarType Device MemoryFormat
//   any of those with '?', and Generator? (as Generator *)
//   int[] SymInt[] float[] Scalar[] Tensor[] bool[N]   (N fixed)
//   int[]? SymInt[]? float[]?
//   returns: Tensor, Tensor[], Tensor?, and the plain value types above
//
// Everything else (Dimname, Layout, Tensor?[], bool[], int[] returns, ...)
// parses but can have boxed kernels only.

/// Whether a value of base type \p K has a runtime C++ type.
static bool hasValueType(SchemaType::BaseKind K) {
  switch (K) {
  case SchemaType::Tensor:
  case SchemaType::Int:
  case SchemaType::Float:
  case SchemaType::Bool:
  case SchemaType::Str:
  case SchemaType::Scalar:
  case SchemaType::ScalarType:
  case SchemaType::Device:
  case SchemaType::MemoryFormat:
    return true;
  case SchemaType::Layout:
  case SchemaType::Generator:
  case SchemaType::Dimname:
  case SchemaType::Other:
    return false;
  }
  return false;
}

bool SchemaType::hasArgumentCppType() const {
  if (IsList) {
    if (IsElementOptional)
      return false;
    if (IsOptional)
      return Base == Int || Base == Float;
    return Base == Int || Base == Float || Base == Tensor || Base == Scalar ||
           (Base == Bool && ListSize != 0);
  }
  if (IsOptional && Base == Generator)
    return true;
  return hasValueType(Base);
}

bool SchemaType::hasReturnCppType() const {
  if (IsList)
    return Base == Tensor && !IsOptional && !IsElementOptional;
  if (IsOptional)
    return Base == Tensor;
  return hasValueType(Base);
}

bool OperatorSchema::hasCppTypes() const {
  for (const SchemaArgument &A : Arguments)
    if (!A.Type.hasArgumentCppType())
      return false;
  for (const SchemaArgument &R : Returns)
    if (!R.Type.hasReturnCppType())
      return false;
  return true;
}

/// Prints \p A's type, with its alias annotation after the base name.
static void printType(std::string &Out, const SchemaArgument &A) {
  const std::string &S = A.Type.Spelling;
  size_t BaseEnd = 0;
  while (BaseEnd < S.size() && S[BaseEnd] != '?' && S[BaseEnd] != '[')
    ++BaseEnd;
  Out.append(S, 0, BaseEnd);
  if (!A.Alias.empty())
    Out += "(" + A.Alias + ")";
  Out.append(S, BaseEnd, std::string::npos);
}

std::string OperatorSchema::str() const {
  std::string Out = Name.str() + "(";
  bool SawKwargOnly = false;
  for (size_t I = 0; I != Arguments.size(); ++I) {
    const SchemaArgument &A = Arguments[I];
    if (I)
      Out += ", ";
    if (A.IsKwargOnly && !SawKwargOnly) {
      Out += "*, ";
      SawKwargOnly = true;
    }
    printType(Out, A);
    Out += " " + A.Name;
    if (A.HasDefault)
      Out += "=" + A.Default;
  }
  Out += ") -> ";
  bool Paren = Returns.size() != 1;
  if (Paren)
    Out += "(";
  for (size_t I = 0; I != Returns.size(); ++I) {
    if (I)
      Out += ", ";
    printType(Out, Returns[I]);
    if (!Returns[I].Name.empty())
      Out += " " + Returns[I].Name;
  }
  if (Paren)
    Out += ")";
  return Out;
}

} // namespace sk
