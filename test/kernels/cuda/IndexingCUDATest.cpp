//===--- IndexingCUDATest.cpp - Indexing and tensor lists on CUDA ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// index_select, take, gather, masked_select, nonzero, cat and stack on
/// CUDA against the CPU kernels: dtypes, strided inputs and outputs,
/// broadcasting, out= variants, and the CPU's errors for indices out of
/// range. The plan of cat's batched copy (CatBatch.h) is host code and is
/// tested without a GPU.
///
//===----------------------------------------------------------------------===//

#include "CUDAKernelTestUtils.h"
#include "CatBatch.h"
#include "shared/SizesAround.h"

#include "Functions.h"

#include "sk/cuda/CUDAStream.h"
#include "sk/cuda/DeviceChecks.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

Tensor indexTensor(const std::vector<int64_t> &Values,
                   ScalarType Dtype = kLong) {
  return fromVector(Values, {static_cast<int64_t>(Values.size())}, Dtype);
}

class IndexingCUDATest : public CUDADtypeTest {};

TEST_P(IndexingCUDATest, IndexSelect_MatchesCPUAlongEveryDim) {
  ScalarType Dtype = GetParam();
  Tensor Self = randomCPU({4, 5, 6}, Dtype, 1);
  for (ScalarType IndexType : {kLong, kInt}) {
    Tensor Index = indexTensor({3, 0, 3, 1}, IndexType);
    for (int64_t Dim : {0, 1, 2, -1})
      expectEqual(sk::index_select(toCUDA(Self), Dim, toCUDA(Index)),
                  sk::index_select(Self, Dim, Index));
  }
  // A transposed self, a 0-dim self, an out= of other strides.
  Tensor T = sk::test::transposed(Self, 0, 2);
  Tensor Index = indexTensor({1, 2});
  expectEqual(sk::index_select(toCUDA(Self).transpose(0, 2), 1, toCUDA(Index)),
              sk::index_select(T, 1, Index));
  Tensor Scalar0 = randomCPU({}, Dtype, 2);
  expectEqual(sk::index_select(toCUDA(Scalar0), 0, toCUDA(indexTensor({0}))),
              sk::index_select(Scalar0, 0, indexTensor({0})));
  Tensor Matrix = randomCPU({4, 5}, Dtype, 3);
  Tensor Out = sk::empty({2, 4}, TensorOptions(Dtype).device(Device("cuda")));
  Tensor OutT = Out.t();
  sk::index_select_out(OutT, toCUDA(Matrix), 1, toCUDA(Index));
  expectEqual(OutT, sk::index_select(Matrix, 1, Index));
  // Whole rows (gatherRows): 64 elements, a multiple of 16 bytes in every
  // dtype, and rows of a slice whose stride is not their length (16-byte
  // words for 2-, 4- and 8-byte dtypes, elements for 1-byte ones).
  Tensor Wide = randomCPU({50, 64}, Dtype, 4);
  Tensor Rows = indexTensor({49, 0, 7, 7, 13});
  expectEqual(sk::index_select(toCUDA(Wide), 0, toCUDA(Rows)),
              sk::index_select(Wide, 0, Rows));
  expectEqual(sk::embedding(toCUDA(Wide), toCUDA(Rows)),
              sk::embedding(Wide, Rows));
  expectEqual(sk::embedding(toCUDA(Wide).narrow(1, 8, 40), toCUDA(Rows)),
              sk::embedding(Wide.narrow(1, 8, 40), Rows));
}

TEST_P(IndexingCUDATest, TakeAndGather_MatchCPU) {
  ScalarType Dtype = GetParam();
  Tensor Self = randomCPU({3, 4}, Dtype, 3);
  Tensor TakeIndex =
      fromVector(std::vector<int64_t>{0, -1, 5, 11, -12, 7}, {2, 3}, kLong);
  expectEqual(sk::take(toCUDA(Self), toCUDA(TakeIndex)),
              sk::take(Self, TakeIndex));
  expectEqual(sk::take(toCUDA(Self).t(), toCUDA(TakeIndex)),
              sk::take(Self.t(), TakeIndex));
  Tensor GatherIndex =
      fromVector(std::vector<int64_t>{0, 2, 1, 2, 0, 0}, {2, 3}, kLong);
  expectEqual(sk::gather(toCUDA(Self), 0, toCUDA(GatherIndex)),
              sk::gather(Self, 0, GatherIndex));
  expectEqual(sk::gather(toCUDA(Self), 1, toCUDA(GatherIndex)),
              sk::gather(Self, 1, GatherIndex));
}

