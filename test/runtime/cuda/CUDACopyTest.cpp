//===--- CUDACopyTest.cpp - copy_ and to() with CUDA tensors --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDACopyKernel.h"
#include "sk/ops/Factories.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace sk;
using test::valuesOf;

namespace {

class CUDACopyTest : public test::CUDATest {
protected:
  const Device Cuda{"cuda:0"};

  /// 0, 1, ..., N-1 as float32 of \p Sizes, on the CPU.
  static Tensor counting(IntArrayRef Sizes) {
    int64_t N = 1;
    for (int64_t S : Sizes)
      N *= S;
    return arange(N, kFloat).view(Sizes);
  }
};

TEST_F(CUDACopyTest, Contiguous_RoundTrip) {
  Tensor Host = counting({3, 4});
  Tensor Dev = Host.to(Cuda);
  EXPECT_EQ(Dev.device(), Cuda);
  EXPECT_EQ(Dev.sizes(), Host.sizes());
  Tensor Back = Dev.to(kCPU);
  EXPECT_TRUE(Back.is_cpu());
  EXPECT_EQ(valuesOf<float>(Back), valuesOf<float>(Host));
}

TEST_F(CUDACopyTest, DeviceToDevice_Clone) {
  Tensor Dev = counting({5}).to(Cuda);
  Tensor Copy = Dev.clone();
  EXPECT_EQ(Copy.device(), Cuda);
  EXPECT_NE(Copy.data_ptr(), Dev.data_ptr());
  EXPECT_EQ(valuesOf<float>(Copy.to(kCPU)), valuesOf<float>(counting({5})));
}

TEST_F(CUDACopyTest, TransposedSource_RoundTrip) {
  Tensor Host = counting({3, 4});
  Tensor Dev = Host.to(Cuda);
  // Device to host from a transposed view, and device to device into a
  // contiguous tensor.
  EXPECT_EQ(valuesOf<float>(Dev.t().to(kCPU)), valuesOf<float>(Host.t()));
  EXPECT_EQ(valuesOf<float>(Dev.t().contiguous().to(kCPU)),
            valuesOf<float>(Host.t()));
  // Host to device from a transposed view.
  EXPECT_EQ(valuesOf<float>(Host.t().to(Cuda).to(kCPU)),
            valuesOf<float>(Host.t()));
}

TEST_F(CUDACopyTest, IntoViewWithGaps_KeepsTheGaps) {
  Tensor Dev = zeros({4, 4}, Cuda);
  // Column 1: a destination with gaps between its elements.
  Dev.select(1, 1).copy_(arange(4, kFloat));
  std::vector<float> Expected(16, 0.f);
  for (int I = 0; I != 4; ++I)
    Expected[I * 4 + 1] = static_cast<float>(I);
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)), Expected);
}

TEST_F(CUDACopyTest, DtypeChange_ConvertsOnTheWay) {
  Tensor Host = counting({6});
  Tensor Half = Host.to(TensorOptions(Cuda).dtype(kHalf));
  EXPECT_EQ(Half.dtype(), kHalf);
  EXPECT_EQ(Half.device(), Cuda);
  EXPECT_EQ(valuesOf<float>(Half.to(kFloat).to(kCPU)), valuesOf<float>(Host));
  Tensor Ints = Half.to(kInt);
  EXPECT_EQ(Ints.device(), Cuda);
  EXPECT_EQ(valuesOf<int32_t>(Ints.to(kCPU)),
            (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST_F(CUDACopyTest, BroadcastSource_FillsEveryRow) {
  Tensor Dev = empty({3, 2}, Cuda);
  Dev.copy_(arange(2, kFloat));
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)),
            (std::vector<float>{0, 1, 0, 1, 0, 1}));
}

