//===--- NNCUDATest.cpp - The neural-network kernels on CUDA --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// softmax, log_softmax, layer_norm, batch_norm, embedding, embedding_bag,
/// binary_cross_entropy, max_pool2d/3d and upsample_nearest1d on CUDA
/// against the CPU kernels, over dtypes, shapes, layouts and out=.
///
//===----------------------------------------------------------------------===//

#include "CUDAKernelTestUtils.h"

#include "Functions.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

Tensor cudaEmpty(ScalarType Dtype) {
  return sk::empty({0}, TensorOptions(Dtype).device(Device("cuda")));
}

class FloatingCUDATest : public CUDADtypeTest {};

TEST_P(FloatingCUDATest, Softmax_MatchesCPUAlongEveryDim) {
  ScalarType Dtype = GetParam();
  const std::vector<int64_t> Shapes[] = {{7}, {3, 1000}, {4, 5, 6}, {2, 0, 3}};
  for (const std::vector<int64_t> &Shape : Shapes) {
    Tensor X = randomCPU(Shape, Dtype, 1, -8, 8);
    for (int64_t Dim = 0; Dim < int64_t(Shape.size()); ++Dim) {
      expectClose(sk::_softmax(toCUDA(X), Dim, false),
                  sk::_softmax(X, Dim, false));
      expectClose(sk::_log_softmax(toCUDA(X), Dim, false),
                  sk::_log_softmax(X, Dim, false));
    }
  }
  // Rows of every register budget of the one-warp kernel, and past it (one
  // block per row): unaligned (1025), in shared memory (3000), in more
  // than the 48 KB a kernel gets unasked (20000, 32000; the float32 row of
  // 32000 and the float64 one of 20000 leave room for one block per SM,
  // which then has more threads), and longer than shared memory holds for
  // 4- and 8-byte dtypes (60000). Each with a row of NaN, of -inf, and
  // holding +inf.
  const double Inf = std::numeric_limits<double>::infinity();
  for (int64_t Length :
       {1, 31, 33, 100, 257, 1000, 1024, 1025, 3000, 20000, 32000, 60000}) {
    SCOPED_TRACE(Length);
    Tensor Rows = randomCPU({5, Length}, Dtype, 3, -8, 8);
    Rows.select(0, 1).select(0, Length - 1).fill_(std::nan(""));
    Rows.select(0, 2).fill_(-Inf);
    Rows.select(0, 3).select(0, Length / 2).fill_(Inf);
    expectClose(sk::_softmax(toCUDA(Rows), 1, false),
                sk::_softmax(Rows, 1, false));
    expectClose(sk::_log_softmax(toCUDA(Rows), 1, false),
                sk::_log_softmax(Rows, 1, false));
    if (Dtype == kHalf || Dtype == kBFloat16)
      expectClose(sk::_softmax(toCUDA(Rows), 1, true),
                  sk::_softmax(Rows, 1, true), 1e-5);
  }
  // A contiguous input one element into its storage: not aligned for the
  // one-warp kernel's vectors of 4, so read one value at a time.
  Tensor Flat = randomCPU({1 + 5 * 1000}, Dtype, 4, -8, 8);
  Tensor Shifted = Flat.slice(0, 1).view({5, 1000});
  expectClose(
      sk::_log_softmax(toCUDA(Flat).slice(0, 1).view({5, 1000}), 1, false),
      sk::_log_softmax(Shifted, 1, false));
  Tensor X = randomCPU({6, 5}, Dtype, 2);
  expectClose(sk::_softmax(toCUDA(X).t(), 1, false),
              sk::_softmax(X.t(), 1, false));
  Tensor Out = cudaEmpty(Dtype);
  sk::_log_softmax_out(Out, toCUDA(X), 0, false);
  expectClose(Out, sk::_log_softmax(X, 0, false));
  if (Dtype == kHalf || Dtype == kBFloat16)
    expectClose(sk::_softmax(toCUDA(X), 1, true), sk::_softmax(X, 1, true),
                1e-5);
}

