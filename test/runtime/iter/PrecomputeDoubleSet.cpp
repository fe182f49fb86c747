//===--- PrecomputeDoubleSet.cpp - Must not compile -----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Not part of any target: a CTest compiles it with -fsyntax-only and
// expects the static_assert of Note [Precomputed fields] to fire on the
// second set_kW.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/MetaBase.h"

struct precompute_fields {
  int64_t kW;
  int64_t outW;
};

template <uint64_t SetMask = 0>
struct precompute_out
    : sk::impl::PrecomputeOut<precompute_out, precompute_fields, SetMask> {
  SK_PRECOMPUTE_FIELD(0, int64_t, kW)
  SK_PRECOMPUTE_FIELD(1, int64_t, outW)
};

int main() {
  auto P = precompute_out<>().set_kW(1).set_outW(2).set_kW(3);
  return static_cast<int>(P.kW);
}
