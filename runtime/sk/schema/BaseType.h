//===--- BaseType.h - The base types of the schema language -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The base types of the `func:` grammar (`Tensor`, `int`, `SymInt`, ...),
/// one enumerator per entry of sk/core/SchemaBaseTypes.def, and the kind of
/// runtime value each one holds. skc's parser and the runtime's both use
/// these; nothing here depends on more than the standard library.
///
//===----------------------------------------------------------------------===//

#ifndef SK_SCHEMA_BASETYPE_H
#define SK_SCHEMA_BASETYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace sk::schema {

/// A base type of the schema language, in torchgen's BaseTy order.
enum class BaseType : uint8_t {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) Enumerator,
#include "sk/core/SchemaBaseTypes.def"
};

/// The spelling of \p T in a schema: `int`, `Tensor`, `SymInt`.
std::string_view getSpelling(BaseType T);

/// The base type spelled \p Spelling, if there is one.
std::optional<BaseType> lookupBaseType(std::string_view Spelling);

/// Calls \p F with the spelling of every base type, in order.
template <typename Fn> void forEachBaseTypeSpelling(Fn F) {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) F(std::string_view(Spelling));
#include "sk/core/SchemaBaseTypes.def"
}

/// The kind of runtime value a base type holds. SymInt is an Int and
/// SymBool a Bool: the runtime has no symbolic values.
enum class ValueKind : uint8_t {
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
  Dimname,
  /// QScheme, Storage, Stream, custom classes, ...: parsed, never held.
  Other,
};

/// The runtime value kind of \p T (the RuntimeKind column of the .def).
ValueKind getValueKind(BaseType T);

} // namespace sk::schema

#endif // SK_SCHEMA_BASETYPE_H
