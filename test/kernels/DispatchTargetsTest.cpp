//===--- DispatchTargetsTest.cpp - Every Highway target gives the result --===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The vector kernels are compiled once per Highway target and dispatched
/// at run time (Note [Highway dynamic dispatch] in sk/iter/Loops.h). CI
/// runs on one CPU, so this test makes the dispatch choose each target the
/// CPU supports in turn (hwy::DisableTargets) and checks that every one
/// computes what the best one does: the portable EMU128 and SSE4 paths,
/// which such a CPU never takes by itself, included.
///
//===----------------------------------------------------------------------===//

#include "Functions.h"

#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using namespace sk;

namespace {

/// The ops of the dispatched sources, on odd sizes so that the vector
/// bodies and their tails run, and on a small tensor for the inline path;
/// embedding_bag sums 129-wide rows in bands of eight vectors and a tail.
std::vector<Tensor> runOps(const Tensor &A, const Tensor &B,
                           const Tensor &Positive) {
  std::vector<int64_t> Rows;
  for (int64_t I = 0; I < 40; ++I)
    Rows.push_back(I * 7 % 37);
  Tensor Indices = sk::empty({40}, TensorOptions().dtype(kLong));
  std::copy(Rows.begin(), Rows.end(), Indices.data_ptr<int64_t>());
  Tensor Offsets = sk::empty({3}, TensorOptions().dtype(kLong));
  Offsets.data_ptr<int64_t>()[0] = 0;
  Offsets.data_ptr<int64_t>()[1] = 5;
  Offsets.data_ptr<int64_t>()[2] = 30;
  std::vector<Tensor> Results = {
      sk::log(Positive),
      sk::sin(A),
      sk::cos(A),
      sk::tanh(A),
      sk::sigmoid(A),
      sk::gelu(A),
      sk::gelu(A, "tanh"),
      sk::pow(Positive, B),
      std::get<0>(sk::embedding_bag(A, Indices, Offsets, false, 0)),
      std::get<0>(sk::embedding_bag(A, Indices, Offsets, false, 1)),
      sk::add(A, B, 2),
      sk::sub(A, 1.5),
      sk::mul(A, B),
      sk::div(A, Positive),
      sk::pow(Positive, 2),
      sk::neg(A),
      sk::abs(A),
      sk::sqrt(Positive),
      sk::rsqrt(Positive),
      sk::relu(A),
      sk::exp(A),
      sk::sum(A, {1}),
      sk::sum(A),
      sk::amax(A, {0}),
      sk::amin(A, {0}),
      sk::clamp(A, std::optional<Scalar>(-0.5), std::optional<Scalar>(0.5)),
      sk::clamp(A, std::optional<Tensor>(B), std::nullopt),
      sk::softmax(A, 1),
      sk::log_softmax(A, 0),
      std::get<0>(sk::native_layer_norm(A, {129}, {}, {}, 1e-5)),
      sk::add(A.narrow(0, 0, 1), 1),
  };
  return Results;
}

/// The targets the CPU supports, best first, and a name for each.
std::vector<std::pair<int64_t, std::string>> supportedTargets() {
  std::vector<std::pair<int64_t, std::string>> Targets;
  int64_t Supported = hwy::SupportedTargets();
  for (int64_t T : {HWY_AVX3, HWY_AVX2, HWY_SSE4, HWY_EMU128})
    if (Supported & T)
      Targets.emplace_back(T, hwy::TargetName(T));
  return Targets;
}

TEST(DispatchTargetsTest, EveryTargetComputesWhatTheBestDoes) {
  Tensor A = sk::randn({37, 129});
  Tensor B = sk::randn({37, 129});
  Tensor Positive = sk::add(sk::rand({37, 129}), 0.5);
  std::vector<Tensor> Expected = runOps(A, B, Positive);
  std::vector<std::pair<int64_t, std::string>> Targets = supportedTargets();
  ASSERT_FALSE(Targets.empty());
  for (size_t I = 1; I < Targets.size(); ++I) {
    // Every target better than this one (a lower bit: AVX3_DL and SPR
    // too, where the CPU has them) off: dispatch picks this one.
    hwy::DisableTargets(Targets[I].first - 1);
    // The dispatch now picks this target: no better one (a lower bit) is
    // left.
    ASSERT_EQ(hwy::SupportedTargets() & ((Targets[I].first << 1) - 1),
              Targets[I].first);
    SCOPED_TRACE(Targets[I].second);
    std::vector<Tensor> Got = runOps(A, B, Positive);
    hwy::DisableTargets(0);
    ASSERT_EQ(Got.size(), Expected.size());
    for (size_t K = 0; K != Got.size(); ++K) {
      SCOPED_TRACE("op " + std::to_string(K));
      ASSERT_EQ(Got[K].sizes(), Expected[K].sizes());
      Tensor G = Got[K].contiguous(), E = Expected[K].contiguous();
      const float *GD = G.data_ptr<float>(), *ED = E.data_ptr<float>();
      for (int64_t L = 0, N = G.numel(); L != N; ++L)
        ASSERT_NEAR(GD[L], ED[L], 1e-5 * (1 + std::abs(ED[L]))) << L;
    }
  }
  std::string Names;
  for (const auto &[Target, Name] : Targets)
    Names += " " + Name;
  std::cout << "[          ] targets compared:" << Names << "\n";
  if (Targets.size() == 1)
    GTEST_SKIP() << "this CPU supports one Highway target only: "
                 << Targets[0].second;
}

} // namespace