TEST_P(IndexingCUDATest, MaskedSelectAndNonzero_MatchCPU) {
  ScalarType Dtype = GetParam();
  Tensor Self = randomCPU({5, 6}, Dtype, 4, -2, 2);
  Tensor Mask = sk::gt(randomCPU({6}, kFloat, 5), 0);
  expectEqual(sk::masked_select(toCUDA(Self), toCUDA(Mask)),
              sk::masked_select(Self, Mask));
  expectEqual(sk::masked_select(toCUDA(Self).t(), toCUDA(Mask).unsqueeze(1)),
              sk::masked_select(Self.t(), Mask.unsqueeze(1)));
  expectEqual(sk::nonzero(toCUDA(Self)), sk::nonzero(Self));
  expectEqual(sk::nonzero(toCUDA(Self).t()), sk::nonzero(Self.t()));
  Tensor Cube = randomCPU({3, 4, 5}, Dtype, 6, -1, 2);
  expectEqual(sk::nonzero(toCUDA(Cube)), sk::nonzero(Cube));
  Tensor Zero = sk::zeros({4}, TensorOptions(Dtype));
  expectEqual(sk::nonzero(toCUDA(Zero)), sk::nonzero(Zero));
  // Many CUB tiles; a mask and a self of other strides; out= of other
  // strides.
  Tensor Big = randomCPU({512, 1024}, Dtype, 7, -1, 2);
  Tensor BigMask = sk::gt(randomCPU({512, 1024}, kFloat, 8), 0);
  expectEqual(sk::nonzero(toCUDA(Big)), sk::nonzero(Big));
  expectEqual(sk::nonzero(toCUDA(Big).t()), sk::nonzero(Big.t()));
  expectEqual(sk::masked_select(toCUDA(Big), toCUDA(BigMask)),
              sk::masked_select(Big, BigMask));
  expectEqual(sk::masked_select(toCUDA(Big).t(), toCUDA(BigMask).t()),
              sk::masked_select(Big.t(), BigMask.t()));
  Tensor Expected = sk::masked_select(Big, BigMask);
  Tensor Strided = sk::empty({Expected.numel(), 2},
                             TensorOptions(Dtype).device(Device("cuda")))
                       .select(1, 0);
  sk::masked_select_out(Strided, toCUDA(Big), toCUDA(BigMask));
  expectEqual(Strided, Expected);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, IndexingCUDATest,
                         ::testing::Values(kFloat, kDouble, kHalf, kBFloat16,
                                           kInt, kLong, kByte, kBool),
                         dtypeName);

class IndexingErrorsCUDATest : public CUDATest {};

/// Whether each checked call waits for its checks and throws itself
/// (Note [Device checks]), which the tests of later waits cannot run under.
bool launchBlocking() {
  const char *E = std::getenv("CUDA_LAUNCH_BLOCKING");
  return E && std::string(E) == "1";
}

TEST_F(IndexingErrorsCUDATest, IndexOutOfRange_ThrowsTheCPUError) {
  Tensor Self = toCUDA(randomCPU({3, 4}));
  // Each error comes at the wait after the call (Note [Device checks]).
  SK_EXPECT_ERROR(
      (sk::index_select(Self, 1, toCUDA(indexTensor({0, 4}))), waitForDevice()),
      "index_select(): index 4 is out of bounds for dimension 1 with size 4");
  SK_EXPECT_ERROR(
      (sk::index_select(Self, 0, toCUDA(indexTensor({-1}))), waitForDevice()),
      "index_select(): index -1 is out of bounds for dimension 0 with size 3");
  SK_EXPECT_ERROR((sk::take(Self, toCUDA(indexTensor({12}))), waitForDevice()),
                  "out of range: tried to access index 12 on a tensor of 12 "
                  "elements.");
  SK_EXPECT_ERROR(
      (sk::gather(Self, 0,
                  toCUDA(fromVector(std::vector<int64_t>{3}, {1, 1}, kLong))),
       waitForDevice()),
      "gather(): index 3 is out of bounds for dimension 0 with size 3");
  // The stream is usable after the error.
  expectEqual(sk::index_select(Self, 0, toCUDA(indexTensor({2}))),
              sk::index_select(toCPU(Self), 0, indexTensor({2})));
}