TEST_F(CUDACopyTest, OverlappingDeviceCopy_ReadsBeforeWriting) {
  Tensor Dev = counting({6}).to(Cuda);
  Dev.narrow(0, 1, 5).copy_(Dev.narrow(0, 0, 5));
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)),
            (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST_F(CUDACopyTest, DeviceToDevice_ConvertsAsTheCPUDoes) {
  // Note [Defined element conversions]: NaN, infinities and values outside
  // int64 become INT64_MIN; -1 wraps to 255 in uint8; NaN is true.
  const float Inf = std::numeric_limits<float>::infinity();
  std::vector<float> Values = {1.5f, -2.5f, std::nanf(""), Inf,
                               -Inf, 1e30f, -1.0f,         0.0f};
  Tensor Host = empty({8}, kFloat);
  std::copy(Values.begin(), Values.end(), Host.data_ptr<float>());
  Tensor Dev = Host.to(Cuda);
  for (ScalarType To : {kLong, kInt, kByte, kBool, kHalf, kBFloat16}) {
    SCOPED_TRACE(toString(To));
    // A strided destination, so that the copy kernel converts.
    Tensor Out = zeros({8, 2}, TensorOptions(Cuda).dtype(To)).select(1, 0);
    Out.copy_(Dev);
    std::vector<double> Got = valuesOf<double>(Out.to(kCPU).to(kDouble));
    std::vector<double> Want = valuesOf<double>(Host.to(To).to(kDouble));
    ASSERT_EQ(Got.size(), Want.size());
    for (size_t I = 0; I != Got.size(); ++I)
      EXPECT_TRUE(Got[I] == Want[I] ||
                  (std::isnan(Got[I]) && std::isnan(Want[I])))
          << "element " << I << ": " << Got[I] << " on CUDA, " << Want[I]
          << " on the CPU";
  }
}

/// Copies \p Dev (on the device) into a strided tensor of dtype \p To on
/// the device, so that the copy kernel converts, and returns it on the CPU.
Tensor convertOnDevice(const Tensor &Dev, ScalarType To) {
  Tensor Out = empty({Dev.numel(), 2}, TensorOptions(Dev.device()).dtype(To))
                   .select(1, 0);
  Out.copy_(Dev);
  return Out.to(kCPU);
}

/// Whether \p Got and \p Want hold the same bits, or NaN both.
template <typename T, typename Bits>
void expectSameBits(const Tensor &Got, const Tensor &Want) {
  ASSERT_EQ(Got.numel(), Want.numel());
  const T *G = Got.data_ptr<T>(), *W = Want.data_ptr<T>();
  for (int64_t I = 0; I != Got.numel(); ++I) {
    float GF = static_cast<float>(G[I]), WF = static_cast<float>(W[I]);
    if (std::isnan(WF)) {
      EXPECT_TRUE(std::isnan(GF)) << "element " << I;
      continue;
    }
    Bits GB, WB;
    std::memcpy(&GB, &G[I], sizeof(Bits));
    std::memcpy(&WB, &W[I], sizeof(Bits));
    ASSERT_EQ(GB, WB) << "element " << I << ": " << GF << " on CUDA, " << WF
                      << " on the CPU";
  }
}

/// float16 or bfloat16 \p T: all 65536 patterns to float, and to T the
/// floats at, next to and halfway between its values, on the device (the
/// hardware's conversions, sk/core/Half.h) and on the CPU.
template <typename T> void expectDeviceConvertsAsTheHost(ScalarType Dtype) {
  SCOPED_TRACE(toString(Dtype));
  Tensor All = empty({65536}, Dtype);
  for (uint32_t B = 0; B != 65536; ++B)
    All.data_ptr<T>()[B] = T::fromBits(static_cast<uint16_t>(B));
  expectSameBits<float, uint32_t>(
      convertOnDevice(All.to(Device("cuda:0")), kFloat), All.to(kFloat));

  std::vector<float> Floats = {1e30f, -1e30f, 1e-40f, -1e-40f};
  const float Inf = std::numeric_limits<float>::infinity();
  for (uint32_t B = 0; B != 65536; ++B) {
    float V = static_cast<float>(T::fromBits(static_cast<uint16_t>(B)));
    if (std::isnan(V))
      continue;
    Floats.insert(Floats.end(),
                  {V, std::nextafter(V, Inf), std::nextafter(V, -Inf)});
    float Next = static_cast<float>(T::fromBits(static_cast<uint16_t>(B + 1)));
    if (B != 0xffff && std::isfinite(V) && std::isfinite(Next))
      Floats.push_back(V + (Next - V) / 2); // Exact: T has fewer digits.
  }
  Tensor Host = empty({static_cast<int64_t>(Floats.size())}, kFloat);
  std::copy(Floats.begin(), Floats.end(), Host.data_ptr<float>());
  expectSameBits<T, uint16_t>(convertOnDevice(Host.to(Device("cuda:0")), Dtype),
                              Host.to(Dtype));
}

TEST_F(CUDACopyTest, ReducedFloats_ConvertToTheHostsValues) {
  expectDeviceConvertsAsTheHost<Half>(kHalf);
  expectDeviceConvertsAsTheHost<BFloat16>(kBFloat16);
}

TEST_F(CUDACopyTest, HostIntoViewWithGaps_LeavesTheGapsAlone) {
  Tensor Dev = full({3, 4}, 7.0, TensorOptions(Cuda).dtype(kFloat));
  // A transposed, strided destination and a CPU source of another dtype.
  Dev.narrow(1, 0, 2).t().copy_(arange(6, kLong).view({2, 3}));
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)),
            (std::vector<float>{0, 3, 7, 7, 1, 4, 7, 7, 2, 5, 7, 7}));
  // And back, from a device view with gaps to the CPU.
  EXPECT_EQ(valuesOf<float>(Dev.narrow(1, 0, 2).to(kCPU)),
            (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST_F(CUDACopyTest, IntoBroadcastDestination_Fails) {
  Tensor Dev = zeros({1}, Cuda).expand({3});
  SK_EXPECT_ERROR(Dev.copy_(ones({3})), "more than one element");
}

TEST_F(CUDACopyTest, FromMeta_Fails) {
  Tensor Dev = zeros({2}, Cuda);
  SK_EXPECT_ERROR(Dev.copy_(empty({2}, kMeta)), "Cannot copy out of meta");
}

TEST_F(CUDACopyTest, FillAndZero_OnDenseAndStridedTensors) {
  Tensor Dev = empty({2, 3}, TensorOptions(Cuda).dtype(kLong));
  Dev.fill_(7);
  EXPECT_EQ(valuesOf<int64_t>(Dev.to(kCPU)), std::vector<int64_t>(6, 7));
  Dev.select(1, 0).zero_();
  EXPECT_EQ(valuesOf<int64_t>(Dev.to(kCPU)),
            (std::vector<int64_t>{0, 7, 7, 0, 7, 7}));
  SK_EXPECT_ERROR(Dev.fill_(1.5e300), "cannot be converted");
}
} // namespace

namespace {

using cuda::detail::StridedShape;

std::vector<int64_t> stridesOf(const StridedShape<2> &S, int Op) {
  return std::vector<int64_t>(S.Strides[Op], S.Strides[Op] + S.Rank);
}

/// The shape of a copy is host code: it runs without a GPU.
TEST(CUDAStridedShapeTest, MergesWhatBothSidesStepThroughAlike) {
  Tensor Dst = empty({4, 5, 6}, kFloat);
  // Contiguous into contiguous: one dimension.
  StridedShape<2> S = cuda::detail::makeCopyShape(Dst, Dst);
  ASSERT_EQ(S.Rank, 1);
  EXPECT_EQ(S.Sizes[0], 120);
  EXPECT_EQ(S.Strides[0][0], 1);
  // A source transposed in its last two dimensions: the first cannot merge
  // on the source's side.
  Tensor Src = empty({4, 6, 5}, kFloat).transpose(1, 2);
  S = cuda::detail::makeCopyShape(Dst, Src);
  ASSERT_EQ(S.Rank, 3);
  EXPECT_EQ(stridesOf(S, 1), (std::vector<int64_t>{30, 1, 5}));
  // Dimensions of size 1 drop out; a broadcast stays a stride of 0.
  Tensor Row = empty({1, 6}, kFloat).expand({5, 6});
  S = cuda::detail::makeCopyShape(empty({1, 5, 6}, kFloat), Row.unsqueeze(0));
  ASSERT_EQ(S.Rank, 2);
  EXPECT_EQ(S.Sizes[0], 5);
  EXPECT_EQ(stridesOf(S, 1)[0], 0);
  EXPECT_EQ(stridesOf(S, 0)[0], 6);
}

TEST(CUDAStridedShapeTest, OffsetsWalkEveryOperandInRowMajorOrder) {
  // A [2, 3] destination and its transpose as the source: element I of the
  // loop is (I / 3, I % 3), at I in the destination and (I % 3) * 2 + I / 3
  // in the source.
  Tensor Dst = empty({2, 3}, kFloat);
  StridedShape<2> S =
      cuda::detail::makeCopyShape(Dst, empty({3, 2}, kFloat).t());
  for (int64_t I = 0; I != 6; ++I) {
    int64_t Offsets[2];
    S.offsets(I, Offsets);
    EXPECT_EQ(Offsets[0], I);
    EXPECT_EQ(Offsets[1], (I % 3) * 2 + I / 3);
  }
  uint32_t Narrow[2];
  S.offsets(uint32_t(5), Narrow);
  EXPECT_EQ(Narrow[1], 5u);
}

TEST(CUDAStridedShapeTest, Int32OnlyWhereEveryOffsetFits) {
  int64_t Sizes[] = {2, 1 << 20};
  int64_t Dense[] = {1 << 20, 1};
  int64_t Wide[] = {int64_t(1) << 31, 1};
  const int64_t *Fits[] = {Dense};
  const int64_t *Overflows[] = {Wide};
  auto Narrow = cuda::detail::coalesceStridedShape<1>(2, Sizes, Fits);
  auto Far = cuda::detail::coalesceStridedShape<1>(2, Sizes, Overflows);
  ASSERT_TRUE(Narrow && Far);
  EXPECT_TRUE(Narrow->fitsInt32(2 << 20));
  EXPECT_FALSE(Narrow->fitsInt32(int64_t(INT32_MAX) + 1));
  EXPECT_FALSE(Far->fitsInt32(2 << 20));
}

TEST(CUDAStridedShapeTest, MoreDimensionsThanItHoldsIsNoShape) {
  // Every other dimension reversed in stride order: nothing merges.
  constexpr int Rank = cuda::detail::kMaxStridedDims + 1;
  int64_t Sizes[Rank], Strides[Rank];
  for (int D = 0; D != Rank; ++D) {
    Sizes[D] = 2;
    Strides[D] = int64_t(1) << (D % 2 ? Rank - D : D);
  }
  const int64_t *Operands[] = {Strides};
  EXPECT_FALSE(cuda::detail::coalesceStridedShape<1>(Rank, Sizes, Operands));
  EXPECT_TRUE(cuda::detail::coalesceStridedShape<1>(Rank - 1, Sizes, Operands));
}

} // namespace
