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
/// unboxes calls, and names arguments in traces. (skc's compiler has the
/// full grammar with diagnostics; the runtime links nothing of it.)
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_OPERATORSCHEMA_H
#define SK_DISPATCH_OPERATORSCHEMA_H

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

/// A schema type reduced to what boxing and signature checks need.
struct SchemaType {
  enum BaseKind : uint8_t {
    Tensor,
    Int,
    Float,
    Bool,
    Str,
    Scalar,
    ScalarType,
    Device,
    MemoryFormat,
    Layout,
    Generator,
    Other,
  };
  BaseKind Base = Other;
  bool IsOptional = false;
  bool IsList = false;
  /// The type as written, without alias annotation.
  std::string Spelling;

  bool operator==(const SchemaType &O) const {
    return Base == O.Base && IsOptional == O.IsOptional && IsList == O.IsList;
  }
  bool operator!=(const SchemaType &O) const { return !(*this == O); }
};

struct SchemaArgument {
  std::string Name;
  SchemaType Type;
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

  /// Parses \p Text; throws sk::Error naming the schema and the problem.
  static OperatorSchema parse(std::string_view Text);
};

} // namespace sk

#endif // SK_DISPATCH_OPERATORSCHEMA_H
