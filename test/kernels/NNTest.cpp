//===--- NNTest.cpp - Tests of the neural-network kernels -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// softmax, log_softmax, layer_norm, batch_norm, embedding, embedding_bag,
/// binary_cross_entropy, max_pool2d/3d and upsample_nearest1d, checked
/// against naive reference loops written here in double precision, on
/// every variant (sk::op, sk::op_out, sk::cpu::op) and on meta tensors.
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"

#include "iter/IterTestUtils.h"

#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

using namespace sk;
using sk::test::fromVector;
using sk::test::toVector;
using sk::test::transposed;

namespace {

/// Deterministic pseudo-random values in [Lo, Hi).
std::vector<double> randomValues(int64_t N, double Lo = -3, double Hi = 3,
                                 uint64_t Seed = 1) {
  std::vector<double> V(N);
  uint64_t S = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t I = 0; I < N; ++I) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    V[I] = Lo + (Hi - Lo) * static_cast<double>(S >> 11) / 9007199254740992.0;
  }
  return V;
}

int64_t numelOf(IntArrayRef Sizes) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  return N;
}

Tensor randomTensor(IntArrayRef Sizes, ScalarType Dtype = kFloat,
                    uint64_t Seed = 1, double Lo = -3, double Hi = 3) {
  return fromVector(randomValues(numelOf(Sizes), Lo, Hi, Seed), Sizes, Dtype);
}

void expectNear(const std::vector<double> &Got, const std::vector<double> &Want,
                double Tol) {
  ASSERT_EQ(Got.size(), Want.size());
  for (size_t I = 0; I < Got.size(); ++I) {
    if (std::isnan(Want[I])) {
      EXPECT_TRUE(std::isnan(Got[I])) << "at " << I;
      continue;
    }
    EXPECT_NEAR(Got[I], Want[I], Tol * (1 + std::fabs(Want[I]))) << "at " << I;
  }
}

/// The sizes, strides and dtype of \p T on the meta device equal \p Want's.
void expectSameGeometry(const Tensor &Meta, const Tensor &Want) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(Meta.sizes().vec(), Want.sizes().vec());
  EXPECT_EQ(Meta.strides().vec(), Want.strides().vec());
  EXPECT_EQ(Meta.scalar_type(), Want.scalar_type());
}

Tensor toMeta(const Tensor &T) {
  return empty_strided(T.sizes(), T.strides(),
                       TensorOptions(kMeta).dtype(T.scalar_type()));
}

//===--- softmax ----------------------------------------------------------===//

/// Softmax of the row-major \p X of \p Sizes along \p Dim, in double.
std::vector<double> refSoftmax(const std::vector<double> &X,
                               std::vector<int64_t> Sizes, int64_t Dim,
                               bool Log) {
  if (Sizes.empty())
    Sizes = {1};
  int64_t Outer = 1, Inner = 1, N = Sizes[Dim];
  for (int64_t D = 0; D < Dim; ++D)
    Outer *= Sizes[D];
  for (size_t D = Dim + 1; D < Sizes.size(); ++D)
    Inner *= Sizes[D];
  std::vector<double> Y(X.size());
  for (int64_t O = 0; O < Outer; ++O)
    for (int64_t J = 0; J < Inner; ++J) {
      auto At = [&](int64_t K) { return (O * N + K) * Inner + J; };
      double Max = -INFINITY;
      for (int64_t K = 0; K < N; ++K)
        Max = std::max(Max, X[At(K)]);
      double Sum = 0;
      for (int64_t K = 0; K < N; ++K)
        Sum += std::exp(X[At(K)] - Max);
      for (int64_t K = 0; K < N; ++K)
        Y[At(K)] = Log ? X[At(K)] - Max - std::log(Sum)
                       : std::exp(X[At(K)] - Max) / Sum;
    }
  return Y;
}

struct SoftmaxCase {
  std::vector<int64_t> Sizes;
  int64_t Dim;
};

TEST(NNSoftmax, MatchesReferenceOverDimsAndDtypes) {
  // Long rows (vector body and tail), inner dims of several widths.
  std::vector<SoftmaxCase> Cases = {
      {{3, 37}, 1}, {{3, 37}, 0}, {{2, 5, 19}, 1}, {{4, 3, 2, 3}, -2},
      {{1}, 0},     {{}, 0},      {{2, 1000}, -1}, {{70, 2, 40}, 0}};
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16})
    for (const SoftmaxCase &C : Cases)
      for (bool Log : {false, true}) {
        Tensor X = randomTensor(C.Sizes, Dtype);
        std::vector<double> XV = toVector<double>(X);
        int64_t Dim = C.Sizes.empty()
                          ? 0
                          : (C.Dim + static_cast<int64_t>(C.Sizes.size())) %
                                static_cast<int64_t>(C.Sizes.size());
        Tensor Y = Log ? sk::_log_softmax(X, C.Dim, false)
                       : sk::_softmax(X, C.Dim, false);
        EXPECT_EQ(Y.scalar_type(), Dtype);
        EXPECT_EQ(Y.sizes().vec(), C.Sizes);
        double Tol = Dtype == kDouble  ? 1e-12
                     : Dtype == kFloat ? 1e-5
                     : Dtype == kHalf  ? 4e-3
                                       : 2e-2;
        expectNear(toVector<double>(Y), refSoftmax(XV, C.Sizes, Dim, Log), Tol);
      }
}

TEST(NNSoftmax, NonContiguousInputAndEveryVariant) {
  Tensor Base = randomTensor({6, 9});
  Tensor X = transposed(Base, 0, 1); // [9, 6], strides [1, 9]
  std::vector<double> Want = refSoftmax(toVector<double>(X), {9, 6}, 1, false);
  Tensor Y = sk::_softmax(X, 1, false);
  EXPECT_TRUE(Y.is_contiguous());
  expectNear(toVector<double>(Y), Want, 1e-5);
  expectNear(toVector<double>(sk::cpu::_softmax(X, 1, false)), Want, 1e-5);

  // out= of the wrong layout is written through (a proxy).
  Tensor Out = transposed(sk::empty({6, 9}), 0, 1);
  sk::_softmax_out(Out, X, 1, false);
  expectNear(toVector<double>(Out), Want, 1e-5);
  // An out= of the wrong size is resized.
  Tensor Small = sk::empty({0});
  sk::_log_softmax_out(Small, X, 1, false);
  EXPECT_EQ(Small.sizes().vec(), (std::vector<int64_t>{9, 6}));
  expectNear(toVector<double>(Small),
             refSoftmax(toVector<double>(X), {9, 6}, 1, true), 1e-5);
  // A transposed softmax along dim 0 (inner stride path).
  expectNear(toVector<double>(sk::_softmax(X, 0, false)),
             refSoftmax(toVector<double>(X), {9, 6}, 0, false), 1e-5);
}

// libtorch 2.15 writes such outs as if they were contiguous (docs/kernels.md,
// deliberate differences); these pin skc's values to the functional's.
TEST(NNSoftmax, OutOfEveryLayoutHoldsTheFunctionalsValues) {
  Tensor X = randomTensor({4, 3, 5});
  for (bool Log : {false, true})
    for (int64_t Dim : {0, 1, 2}) {
      SCOPED_TRACE(::testing::Message() << "log " << Log << " dim " << Dim);
      std::vector<double> Want =
          refSoftmax(toVector<double>(X), {4, 3, 5}, Dim, Log);
      Tensor Transposed = sk::empty({5, 3, 4}).permute({2, 1, 0});
      Tensor Strided = sk::empty({4, 3, 10}).slice(2, 0, std::nullopt, 2);
      for (Tensor Out : {Transposed, Strided}) {
        if (Log)
          sk::_log_softmax_out(Out, X, Dim, false);
        else
          sk::_softmax_out(Out, X, Dim, false);
        expectNear(toVector<double>(Out), Want, 1e-5);
      }
    }
}

// A row of a million keeps float32's precision: its sum is not one long
// float32 accumulation.
TEST(NNSoftmax, MillionElementRow_KeepsFloatPrecision) {
  const int64_t N = int64_t(1) << 20;
  Tensor X = sk::mul(sk::randn({N}), 3);
  std::vector<double> XV = toVector<double>(X);
  double Max = *std::max_element(XV.begin(), XV.end()), Sum = 0;
  for (double V : XV)
    Sum += std::exp(V - Max);
  for (bool Log : {false, true}) {
    std::vector<double> Y = toVector<double>(Log ? sk::_log_softmax(X, 0, false)
                                                 : sk::_softmax(X, 0, false));
    double Worst = 0;
    for (int64_t I = 0; I < N; ++I) {
      double Want =
          Log ? XV[I] - Max - std::log(Sum) : std::exp(XV[I] - Max) / Sum;
      Worst = std::max(Worst, std::abs(Y[I] - Want) / std::abs(Want));
    }
    EXPECT_LT(Worst, 2e-6) << (Log ? "log_softmax" : "softmax");
  }
}