TEST_P(FloatingCUDATest, LayerNorm_MatchesCPU) {
  ScalarType Dtype = GetParam();
  Tensor X = randomCPU({4, 3, 50}, Dtype, 3);
  Tensor W = randomCPU({3, 50}, Dtype, 4), B = randomCPU({3, 50}, Dtype, 5);
  auto [Y, Mean, Rstd] =
      sk::native_layer_norm(toCUDA(X), {3, 50}, toCUDA(W), toCUDA(B), 1e-5);
  auto [WantY, WantMean, WantRstd] =
      sk::native_layer_norm(X, {3, 50}, W, B, 1e-5);
  expectClose(Y, WantY);
  expectClose(Mean, WantMean);
  expectClose(Rstd, WantRstd);
  expectClose(sk::layer_norm(toCUDA(X), {50}), sk::layer_norm(X, {50}));
  // A row holding NaN, or both infinities, has a NaN variance, and NaN
  // rstd and outputs, as on the CPU; the other rows are untouched.
  Tensor Special = randomCPU({3, 4}, Dtype, 6);
  Special.select(0, 0).select(0, 2).fill_(std::nan(""));
  Special.select(0, 1).select(0, 0).fill_(
      std::numeric_limits<double>::infinity());
  Special.select(0, 1).select(0, 3).fill_(
      -std::numeric_limits<double>::infinity());
  auto [SY, SMean, SRstd] =
      sk::native_layer_norm(toCUDA(Special), {4}, Tensor(), Tensor(), 0.5);
  auto [WantSY, WantSMean, WantSRstd] =
      sk::native_layer_norm(Special, {4}, Tensor(), Tensor(), 0.5);
  expectClose(SY, WantSY);
  expectClose(SRstd, WantSRstd);
  // Rows held in registers at 2 vectors of 4 values a thread (1000, 3000)
  // or up to 4 single values (7, 1001 and 2001, not multiples of 4), and
  // rows too long for that, read in each pass (4097, 6000, 9000); in each,
  // a row
  // whose float32 sum of squares overflows (Note [Variance that
  // overflows]). Its values, up to 3e30, sum to a finite float32 in any
  // order: at 1e37 the CPU's sum overflowed where the GPU's tree did not,
  // and the mean was inf on one side only.
  // float64 overflows its squares from 1.3e154.
  const double Big = Dtype == kDouble ? 1e160 : 1e30;
  for (int64_t N : {7, 1000, 1001, 2001, 3000, 4097, 6000, 9000}) {
    SCOPED_TRACE(N);
    Tensor Rows = randomCPU({3, N}, Dtype, 7);
    Rows.select(0, 1).copy_(sk::mul(Rows.select(0, 1), Big));
    auto [LY, LMean, LRstd] =
        sk::native_layer_norm(toCUDA(Rows), {N}, Tensor(), Tensor(), 1e-5);
    auto [WantLY, WantLMean, WantLRstd] =
        sk::native_layer_norm(Rows, {N}, Tensor(), Tensor(), 1e-5);
    expectClose(LY, WantLY);
    expectClose(LMean, WantLMean);
    expectClose(LRstd, WantLRstd);
  }
  // Rows in vectors, with a weight and a bias, and the same rows one
  // element into their storage: not aligned for vectors, read one value at
  // a time.
  Tensor Flat = randomCPU({1 + 6 * 1024}, Dtype, 8);
  Tensor W1 = randomCPU({1024}, Dtype, 9), B1 = randomCPU({1024}, Dtype, 10);
  for (int64_t Offset : {0, 1}) {
    SCOPED_TRACE(::testing::Message() << "offset " << Offset);
    auto Rows = [&](const Tensor &F) {
      return F.slice(0, Offset, Offset + 6 * 1024).view({6, 1024});
    };
    auto [VY, VMean, VRstd] = sk::native_layer_norm(
        Rows(toCUDA(Flat)), {1024}, toCUDA(W1), toCUDA(B1), 1e-5);
    auto [WantVY, WantVMean, WantVRstd] =
        sk::native_layer_norm(Rows(Flat), {1024}, W1, B1, 1e-5);
    expectClose(VY, WantVY);
    expectClose(VMean, WantVMean);
    expectClose(VRstd, WantVRstd);
  }
  // The weight, the bias or the output alone one element into its
  // storage, the rest aligned: that one keeps the rows out of vectors.
  Tensor Params = randomCPU({1025}, Dtype, 11);
  Tensor CudaParams = toCUDA(Params);
  Tensor X6 = randomCPU({6, 1024}, Dtype, 12);
  for (bool ShiftWeight : {true, false}) {
    SCOPED_TRACE(ShiftWeight ? "weight shifted" : "bias shifted");
    auto Pick = [&](const Tensor &P, bool Shifted) {
      return P.slice(0, Shifted ? 1 : 0, Shifted ? 1025 : 1024);
    };
    auto [PY, PMean, PRstd] =
        sk::native_layer_norm(toCUDA(X6), {1024}, Pick(CudaParams, ShiftWeight),
                              Pick(CudaParams, !ShiftWeight), 1e-5);
    auto [WantPY, WantPMean, WantPRstd] =
        sk::native_layer_norm(X6, {1024}, Pick(Params, ShiftWeight),
                              Pick(Params, !ShiftWeight), 1e-5);
    expectClose(PY, WantPY);
    expectClose(PRstd, WantPRstd);
  }
  Tensor OutFlat =
      sk::empty({1 + 6 * 1024}, TensorOptions(Dtype).device(Device("cuda")));
  Tensor ShiftedOut = OutFlat.slice(0, 1).view({6, 1024});
  Tensor OutMean = cudaEmpty(Dtype), OutRstd = cudaEmpty(Dtype);
  sk::native_layer_norm_out(ShiftedOut, OutMean, OutRstd, toCUDA(X6), {1024},
                            toCUDA(W1), toCUDA(B1), 1e-5);
  auto [WantOY, WantOMean, WantORstd] =
      sk::native_layer_norm(X6, {1024}, W1, B1, 1e-5);
  expectClose(ShiftedOut, WantOY);
  expectClose(OutRstd, WantORstd);
  // A weight and a bias on rows read in each pass.
  for (int64_t N : {4097, 6000}) {
    SCOPED_TRACE(N);
    Tensor Rows = randomCPU({3, N}, Dtype, 13);
    Tensor WN = randomCPU({N}, Dtype, 14), BN = randomCPU({N}, Dtype, 15);
    auto [NY, NMean, NRstd] =
        sk::native_layer_norm(toCUDA(Rows), {N}, toCUDA(WN), toCUDA(BN), 1e-5);
    auto [WantNY, WantNMean, WantNRstd] =
        sk::native_layer_norm(Rows, {N}, WN, BN, 1e-5);
    expectClose(NY, WantNY);
    expectClose(NRstd, WantNRstd);
  }
  // Rows of one value and of none.
  for (int64_t N : {1, 0}) {
    SCOPED_TRACE(N);
    Tensor Rows = randomCPU({3, N}, Dtype, 16);
    auto [EY, EMean, ERstd] =
        sk::native_layer_norm(toCUDA(Rows), {N}, Tensor(), Tensor(), 1e-5);
    auto [WantEY, WantEMean, WantERstd] =
        sk::native_layer_norm(Rows, {N}, Tensor(), Tensor(), 1e-5);
    expectClose(EY, WantEY);
    expectClose(EMean, WantEMean);
    expectClose(ERstd, WantERstd);
  }
}

