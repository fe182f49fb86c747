//===--- SchemaSyntax.h - The grammar of 'func:' strings --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one parser of the function-schema grammar (torchgen's
/// FunctionSchema.parse, which is also c10's), shared by skc and the
/// runtime:
///
///   schema   := name '(' [arg (',' arg)*] ')' '->' returns
///   name     := [ident '::'] ident ['.' overload]
///   arg      := '*' | type ident ['=' default]
///   returns  := '(' [ret (',' ret)*] ')' | ret
///   ret      := type [ident]
///   type     := base ['(' alias ')'] ('?' | '[' [digits] ']')*
///   alias    := sets ['!'] ['->' ('*' | sets)]     sets := [a-z] ('|' [a-z])*
///   default  := literal | '[' [literal (',' literal)*] ']' | quoted string
///
/// It builds a syntax tree that points into the text, with the byte range of
/// every piece, or stops at the first error with its kind and range. skc
/// turns those into diagnostics with carets; the runtime into exceptions.
/// The rules over a parsed schema (out arguments last, defaults that fit
/// their type, ...) are skc's, in lib/Parse/SchemaParser.cpp.
///
/// Dependency-free: no LLVM, no exceptions, the standard library only.
///
//===----------------------------------------------------------------------===//

#ifndef SK_SCHEMA_SCHEMASYNTAX_H
#define SK_SCHEMA_SCHEMASYNTAX_H

#include "sk/schema/BaseType.h"
#include "sk/schema/TypeShape.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sk::schema {

/// The most `?` and `[]` suffixes one type may have. PyTorch nests two deep
/// at most (`Tensor?[]`); a bound keeps every recursive walk of a type
/// within the stack.
inline constexpr unsigned MaxTypeNesting = 8;

/// Byte offsets [Begin, End) into the parsed text.
struct SourceSpan {
  size_t Begin = 0;
  size_t End = 0;
};

/// `a`, `a!`, `a|b`, `a -> *`, `a! -> a|b`.
struct AliasSyntax {
  /// The sets before `->`, as letters in order.
  std::string Before;
  bool IsWrite = false;
  /// The sets after `->`; "*" for the wildcard; empty without `->`.
  std::string After;
  /// With its parentheses.
  SourceSpan Span;
};

struct TypeSyntax {
  /// std::nullopt for a custom class.
  std::optional<BaseType> Base;
  /// For a custom class, the dotted name after `__torch__.torch.classes.`.
  std::string_view ClassName;
  std::optional<AliasSyntax> Alias;
  /// Applied left to right: `int[]?` is an optional list.
  std::vector<TypeSuffix> Suffixes;
  /// From the base type to the last suffix.
  SourceSpan Span;
};

/// What a default value is, by its spelling.
enum class DefaultKind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  String,
  /// `Mean`, `contiguous_format`, `long`: an enumerator of some type.
  Identifier,
  List,
};

struct DefaultSyntax {
  DefaultKind Kind = DefaultKind::None;
  /// For lists: the kind of each element.
  std::vector<DefaultKind> ElementKinds;
  std::string_view Spelling;
  SourceSpan Span;
};

struct ArgumentSyntax {
  TypeSyntax Type;
  std::string_view Name;
  SourceSpan NameSpan;
  std::optional<DefaultSyntax> Default;
  bool IsKwargOnly = false;
  SourceSpan Span;
};

struct ReturnSyntax {
  TypeSyntax Type;
  /// Empty for an unnamed return.
  std::string_view Name;
  SourceSpan Span;
};

struct SchemaSyntax {
  /// Empty without `ns::`.
  std::string_view Namespace;
  std::string_view Name;
  std::string_view Overload;
  SourceSpan NameSpan;
  std::vector<ArgumentSyntax> Arguments;
  /// The index of the first argument after `*`, or -1.
  int KwargOnlyStart = -1;
  std::vector<ReturnSyntax> Returns;
  /// Without leading and trailing white space.
  SourceSpan Span;
};

/// What was expected where an Expected error stopped.
enum class ExpectedItem : uint8_t {
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

/// "an operator name", "'->'", ...: what \p E names, for messages.
std::string_view describe(ExpectedItem E);

struct SyntaxError {
  enum Kind : uint8_t {
    Expected,
    /// `a::b::c(...)`; Span is `a::b`.
    NestedNamespace,
    /// Span is the type's name.
    UnknownType,
    /// Span is the type so far; Offset the suffix over the limit.
    TypeTooDeep,
    /// Span is the text between the brackets.
    BadListSize,
    /// Span is the annotation with its parentheses; Offset its body.
    InvalidAnnotation,
    /// `(a|b!)`: as InvalidAnnotation.
    AnnotationWriteSet,
    /// `(a|b -> c|d)`: as InvalidAnnotation.
    AnnotationBothSets,
    /// A second `*`.
    KwargMarkerTwice,
    /// `-> Tensor x=1`; Span is the `=`.
    ReturnDefault,
  };
  Kind K = Expected;
  /// For Expected errors.
  ExpectedItem What = ExpectedItem::OperatorName;
  /// Where the error points.
  size_t Offset = 0;
  SourceSpan Span;

  /// The problem in words, quoting \p Text (the schema parsed): "expected
  /// '->'", "unknown type 'Tensr'".
  std::string message(std::string_view Text) const;
};

/// Parses \p Text into \p Syntax, whose views point into \p Text. Returns
/// false at the first error, described in \p Error.
bool parseSchema(std::string_view Text, SchemaSyntax &Syntax,
                 SyntaxError &Error);

/// The TypeShape of \p T; std::nullopt when the runtime cannot hold it.
std::optional<TypeShape> getShape(const TypeSyntax &T);

} // namespace sk::schema

#endif // SK_SCHEMA_SCHEMASYNTAX_H
