//===--- OperatorSchema.cpp - The runtime form of a function schema -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/OperatorSchema.h"
#include "sk/schema/SchemaSyntax.h"
#include "sk/util/Exception.h"

#include <optional>

namespace sk {

std::ostream &operator<<(std::ostream &OS, const OperatorName &N) {
  return OS << N.str();
}

/// The runtime's argument or return for \p Type named \p Name; throws when
/// the runtime cannot hold the type (`T??`, a list of lists).
static SchemaArgument toArgument(std::string_view Text,
                                 const schema::TypeSyntax &Type,
                                 std::string_view Name) {
  const schema::SourceSpan &Span = Type.Span;
  std::optional<schema::TypeShape> Shape = schema::getShape(Type);
  if (!Shape)
    throw Error(detail::str("invalid schema '", Text, "': the runtime has no '",
                            Text.substr(Span.Begin, Span.End - Span.Begin),
                            "' at column ", Span.Begin + 1));
  SchemaArgument A;
  A.Name = std::string(Name);
  static_cast<schema::TypeShape &>(A.Type) = *Shape;
  // The spelling without the annotation, which sits after the base type.
  A.Type.Spelling = std::string(Text.substr(Span.Begin, Span.End - Span.Begin));
  if (Type.Alias) {
    const schema::SourceSpan &S = Type.Alias->Span;
    A.Type.Spelling.erase(S.Begin - Span.Begin, S.End - S.Begin);
    A.Alias = std::string(Text.substr(S.Begin + 1, S.End - S.Begin - 2));
    A.IsWrite = Type.Alias->IsWrite;
  }
  return A;
}

OperatorSchema OperatorSchema::parse(std::string_view Text) {
  schema::SchemaSyntax Syntax;
  schema::SyntaxError E;
  if (!schema::parseSchema(Text, Syntax, E))
    throw Error(detail::str("invalid schema '", Text, "': ", E.message(Text),
                            " at column ", E.Offset + 1));
  OperatorSchema S;
  S.Text = std::string(Text);
  S.Name.Name = Syntax.Namespace.empty()
                    ? std::string(Syntax.Name)
                    : detail::str(Syntax.Namespace, "::", Syntax.Name);
  S.Name.Overload = std::string(Syntax.Overload);
  for (const schema::ArgumentSyntax &Arg : Syntax.Arguments) {
    SchemaArgument A = toArgument(Text, Arg.Type, Arg.Name);
    A.IsKwargOnly = Arg.IsKwargOnly;
    if (Arg.Default) {
      A.HasDefault = true;
      A.Default = std::string(Arg.Default->Spelling);
    }
    S.Arguments.push_back(std::move(A));
  }
  for (const schema::ReturnSyntax &Ret : Syntax.Returns)
    S.Returns.push_back(toArgument(Text, Ret.Type, Ret.Name));
  return S;
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