TEST_P(FloatingCUDATest, BatchNorm_TrainingUpdatesRunningStatistics) {
  ScalarType Dtype = GetParam();
  for (bool ChannelsLast : {false, true}) {
    Tensor X = randomCPU({4, 3, 5, 6}, Dtype, 6);
    if (ChannelsLast)
      X = X.contiguous(MemoryFormat::ChannelsLast);
    Tensor W = randomCPU({3}, Dtype, 7), B = randomCPU({3}, Dtype, 8);
    Tensor RM = randomCPU({3}, Dtype, 9), RV = randomCPU({3}, Dtype, 10, 1, 2);
    Tensor CudaRM = toCUDA(RM), CudaRV = toCUDA(RV);
    auto [Y, SaveMean, SaveInvstd] =
        sk::native_batch_norm(toCUDA(X), toCUDA(W), toCUDA(B), CudaRM, CudaRV,
                              /*training=*/true, 0.1, 1e-5);
    auto [WantY, WantMean, WantInvstd] =
        sk::native_batch_norm(X, W, B, RM, RV, true, 0.1, 1e-5);
    expectClose(Y, WantY);
    EXPECT_EQ(Y.strides().vec(), WantY.strides().vec());
    expectClose(SaveMean, WantMean);
    expectClose(SaveInvstd, WantInvstd);
    expectClose(CudaRM, RM);
    expectClose(CudaRV, RV);
  }
  // Channels of 32768 values, reduced in chunks by several blocks whose
  // states one block merges, one of them with a float32 sum of squares
  // that overflows (Note [Variance that overflows]); and of 28609, whose
  // last chunk is shorter than the others.
  for (auto [Sizes, ChannelsLast] :
       {std::pair{std::vector<int64_t>{8, 3, 64, 64}, false},
        std::pair{std::vector<int64_t>{8, 3, 64, 64}, true},
        std::pair{std::vector<int64_t>{7, 3, 61, 67}, false},
        std::pair{std::vector<int64_t>{7, 3, 61, 67}, true},
        // Channels last read by rows (16 channels or more; 3 are read a
        // channel a block): 40 channels are two blocks of 32, the second
        // partly idle; one chunk of rows, 225, and 9 of 16 channels.
        std::pair{std::vector<int64_t>{5, 40, 9, 7}, true},
        std::pair{std::vector<int64_t>{6, 16, 20, 20}, true},
        std::pair{std::vector<int64_t>{64, 40, 30, 30}, true},
        // Either side of the threshold, and one whole block of channels.
        std::pair{std::vector<int64_t>{6, 15, 20, 20}, true},
        std::pair{std::vector<int64_t>{6, 32, 20, 20}, true},
        // Channels last in 3-d: rows of depth, height and width.
        std::pair{std::vector<int64_t>{2, 20, 3, 4, 5}, true}}) {
    SCOPED_TRACE(::testing::Message()
                 << Sizes[1] << "x" << Sizes[2]
                 << (ChannelsLast ? " channels last" : ""));
    Tensor X = randomCPU(Sizes, Dtype, 19);
    // float64 overflows its squares from 1.3e154.
    if (Dtype != kHalf)
      X.select(1, 2).copy_(
          sk::mul(X.select(1, 2), Dtype == kDouble ? 1e160 : 1e30));
    if (ChannelsLast)
      X = X.contiguous(Sizes.size() == 5 ? MemoryFormat::ChannelsLast3d
                                         : MemoryFormat::ChannelsLast);
    Tensor RM = randomCPU({Sizes[1]}, Dtype, 20),
           RV = randomCPU({Sizes[1]}, Dtype, 21, 1, 2);
    Tensor CudaRM = toCUDA(RM), CudaRV = toCUDA(RV);
    auto [Y, SaveMean, SaveInvstd] =
        sk::native_batch_norm(toCUDA(X), std::nullopt, std::nullopt, CudaRM,
                              CudaRV, /*training=*/true, 0.1, 1e-5);
    auto [WantY, WantMean, WantInvstd] = sk::native_batch_norm(
        X, std::nullopt, std::nullopt, RM, RV, true, 0.1, 1e-5);
    expectClose(Y, WantY);
    expectClose(SaveMean, WantMean);
    expectClose(SaveInvstd, WantInvstd);
    expectClose(CudaRM, RM);
    expectClose(CudaRV, RV);
  }
}

