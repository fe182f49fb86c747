//===--- OperatorSchema.h - The runtime form of a function schema -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the dispatcher needs from a schema string such as
/// `sk::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`:
/// the name, and per argument and return a compact type (base type, `?`,
/// `[]`), the name, whether it is written to, and whether it has a default.
/// It checks kernel signatures against schemas at registration, boxes and
/// unboxes calls, and names arguments in traces. The grammar is skc's own
/// (sk/schema/SchemaSyntax.h); skc adds the rules over it, with diagnostics.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_OPERATORSCHEMA_H
#define SK_DISPATCH_OPERATORSCHEMA_H

#include "sk/schema/TypeShape.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sk {

/// `ns::name.overload`.
struct OperatorName {
  std::string Name; ///< With its namespace: `sk::add`.
  std::string Overload;

  /// `sk::add.Tensor`, or `sk::add` without an overload.
  std::string str() const {
    return Overload.empty() ? Name : Name + "." + Overload;
  }
  bool operator==(const OperatorName &O) const {
    return Name == O.Name && Overload == O.Overload;
  }
};

std::ostream &operator<<(std::ostream &OS, const OperatorName &N);

using schema::ValueKind;

/// A schema type as the runtime holds it: its shape (base value kind, `?`,
/// `[]`; sk/schema/TypeShape.h) and its spelling. `Tensor?[]` is {Tensor,
/// list, optional elements}; `int[2]?` is {Int, optional, list of 2}.
struct SchemaType : schema::TypeShape {
  /// The type as written, without alias annotation: `Tensor?[]`, `SymInt[2]`.
  std::string Spelling;

  /// A fixed-size list matches a list of any length (`int[2]` is passed
  /// as an IntArrayRef), but not one of another fixed length.
  bool operator==(const SchemaType &O) const {
    return Base == O.Base && IsOptional == O.IsOptional &&
           IsList == O.IsList && IsElementOptional == O.IsElementOptional &&
           (ListSize == O.ListSize || ListSize == 0 || O.ListSize == 0);
  }
  bool operator!=(const SchemaType &O) const { return !(*this == O); }
};

struct SchemaArgument {
  std::string Name; ///< Empty for an unnamed return.
  SchemaType Type;
  /// The alias annotation without parentheses: `a!`, `a`, `a -> *`.
  std::string Alias;
  /// The default as written: `None`, `[0,1]`, `"mean"`, `1e-05`.
  std::string Default;
  bool IsWrite = false;
  bool IsKwargOnly = false;
  bool HasDefault = false;
};

struct OperatorSchema {
  OperatorName Name;
  std::vector<SchemaArgument> Arguments;
  std::vector<SchemaArgument> Returns;
  /// The text it was parsed from.
  std::string Text;

  /// Parses \p Text; throws sk::Error naming the schema, the column and
  /// the problem.
  static OperatorSchema parse(std::string_view Text);

  /// Whether every argument and return has a runtime C++ type, so that the
  /// operator can have unboxed kernels.
  bool hasCppTypes() const;
  /// The schema in canonical form (single spaces, `, ` between arguments);
  /// parsing it gives the same schema.
  std::string str() const;
};

} // namespace sk

#endif // SK_DISPATCH_OPERATORSCHEMA_H