TEST(NNSoftmax, LogSoftmaxOfLargeValues_SubtractsTheMaximumFirst) {
  // Found by the differential test: x - (max + log(sum)) lost log(sum)
  // against a maximum of 1e30 and gave 0 where the answer is -log(k).
  for (int64_t N : {2, 3, 40}) {
    std::vector<double> V(static_cast<size_t>(N), 1e30);
    V[1] = 0; // exp(0 - 1e30) adds nothing: the others share the sum.
    double K = static_cast<double>(N - 1);
    for (ScalarType D : {kFloat, kDouble, kBFloat16}) {
      Tensor X = fromVector(V, {1, N}, D);
      std::vector<double> Row = toVector<double>(sk::_log_softmax(X, 1, false));
      // The column path: softmax over dim 0 of the transpose.
      std::vector<double> Col = toVector<double>(
          sk::_log_softmax(transposed(X, 0, 1).contiguous(), 0, false));
      double Tol = D == kBFloat16 ? 1e-2 : 1e-6;
      for (std::vector<double> *Y : {&Row, &Col}) {
        EXPECT_NEAR((*Y)[0], -std::log(K), Tol) << N << " " << D;
        EXPECT_NEAR((*Y)[1] / 1e30, -1.0, Tol) << N << " " << D;
      }
    }
  }
}

TEST(NNSoftmax, ZeroSizeAndNaNAndInfinity) {
  Tensor E = sk::_softmax(sk::empty({0, 4}), 1, false);
  EXPECT_EQ(E.sizes().vec(), (std::vector<int64_t>{0, 4}));
  Tensor E2 = sk::_softmax(sk::empty({3, 0}), 1, false);
  EXPECT_EQ(E2.sizes().vec(), (std::vector<int64_t>{3, 0}));

  const double Nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> V(40, 0.5);
  V[7] = Nan; // row 0 (long enough for the vector body) becomes all NaN
  V[20 + 3] = -INFINITY;
  Tensor X = fromVector(V, {2, 20}, kFloat);
  std::vector<double> Y = toVector<double>(sk::_softmax(X, 1, false));
  for (int I = 0; I < 20; ++I)
    EXPECT_TRUE(std::isnan(Y[I])) << I;
  EXPECT_EQ(Y[23], 0.0);
  EXPECT_NEAR(Y[20], 1.0 / 19, 1e-6);
  // The inner-dimension path propagates NaN too.
  std::vector<double> Col = toVector<double>(
      sk::_softmax(transposed(X, 0, 1).contiguous(), 0, false));
  EXPECT_TRUE(std::isnan(Col[0]));
  EXPECT_FALSE(std::isnan(Col[1]));
}

TEST(NNSoftmax, CompositesCastAndHalfToFloat) {
  Tensor X = randomTensor({4, 7}, kFloat);
  Tensor Y = sk::softmax(X, 1, kDouble);
  EXPECT_EQ(Y.scalar_type(), kDouble);
  expectNear(toVector<double>(Y),
             refSoftmax(toVector<double>(X), {4, 7}, 1, false), 1e-6);
  Tensor L = sk::log_softmax(X, -1);
  EXPECT_EQ(L.scalar_type(), kFloat);
  expectNear(toVector<double>(L),
             refSoftmax(toVector<double>(X), {4, 7}, 1, true), 1e-5);

  Tensor H = randomTensor({4, 33}, kHalf);
  Tensor F = sk::_softmax(H, 1, /*half_to_float=*/true);
  EXPECT_EQ(F.scalar_type(), kFloat);
  expectNear(toVector<double>(F),
             refSoftmax(toVector<double>(H), {4, 33}, 1, false), 1e-5);
}

TEST(NNSoftmax, MetaMatchesCpuAndErrors) {
  Tensor X = transposed(randomTensor({5, 3, 4}), 0, 2);
  Tensor Cpu = sk::_softmax(X, 1, false);
  expectSameGeometry(sk::_softmax(toMeta(X), 1, false), Cpu);
  expectSameGeometry(sk::softmax(toMeta(X), 1, kDouble),
                     sk::softmax(X, 1, kDouble));
  Tensor H = empty({2, 3}, TensorOptions(kMeta).dtype(kHalf));
  EXPECT_EQ(sk::_log_softmax(H, 1, true).scalar_type(), kFloat);

  SK_EXPECT_ERROR(sk::_softmax(sk::zeros({2, 3}, kLong), 1, false),
                  "_softmax(): expected a floating-point input, but got int64");
  SK_EXPECT_ERROR(sk::_softmax(empty({2, 3}, TensorOptions(kMeta)), 1, true),
                  "supported for float16 and bfloat16 inputs only, but got "
                  "float32");
  SK_EXPECT_ERROR_TYPE(sk::_log_softmax(sk::zeros({2, 3}), 2, false),
                       IndexError, "Dimension out of range");
}

//===--- layer_norm -------------------------------------------------------===//

void refLayerNorm(const std::vector<double> &X, int64_t M, int64_t N,
                  const std::vector<double> *W, const std::vector<double> *B,
                  double Eps, std::vector<double> &Y, std::vector<double> &Mean,
                  std::vector<double> &Rstd) {
  Y.assign(X.size(), 0);
  Mean.assign(M, 0);
  Rstd.assign(M, 0);
  for (int64_t R = 0; R < M; ++R) {
    double S = 0;
    for (int64_t I = 0; I < N; ++I)
      S += X[R * N + I];
    double Mu = S / N, V = 0;
    for (int64_t I = 0; I < N; ++I)
      V += (X[R * N + I] - Mu) * (X[R * N + I] - Mu);
    double Rs = 1 / std::sqrt(V / N + Eps);
    Mean[R] = Mu;
    Rstd[R] = Rs;
    for (int64_t I = 0; I < N; ++I)
      Y[R * N + I] =
          (X[R * N + I] - Mu) * Rs * (W ? (*W)[I] : 1) + (B ? (*B)[I] : 0);
  }
}

TEST(NNLayerNorm, MatchesReferenceWithAndWithoutAffine) {
  for (ScalarType Dtype : {kFloat, kDouble, kBFloat16})
    for (bool Affine : {false, true}) {
      Tensor X = randomTensor({3, 4, 21}, Dtype, 3);
      Tensor W = randomTensor({4, 21}, Dtype, 4);
      Tensor B = randomTensor({4, 21}, Dtype, 5);
      std::vector<double> WV = toVector<double>(W), BV = toVector<double>(B);
      std::vector<double> Y, Mean, Rstd;
      refLayerNorm(toVector<double>(X), 3, 84, Affine ? &WV : nullptr,
                   Affine ? &BV : nullptr, 1e-5, Y, Mean, Rstd);
      auto [Out, MeanT, RstdT] =
          Affine ? sk::native_layer_norm(X, {4, 21}, W, B, 1e-5)
                 : sk::native_layer_norm(X, {4, 21}, std::nullopt, std::nullopt,
                                         1e-5);
      double Tol = Dtype == kBFloat16 ? 3e-2 : 1e-5;
      expectNear(toVector<double>(Out), Y, Tol);
      EXPECT_EQ(MeanT.sizes().vec(), (std::vector<int64_t>{3, 1, 1}));
      EXPECT_EQ(RstdT.sizes().vec(), (std::vector<int64_t>{3, 1, 1}));
      expectNear(toVector<double>(MeanT), Mean,
                 Dtype == kBFloat16 ? 1e-2 : 1e-6);
      expectNear(toVector<double>(RstdT), Rstd,
                 Dtype == kBFloat16 ? 1e-2 : 1e-5);
      // The composite returns the first output.
      Tensor Composite =
          Affine ? sk::layer_norm(X, {21}, W.select(0, 0), B.select(0, 0))
                 : sk::layer_norm(X, {21});
      std::vector<double> W1(WV.begin(), WV.begin() + 21),
          B1(BV.begin(), BV.begin() + 21);
      refLayerNorm(toVector<double>(X), 12, 21, Affine ? &W1 : nullptr,
                   Affine ? &B1 : nullptr, 1e-5, Y, Mean, Rstd);
      expectNear(toVector<double>(Composite), Y, Tol);
    }
}