TEST_P(FloatingCUDATest, BatchNorm_InferenceAndNoParameters) {
  ScalarType Dtype = GetParam();
  Tensor X = randomCPU({5, 4}, Dtype, 11);
  Tensor RM = randomCPU({4}, Dtype, 12), RV = randomCPU({4}, Dtype, 13, 1, 2);
  // Inference reads the running statistics in place where they are of the
  // accumulation dtype, and leaves them alone.
  Tensor CudaRM = toCUDA(RM), CudaRV = toCUDA(RV);
  auto [Y, M, I] = sk::native_batch_norm(toCUDA(X), std::nullopt, std::nullopt,
                                         CudaRM, CudaRV, false, 0.1, 1e-5);
  auto [WantY, WantM, WantI] = sk::native_batch_norm(
      X, std::nullopt, std::nullopt, RM, RV, false, 0.1, 1e-5);
  expectClose(Y, WantY);
  expectEqual(CudaRM, RM);
  expectEqual(CudaRV, RV);
  EXPECT_EQ(M.numel(), 0);
  EXPECT_EQ(I.numel(), 0);
  auto [TY, TM, TI] =
      sk::native_batch_norm(toCUDA(X), std::nullopt, std::nullopt, std::nullopt,
                            std::nullopt, true, 0.1, 1e-5);
  expectClose(TY, std::get<0>(sk::native_batch_norm(
                      X, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                      true, 0.1, 1e-5)));
}