TEST_F(IndexingErrorsCUDATest, IndexOutOfRange_LeavesZerosWhereTheIndexIsBad) {
  // The call returns before its check is read. Its output is still defined,
  // at the wait that throws and after: the right values where the index is
  // good, zeros where it is bad (not whatever the memory held).
  if (launchBlocking())
    GTEST_SKIP() << "CUDA_LAUNCH_BLOCKING=1: each call waits";
  Tensor Self = randomCPU({3, 4});
  Tensor S = toCUDA(Self);
  {
    Tensor Got = sk::index_select(S, 0, toCUDA(indexTensor({2, 5})));
    SK_EXPECT_ERROR(waitForDevice(), "index 5 is out of bounds");
    Tensor Want = sk::index_select(Self, 0, indexTensor({2, 0}));
    Want.select(0, 1).fill_(0.0);
    expectEqual(Got, Want);
  }
  {
    Tensor Got = sk::index_select(S, 1, toCUDA(indexTensor({3, 4, 0})));
    SK_EXPECT_ERROR(waitForDevice(), "index 4 is out of bounds");
    Tensor Want = sk::index_select(Self, 1, indexTensor({3, 0, 0}));
    Want.select(1, 1).fill_(0.0);
    expectEqual(Got, Want);
  }
  {
    Tensor Got = sk::take(S, toCUDA(indexTensor({12, 5})));
    SK_EXPECT_ERROR(waitForDevice(), "tried to access index 12");
    Tensor Want = sk::take(Self, indexTensor({0, 5}));
    Want.select(0, 0).fill_(0.0);
    expectEqual(Got, Want);
  }
  {
    Tensor Got = sk::gather(
        S, 0,
        toCUDA(fromVector(std::vector<int64_t>{0, 3, 1, 2}, {1, 4}, kLong)));
    SK_EXPECT_ERROR(waitForDevice(), "index 3 is out of bounds");
    Tensor Want = sk::gather(
        Self, 0, fromVector(std::vector<int64_t>{0, 0, 1, 2}, {1, 4}, kLong));
    Want.select(0, 0).select(0, 1).fill_(0.0);
    expectEqual(Got, Want);
  }
  {
    Tensor Got = sk::embedding(S, toCUDA(indexTensor({1, 7, 0})));
    SK_EXPECT_ERROR(waitForDevice(), "index out of range in self");
    Tensor Want = sk::embedding(Self, indexTensor({1, 0, 0}));
    Want.select(0, 1).fill_(0.0);
    expectEqual(Got, Want);
  }
}

TEST_F(IndexingErrorsCUDATest, IndexOutOfRange_ThrowsAtTheNextWaitOnce) {
  if (launchBlocking())
    GTEST_SKIP() << "CUDA_LAUNCH_BLOCKING=1: each call waits";
  const char *Blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  std::optional<std::string> WasBlocking;
  if (Blocking)
    WasBlocking = Blocking;
  Tensor Self = toCUDA(randomCPU({3, 4}));
  Tensor Bad = toCUDA(fromVector(std::vector<int64_t>{3}, {1, 1}, kLong));
  // The call does not wait for its kernel, and throws nothing itself.
  Tensor Gathered = sk::gather(Self, 0, Bad);
  // Later calls queue behind it; the first copy to the host throws the
  // first failed check's error, not theirs.
  Tensor Taken = sk::take(Self, toCUDA(indexTensor({12})));
  Tensor Sum = sk::add(Self, Self);
  SK_EXPECT_ERROR(toCPU(Sum),
                  "gather(): index 3 is out of bounds for dimension 0 with "
                  "size 3");
  // Reported once: the next wait finds nothing, and the device works.
  waitForDevice();
  expectClose(toCPU(Sum), sk::add(toCPU(Self), toCPU(Self)));
  // A wait for the stream reports too, as cudaStreamSynchronize would.
  sk::gather(Self, 0, Bad);
  SK_EXPECT_ERROR(cuda::getCurrentCUDAStream().synchronize(),
                  "gather(): index 3 is out of bounds");
  // A wait for another stream does not read a stream's checks; a wait for
  // the device does.
  cuda::CUDAStream Side = cuda::getStreamFromPool();
  {
    cuda::CUDAStreamGuard OnSide(Side);
    sk::gather(Self, 0, Bad);
  }
  cuda::getCurrentCUDAStream().synchronize();
  SK_EXPECT_ERROR(waitForDevice(), "gather(): index 3 is out of bounds");
  // More checks than the device's table holds: all are read when it is
  // full, with a wait, and the failure is kept for the stream's next wait.
  Tensor Good = toCUDA(fromVector(std::vector<int64_t>{2}, {1, 1}, kLong));
  for (int I = 0; I != cuda::kDeviceCheckSlots + 8; ++I)
    sk::gather(Self, 0, I == 5 ? Bad : Good);
  SK_EXPECT_ERROR(cuda::getCurrentCUDAStream().synchronize(),
                  "gather(): index 3 is out of bounds");
  waitForDevice();
  // Under CUDA_LAUNCH_BLOCKING=1 the call itself throws.
  ASSERT_EQ(::setenv("CUDA_LAUNCH_BLOCKING", "1", 1), 0);
  SK_EXPECT_ERROR(sk::gather(Self, 0, Bad), "gather(): index 3 is out of");
  if (WasBlocking)
    ::setenv("CUDA_LAUNCH_BLOCKING", WasBlocking->c_str(), 1);
  else
    ::unsetenv("CUDA_LAUNCH_BLOCKING");
}

