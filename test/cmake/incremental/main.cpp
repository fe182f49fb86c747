#include "incr_ops/Functions.h"

#include "sk/ops/Factories.h"

#include <iostream>

int main() {
  sk::Tensor X = sk::arange(-2, 2, sk::TensorOptions().dtype(sk::kFloat));
  std::cout << "twice: " << incr::twice(X) << '\n';
  std::cout << "clamp_min_zero: " << incr::clamp_min_zero(X) << '\n';
  std::cout << "shift: " << incr::shift(X) << '\n';
  // IncrementalBuild.cmake adds a call of twice_ here.
}