// Inputs of every rank, layout and plane length, training and inference:
// the statistics read planes of whole vectors (6x4, 20, 4x4x4, and
// 40x130, whose channels of 26000 values split into chunks rounded to
// whole vectors) or single values (5x3, 5, and [N, C]: one value a
// plane), and the output is written by the elementwise
// launcher, in vectors along planes or rows of channels. out= tensors of
// another layout, or a slice of a larger one, are given to the kernel as
// a temporary in the input's layout by the out= wrapper, then copied.
TEST_P(FloatingCUDATest, BatchNorm_EveryRankLayoutAndOut) {
  ScalarType Dtype = GetParam();
  using Sizes = std::vector<int64_t>;
  for (const Sizes &Shape :
       {Sizes{2, 8, 6, 4}, Sizes{3, 5, 5, 3}, Sizes{5, 3, 40, 130},
        Sizes{64, 8}, Sizes{4, 6, 20}, Sizes{4, 6, 5}, Sizes{2, 3, 4, 4, 4}})
    for (bool ChannelsLast : {false, true})
      for (int OutLayout : {0, 1, 2})
        for (bool Training : {true, false}) {
          // Channels last, and an out= of it, in 4-d.
          if ((ChannelsLast || OutLayout == 1) && Shape.size() != 4)
            continue;
          SCOPED_TRACE(::testing::Message()
                       << Shape.size() << "-d, " << Shape.back() << " last"
                       << (ChannelsLast ? ", channels last" : "") << ", out "
                       << OutLayout << (Training ? ", training" : ""));
          Tensor X = randomCPU(Shape, Dtype, 22);
          if (ChannelsLast)
            X = X.contiguous(MemoryFormat::ChannelsLast);
          Tensor W = randomCPU({Shape[1]}, Dtype, 23),
                 B = randomCPU({Shape[1]}, Dtype, 24);
          Tensor RM = randomCPU({Shape[1]}, Dtype, 25),
                 RV = randomCPU({Shape[1]}, Dtype, 26, 1, 2);
          TensorOptions Options = TensorOptions(Dtype).device(Device("cuda"));
          Tensor Out;
          if (OutLayout == 2) {
            Sizes Wider = Shape;
            Wider.back() *= 2;
            Out = sk::empty(Wider, Options)
                      .narrow(int64_t(Shape.size()) - 1, 1, Shape.back());
          } else {
            Out = sk::empty(
                Shape, Options.memory_format(OutLayout == 1
                                                 ? MemoryFormat::ChannelsLast
                                                 : MemoryFormat::Contiguous));
          }
          Tensor SaveMean = cudaEmpty(Dtype), SaveInvstd = cudaEmpty(Dtype);
          Tensor CudaRM = toCUDA(RM), CudaRV = toCUDA(RV);
          sk::native_batch_norm_out(Out, SaveMean, SaveInvstd, toCUDA(X),
                                    toCUDA(W), toCUDA(B), CudaRM, CudaRV,
                                    Training, 0.1, 1e-5);
          auto [WantY, WantMean, WantInvstd] =
              sk::native_batch_norm(X, W, B, RM, RV, Training, 0.1, 1e-5);
          expectClose(Out, WantY);
          if (Training) {
            expectClose(SaveMean, WantMean);
            expectClose(SaveInvstd, WantInvstd);
            expectClose(CudaRM, RM);
            expectClose(CudaRV, RV);
          }
        }
  // Planes of whole vectors that do not start at one: an input one element
  // into its storage is read a value at a time.
  Tensor Flat = randomCPU({1 + 2 * 3 * 64}, Dtype, 27);
  Tensor Shifted = Flat.narrow(0, 1, 2 * 3 * 64).view({2, 3, 8, 8});
  auto [Y, SaveMean, SaveInvstd] = sk::native_batch_norm(
      toCUDA(Flat).narrow(0, 1, 2 * 3 * 64).view({2, 3, 8, 8}), std::nullopt,
      std::nullopt, std::nullopt, std::nullopt, /*training=*/true, 0.1, 1e-5);
  auto [WantY, WantMean, WantInvstd] =
      sk::native_batch_norm(Shifted, std::nullopt, std::nullopt, std::nullopt,
                            std::nullopt, true, 0.1, 1e-5);
  expectClose(Y, WantY);
  expectClose(SaveMean, WantMean);
  expectClose(SaveInvstd, WantInvstd);
}