// The variance is the mean of squared deviations from the mean, not
// E[x^2] - E[x]^2: a one-element row, or a row of equal large values,
// normalizes to exactly 0 (libtorch 2.15 gives 0 too).
TEST(NNLayerNorm, ConstantRows_NormalizeToExactlyZero) {
  Tensor One = sk::mul(sk::randn({5, 1}), 1000);
  Tensor Same = sk::full({3, 64}, 12345.678, TensorOptions());
  for (const Tensor &X : {One, Same}) {
    auto [Y, Mean, Rstd] =
        sk::native_layer_norm(X, {X.size(1)}, std::nullopt, std::nullopt, 1e-5);
    for (double V : toVector<double>(Y))
      EXPECT_EQ(V, 0.0);
  }
}

// Found by the differential test: the centred sum of squares of
// [1e30, 1e30, 0.5] overflows float32, and rstd was 0, so every output was
// 0 (libtorch 2.15 gives NaN). Note [Variance that overflows].
TEST(NNLayerNorm, VarianceThatOverflows_NormalizesTheRow) {
  for (ScalarType D : {kFloat, kBFloat16}) {
    Tensor X = fromVector<double>({1e30, 1e30, 0.5}, {1, 3}, D);
    auto [Y, Mean, Rstd] =
        sk::native_layer_norm(X, {3}, std::nullopt, std::nullopt, 1e-5);
    double Tol = D == kBFloat16 ? 1e-2 : 1e-6;
    expectNear(toVector<double>(Y),
               {std::sqrt(0.5), std::sqrt(0.5), -std::sqrt(2.0)}, Tol);
    // rstd is 1 / std of the values X holds in its dtype.
    std::vector<double> XV = toVector<double>(X);
    double M = (XV[0] + XV[1] + XV[2]) / 3;
    double Std =
        std::sqrt(((XV[0] - M) * (XV[0] - M) + (XV[1] - M) * (XV[1] - M) +
                   (XV[2] - M) * (XV[2] - M)) /
                  3);
    EXPECT_NEAR(toVector<double>(Rstd)[0] * Std, 1.0, Tol) << D;
  }
}

TEST(NNLayerNorm, NonContiguousOutAndMeta) {
  Tensor X = transposed(randomTensor({7, 5}), 0, 1); // [5, 7]
  std::vector<double> Y, Mean, Rstd;
  refLayerNorm(toVector<double>(X), 5, 7, nullptr, nullptr, 1e-3, Y, Mean,
               Rstd);
  Tensor Out = transposed(sk::empty({7, 5}), 0, 1);
  Tensor M = sk::empty({0}), R = sk::empty({5, 1});
  sk::native_layer_norm_out(Out, M, R, X, {7}, std::nullopt, std::nullopt,
                            1e-3);
  expectNear(toVector<double>(Out), Y, 1e-5);
  expectNear(toVector<double>(M), Mean, 1e-6);
  expectNear(toVector<double>(R), Rstd, 1e-5);
  auto Cpu =
      sk::cpu::native_layer_norm(X, {7}, std::nullopt, std::nullopt, 1e-3);
  expectNear(toVector<double>(std::get<0>(Cpu)), Y, 1e-5);

  auto Meta =
      sk::native_layer_norm(toMeta(X), {7}, std::nullopt, std::nullopt, 1e-3);
  expectSameGeometry(std::get<0>(Meta), std::get<0>(Cpu));
  expectSameGeometry(std::get<1>(Meta), std::get<1>(Cpu));
  expectSameGeometry(std::get<2>(Meta), std::get<2>(Cpu));
  EXPECT_EQ(sk::layer_norm(toMeta(X), {5, 7}).sizes().vec(),
            (std::vector<int64_t>{5, 7}));

  // Zero rows.
  auto Empty = sk::native_layer_norm(sk::empty({0, 3}), {3}, std::nullopt,
                                     std::nullopt, 1e-5);
  EXPECT_EQ(std::get<1>(Empty).sizes().vec(), (std::vector<int64_t>{0, 1}));
}

TEST(NNLayerNorm, Errors) {
  Tensor X = sk::zeros({2, 3});
  SK_EXPECT_ERROR(sk::layer_norm(X, {4}),
                  "Given normalized_shape=[4], expected input with shape "
                  "[*, 4], but got input of size[2, 3]");
  SK_EXPECT_ERROR(sk::layer_norm(X, {3}, sk::zeros({2})),
                  "Expected weight to be of same shape as normalized_shape, "
                  "but got weight of shape [2] and normalized_shape = [3]");
  SK_EXPECT_ERROR(sk::layer_norm(X, {3}, std::nullopt, sk::zeros({3, 1})),
                  "bias of shape [3, 1]");
  SK_EXPECT_ERROR(sk::layer_norm(X, {}),
                  "Expected normalized_shape to be at least 1-dimensional");
  SK_EXPECT_ERROR(sk::layer_norm(sk::zeros({2, 3}, kLong), {3}),
                  "expected a floating-point input, but got int64");
  SK_EXPECT_ERROR(sk::layer_norm(X, {3}, sk::zeros({3}, kDouble)),
                  "expected weight to have dtype float32 (the input's), but "
                  "got float64");
}

//===--- batch_norm -------------------------------------------------------===//

/// Batch norm of row-major [N, C, S] \p X in double.
void refBatchNorm(const std::vector<double> &X, int64_t N, int64_t C, int64_t S,
                  const std::vector<double> &W, const std::vector<double> &B,
                  const std::vector<double> &Mean,
                  const std::vector<double> &Var, double Eps,
                  std::vector<double> &Y) {
  Y.assign(X.size(), 0);
  for (int64_t I = 0; I < N; ++I)
    for (int64_t Ch = 0; Ch < C; ++Ch)
      for (int64_t K = 0; K < S; ++K) {
        int64_t At = (I * C + Ch) * S + K;
        Y[At] = (X[At] - Mean[Ch]) / std::sqrt(Var[Ch] + Eps) * W[Ch] + B[Ch];
      }
}

/// Per-channel mean and biased/unbiased variance of [N, C, S] \p X.
void channelStats(const std::vector<double> &X, int64_t N, int64_t C, int64_t S,
                  std::vector<double> &Mean, std::vector<double> &Var,
                  std::vector<double> &Unbiased) {
  Mean.assign(C, 0);
  Var.assign(C, 0);
  Unbiased.assign(C, 0);
  for (int64_t Ch = 0; Ch < C; ++Ch) {
    double Sum = 0;
    for (int64_t I = 0; I < N; ++I)
      for (int64_t K = 0; K < S; ++K)
        Sum += X[(I * C + Ch) * S + K];
    Mean[Ch] = Sum / (N * S);
    double Sq = 0;
    for (int64_t I = 0; I < N; ++I)
      for (int64_t K = 0; K < S; ++K) {
        double D = X[(I * C + Ch) * S + K] - Mean[Ch];
        Sq += D * D;
      }
    Var[Ch] = Sq / (N * S);
    Unbiased[Ch] = Sq / (N * S - 1);
  }
}

TEST(NNBatchNorm, TrainingUpdatesRunningStatsInPlace) {
  for (bool ChannelsLast : {false, true}) {
    Tensor X = randomTensor({4, 3, 5, 6}, kFloat, 7);
    if (ChannelsLast)
      X = X.contiguous(MemoryFormat::ChannelsLast);
    std::vector<double> XV = toVector<double>(X);
    Tensor W = randomTensor({3}, kFloat, 8, 0.5, 2);
    Tensor B = randomTensor({3}, kFloat, 9);
    Tensor RM = fromVector<double>({0.1, 0.2, 0.3}, {3}, kFloat);
    Tensor RV = fromVector<double>({1.0, 2.0, 3.0}, {3}, kFloat);
    std::vector<double> Mean, Var, Unbiased, Y;
    channelStats(XV, 4, 3, 30, Mean, Var, Unbiased);
    refBatchNorm(XV, 4, 3, 30, toVector<double>(W), toVector<double>(B), Mean,
                 Var, 1e-5, Y);
    auto [Out, SaveMean, SaveInvstd] =
        sk::native_batch_norm(X, W, B, RM, RV, true, 0.1, 1e-5);
    expectNear(toVector<double>(Out), Y, 1e-4);
    EXPECT_EQ(Out.is_contiguous(MemoryFormat::ChannelsLast), ChannelsLast);
    EXPECT_EQ(Out.strides().vec(), X.strides().vec());
    expectNear(toVector<double>(SaveMean), Mean, 1e-5);
    std::vector<double> Invstd(3);
    for (int Ch = 0; Ch < 3; ++Ch)
      Invstd[Ch] = 1 / std::sqrt(Var[Ch] + 1e-5);
    expectNear(toVector<double>(SaveInvstd), Invstd, 1e-5);
    std::vector<double> WantRM(3), WantRV(3);
    for (int Ch = 0; Ch < 3; ++Ch) {
      WantRM[Ch] = 0.1 * Mean[Ch] + 0.9 * (0.1 * (Ch + 1));
      WantRV[Ch] = 0.1 * Unbiased[Ch] + 0.9 * (Ch + 1.0);
    }
    expectNear(toVector<double>(RM), WantRM, 1e-5);
    expectNear(toVector<double>(RV), WantRV, 1e-5);
  }
}