TEST_F(IndexingErrorsCUDATest, IndexOutOfRange_ThrowsAtTheWaitWhileOthersRead) {
  if (launchBlocking())
    GTEST_SKIP() << "CUDA_LAUNCH_BLOCKING=1: each call waits";
  Tensor Self = toCUDA(randomCPU({3, 4}));
  Tensor Bad = toCUDA(fromVector(std::vector<int64_t>{3}, {1, 1}, kLong));
  Tensor Good = toCUDA(fromVector(std::vector<int64_t>{2}, {1, 1}, kLong));
  // Copied on the default stream, which the pool's streams do not wait for.
  waitForDevice();
  cuda::CUDAStream Mine = cuda::getStreamFromPool();
  cuda::CUDAStream Theirs = cuda::getStreamFromPool();
  while (Theirs.stream() == Mine.stream())
    Theirs = cuda::getStreamFromPool();
  // Another thread fills the device's table of checks again and again, on
  // a stream of its own: each time it is full, that thread reads every
  // stream's checks, this thread's among them. A wait for this thread's
  // stream still throws its failure, whoever read it.
  std::atomic<bool> Done{false};
  std::string FillerError;
  std::thread Filler([&] {
    try {
      cuda::CUDAStreamGuard OnTheirs(Theirs);
      while (!Done.load())
        sk::gather(Self, 0, Good);
      Theirs.synchronize();
    } catch (const sk::Error &E) {
      FillerError = E.message();
    }
  });
  cuda::CUDAStreamGuard OnMine(Mine);
  int Unreported = 0;
  for (int I = 0; I != 300; ++I) {
    sk::gather(Self, 0, Bad);
    try {
      Mine.synchronize();
      ++Unreported;
    } catch (const sk::Error &E) {
      EXPECT_NE(E.message().find("gather(): index 3 is out of bounds"),
                std::string::npos)
          << E.message();
    }
  }
  Done.store(true);
  Filler.join();
  EXPECT_EQ(Unreported, 0) << "waits that returned over a failed check";
  EXPECT_EQ(FillerError, "") << "the other thread heard of this one's checks";
  waitForDevice();
}

//===----------------------------------------------------------------------===//
// cat's batched copy, planned and run on the host (no GPU needed)
//===----------------------------------------------------------------------===//