TEST_P(FloatingCUDATest, EmbeddingBag_MatchesCPUInEveryMode) {
  ScalarType Dtype = GetParam();
  Tensor Weight = randomCPU({10, 6}, Dtype, 14);
  for (ScalarType IndexType : {kLong, kInt}) {
    Tensor Indices = fromVector(std::vector<int64_t>{1, 2, 4, 5, 4, 3, 2, 9},
                                {8}, IndexType);
    Tensor Offsets = fromVector(std::vector<int64_t>{0, 4, 4}, {3}, IndexType);
    for (int64_t Mode : {0, 1, 2})
      for (int64_t Padding : {-1, 4}) {
        auto Got = sk::_embedding_bag(toCUDA(Weight), toCUDA(Indices),
                                      toCUDA(Offsets), false, Mode, false,
                                      std::nullopt, false, Padding);
        auto Want = sk::_embedding_bag(Weight, Indices, Offsets, false, Mode,
                                       false, std::nullopt, false, Padding);
        expectClose(std::get<0>(Got), std::get<0>(Want));
        expectEqual(std::get<1>(Got), std::get<1>(Want));
        expectEqual(std::get<2>(Got), std::get<2>(Want));
        expectEqual(std::get<3>(Got), std::get<3>(Want));
      }
    Tensor PerSample = randomCPU({8}, Dtype, 15);
    auto Got =
        sk::_embedding_bag(toCUDA(Weight), toCUDA(Indices), toCUDA(Offsets),
                           false, 0, false, toCUDA(PerSample), true, -1);
    auto Want = sk::_embedding_bag(Weight, Indices, Offsets, false, 0, false,
                                   PerSample, true, -1);
    expectClose(std::get<0>(Got), std::get<0>(Want));
  }
}

TEST_P(FloatingCUDATest, BinaryCrossEntropy_MatchesCPUForEveryReduction) {
  ScalarType Dtype = GetParam();
  Tensor X = randomCPU({4, 7}, Dtype, 16, 0, 1);
  Tensor Y = randomCPU({4, 7}, Dtype, 17, 0, 1);
  Tensor W = randomCPU({7}, Dtype, 18, 0, 2);
  for (int64_t Reduction : {0, 1, 2}) {
    expectClose(
        sk::binary_cross_entropy(toCUDA(X), toCUDA(Y), std::nullopt, Reduction),
        sk::binary_cross_entropy(X, Y, std::nullopt, Reduction));
    expectClose(
        sk::binary_cross_entropy(toCUDA(X), toCUDA(Y), toCUDA(W), Reduction),
        sk::binary_cross_entropy(X, Y, W, Reduction));
  }
  Tensor Out = cudaEmpty(Dtype);
  sk::binary_cross_entropy_out(Out, toCUDA(X), toCUDA(Y), std::nullopt, 2);
  expectClose(Out, sk::binary_cross_entropy(X, Y, std::nullopt, 2));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, FloatingCUDATest,
                         ::testing::Values(kFloat, kDouble, kHalf, kBFloat16),
                         dtypeName);

class AnyDtypeCUDATest : public CUDADtypeTest {};

TEST_P(AnyDtypeCUDATest, Embedding_MatchesCPU) {
  ScalarType Dtype = GetParam();
  Tensor Weight = randomCPU({10, 3}, Dtype, 19);
  Tensor Indices =
      fromVector(std::vector<int64_t>{9, 0, 3, 3, 7, 1}, {2, 3}, kLong);
  expectEqual(sk::embedding(toCUDA(Weight), toCUDA(Indices)),
              sk::embedding(Weight, Indices));
  expectEqual(sk::embedding(toCUDA(Weight).t().contiguous().t(),
                            toCUDA(Indices.to(kInt))),
              sk::embedding(Weight, Indices.to(kInt)));
}

TEST_P(AnyDtypeCUDATest, UpsampleNearest1d_MatchesCPU) {
  ScalarType Dtype = GetParam();
  Tensor X = randomCPU({2, 3, 5}, Dtype, 20);
  // Rows of 16, 32 and 64 are whole vectors for every element size, 10 for
  // 8-byte ones; the rest go one element at a time.
  for (int64_t Size : {5, 10, 7, 3, 16, 32, 64})
    expectEqual(sk::upsample_nearest1d(toCUDA(X), {Size}, std::nullopt),
                sk::upsample_nearest1d(X, {Size}, std::nullopt));
  expectEqual(sk::upsample_nearest1d(toCUDA(X), {9}, 1.7),
              sk::upsample_nearest1d(X, {9}, 1.7));
  expectEqual(sk::upsample_nearest1d(toCUDA(X), {64}, 6.1),
              sk::upsample_nearest1d(X, {64}, 6.1));
  // A scale whose inverse overflows float32 (kernels::nearestScale).
  expectEqual(sk::upsample_nearest1d(toCUDA(X), {16}, 1e-40),
              sk::upsample_nearest1d(X, {16}, 1e-40));
  // Whole vectors when downsampling (37 to 16), and at twice the width.
  for (int64_t Width : {37, 8}) {
    Tensor W = randomCPU({2, 3, Width}, Dtype, 22);
    expectEqual(sk::upsample_nearest1d(toCUDA(W), {16}, std::nullopt),
                sk::upsample_nearest1d(W, {16}, std::nullopt));
  }
  // An out= one element into its storage: not aligned for vectors.
  Tensor Storage = sk::empty({1 + 2 * 3 * 32}, toCUDA(X).options());
  Tensor Shifted = Storage.slice(0, 1).view({2, 3, 32});
  sk::upsample_nearest1d_out(Shifted, toCUDA(X), {32});
  expectEqual(Shifted, sk::upsample_nearest1d(X, {32}, std::nullopt));
}

