//===--- TypeShape.h - Which schema types have runtime C++ types -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A schema type reduced to what the runtime can hold: `Tensor?[]` is
/// {Tensor, list, optional elements}, `int[2]?` is {Int, optional, list of
/// 2}. And the one rule of which types have a runtime C++ type, that is
/// which operators get a typed API and unboxed kernels: skc generates C++
/// exactly for those, and the dispatcher accepts unboxed kernels exactly
/// for those (Note [Runtime types of schema types]).
///
//===----------------------------------------------------------------------===//

#ifndef SK_SCHEMA_TYPESHAPE_H
#define SK_SCHEMA_TYPESHAPE_H

#include "sk/schema/BaseType.h"

#include <cstdint>
#include <optional>

namespace sk::schema {

/// A `?` or a `[N]` after a base type, as written.
struct TypeSuffix {
  bool IsList = false;
  /// For lists: the N of `T[N]`, or 0 for `T[]`.
  uint32_t ListSize = 0;
};

struct TypeShape {
  ValueKind Base = ValueKind::Other;
  /// `T?` or `T[]?`.
  bool IsOptional = false;
  bool IsList = false;
  /// `T?[]`.
  bool IsElementOptional = false;
  /// The length of a fixed-size list (`int[2]`); 0 for any length.
  uint32_t ListSize = 0;

  /// The shape of a type of base value kind \p Base with \p Suffixes applied
  /// left to right; std::nullopt when the runtime cannot hold it (`T??`, a
  /// list of lists).
  static std::optional<TypeShape> get(ValueKind Base,
                                      const TypeSuffix *Suffixes, size_t N);

  /// Whether an argument of this type has a runtime C++ type.
  bool hasArgumentCppType() const;
  /// Whether a return of this type has one.
  bool hasReturnCppType() const;
};

} // namespace sk::schema

#endif // SK_SCHEMA_TYPESHAPE_H