/// cat of the row-major CPU tensors \p Tensors along \p Dim as the CUDA
/// kernel copies it, each unit of each piece moved by catDestinationUnit;
/// std::nullopt where planCatBatches declines. Also returns the unit.
std::optional<std::pair<Tensor, int>>
catByPlan(const std::vector<Tensor> &Tensors, int64_t Dim) {
  Tensor Out = sk::cat(Tensors, Dim);
  std::memset(Out.data_ptr(), 0xAB, static_cast<size_t>(Out.nbytes()));
  auto [Outer, Inner] = kernels::sizesAround(Out.sizes(), Dim);
  const auto ItemSize = static_cast<int64_t>(Out.itemsize());
  std::vector<cuda::CatInput> Inputs;
  for (const Tensor &T : Tensors)
    Inputs.push_back({T.data_ptr(), T.size(Dim) * Inner * ItemSize});
  std::optional<cuda::CatPlan> Plan = cuda::planCatBatches(
      Inputs, Out.data_ptr(), Outer, Out.size(Dim) * Inner * ItemSize);
  if (!Plan)
    return std::nullopt;
  char *Dst = static_cast<char *>(Out.data_ptr());
  for (const cuda::CatPiece &Piece : Plan->Pieces)
    for (int32_t U = 0; U < Piece.Units; ++U)
      std::memcpy(Dst + cuda::catDestinationUnit(Piece, Plan->OutRowUnits, U) *
                            Plan->UnitBytes,
                  Piece.Src + int64_t(U) * Plan->UnitBytes,
                  static_cast<size_t>(Plan->UnitBytes));
  return std::pair{Out, Plan->UnitBytes};
}

/// Expects the CPU tensors \p Got and \p Want to hold the same elements.
void expectSameCPU(const Tensor &Got, const Tensor &Want) {
  ASSERT_EQ(Got.sizes().vec(), Want.sizes().vec());
  EXPECT_EQ(toVector<double>(Got), toVector<double>(Want));
}

TEST(CatBatchTest, CopiesEveryElementWhereCatPutsIt) {
  Tensor A = randomCPU({2, 3, 4}, kFloat, 1),
         B = randomCPU({2, 5, 4}, kFloat, 2);
  for (int64_t Dim : {0, 1, 2}) {
    Tensor C = randomCPU({Dim == 0 ? 1 : 2, Dim == 1 ? 1 : 3, Dim == 2 ? 1 : 4},
                         kFloat, 3);
    std::vector<Tensor> Tensors = {Dim == 1 ? B : A, C,
                                   A.narrow(Dim, 0, 1).contiguous()};
    auto Got = catByPlan(Tensors, Dim);
    ASSERT_TRUE(Got) << Dim;
    expectSameCPU(Got->first, sk::cat(Tensors, Dim));
  }
}

TEST(CatBatchTest, UnitIsTheWidestEveryAddressAndLengthAllows) {
  // Chunks of 16 floats: 64 bytes.
  Tensor Wide = randomCPU({3, 16}, kFloat, 4);
  auto Got = catByPlan({Wide, Wide}, 1);
  ASSERT_TRUE(Got);
  EXPECT_EQ(Got->second, 16);
  // Chunks of 3 floats: 12 bytes.
  Tensor Three = randomCPU({5, 3}, kFloat, 5);
  Got = catByPlan({Three, Wide.narrow(1, 0, 3).contiguous()}, 0);
  ASSERT_TRUE(Got);
  EXPECT_EQ(Got->second, 4);
  // A source one byte into its storage, and chunks of 1 byte.
  Tensor Bytes = randomCPU({4, 9}, kByte, 6);
  Tensor Shifted = Bytes.view({36}).narrow(0, 1, 8).view({4, 2});
  Got = catByPlan({Shifted, Bytes.narrow(1, 0, 1).contiguous()}, 1);
  ASSERT_TRUE(Got);
  EXPECT_EQ(Got->second, 1);
  expectSameCPU(Got->first, sk::cat({Shifted, Bytes.narrow(1, 0, 1)}, 1));
}

TEST(CatBatchTest, EmptyInputsHaveNoPieceAndManyInputsMakeSeveralBatches) {
  std::vector<Tensor> Tensors;
  for (int I = 0; I < 2 * cuda::kCatBatchSize + 3; ++I)
    Tensors.push_back(
        randomCPU({2, I % 4, 3}, kHalf, static_cast<uint64_t>(I)));
  auto Got = catByPlan(Tensors, 1);
  ASSERT_TRUE(Got);
  expectSameCPU(Got->first, sk::cat(Tensors, 1));
  std::vector<cuda::CatInput> Inputs;
  size_t NonEmpty = 0;
  for (const Tensor &T : Tensors) {
    Inputs.push_back({T.data_ptr(), T.size(1) * 3 * 2});
    NonEmpty += T.numel() != 0;
  }
  std::optional<cuda::CatPlan> Plan = cuda::planCatBatches(
      Inputs, Got->first.data_ptr(), 2, Got->first.size(1) * 3 * 2);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->Pieces.size(), NonEmpty);
}