class UpsampleCUDATest : public CUDATest {};

TEST_F(UpsampleCUDATest, TinyScalesStepPastTheEndOfLongRows) {
  // Rows of 2^25 + 2, which float32 rounds down to 2^25
  // (kernels::nearestScale).
  const int64_t In = (int64_t(1) << 25) + 2;
  Tensor X = sk::zeros({1, 1, In}, kByte);
  X.data_ptr<uint8_t>()[In - 2] = 2;
  X.data_ptr<uint8_t>()[In - 1] = 1;
  Tensor Device = toCUDA(X);
  for (double Scales : {1.0 / double(In + 1), 1.0 / double(In - 1), 1e-40}) {
    expectEqual(sk::upsample_nearest1d(Device, {3}, Scales),
                sk::upsample_nearest1d(X, {3}, Scales));
  }
}

TEST_P(AnyDtypeCUDATest, MaxPool_MatchesCPUValuesAndIndices) {
  ScalarType Dtype = GetParam();
  Tensor X = randomCPU({2, 3, 9, 8}, Dtype, 21, -50, 50);
  for (bool ChannelsLast : {false, true}) {
    Tensor In = ChannelsLast ? X.contiguous(MemoryFormat::ChannelsLast) : X;
    for (bool Ceil : {false, true}) {
      auto Got = sk::max_pool2d_with_indices(toCUDA(In), {3, 2}, {2, 2}, {1, 1},
                                             {1, 2}, Ceil);
      auto Want =
          sk::max_pool2d_with_indices(In, {3, 2}, {2, 2}, {1, 1}, {1, 2}, Ceil);
      expectEqual(std::get<0>(Got), std::get<0>(Want));
      expectEqual(std::get<1>(Got), std::get<1>(Want));
      EXPECT_EQ(std::get<0>(Got).strides().vec(),
                std::get<0>(Want).strides().vec());
    }
  }
  Tensor Unbatched = randomCPU({3, 6, 6}, Dtype, 22, -50, 50);
  expectEqual(sk::max_pool2d(toCUDA(Unbatched), {2, 2}),
              sk::max_pool2d(Unbatched, {2, 2}));
  Tensor Volume = randomCPU({2, 2, 5, 6, 7}, Dtype, 23, -50, 50);
  auto Got = sk::max_pool3d_with_indices(toCUDA(Volume), {2, 3, 2}, {},
                                         {1, 1, 0}, {1, 1, 2}, true);
  auto Want = sk::max_pool3d_with_indices(Volume, {2, 3, 2}, {}, {1, 1, 0},
                                          {1, 1, 2}, true);
  expectEqual(std::get<0>(Got), std::get<0>(Want));
  expectEqual(std::get<1>(Got), std::get<1>(Want));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, AnyDtypeCUDATest,
                         ::testing::Values(kFloat, kDouble, kHalf, kBFloat16,
                                           kInt, kLong, kChar),
                         dtypeName);

class NNErrorsCUDATest : public CUDATest {};