// As for layer_norm: channel 0's sum of squared deviations, about 9e38,
// overflows float32, though its variance, about 9e35, does not. The
// inverse standard deviation, the outputs and the running variance are
// finite and right. Note [Variance that overflows].
TEST(NNBatchNorm, VarianceThatOverflows_NormalizesAndUpdatesTheRunningVar) {
  const int64_t N = 250, C = 2, S = 4;
  std::vector<double> XV(static_cast<size_t>(N * C * S), 0.0);
  XV[0] = 3e19;
  for (int64_t I = 0; I < N; ++I)
    for (int64_t K = 0; K < S; ++K)
      XV[(I * C + 1) * S + K] = static_cast<double>((I + K) % 7);
  for (bool ChannelsLast : {false, true}) {
    Tensor X = fromVector(XV, {N, C, 2, 2}, kFloat);
    if (ChannelsLast)
      X = X.contiguous(MemoryFormat::ChannelsLast);
    Tensor RM = sk::zeros({C}), RV = sk::ones({C});
    auto [Out, SaveMean, SaveInvstd] = sk::native_batch_norm(
        X, std::nullopt, std::nullopt, RM, RV, true, /*momentum=*/1.0, 1e-5);
    std::vector<double> Mean, Var, Unbiased, Y;
    channelStats(XV, N, C, S, Mean, Var, Unbiased);
    refBatchNorm(XV, N, C, S, {1, 1}, {0, 0}, Mean, Var, 1e-5, Y);
    expectNear(toVector<double>(Out), Y, 1e-4);
    // Float32 sums of 1000 values: a few units of 1e-5.
    std::vector<double> Invstd = toVector<double>(SaveInvstd);
    EXPECT_NEAR(Invstd[0] * std::sqrt(Var[0]), 1.0, 1e-4) << ChannelsLast;
    EXPECT_NEAR(Invstd[1], 1 / std::sqrt(Var[1] + 1e-5), 1e-5) << ChannelsLast;
    std::vector<double> GotRV = toVector<double>(RV);
    EXPECT_NEAR(GotRV[0] / Unbiased[0], 1.0, 1e-4) << ChannelsLast;
    EXPECT_NEAR(GotRV[1], Unbiased[1], 1e-5) << ChannelsLast;
  }
}

// bfloat16 statistics are computed in float32 and rounded once, when they
// are stored: each saved invstd is within half a bfloat16 ulp of the exact
// value. (libtorch 2.15 rounds the variance on the way and is a whole ulp
// off in about one channel in six; docs/kernels.md lists that.)
TEST(NNBatchNorm, BFloat16Statistics_AreRoundedOnce) {
  const int64_t N = 8, C = 50, S = 5;
  Tensor X = randomTensor({N, C, S}, kBFloat16, 21);
  Tensor W = randomTensor({C}, kBFloat16, 22),
         B = randomTensor({C}, kBFloat16, 23);
  auto [Out, SaveMean, SaveInvstd] = sk::native_batch_norm(
      X, W, B, std::nullopt, std::nullopt, true, 0.1, 1e-5);
  ASSERT_EQ(SaveInvstd.scalar_type(), kBFloat16);
  std::vector<double> Mean, Var, Unbiased;
  channelStats(toVector<double>(X), N, C, S, Mean, Var, Unbiased);
  std::vector<double> Got = toVector<double>(SaveInvstd);
  for (int64_t Ch = 0; Ch < C; ++Ch) {
    double Exact = 1 / std::sqrt(Var[Ch] + 1e-5);
    // A bfloat16 ulp at Exact: 8 bits of significand.
    double Ulp = std::ldexp(1.0, std::ilogb(Exact) - 7);
    EXPECT_LE(std::fabs(Got[Ch] - Exact), 0.5 * Ulp * (1 + 1e-3))
        << "channel " << Ch << ": " << Got[Ch] << " for " << Exact;
  }
}

TEST(NNBatchNorm, InferenceUsesRunningStatsAndCompositeAndTwoDims) {
  Tensor X = randomTensor({5, 4}, kDouble, 11); // [N, C]
  Tensor RM = randomTensor({4}, kDouble, 12);
  Tensor RV = randomTensor({4}, kDouble, 13, 0.5, 2);
  std::vector<double> Y;
  std::vector<double> Ones(4, 1.0), Zeros(4, 0.0);
  refBatchNorm(toVector<double>(X), 5, 4, 1, Ones, Zeros, toVector<double>(RM),
               toVector<double>(RV), 1e-5, Y);
  auto [Out, SM, SI] = sk::native_batch_norm(X, std::nullopt, std::nullopt, RM,
                                             RV, false, 0.1, 1e-5);
  expectNear(toVector<double>(Out), Y, 1e-12);
  EXPECT_EQ(SM.sizes().vec(), (std::vector<int64_t>{0}));
  EXPECT_EQ(SI.sizes().vec(), (std::vector<int64_t>{0}));
  std::vector<double> RMBefore = toVector<double>(RM);
  Tensor C = sk::batch_norm(X, std::nullopt, std::nullopt, RM, RV, false, 0.1,
                            1e-5, false);
  expectNear(toVector<double>(C), Y, 1e-12);
  EXPECT_EQ(toVector<double>(RM), RMBefore); // inference leaves them alone

  // Training on [N, C] (the column path) matches the reference too.
  std::vector<double> Mean, Var, Unbiased;
  channelStats(toVector<double>(X), 5, 4, 1, Mean, Var, Unbiased);
  refBatchNorm(toVector<double>(X), 5, 4, 1, Ones, Zeros, Mean, Var, 1e-5, Y);
  Tensor T = std::get<0>(
      sk::cpu::native_batch_norm(X, std::nullopt, std::nullopt, std::nullopt,
                                 std::nullopt, true, 0.1, 1e-5));
  expectNear(toVector<double>(T), Y, 1e-12);
}

TEST(NNBatchNorm, MetaAndErrors) {
  Tensor X = randomTensor({2, 3, 4, 4}).contiguous(MemoryFormat::ChannelsLast);
  Tensor W = sk::ones({3});
  auto Cpu = sk::native_batch_norm(X, W, W, std::nullopt, std::nullopt, true,
                                   0.1, 1e-5);
  auto Meta =
      sk::native_batch_norm(toMeta(X), toMeta(W), toMeta(W), std::nullopt,
                            std::nullopt, true, 0.1, 1e-5);
  expectSameGeometry(std::get<0>(Meta), std::get<0>(Cpu));
  expectSameGeometry(std::get<1>(Meta), std::get<1>(Cpu));
  expectSameGeometry(std::get<2>(Meta), std::get<2>(Cpu));

  SK_EXPECT_ERROR(sk::native_batch_norm(X, sk::ones({4}), std::nullopt,
                                        std::nullopt, std::nullopt, true, 0.1,
                                        1e-5),
                  "weight should contain 3 elements not 4");
  SK_EXPECT_ERROR(sk::native_batch_norm(X, std::nullopt, std::nullopt,
                                        std::nullopt, std::nullopt, false, 0.1,
                                        1e-5),
                  "running_mean must be defined in evaluation mode");
  SK_EXPECT_ERROR(sk::native_batch_norm(sk::zeros({3}), std::nullopt,
                                        std::nullopt, std::nullopt,
                                        std::nullopt, true, 0.1, 1e-5),
                  "expected an input with at least 2 dimensions");
  SK_EXPECT_ERROR(sk::native_batch_norm(X, sk::ones({3}, kDouble), std::nullopt,
                                        std::nullopt, std::nullopt, true, 0.1,
                                        1e-5),
                  "expected weight to have dtype float32, but got float64");
}

//===--- embedding --------------------------------------------------------===//

