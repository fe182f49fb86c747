//===--- Generator.cpp - Seedable random number generators ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/ops/Generator.h"

#include <cmath>

namespace sk {

double Generator::normal() {
  if (HasCachedNormal) {
    HasCachedNormal = false;
    return CachedNormal;
  }
  // U1 in (0, 1] keeps the logarithm finite.
  double U1 = 1.0 - uniform(53);
  double U2 = uniform(53);
  double Radius = std::sqrt(-2.0 * std::log(U1));
  constexpr double TwoPi = 6.283185307179586476925286766559;
  double Theta = TwoPi * U2;
  CachedNormal = Radius * std::sin(Theta);
  HasCachedNormal = true;
  return Radius * std::cos(Theta);
}

Generator &getDefaultGenerator() {
  static Generator Default;
  return Default;
}

void manual_seed(uint64_t Seed) { getDefaultGenerator().manual_seed(Seed); }

} // namespace sk