TEST_F(NNErrorsCUDATest, OutOfRangeValues_ThrowTheCPUErrors) {
  Tensor Weight = toCUDA(randomCPU({4, 2}));
  // Each error comes at the wait after the call (Note [Device checks]).
  SK_EXPECT_ERROR(
      (sk::embedding(Weight,
                     toCUDA(fromVector(std::vector<int64_t>{4}, {1}, kLong))),
       waitForDevice()),
      "index out of range in self");
  Tensor X = toCUDA(fromVector(std::vector<double>{0.5, 1.5}, {2}, kFloat));
  Tensor Y = toCUDA(fromVector(std::vector<double>{0.5, 0.5}, {2}, kFloat));
  SK_EXPECT_ERROR(
      (sk::binary_cross_entropy(X, Y, std::nullopt, 1), waitForDevice()),
      "all elements of input should be between 0 and 1");
  SK_EXPECT_ERROR(
      (sk::binary_cross_entropy(Y, X, std::nullopt, 0), waitForDevice()),
      "all elements of target should be between 0 and 1");
  SK_EXPECT_ERROR(
      (sk::_embedding_bag(
           Weight, toCUDA(fromVector(std::vector<int64_t>{0, 7}, {2}, kLong)),
           toCUDA(fromVector(std::vector<int64_t>{0}, {1}, kLong)), false, 0,
           false, std::nullopt, false, -1),
       waitForDevice()),
      "but found idx to be 7");
  // The offsets' checks, made on the device, with the CPU's messages.
  auto Bag = [&](std::vector<int64_t> Offsets) {
    int64_t N = static_cast<int64_t>(Offsets.size());
    sk::_embedding_bag(
        Weight, toCUDA(fromVector(std::vector<int64_t>{0, 1, 2}, {3}, kLong)),
        toCUDA(fromVector(Offsets, {N}, kLong)), false, 0, false, std::nullopt,
        false, -1);
    waitForDevice();
  };
  SK_EXPECT_ERROR(Bag({1, 2}), "offsets[0] has to be 0");
  SK_EXPECT_ERROR(Bag({0, 4}), "offsets[-1] can not be greater than input's "
                               "length 3 but got offsets[-1] of 4");
  SK_EXPECT_ERROR(Bag({0, 2, 1}), "offsets[2] < offsets[1]");
}

// offset2bag from the device's binary search, over many bags, some empty.
TEST_F(NNErrorsCUDATest, EmbeddingBag_ManyBagsMatchTheCPU) {
  Tensor Weight = randomCPU({1000, 64}, kFloat, 17);
  std::vector<int64_t> Indices, Offsets;
  for (int64_t I = 0; I < 5000; ++I)
    Indices.push_back(I * 7919 % 1000);
  // Every other bag is empty; the last runs to the end.
  for (int64_t B = 0; B < 400; ++B)
    Offsets.push_back(B / 2 * 25);
  Tensor I = fromVector(Indices, {5000}, kLong);
  Tensor O = fromVector(Offsets, {400}, kLong);
  for (int64_t Mode : {1, 2}) {
    auto Got = sk::_embedding_bag(toCUDA(Weight), toCUDA(I), toCUDA(O), false,
                                  Mode, false, std::nullopt, false, 3);
    auto Want = sk::_embedding_bag(Weight, I, O, false, Mode, false,
                                   std::nullopt, false, 3);
    expectClose(std::get<0>(Got), std::get<0>(Want));
    expectEqual(std::get<1>(Got), std::get<1>(Want));
    expectEqual(std::get<2>(Got), std::get<2>(Want));
    expectEqual(std::get<3>(Got), std::get<3>(Want));
  }
}

// Bags longer than the rows the kernel stages at a time (256), and rows
// wider than a block's threads (512), with padding rows among them.
TEST_F(NNErrorsCUDATest, EmbeddingBag_LongBagsAndWideRowsMatchTheCPU) {
  Tensor Weight = randomCPU({1000, 600}, kFloat, 18);
  std::vector<int64_t> Indices;
  for (int64_t I = 0; I < 1500; ++I)
    Indices.push_back(I % 11 == 0 ? 3 : I * 7919 % 1000);
  Tensor I = fromVector(Indices, {1500}, kLong);
  // 700 rows, none, then the other 800.
  Tensor O = fromVector(std::vector<int64_t>{0, 700, 700}, {3}, kLong);
  Tensor PerSample = randomCPU({1500}, kFloat, 19);
  for (int64_t Mode : {0, 1, 2}) {
    // per_sample_weights is for sum only; an undefined tensor is none.
    Tensor Scale = Mode == 0 ? PerSample : Tensor();
    Tensor DeviceScale = Mode == 0 ? toCUDA(PerSample) : Tensor();
    auto Got = sk::_embedding_bag(toCUDA(Weight), toCUDA(I), toCUDA(O), false,
                                  Mode, false, DeviceScale, false, 3);
    auto Want = sk::_embedding_bag(Weight, I, O, false, Mode, false, Scale,
                                   false, 3);
    expectClose(std::get<0>(Got), std::get<0>(Want));
    expectEqual(std::get<1>(Got), std::get<1>(Want));
    expectEqual(std::get<2>(Got), std::get<2>(Want));
    expectEqual(std::get<3>(Got), std::get<3>(Want));
  }
}

} // namespace
