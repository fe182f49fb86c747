//===--- main.cpp - A downstream program, written as users write them -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls every variant of this project's operators (functional, inplace,
/// out=, `myops::cpu::`, `myops::meta::`) on CPU and on meta tensors, next
/// to skc's bundled operators (skc::kernels), the way users write calls:
/// braced lists, temporaries, defaults left out. Each result is checked
/// against values worked out by hand; the program prints what failed and
/// exits with 1, or prints "OK: <n> checks". test/cmake/Downstream.cmake
/// builds it with Ninja and with Makefiles, and under AddressSanitizer,
/// which catches a view of a dead temporary.
///
//===----------------------------------------------------------------------===//

#include "downstream_ops/CPUFunctions.h"
#include "downstream_ops/Functions.h"
#include "downstream_ops/MetaFunctions.h"
#include "skc_kernels/Functions.h"

#include "sk/ops/Factories.h"

#include <cmath>
#include <exception>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <string>
#include <vector>

namespace {

int Checks = 0;
int Failures = 0;

/// Whether \p T, a CPU tensor, holds \p Expected in row-major order, with
/// sizes \p Sizes.
void expectValues(const std::string &What, const sk::Tensor &T,
                  std::vector<int64_t> Sizes, std::vector<double> Expected) {
  ++Checks;
  if (T.sizes().vec() != Sizes) {
    std::cout << "FAILED: " << What << ": sizes " << T.sizes() << '\n';
    ++Failures;
    return;
  }
  sk::Tensor Values = T.to(sk::kDouble).contiguous();
  const double *Data = Values.data_ptr<double>();
  for (size_t I = 0; I != Expected.size(); ++I) {
    if (std::abs(Data[I] - Expected[I]) > 1e-5) {
      std::cout << "FAILED: " << What << ": element " << I << " is "
                << Data[I] << ", expected " << Expected[I] << '\n';
      ++Failures;
      return;
    }
  }
}

/// Whether \p T is a meta tensor of \p Sizes and dtype float.
void expectMeta(const std::string &What, const sk::Tensor &T,
                std::vector<int64_t> Sizes) {
  ++Checks;
  if (!T.is_meta() || T.sizes().vec() != Sizes ||
      T.scalar_type() != sk::kFloat) {
    std::cout << "FAILED: " << What << ": " << T.scalar_type() << T.sizes()
              << ' ' << T.device() << '\n';
    ++Failures;
  }
}

/// Whether \p Call throws an error whose message contains \p Needle.
void expectError(const std::string &What, const std::function<void()> &Call,
                 const std::string &Needle) {
  ++Checks;
  try {
    Call();
  } catch (const std::exception &E) {
    if (std::string(E.what()).find(Needle) != std::string::npos)
      return;
    std::cout << "FAILED: " << What << ": message '" << E.what() << "'\n";
    ++Failures;
    return;
  }
  std::cout << "FAILED: " << What << ": no error\n";
  ++Failures;
}

/// [[0, 1, 2], [3, 4, 5]] as float.
sk::Tensor x23() {
  return sk::arange(0, 6, 1, sk::TensorOptions().dtype(sk::kFloat))
      .reshape({2, 3});
}

void addScaled() {
  sk::Tensor X = x23();
  sk::Tensor Ones = sk::ones({3});
  expectValues("add_scaled(x, 2, ones)", myops::add_scaled(X, 2, Ones), {2, 3},
               {1, 3, 5, 7, 9, 11});
  // The optional tensor left out, given as {} and as std::nullopt.
  expectValues("add_scaled(x, 3)", myops::add_scaled(X, 3), {2, 3},
               {0, 3, 6, 9, 12, 15});
  expectValues("add_scaled(x, 0.5, {})", myops::add_scaled(X, 0.5, {}),
               {2, 3}, {0, 0.5, 1, 1.5, 2, 2.5});
  expectValues("add_scaled(x, 1, nullopt)",
               myops::add_scaled(X, 1, std::nullopt), {2, 3},
               {0, 1, 2, 3, 4, 5});
  // Temporaries as every argument.
  expectValues("add_scaled(temporaries)",
               myops::add_scaled(sk::ones({2}), sk::Scalar(4), sk::ones({2})),
               {2}, {5, 5});

  sk::Tensor Y = x23();
  myops::add_scaled_(Y, -1, sk::full({1}, 10));
  expectValues("add_scaled_(y, -1, full 10)", Y, {2, 3}, {10, 9, 8, 7, 6, 5});

  sk::Tensor Out = sk::empty({2, 3});
  myops::add_scaled_out(Out, X, 2);
  expectValues("add_scaled_out(out, x, 2)", Out, {2, 3}, {0, 2, 4, 6, 8, 10});
  myops::add_scaled_outf(X, 1, Ones, Out);
  expectValues("add_scaled_outf(x, 1, ones, out)", Out, {2, 3},
               {1, 2, 3, 4, 5, 6});
  // An out= of the wrong size is resized, as PyTorch does.
  sk::Tensor Small = sk::empty({0});
  myops::add_scaled_out(Small, X, 1);
  expectValues("add_scaled_out(empty out, x, 1)", Small, {2, 3},
               {0, 1, 2, 3, 4, 5});

  expectValues("cpu::add_scaled(x, 2)", myops::cpu::add_scaled(X, 2), {2, 3},
               {0, 2, 4, 6, 8, 10});
  sk::Tensor Z = x23();
  myops::cpu::add_scaled_(Z, 2, Ones);
  expectValues("cpu::add_scaled_(z, 2, ones)", Z, {2, 3}, {1, 3, 5, 7, 9, 11});
  myops::cpu::add_scaled_out(Out, X, 3);
  expectValues("cpu::add_scaled_out(out, x, 3)", Out, {2, 3},
               {0, 3, 6, 9, 12, 15});

  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  sk::Tensor MX = sk::empty({4, 1}, Meta);
  expectMeta("add_scaled(meta 4x1, 2, meta 3)",
             myops::add_scaled(MX, 2, sk::empty({3}, Meta)), {4, 3});
  expectMeta("meta::add_scaled(meta 4x1, 2)", myops::meta::add_scaled(MX, 2),
             {4, 1});
  expectError("add_scaled(2x3, 1, 4)",
              [&] { myops::add_scaled(X, 1, sk::ones({4})); }, "4");
}

void sumOfSquares() {
  sk::Tensor X = x23();
  // The call that once read a dead temporary: one dimension, braced.
  expectValues("sum_of_squares(x, {1})", myops::sum_of_squares(X, {1}), {2},
               {5, 50});
  expectValues("sum_of_squares(x, {0})", myops::sum_of_squares(X, {0}), {3},
               {9, 17, 29});
  expectValues("sum_of_squares(x, {-1}, true)",
               myops::sum_of_squares(X, {-1}, true), {2, 1}, {5, 50});
  expectValues("sum_of_squares(x, {0, 1})", myops::sum_of_squares(X, {0, 1}),
               {}, {55});
  expectValues("sum_of_squares(x)", myops::sum_of_squares(X), {}, {55});
  std::vector<int64_t> Dims = {1};
  expectValues("sum_of_squares(x, dims vector)",
               myops::sum_of_squares(X, Dims), {2}, {5, 50});
  int64_t Dim = 0;
  expectValues("sum_of_squares(x, {dim}, true)",
               myops::sum_of_squares(X, {Dim}, true), {1, 3}, {9, 17, 29});

  sk::Tensor Out = sk::empty({2});
  myops::sum_of_squares_out(Out, X, {1});
  expectValues("sum_of_squares_out(out, x, {1})", Out, {2}, {5, 50});
  myops::sum_of_squares_outf(X, {0}, true, Out);
  expectValues("sum_of_squares_outf(x, {0}, true, out)", Out, {1, 3},
               {9, 17, 29});
  expectValues("cpu::sum_of_squares(x, {1})",
               myops::cpu::sum_of_squares(X, {1}), {2}, {5, 50});
  myops::cpu::sum_of_squares_out(Out, X);
  expectValues("cpu::sum_of_squares_out(out, x)", Out, {}, {55});

  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  sk::Tensor M = sk::empty({2, 3, 4}, Meta);
  expectMeta("sum_of_squares(meta, {1})", myops::sum_of_squares(M, {1}),
             {2, 4});
  expectMeta("meta::sum_of_squares(meta, {2}, true)",
             myops::meta::sum_of_squares(M, {2}, true), {2, 3, 1});
  expectError("sum_of_squares(x, {2})",
              [&] { myops::sum_of_squares(X, {2}); }, "out of range");
}

void sumAll() {
  sk::Tensor X = x23();
  // A braced list of temporaries and named tensors.
  expectValues("sum_all({x, ones, x})",
               myops::sum_all({X, sk::ones({2, 3}), X}), {2, 3},
               {1, 3, 5, 7, 9, 11});
  expectValues("sum_all({x})", myops::sum_all({X}), {2, 3},
               {0, 1, 2, 3, 4, 5});
  sk::Tensor Out = sk::empty({2, 3});
  myops::sum_all_out(Out, {X, X});
  expectValues("sum_all_out(out, {x, x})", Out, {2, 3}, {0, 2, 4, 6, 8, 10});
  myops::sum_all_outf({sk::ones({2, 3}), sk::ones({2, 3})}, Out);
  expectValues("sum_all_outf({ones, ones}, out)", Out, {2, 3},
               {2, 2, 2, 2, 2, 2});
  expectValues("cpu::sum_all({x, x})", myops::cpu::sum_all({X, X}), {2, 3},
               {0, 2, 4, 6, 8, 10});

  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  expectMeta("sum_all({meta, meta})",
             myops::sum_all({sk::empty({5}, Meta), sk::empty({5}, Meta)}),
             {5});
  expectMeta("meta::sum_all({meta})",
             myops::meta::sum_all({sk::empty({2, 2}, Meta)}), {2, 2});
  expectError("sum_all({})", [] { myops::sum_all({}); }, "no tensor arguments");
  expectError("sum_all({2x3, 3})",
              [&] { myops::sum_all({X, sk::ones({3})}); }, "sizes");
}

void minMax() {
  sk::Tensor X = x23();
  auto [Min, Max] = myops::min_max(X);
  expectValues("min_max(x).min", Min, {}, {0});
  expectValues("min_max(x).max", Max, {}, {5});
  sk::Tensor Lo = sk::empty({}), Hi = sk::empty({});
  myops::min_max_out(Lo, Hi, sk::full({3}, -2.0));
  expectValues("min_max_out(lo, hi, full -2).min", Lo, {}, {-2});
  myops::min_max_outf(X, Lo, Hi);
  expectValues("min_max_outf(x, lo, hi).max", Hi, {}, {5});
  auto [CpuMin, CpuMax] = myops::cpu::min_max(X);
  expectValues("cpu::min_max(x).max", CpuMax, {}, {5});

  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  auto [MetaMin, MetaMax] = myops::meta::min_max(sk::empty({7}, Meta));
  expectMeta("meta::min_max(meta).min", MetaMin, {});
  expectMeta("min_max(meta).max", std::get<1>(myops::min_max(
                                      sk::empty({7}, Meta))),
             {});
  expectError("min_max(empty)", [] { myops::min_max(sk::empty({0})); },
              "non-empty");
}

/// skc's own operators, from the installed skc::kernels.
void bundled() {
  sk::Tensor X = x23();
  expectValues("sk::add(x, x, 2)", sk::add(X, X, 2), {2, 3},
               {0, 3, 6, 9, 12, 15});
  expectValues("sk::mm(x, x^T)", sk::mm(X, X.t()), {2, 2}, {5, 14, 14, 50});
  sk::Tensor S = sk::softmax(sk::zeros({2, 4}), 1);
  expectValues("sk::softmax(zeros, 1)", S, {2, 4},
               {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25});
  expectValues("sk::sum(x, {1})", sk::sum(X, {1}), {2}, {3, 12});
  expectValues("sk::mean(x, {0}, true)", sk::mean(X, {0}, true), {1, 3},
               {1.5, 2.5, 3.5});
  // The two libraries' operators on each other's results.
  expectValues("sum_of_squares(sk::add(x, x))",
               myops::sum_of_squares(sk::add(X, X), {1}), {2}, {20, 200});
  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  expectMeta("sk::mm(meta 2x3, meta 3x5)",
             sk::mm(sk::empty({2, 3}, Meta), sk::empty({3, 5}, Meta)), {2, 5});
}

} // namespace

int main() {
  addScaled();
  sumOfSquares();
  sumAll();
  minMax();
  bundled();
  if (Failures) {
    std::cout << Failures << " of " << Checks << " checks FAILED\n";
    return 1;
  }
  std::cout << "OK: " << Checks << " checks\n";
  return 0;
}