TEST(NNEmbedding, GathersRowsOfEveryDtype) {
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kLong, kByte}) {
    Tensor W = sk::test::arange({5, 3}, Dtype);
    Tensor Idx = fromVector<int64_t>({4, 0, 2, 2, 1, 4}, {2, 3}, kLong);
    Tensor Y = sk::embedding(W, Idx);
    EXPECT_EQ(Y.sizes().vec(), (std::vector<int64_t>{2, 3, 3}));
    EXPECT_EQ(Y.scalar_type(), Dtype);
    std::vector<double> Want;
    for (int64_t I : {4, 0, 2, 2, 1, 4})
      for (int J = 0; J < 3; ++J)
        Want.push_back(I * 3 + J);
    EXPECT_EQ(toVector<double>(Y), Want);
  }
  // int32 indices, a transposed weight, out=, sk::cpu.
  Tensor W = transposed(sk::test::arange({4, 6}), 0, 1); // [6, 4]
  Tensor Idx = fromVector<int32_t>({5, 0}, {2}, kInt);
  Tensor Out = sk::empty({0});
  sk::embedding_out(Out, W, Idx);
  std::vector<double> WV = toVector<double>(W);
  std::vector<double> Want(WV.begin() + 20, WV.begin() + 24);
  Want.insert(Want.end(), WV.begin(), WV.begin() + 4);
  EXPECT_EQ(toVector<double>(Out), Want);
  EXPECT_EQ(toVector<double>(sk::cpu::embedding(W, Idx)), Want);
  // Zero indices and a 0-dim index.
  EXPECT_EQ(sk::embedding(W, sk::empty({0}, kLong)).sizes().vec(),
            (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(toVector<double>(sk::embedding(W, sk::full({}, 1, kLong))),
            std::vector<double>(WV.begin() + 4, WV.begin() + 8));
}

TEST(NNEmbedding, MetaAndErrors) {
  Tensor W = sk::zeros({5, 3});
  Tensor Idx = sk::zeros({2, 4}, kLong);
  expectSameGeometry(sk::embedding(toMeta(W), toMeta(Idx)),
                     sk::embedding(W, Idx));
  SK_EXPECT_ERROR(sk::embedding(sk::zeros({5}), Idx), "'weight' must be 2-D");
  SK_EXPECT_ERROR(sk::embedding(W, sk::zeros({2})),
                  "Expected tensor for argument #1 'indices' to have one of "
                  "the following scalar types: Long, Int; but got float32");
  SK_EXPECT_ERROR_TYPE(sk::embedding(W, sk::full({1}, 5, kLong)), IndexError,
                       "index out of range in self");
  SK_EXPECT_ERROR_TYPE(sk::embedding(W, sk::full({1}, -1, kLong)), IndexError,
                       "index out of range in self");
}

//===--- embedding_bag ----------------------------------------------------===//

/// The reference of one embedding_bag call: outputs, bag sizes and the
/// rows the maxima came from.
struct BagRef {
  std::vector<double> Out;
  std::vector<double> BagSize;
  std::vector<double> MaxIdx;
};

BagRef refBag(const std::vector<double> &W, int64_t D,
              const std::vector<int64_t> &Idx, const std::vector<int64_t> &Off,
              bool IncludeLast, int Mode, const std::vector<double> *PS,
              int64_t Padding) {
  BagRef R;
  int64_t Bags = static_cast<int64_t>(Off.size()) - (IncludeLast ? 1 : 0);
  for (int64_t B = 0; B < Bags; ++B) {
    int64_t Start = Off[B];
    int64_t End = B + 1 < static_cast<int64_t>(Off.size())
                      ? Off[B + 1]
                      : static_cast<int64_t>(Idx.size());
    std::vector<double> Acc(D, Mode == 2 ? -INFINITY : 0.0);
    std::vector<double> Arg(D, 0);
    int64_t Count = 0;
    for (int64_t I = Start; I < End; ++I) {
      if (Idx[I] == Padding)
        continue;
      ++Count;
      for (int64_t J = 0; J < D; ++J) {
        double V = W[Idx[I] * D + J];
        if (Mode == 2) {
          if (V > Acc[J]) {
            Acc[J] = V;
            Arg[J] = static_cast<double>(Idx[I]);
          }
        } else {
          Acc[J] += (PS ? (*PS)[I] : 1.0) * V;
        }
      }
    }
    for (int64_t J = 0; J < D; ++J) {
      double V = Acc[J];
      if (Mode == 1 && Count > 0)
        V /= Count;
      if (Count == 0)
        V = 0;
      R.Out.push_back(V);
      if (Mode == 2)
        R.MaxIdx.push_back(Arg[J]);
    }
    R.BagSize.push_back(static_cast<double>(Count));
  }
  return R;
}

TEST(NNEmbeddingBag, SumMeanMaxWithPaddingAndLastOffset) {
  const int64_t D = 5;
  Tensor W = randomTensor({7, D}, kFloat, 21);
  std::vector<double> WV = toVector<double>(W);
  std::vector<int64_t> Idx = {1, 3, 3, 6, 0, 2, 5, 4, 1};
  std::vector<int64_t> Off = {0, 2, 2, 6};
  Tensor IdxT = fromVector(Idx, {9}, kLong);
  for (int Mode : {0, 1, 2})
    for (bool IncludeLast : {false, true})
      for (int64_t Padding : {int64_t(-1), int64_t(3)}) {
        std::vector<int64_t> O = Off;
        if (IncludeLast)
          O.push_back(9);
        Tensor OffT = fromVector(O, {static_cast<int64_t>(O.size())}, kLong);
        BagRef R = refBag(WV, D, Idx, O, IncludeLast, Mode, nullptr, Padding);
        auto [Out, Offset2Bag, BagSize, MaxIdx] =
            sk::_embedding_bag(W, IdxT, OffT, false, Mode, false, std::nullopt,
                               IncludeLast, Padding);
        EXPECT_EQ(Out.sizes().vec(), (std::vector<int64_t>{4, D}));
        expectNear(toVector<double>(Out), R.Out, 1e-6);
        EXPECT_EQ(toVector<double>(BagSize), R.BagSize);
        if (Mode == 2) {
          EXPECT_EQ(toVector<double>(MaxIdx), R.MaxIdx);
        } else {
          EXPECT_EQ(MaxIdx.sizes().vec(), (std::vector<int64_t>{4}));
        }
        // PyTorch's fast sum path has no offset2bag.
        bool Fast = Mode == 0 && Padding < 0;
        EXPECT_EQ(Offset2Bag.numel(), Fast ? 0 : 9);
        if (!Fast) {
          EXPECT_EQ(toVector<double>(Offset2Bag),
                    (std::vector<double>{0, 0, 2, 2, 2, 2, 3, 3, 3}));
        }
      }
}

// Wide float rows take the vector paths (bands of vectors, a tail, rows
// fetched ahead in long bags), int64 and int32 indices alike.
TEST(NNEmbeddingBag, WideFloatRows_MatchReference) {
  const int64_t D = 200, Rows = 50;
  Tensor W = randomTensor({Rows, D}, kFloat, 7);
  std::vector<int64_t> Idx;
  for (int64_t I = 0; I < 70; ++I)
    Idx.push_back(I * 13 % Rows);
  std::vector<int64_t> Off = {0, 3, 3, 40};
  for (ScalarType IndexType : {kLong, kInt})
    for (int64_t Padding : {int64_t(-1), int64_t(13)})
      for (int Mode : {0, 1, 2}) {
        SCOPED_TRACE(::testing::Message() << "mode " << Mode << " padding "
                                          << Padding << " " << IndexType);
        BagRef R = refBag(toVector<double>(W), D, Idx, Off, false, Mode,
                          nullptr, Padding);
        auto Res =
            sk::_embedding_bag(W, fromVector(Idx, {70}, IndexType),
                               fromVector(Off, {4}, IndexType), false, Mode,
                               false, std::nullopt, false, Padding);
        expectNear(toVector<double>(std::get<0>(Res)), R.Out, 1e-4);
        EXPECT_EQ(toVector<double>(std::get<2>(Res)), R.BagSize);
        if (Mode == 2) {
          EXPECT_EQ(toVector<double>(std::get<3>(Res)), R.MaxIdx);
        }
      }
}

// In max mode NaN wins, in the vector bands and in the tail, and its row
// is the one reported; an empty bag gives zeros.
TEST(NNEmbeddingBag, MaxMode_NaNWinsInEveryColumn) {
  const int64_t D = 200, Rows = 6;
  Tensor W = randomTensor({Rows, D}, kFloat, 9);
  float *P = W.data_ptr<float>();
  P[2 * D + 5] = NAN;
  P[4 * D + D - 1] = NAN;
  std::vector<int64_t> Idx = {1, 2, 3, 4, 5};
  auto Res = sk::_embedding_bag(W, fromVector(Idx, {5}, kLong),
                                fromVector<int64_t>({0, 0}, {2}, kLong), false,
                                /*mode=*/2, false, std::nullopt, false, -1);
  std::vector<double> Out = toVector<double>(std::get<0>(Res));
  std::vector<double> Arg = toVector<double>(std::get<3>(Res));
  for (int64_t J = 0; J < D; ++J) {
    EXPECT_EQ(Out[J], 0) << "empty bag, column " << J;
    EXPECT_EQ(Arg[J], 0) << "empty bag, column " << J;
  }
  EXPECT_TRUE(std::isnan(Out[D + 5]));
  EXPECT_EQ(Arg[D + 5], 2);
  EXPECT_TRUE(std::isnan(Out[D + D - 1]));
  EXPECT_EQ(Arg[D + D - 1], 4);
}

TEST(NNEmbeddingBag, PerSampleWeightsInt32AndComposite) {
  const int64_t D = 3;
  Tensor W = randomTensor({4, D}, kDouble, 31);
  std::vector<int64_t> Idx = {0, 3, 1, 1};
  std::vector<double> PS = {0.5, -2, 3, 1};
  Tensor IdxT = fromVector(Idx, {4}, kInt);
  Tensor OffT = fromVector<int64_t>({0, 1}, {2}, kInt);
  BagRef R = refBag(toVector<double>(W), D, Idx, {0, 1}, false, 0, &PS, -1);
  auto Res = sk::embedding_bag(W, IdxT, OffT, false, 0, false,
                               fromVector(PS, {4}, kDouble));
  expectNear(toVector<double>(std::get<0>(Res)), R.Out, 1e-12);
  EXPECT_EQ(std::get<1>(Res).scalar_type(), kInt);
  // double weights take the slow path: offset2bag is made.
  EXPECT_EQ(toVector<double>(std::get<1>(Res)),
            (std::vector<double>{0, 1, 1, 1}));

  auto Meta =
      sk::embedding_bag(toMeta(W), toMeta(IdxT), toMeta(OffT), false, 2, false);
  auto Cpu = sk::cpu::_embedding_bag(W, IdxT, OffT, false, 2, false,
                                     std::nullopt, false, -1);
  expectSameGeometry(std::get<0>(Meta), std::get<0>(Cpu));
  expectSameGeometry(std::get<1>(Meta), std::get<1>(Cpu));
  expectSameGeometry(std::get<2>(Meta), std::get<2>(Cpu));
  expectSameGeometry(std::get<3>(Meta), std::get<3>(Cpu));
  EXPECT_EQ(std::get<3>(Cpu).sizes().vec(), (std::vector<int64_t>{2, D}));
}

TEST(NNEmbeddingBag, Errors) {
  Tensor W = sk::zeros({4, 3});
  Tensor Idx = fromVector<int64_t>({0, 1}, {2}, kLong);
  Tensor Off = fromVector<int64_t>({0}, {1}, kLong);
  SK_EXPECT_ERROR(
      sk::_embedding_bag(W, Idx, fromVector<int64_t>({1}, {1}), false, 0),
      "offsets[0] has to be 0");
  SK_EXPECT_ERROR(
      sk::_embedding_bag(W, Idx, fromVector<int64_t>({0, 3}, {2}), false, 0),
      "offsets[-1] can not be greater than input's length 2 but "
      "got offsets[-1] of 3");
  SK_EXPECT_ERROR(
      sk::_embedding_bag(W, Idx, Off, false, 1, false, sk::ones({2})),
      "per_sample_weights only supported with mode='sum'");
  SK_EXPECT_ERROR(sk::_embedding_bag(W, Idx, Off.to(kInt), false, 0),
                  "same dtype");
  SK_EXPECT_ERROR(sk::_embedding_bag(sk::zeros({4, 3}, kLong), Idx, Off),
                  "'weight' to have one of the following scalar types");
  SK_EXPECT_ERROR(sk::_embedding_bag(W, Idx, sk::empty({0}, kLong), false, 0,
                                     false, std::nullopt, true),
                  "include_last_offset: number of offset should be at least 1");
  SK_EXPECT_ERROR_TYPE(
      sk::_embedding_bag(W, fromVector<int64_t>({0, 4}, {2}), Off), IndexError,
      "found idx to be 4");
}

//===--- binary_cross_entropy ---------------------------------------------===//

std::vector<double> refBce(const std::vector<double> &X,
                           const std::vector<double> &Y,
                           const std::vector<double> *W) {
  std::vector<double> L(X.size());
  for (size_t I = 0; I < X.size(); ++I)
    L[I] = -(Y[I] * std::max(std::log(X[I]), -100.0) +
             (1 - Y[I]) * std::max(std::log1p(-X[I]), -100.0)) *
           (W ? (*W)[I] : 1.0);
  return L;
}

TEST(NNBinaryCrossEntropy, ReductionsWeightsAndLayouts) {
  for (ScalarType Dtype : {kFloat, kDouble, kBFloat16}) {
    Tensor X = randomTensor({6, 5}, Dtype, 41, 0, 1);
    Tensor Y = randomTensor({6, 5}, Dtype, 42, 0, 1);
    Tensor W = randomTensor({5}, Dtype, 43, 0, 2); // broadcast over rows
    std::vector<double> WFull;
    std::vector<double> WV = toVector<double>(W);
    for (int R = 0; R < 6; ++R)
      WFull.insert(WFull.end(), WV.begin(), WV.end());
    std::vector<double> L =
        refBce(toVector<double>(X), toVector<double>(Y), &WFull);
    double Tol = Dtype == kBFloat16 ? 2e-2 : 1e-5;
    Tensor None = sk::binary_cross_entropy(X, Y, W, 0);
    EXPECT_EQ(None.sizes().vec(), (std::vector<int64_t>{6, 5}));
    expectNear(toVector<double>(None), L, Tol);
    double Sum = 0;
    for (double V : L)
      Sum += V;
    Tensor SumT = sk::binary_cross_entropy(X, Y, W, 2);
    EXPECT_EQ(SumT.dim(), 0);
    expectNear(toVector<double>(SumT), {Sum}, Tol);
    expectNear(toVector<double>(sk::binary_cross_entropy(X, Y, W)), {Sum / 30},
               Tol);
  }
  // A transposed input keeps its layout without reduction; 0 and 1 give
  // the clamped loss of 100.
  Tensor X = transposed(fromVector<double>({0, 1, 0.5, 0.25}, {2, 2}), 0, 1);
  Tensor Y = transposed(fromVector<double>({1, 0, 1, 0}, {2, 2}), 0, 1);
  Tensor L = sk::cpu::binary_cross_entropy(X, Y, std::nullopt, 0);
  EXPECT_EQ(L.strides().vec(), X.strides().vec());
  expectNear(toVector<double>(L),
             refBce(toVector<double>(X), toVector<double>(Y), nullptr), 1e-12);
  EXPECT_EQ(toVector<double>(L)[0], 100.0);
  Tensor Out = sk::empty({3}, kDouble);
  sk::binary_cross_entropy_out(Out, X, Y, std::nullopt, 1);
  EXPECT_EQ(Out.dim(), 0);
  // Zero elements: the mean is NaN, the sum 0.
  Tensor E = sk::empty({0});
  EXPECT_TRUE(std::isnan(sk::binary_cross_entropy(E, E).item<double>()));
  EXPECT_EQ(sk::binary_cross_entropy(E, E, std::nullopt, 2).item<double>(), 0);
}

TEST(NNBinaryCrossEntropy, MetaAndErrors) {
  Tensor X = transposed(sk::full({3, 4}, 0.5), 0, 1);
  Tensor Y = sk::full({4, 3}, 0.5);
  expectSameGeometry(
      sk::binary_cross_entropy(toMeta(X), toMeta(Y), std::nullopt, 0),
      sk::binary_cross_entropy(X, Y, std::nullopt, 0));
  expectSameGeometry(sk::binary_cross_entropy(toMeta(X), toMeta(Y)),
                     sk::binary_cross_entropy(X, Y));
  SK_EXPECT_ERROR(sk::binary_cross_entropy(X, sk::full({3, 4}, 0.5)),
                  "expected target of size [4, 3] (the input's), but got "
                  "[3, 4]");
  SK_EXPECT_ERROR(sk::binary_cross_entropy(X, Y.to(kDouble)),
                  "expected target to have dtype float32");
  SK_EXPECT_ERROR(sk::binary_cross_entropy(X, Y, sk::ones({4})),
                  "does not broadcast");
  SK_EXPECT_ERROR(sk::binary_cross_entropy(X, Y, std::nullopt, 3),
                  "reduction must be");
  SK_EXPECT_ERROR(
      sk::binary_cross_entropy(sk::full({2}, 1.5), sk::full({2}, 0.5)),
      "all elements of input should be between 0 and 1");
  SK_EXPECT_ERROR(sk::binary_cross_entropy(
                      sk::full({2}, 0.5), sk::full({2}, -1.0), std::nullopt, 0),
                  "all elements of target should be between 0 and 1");
}

//===--- max pooling ------------------------------------------------------===//

/// Naive max pooling of row-major [Planes, T, H, W] \p X; the values and
/// the flat indices of the maxima (first maximum wins among equals).
void refMaxPool(const std::vector<double> &X, int64_t Planes,
                const int64_t In[3], const int64_t K[3], const int64_t S[3],
                const int64_t P[3], const int64_t D[3], const int64_t Out[3],
                std::vector<double> &Y, std::vector<double> &Ind) {
  Y.clear();
  Ind.clear();
  for (int64_t Pl = 0; Pl < Planes; ++Pl)
    for (int64_t Ot = 0; Ot < Out[0]; ++Ot)
      for (int64_t Oh = 0; Oh < Out[1]; ++Oh)
        for (int64_t Ow = 0; Ow < Out[2]; ++Ow) {
          double Best = -INFINITY;
          int64_t BestI = -1;
          for (int64_t A = 0; A < K[0]; ++A)
            for (int64_t B = 0; B < K[1]; ++B)
              for (int64_t C = 0; C < K[2]; ++C) {
                int64_t It = Ot * S[0] - P[0] + A * D[0];
                int64_t Ih = Oh * S[1] - P[1] + B * D[1];
                int64_t Iw = Ow * S[2] - P[2] + C * D[2];
                if (It < 0 || Ih < 0 || Iw < 0 || It >= In[0] || Ih >= In[1] ||
                    Iw >= In[2])
                  continue;
                int64_t Flat = (It * In[1] + Ih) * In[2] + Iw;
                double V = X[Pl * In[0] * In[1] * In[2] + Flat];
                if (BestI < 0 || V > Best) {
                  Best = V;
                  BestI = Flat;
                }
              }
          Y.push_back(Best);
          Ind.push_back(static_cast<double>(BestI));
        }
}

struct Pool2dCase {
  std::vector<int64_t> Sizes, Kernel, Stride, Padding, Dilation;
  bool Ceil;
  std::vector<int64_t> OutHW;
};

TEST(NNMaxPool, TwoDimensionalMatchesReference) {
  std::vector<Pool2dCase> Cases = {
      {{2, 3, 7, 8}, {2}, {}, {0}, {1}, false, {3, 4}},
      {{2, 3, 7, 8}, {3, 2}, {2, 1}, {1, 1}, {1}, false, {4, 9}},
      {{3, 9, 9}, {3}, {2}, {1}, {2}, false, {4, 4}},
      {{1, 2, 6, 7}, {3}, {2}, {0}, {1}, true, {3, 3}},
      {{1, 2, 5, 5}, {2}, {2}, {1}, {1}, true, {3, 3}},
  };
  for (ScalarType Dtype : {kFloat, kDouble, kBFloat16, kInt})
    for (bool ChannelsLast : {false, true})
      for (const Pool2dCase &C : Cases) {
        if (ChannelsLast && C.Sizes.size() != 4)
          continue;
        Tensor X = randomTensor(C.Sizes, Dtype, 51, -50, 50);
        if (ChannelsLast)
          X = X.contiguous(MemoryFormat::ChannelsLast);
        auto [Y, Ind] = sk::max_pool2d_with_indices(
            X, C.Kernel, C.Stride, C.Padding, C.Dilation, C.Ceil);
        std::vector<int64_t> Want = C.Sizes;
        Want[Want.size() - 2] = C.OutHW[0];
        Want[Want.size() - 1] = C.OutHW[1];
        ASSERT_EQ(Y.sizes().vec(), Want);
        EXPECT_EQ(Ind.scalar_type(), kLong);
        EXPECT_EQ(Y.scalar_type(), Dtype);
        EXPECT_EQ(Y.is_contiguous(MemoryFormat::ChannelsLast) &&
                      !Y.is_contiguous(),
                  ChannelsLast);
        auto Two = [](const std::vector<int64_t> &V) {
          return V.size() == 1 ? std::vector<int64_t>{V[0], V[0]} : V;
        };
        std::vector<int64_t> KK = Two(C.Kernel),
                             SS = C.Stride.empty() ? KK : Two(C.Stride),
                             PP = Two(C.Padding), DD = Two(C.Dilation);
        int64_t In[3] = {1, C.Sizes[C.Sizes.size() - 2], C.Sizes.back()};
        int64_t K[3] = {1, KK[0], KK[1]}, S[3] = {1, SS[0], SS[1]},
                P[3] = {0, PP[0], PP[1]}, D[3] = {1, DD[0], DD[1]};
        int64_t Out[3] = {1, C.OutHW[0], C.OutHW[1]};
        int64_t Planes = numelOf(C.Sizes) / (In[1] * In[2]);
        std::vector<double> RY, RI;
        refMaxPool(toVector<double>(X), Planes, In, K, S, P, D, Out, RY, RI);
        EXPECT_EQ(toVector<double>(Y), RY);
        EXPECT_EQ(toVector<double>(Ind), RI);
        EXPECT_EQ(toVector<double>(sk::max_pool2d(
                      X, C.Kernel, C.Stride, C.Padding, C.Dilation, C.Ceil)),
                  RY);
      }
}

TEST(NNMaxPool, ThreeDimensionalAndChannelsLast3d) {
  for (bool ChannelsLast : {false, true}) {
    Tensor X = randomTensor({2, 3, 5, 6, 7}, kFloat, 61);
    if (ChannelsLast)
      X = X.contiguous(MemoryFormat::ChannelsLast3d);
    auto [Y, Ind] = sk::max_pool3d_with_indices(X, {2, 3, 2}, {2, 2, 1},
                                                {1, 1, 0}, {1}, false);
    int64_t In[3] = {5, 6, 7}, K[3] = {2, 3, 2}, S[3] = {2, 2, 1},
            P[3] = {1, 1, 0}, D[3] = {1, 1, 1}, Out[3] = {3, 3, 6};
    ASSERT_EQ(Y.sizes().vec(), (std::vector<int64_t>{2, 3, 3, 3, 6}));
    EXPECT_EQ(Y.is_contiguous(MemoryFormat::ChannelsLast3d) &&
                  !Y.is_contiguous(),
              ChannelsLast);
    std::vector<double> RY, RI;
    refMaxPool(toVector<double>(X), 6, In, K, S, P, D, Out, RY, RI);
    EXPECT_EQ(toVector<double>(Y), RY);
    EXPECT_EQ(toVector<double>(Ind), RI);
    EXPECT_EQ(
        toVector<double>(sk::max_pool3d(X, {2, 3, 2}, {2, 2, 1}, {1, 1, 0})),
        RY);
  }
  // Non-batch 4-d input, default stride; the same values when its strides
  // look channels-last (which, unbatched, they are not for 3-d pooling).
  Tensor X = randomTensor({2, 4, 4, 4}, kDouble, 62);
  Tensor Y = sk::max_pool3d(X, {2});
  EXPECT_EQ(Y.sizes().vec(), (std::vector<int64_t>{2, 2, 2, 2}));
  Tensor XLast = X.contiguous(MemoryFormat::ChannelsLast);
  ASSERT_FALSE(XLast.is_contiguous());
  Tensor YLast = sk::max_pool3d(XLast, {2});
  EXPECT_EQ(toVector<double>(YLast), toVector<double>(Y));
  EXPECT_TRUE(YLast.is_contiguous());
}

TEST(NNMaxPool, NaNWinsOutVariantAndMeta) {
  std::vector<double> V = {1, 2, 3, 4};
  V[2] = std::numeric_limits<double>::quiet_NaN();
  auto [Y, I] = sk::max_pool2d_with_indices(fromVector(V, {1, 2, 2}), {2});
  EXPECT_TRUE(std::isnan(Y.item<double>()));
  EXPECT_EQ(I.item<int64_t>(), 2);

  Tensor X = randomTensor({2, 3, 6, 6}).contiguous(MemoryFormat::ChannelsLast);
  auto Cpu = sk::cpu::max_pool2d_with_indices(X, {2}, {}, {0}, {1}, false);
  Tensor Out = sk::empty({1}), Ind = sk::empty({1}, kLong);
  sk::max_pool2d_with_indices_out(Out, Ind, X, {2});
  EXPECT_EQ(toVector<double>(Out), toVector<double>(std::get<0>(Cpu)));
  EXPECT_EQ(toVector<double>(Ind), toVector<double>(std::get<1>(Cpu)));
  auto Meta = sk::max_pool2d_with_indices(toMeta(X), {2});
  expectSameGeometry(std::get<0>(Meta), std::get<0>(Cpu));
  expectSameGeometry(std::get<1>(Meta), std::get<1>(Cpu));
  Tensor X3 = randomTensor({1, 2, 4, 4, 4});
  expectSameGeometry(std::get<0>(sk::max_pool3d_with_indices(toMeta(X3), {2})),
                     std::get<0>(sk::max_pool3d_with_indices(X3, {2})));
  // An empty batch is allowed.
  EXPECT_EQ(sk::max_pool2d(sk::empty({0, 2, 4, 4}), {2}).sizes().vec(),
            (std::vector<int64_t>{0, 2, 2, 2}));
}

TEST(NNMaxPool, Errors) {
  Tensor X = sk::zeros({1, 2, 4, 4});
  SK_EXPECT_ERROR(sk::max_pool2d(X, {2, 2, 2}),
                  "max_pool2d: kernel_size must either be a single int, or a "
                  "tuple of two ints");
  SK_EXPECT_ERROR(sk::max_pool2d(X, {2}, {}, {2}),
                  "pad should be at most half of kernel size, but got pad=2 "
                  "and kernel_size=2");
  SK_EXPECT_ERROR(sk::max_pool2d(X, {2}, {0}), "stride should not be zero");
  SK_EXPECT_ERROR(sk::max_pool2d(X, {5}),
                  "Given input size: (2x4x4). Calculated output size: "
                  "(2x0x0). Output size is too small");
  SK_EXPECT_ERROR(sk::max_pool2d(sk::zeros({4, 4}), {2}),
                  "non-empty 3D or 4D (batch mode) tensor expected for input");
  SK_EXPECT_ERROR(sk::max_pool2d(sk::zeros({1, 0, 4, 4}), {2}),
                  "Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                  "batch size for input, but got:[1, 0, 4, 4]");
  SK_EXPECT_ERROR(sk::max_pool2d(X, {2}, {}, {0}, {0}),
                  "dilation should be greater than zero");
  SK_EXPECT_ERROR(sk::max_pool2d(sk::zeros({1, 2, 4, 4}, kBool), {2}),
                  "expected a numeric input, but got bool");
  SK_EXPECT_ERROR(sk::max_pool3d(sk::zeros({1, 0, 4, 4}), {2}),
                  "Expected input's non-batch dimensions to have positive "
                  "length");
  SK_EXPECT_ERROR(sk::max_pool3d(sk::zeros({1, 1, 2, 2, 2}), {3}),
                  "Output size is too small");
  SK_EXPECT_ERROR(sk::max_pool3d(sk::zeros({1, 2}), {2}),
                  "non-empty 4D or 5D (batch mode) tensor expected for input");
}

//===--- upsample_nearest1d -----------------------------------------------===//

TEST(NNUpsampleNearest1d, PyTorchIndexRule) {
  Tensor X = sk::test::arange({2, 3, 5}, kFloat);
  struct Case {
    int64_t Out;
    std::optional<double> Scales;
    std::vector<int64_t> Src; // source positions within a row
  };
  std::vector<Case> Cases = {
      {5, std::nullopt, {0, 1, 2, 3, 4}},
      {10, std::nullopt, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4}},
      // in / out = 5 / 7: floor(o * 0.714...)
      {7, std::nullopt, {0, 0, 1, 2, 2, 3, 4}},
      {3, std::nullopt, {0, 1, 3}},
      // An explicit scale of 2 on 7 outputs: floor(o / 2).
      {7, 2.0, {0, 0, 1, 1, 2, 2, 3}},
      // A scale whose inverse overflows float32: every output but the
      // first lies past the end (an index of 0 * inf, undefined, before).
      {7, 1e-40, {0, 4, 4, 4, 4, 4, 4}},
      {3, 0.3, {0, 3, 4}},
      // An infinite scale steps by 0; a NaN one, as a missing one, by 5/7.
      {3, std::numeric_limits<double>::infinity(), {0, 0, 0}},
      {7, std::nan(""), {0, 0, 1, 2, 2, 3, 4}},
  };
  for (const Case &C : Cases) {
    Tensor Y = sk::upsample_nearest1d(X, {C.Out}, C.Scales);
    ASSERT_EQ(Y.sizes().vec(), (std::vector<int64_t>{2, 3, C.Out}));
    std::vector<double> Want;
    for (int64_t R = 0; R < 6; ++R)
      for (int64_t S : C.Src)
        Want.push_back(static_cast<double>(R * 5 + S));
    EXPECT_EQ(toVector<double>(Y), Want);
  }
  // Other dtypes, a transposed input, out=, sk::cpu, and meta.
  for (ScalarType Dtype : {kDouble, kHalf, kByte, kLong, kBool}) {
    Tensor T = transposed(sk::test::arange({5, 3, 2}, Dtype), 0, 2); // [2,3,5]
    std::vector<double> TV = toVector<double>(T);
    std::vector<double> Want;
    for (int64_t R = 0; R < 6; ++R)
      for (int64_t S : {0, 0, 1, 2, 2, 3, 4})
        Want.push_back(TV[R * 5 + S]);
    EXPECT_EQ(toVector<double>(sk::cpu::upsample_nearest1d(T, {7})), Want);
    Tensor Out = sk::empty({0}, Dtype);
    sk::upsample_nearest1d_out(Out, T, {7});
    EXPECT_EQ(toVector<double>(Out), Want);
    expectSameGeometry(sk::upsample_nearest1d(toMeta(T), {7}),
                       sk::upsample_nearest1d(T, {7}));
  }
  EXPECT_EQ(sk::upsample_nearest1d(sk::empty({0, 2, 3}), {4}).sizes().vec(),
            (std::vector<int64_t>{0, 2, 4}));
}

TEST(NNUpsampleNearest1d, TinyScalesStepPastTheEndOfLongRows) {
  // float32 rounds 2^25 + 2 down to 2^25, so a step of In itself would
  // send output 1 to In - 2; PyTorch's 1 / scales, from In + 1 up, sends
  // it past the end, to In - 1.
  const int64_t In = (int64_t(1) << 25) + 2;
  Tensor X = sk::zeros({1, 1, In}, kByte);
  X.data_ptr<uint8_t>()[In - 2] = 2;
  X.data_ptr<uint8_t>()[In - 1] = 1;
  for (double Scales : {1.0 / double(In + 1), 1e-30, 1e-40}) {
    EXPECT_EQ(toVector<double>(sk::upsample_nearest1d(X, {3}, Scales)),
              (std::vector<double>{0, 1, 1}))
        << "scales " << Scales;
  }
  // Below In the step is PyTorch's 1 / scales, rounded to float32: 2^25.
  EXPECT_EQ(
      toVector<double>(sk::upsample_nearest1d(X, {3}, 1.0 / double(In - 1))),
      (std::vector<double>{0, 2, 1}));
}

TEST(NNUpsampleNearest1d, Errors) {
  SK_EXPECT_ERROR(sk::upsample_nearest1d(sk::zeros({2, 3}), {4}),
                  "It is expected input_size equals to 3, but got size 2");
  SK_EXPECT_ERROR(sk::upsample_nearest1d(sk::zeros({1, 2, 3}), {0}),
                  "Input and output sizes should be greater than 0, but got "
                  "input (W: 3) and output (W: 0)");
  SK_EXPECT_ERROR(sk::upsample_nearest1d(sk::zeros({1, 0, 3}), {4}),
                  "Non-empty 3D data tensor expected but got a tensor with "
                  "sizes [1, 0, 3]");
  SK_EXPECT_ERROR(sk::upsample_nearest1d(sk::zeros({1, 2, 3}), {4, 5}),
                  "It is expected output_size equals to 1, but got size 2");
}

} // namespace
