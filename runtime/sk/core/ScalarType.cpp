//===--- ScalarType.cpp - Element types and type promotion ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/ScalarType.h"

namespace sk {

std::string_view toString(ScalarType T) {
  switch (T) {
#define SK_NAME_CASE(CppType, Name, PyName)                                    \
  case ScalarType::Name:                                                       \
    return #PyName;
    SK_FORALL_SCALAR_TYPES(SK_NAME_CASE)
#undef SK_NAME_CASE
  case ScalarType::Undefined:
    break;
  }
  return "undefined";
}

std::ostream &operator<<(std::ostream &OS, ScalarType T) {
  return OS << toString(T);
}

ScalarType promoteTypes(ScalarType A, ScalarType B) {
  // c10's table, rows and columns in ScalarType order:
  // b1 u1 i1 i2 i4 i8 f2 bf f4 f8.
  constexpr ScalarType b1 = kBool, u1 = kByte, i1 = kChar, i2 = kShort,
                       i4 = kInt, i8 = kLong, f2 = kHalf, bf = kBFloat16,
                       f4 = kFloat, f8 = kDouble;
  static constexpr ScalarType Table[10][10] = {
      /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8 */
      /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
      /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
      /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
      /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
      /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
  };
  SK_CHECK(A != ScalarType::Undefined && B != ScalarType::Undefined,
           "promoteTypes: cannot promote an undefined dtype");
  return Table[static_cast<int>(A)][static_cast<int>(B)];
}

bool canCast(ScalarType From, ScalarType To) {
  // PyTorch's c10::canCast: no float to integral, no non-bool to bool.
  if (isFloatingType(From) && isIntegralType(To, /*IncludeBool=*/true))
    return false;
  if (From != kBool && To == kBool)
    return false;
  return true;
}

} // namespace sk
