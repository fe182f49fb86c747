//===--- ScalarType.h - Element types and type promotion --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ten dtypes of the runtime, their C++ types, and PyTorch's promotion
/// lattice (c10::promoteTypes) restricted to them.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_SCALARTYPE_H
#define SK_CORE_SCALARTYPE_H

#include "sk/core/Half.h"
#include "sk/util/Analysis.h"
#include "sk/util/Exception.h"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string_view>

namespace sk {

/// SK_FORALL_SCALAR_TYPES(_) calls _(CppType, Name, PyTorchName) for every
/// dtype, in ScalarType order.
#define SK_FORALL_SCALAR_TYPES(_)                                              \
  _(bool, Bool, bool)                                                          \
  _(uint8_t, Byte, uint8)                                                      \
  _(int8_t, Char, int8)                                                        \
  _(int16_t, Short, int16)                                                     \
  _(int32_t, Int, int32)                                                       \
  _(int64_t, Long, int64)                                                      \
  _(::sk::Half, Half, float16)                                                 \
  _(::sk::BFloat16, BFloat16, bfloat16)                                        \
  _(float, Float, float32)                                                     \
  _(double, Double, float64)

enum class ScalarType : int8_t {
#define SK_ENUMERATOR(CppType, Name, PyName) Name,
  SK_FORALL_SCALAR_TYPES(SK_ENUMERATOR)
#undef SK_ENUMERATOR
      Undefined,
  NumOptions = Undefined
};

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;

/// The C++ type of a dtype: CppTypeOf<kFloat>::type is float.
template <ScalarType S> struct CppTypeOf;
#define SK_CPP_TYPE_OF(CppType, Name, PyName)                                  \
  template <> struct CppTypeOf<ScalarType::Name> {                             \
    using type = CppType;                                                      \
  };
SK_FORALL_SCALAR_TYPES(SK_CPP_TYPE_OF)
#undef SK_CPP_TYPE_OF

/// The dtype of a C++ type: scalarTypeOf<float>() is kFloat.
template <typename T> constexpr ScalarType scalarTypeOf();
#define SK_SCALAR_TYPE_OF(CppType, Name, PyName)                               \
  template <> constexpr ScalarType scalarTypeOf<CppType>() {                   \
    return ScalarType::Name;                                                   \
  }
SK_FORALL_SCALAR_TYPES(SK_SCALAR_TYPE_OF)
#undef SK_SCALAR_TYPE_OF

constexpr size_t elementSize(ScalarType T) {
  switch (T) {
#define SK_SIZE_CASE(CppType, Name, PyName)                                    \
  case ScalarType::Name:                                                       \
    return sizeof(CppType);
    SK_FORALL_SCALAR_TYPES(SK_SIZE_CASE)
#undef SK_SIZE_CASE
  case ScalarType::Undefined:
    break;
  }
  return 0;
}

/// "float32", as PyTorch spells dtypes (`torch.float32`).
std::string_view toString(ScalarType T);
std::ostream &operator<<(std::ostream &OS, ScalarType T);

constexpr bool isFloatingType(ScalarType T) {
  return T == kHalf || T == kBFloat16 || T == kFloat || T == kDouble;
}
/// Integral types; bool counts only when \p IncludeBool.
constexpr bool isIntegralType(ScalarType T, bool IncludeBool) {
  return (IncludeBool && T == kBool) || T == kByte || T == kChar ||
         T == kShort || T == kInt || T == kLong;
}
/// Whether every value of \p From is a value of \p To without changing
/// kind (used by in-place ops: an int tensor cannot hold a float result).
bool canCast(ScalarType From, ScalarType To);

/// The smallest dtype both \p A and \p B promote to (torch.promote_types).
ScalarType promoteTypes(ScalarType A, ScalarType B);

/// The dtype floating-point computations on \p T use: float for the
/// 16-bit types, else \p T (PyTorch's opmath_type).
constexpr ScalarType toOpMathType(ScalarType T) {
  return (T == kHalf || T == kBFloat16) ? kFloat : T;
}

/// Calls \p Fn with a value of the C++ type of \p T (for dispatching
/// templated kernels by dtype): `visitScalarType(T, [&](auto Tag) {
/// using scalar_t = decltype(Tag); ... })`.
template <typename Fn>
SK_DISPATCHES_DTYPES("all")
decltype(auto) visitScalarType(ScalarType T, Fn &&F) {
  switch (T) {
#define SK_VISIT_CASE(CppType, Name, PyName)                                   \
  case ScalarType::Name:                                                       \
    return F(CppType{});
    SK_FORALL_SCALAR_TYPES(SK_VISIT_CASE)
#undef SK_VISIT_CASE
  case ScalarType::Undefined:
    break;
  }
  SK_CHECK(false, "expected a defined dtype, but got Undefined");
  return F(float{});
}

} // namespace sk

#endif // SK_CORE_SCALARTYPE_H
