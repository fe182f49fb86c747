//===--- SchemaParser.h - Parse 'func:' strings -----------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent parser for the function-schema grammar. Unlike
/// torchgen's regular expressions it tolerates extra white space (and warns
/// that the text is not canonical), and every error points at the column of
/// the offending token.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_PARSE_SCHEMAPARSER_H
#define SKC_PARSE_SCHEMAPARSER_H

#include "skc/Parse/FunctionSchema.h"

#include <optional>

namespace skc {

class DiagnosticsEngine;
struct YAMLScalar;

/// Parses \p Text as a function schema. Grammar errors and the argument
/// partition rules (`*` once, out arguments last, nothing mutable before
/// `self`, defaults that fit their type) are reported to \p Diags. Returns
/// std::nullopt when the schema could not be parsed or broke such a rule.
std::optional<FunctionSchema> parseFunctionSchema(const YAMLScalar &Text,
                                                  TypeContext &Types,
                                                  DiagnosticsEngine &Diags);

/// Parses `[ns::]name[.overload]` as it appears in `structured_delegate` and
/// `autogen`. Returns std::nullopt if \p Text is not an operator name.
std::optional<OperatorName> parseOperatorName(llvm::StringRef Text);

} // namespace skc

#endif // SKC_PARSE_SCHEMAPARSER_H
