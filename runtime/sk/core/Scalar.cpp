//===--- Scalar.cpp - A number that is not a tensor -----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Scalar.h"

namespace sk {

std::ostream &operator<<(std::ostream &OS, const Scalar &S) {
  switch (S.type()) {
  case kBool:
    return OS << (S.toBool() ? "True" : "False");
  case kLong:
    return OS << S.toUnchecked<int64_t>();
  default:
    return OS << S.toDouble();
  }
}

void detail::scalarOverflow(const Scalar &S, ScalarType To) {
  throw Error(detail::str("value ", S, " cannot be converted to type ", To,
                          " without overflow"));
}

} // namespace sk
