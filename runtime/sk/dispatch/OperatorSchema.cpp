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

static std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

/// Splits \p S at top-level commas (not inside brackets or parentheses).
static std::vector<std::string_view> splitTopLevel(std::string_view S) {
  std::vector<std::string_view> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I != S.size(); ++I) {
    char C = S[I];
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Parts.push_back(trim(S.substr(Start, I - Start)));
      Start = I + 1;
    }
  }
  std::string_view Last = trim(S.substr(Start));
  if (!Last.empty() || !Parts.empty())
    Parts.push_back(Last);
  return Parts;
}

/// Parses `Tensor(a!)?[]` into \p Type; returns whether it is written to.
static bool parseType(std::string_view Schema, std::string_view Text,
                      SchemaType &Type) {
  bool IsWrite = false;
  std::string Spelling;
  size_t Open = Text.find('(');
  if (Open != std::string_view::npos) {
    size_t Close = Text.find(')', Open);
    SK_CHECK(Close != std::string_view::npos, "invalid schema '", Schema,
             "': unterminated alias annotation in '", Text, "'");
    IsWrite = Text.substr(Open, Close - Open).find('!') !=
              std::string_view::npos;
    Spelling = std::string(Text.substr(0, Open)) +
               std::string(Text.substr(Close + 1));
  } else {
    Spelling = std::string(Text);
  }
  Type.Spelling = Spelling;
  std::string_view Base = Spelling;
  // Only the outermost `[]` or `?` matters for boxing.
  while (!Base.empty() && (Base.back() == '?' || Base.back() == ']')) {
    if (Base.back() == '?') {
      if (!Type.IsList)
        Type.IsOptional = true;
      Base.remove_suffix(1);
      continue;
    }
    size_t Bracket = Base.rfind('[');
    SK_CHECK(Bracket != std::string_view::npos, "invalid schema '", Schema,
             "': unbalanced ']' in '", Text, "'");
    Type.IsList = true;
    Base = Base.substr(0, Bracket);
  }
  static const std::pair<std::string_view, SchemaType::BaseKind> Bases[] = {
      {"Tensor", SchemaType::Tensor},
      {"int", SchemaType::Int},
      {"SymInt", SchemaType::Int},
      {"float", SchemaType::Float},
      {"bool", SchemaType::Bool},
      {"str", SchemaType::Str},
      {"Scalar", SchemaType::Scalar},
      {"ScalarType", SchemaType::ScalarType},
      {"Device", SchemaType::Device},
      {"MemoryFormat", SchemaType::MemoryFormat},
      {"Layout", SchemaType::Layout},
      {"Generator", SchemaType::Generator}};
  Type.Base = SchemaType::Other;
  for (const auto &[Name, Kind] : Bases)
    if (Base == Name)
      Type.Base = Kind;
  return IsWrite;
}

/// Parses `TYPE NAME[=DEFAULT]` (or `TYPE [NAME]` for returns).
static SchemaArgument parseArgument(std::string_view Schema,
                                    std::string_view Text, bool IsReturn) {
  SchemaArgument A;
  std::string_view Decl = Text;
  size_t Eq = Text.find('=');
  if (Eq != std::string_view::npos) {
    SK_CHECK(!IsReturn, "invalid schema '", Schema,
             "': a return cannot have a default");
    A.HasDefault = true;
    Decl = trim(Text.substr(0, Eq));
  }
  // The name follows the last space outside an annotation.
  int Depth = 0;
  size_t Space = std::string_view::npos;
  for (size_t I = 0; I != Decl.size(); ++I) {
    if (Decl[I] == '(')
      ++Depth;
    else if (Decl[I] == ')')
      --Depth;
    else if (Decl[I] == ' ' && Depth == 0)
      Space = I;
  }
  std::string_view TypeText = Decl;
  if (Space != std::string_view::npos) {
    TypeText = trim(Decl.substr(0, Space));
    A.Name = std::string(trim(Decl.substr(Space + 1)));
  }
  SK_CHECK(IsReturn || !A.Name.empty(), "invalid schema '", Schema,
           "': argument '", Text, "' has no name");
  SK_CHECK(!TypeText.empty(), "invalid schema '", Schema,
           "': missing type in '", Text, "'");
  A.IsWrite = parseType(Schema, TypeText, A.Type);
  return A;
}

OperatorSchema OperatorSchema::parse(std::string_view Text) {
  OperatorSchema S;
  S.Text = std::string(Text);
  size_t Open = Text.find('(');
  size_t Arrow = Text.rfind("->");
  SK_CHECK(Open != std::string_view::npos && Arrow != std::string_view::npos &&
               Arrow > Open,
           "invalid schema '", Text,
           "': expected 'name(arguments) -> returns'");
  size_t Close = Text.rfind(')', Arrow);
  SK_CHECK(Close != std::string_view::npos && Close > Open, "invalid schema '",
           Text, "': expected ')' before '->'");

  std::string_view Name = trim(Text.substr(0, Open));
  size_t Dot = Name.find('.');
  S.Name.Name = std::string(Name.substr(0, Dot));
  if (Dot != std::string_view::npos)
    S.Name.Overload = std::string(Name.substr(Dot + 1));
  SK_CHECK(!S.Name.Name.empty(), "invalid schema '", Text,
           "': missing operator name");

  bool KwargOnly = false;
  for (std::string_view Arg :
       splitTopLevel(Text.substr(Open + 1, Close - Open - 1))) {
    SK_CHECK(!Arg.empty(), "invalid schema '", Text, "': empty argument");
    if (Arg == "*") {
      KwargOnly = true;
      continue;
    }
    SchemaArgument A = parseArgument(Text, Arg, /*IsReturn=*/false);
    A.IsKwargOnly = KwargOnly;
    S.Arguments.push_back(std::move(A));
  }

  std::string_view Returns = trim(Text.substr(Arrow + 2));
  if (!Returns.empty() && Returns.front() == '(' && Returns.back() == ')')
    Returns = Returns.substr(1, Returns.size() - 2);
  for (std::string_view Ret : splitTopLevel(Returns))
    S.Returns.push_back(parseArgument(Text, Ret, /*IsReturn=*/true));
  return S;
}

} // namespace sk