TEST(CatBatchTest, InputsOf2To31UnitsAreLeftToTheCopyEngines) {
  // Never dereferenced: the plan only looks at the numbers.
  // 2^27 rows of one 16-byte unit fit; of 16 one-byte units, they do not.
  alignas(16) static char Storage[16];
  const int64_t Rows = int64_t(1) << 27;
  std::vector<cuda::CatInput> Inputs = {{Storage, 16}};
  std::optional<cuda::CatPlan> Plan =
      cuda::planCatBatches(Inputs, Storage, Rows, 16);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->UnitBytes, 16);
  Inputs.push_back({Storage, 1});
  EXPECT_FALSE(cuda::planCatBatches(Inputs, Storage, Rows, 17));
}

class TensorListsCUDATest : public CUDADtypeTest {};

TEST_P(TensorListsCUDATest, CatAndStack_MatchCPU) {
  ScalarType Dtype = GetParam();
  Tensor A = randomCPU({2, 3, 4}, Dtype, 7), B = randomCPU({2, 5, 4}, Dtype, 8);
  Tensor C = randomCPU({2, 3, 4}, Dtype, 9);
  std::vector<Tensor> CPUs = {A, B}, CUDAs = {toCUDA(A), toCUDA(B)};
  expectEqual(sk::cat(CUDAs, 1), sk::cat(CPUs, 1));
  // Skipped legacy empty tensors, non-contiguous inputs, mixed dtypes.
  Tensor Legacy = sk::empty({0}, TensorOptions(Dtype));
  expectEqual(sk::cat({toCUDA(A), toCUDA(Legacy), toCUDA(C)}, 0),
              sk::cat({A, Legacy, C}, 0));
  expectEqual(
      sk::cat({toCUDA(A).transpose(1, 2), toCUDA(C).transpose(1, 2)}, 2),
      sk::cat({A.transpose(1, 2), C.transpose(1, 2)}, 2));
  Tensor D = randomCPU({2, 3, 4}, kDouble, 10);
  expectEqual(sk::cat({toCUDA(A), toCUDA(D)}, -1), sk::cat({A, D}, -1));
  for (int64_t Dim : {0, 1, 3, -1})
    expectEqual(sk::stack({toCUDA(A), toCUDA(C)}, Dim), sk::stack({A, C}, Dim));
  // out=.
  Tensor Out = sk::empty({0}, TensorOptions(Dtype).device(Device("cuda")));
  sk::cat_out(Out, CUDAs, 1);
  expectEqual(Out, sk::cat(CPUs, 1));
  Tensor StackOut = sk::empty({0}, TensorOptions(Dtype).device(Device("cuda")));
  sk::stack_out(StackOut, {toCUDA(A), toCUDA(C)}, 1);
  expectEqual(StackOut, sk::stack({A, C}, 1));
  // More inputs than one launch copies, empty ones among them, and inputs
  // whose addresses and lengths allow only narrow units.
  std::vector<Tensor> ManyCPU, ManyCUDA;
  Tensor Wide = randomCPU({3, 70, 5}, Dtype, 11);
  Tensor WideCUDA = toCUDA(Wide);
  for (int64_t I = 0; I < 2 * cuda::kCatBatchSize + 3; ++I) {
    int64_t Width = I % 3;
    Tensor Slice = Wide.narrow(1, I % 50, Width).contiguous();
    ManyCPU.push_back(Slice);
    ManyCUDA.push_back(WideCUDA.narrow(1, I % 50, Width).contiguous());
  }
  expectEqual(sk::cat(ManyCUDA, 1), sk::cat(ManyCPU, 1));
  Tensor Flat = toCUDA(randomCPU({61}, Dtype, 12));
  std::vector<Tensor> Shifted = {Flat.narrow(0, 1, 60).view({3, 20}),
                                 Flat.narrow(0, 0, 3).view({3, 1})};
  expectEqual(sk::cat(Shifted, 1),
              sk::cat({toCPU(Shifted[0]), toCPU(Shifted[1])}, 1));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, TensorListsCUDATest,
                         ::testing::Values(kFloat, kHalf, kLong, kBool),
                         dtypeName);

} // namespace
