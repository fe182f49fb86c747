//===--- GeneratedTest.cpp - skc's generated code, end to end -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls the code skc generated from ops.yaml and the kernels in kernels/
/// (built by skc_add_kernel_library): every variant of every operator,
/// through the dispatcher (`sk::op`), directly (`sk::cpu::op`,
/// `sk::privateuse1::op`) and boxed, on CPU, Meta and a PrivateUse1 device
/// that keeps its tensors in host memory. The checks are those of
/// reference/torchgen.md §4: the three variants agree, out= checks its
/// dtype and resizes with a warning, inplace checks its self, a kernel that
/// needs other strides writes a proxy that is copied back, and a backend
/// with only a functional kernel gets inplace and out= from it (seed 002).
///
//===----------------------------------------------------------------------===//

#include "Probes.h"
#include "TestUtils.h"

#include "CPUFunctions.h"
#include "Functions.h"
#include "PrivateUse1Functions.h"

#include "sk/core/Allocator.h"
#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/dispatch/Tracer.h"
#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <tuple>
#include <vector>

using namespace sk;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::vector<int64_t> vec(IntArrayRef A) { return {A.begin(), A.end()}; }

/// The values of the CPU tensor \p T in row-major order, as doubles.
std::vector<double> values(const Tensor &T) {
  EXPECT_TRUE(T.is_cpu()) << "values() of a tensor on " << T.device();
  Tensor D = T.to(kDouble).contiguous();
  const double *P = D.data_ptr<double>();
  return {P, P + D.numel()};
}

Tensor floats(IntArrayRef Sizes, std::initializer_list<float> Values) {
  Tensor T = empty(Sizes, TensorOptions().dtype(kFloat));
  EXPECT_EQ(T.numel(), static_cast<int64_t>(Values.size()));
  std::copy(Values.begin(), Values.end(), T.data_ptr<float>());
  return T;
}

Tensor metaEmpty(IntArrayRef Sizes, ScalarType Dtype) {
  return empty(Sizes, TensorOptions().dtype(Dtype).device(kMeta));
}

/// Records the warnings (SK_WARN) issued while alive instead of printing
/// them.
class WarningCapture {
public:
  WarningCapture()
      : Previous(setWarningHandler(
            [this](const std::string &Msg) { Warnings.push_back(Msg); })) {}
  ~WarningCapture() { setWarningHandler(std::move(Previous)); }
  WarningCapture(const WarningCapture &) = delete;
  WarningCapture &operator=(const WarningCapture &) = delete;

  std::vector<std::string> Warnings;

private:
  WarningHandler Previous;
};

/// The PrivateUse1 device of this test keeps its tensors in host memory, so
/// that the test can fill and read them directly.
class HostAllocator final : public Allocator {
public:
  DataPtr allocate(size_t NBytes) override {
    if (NBytes == 0)
      return {};
    void *Ptr = std::malloc(NBytes);
    if (!Ptr)
      throw std::bad_alloc();
    return DataPtr(Ptr, &std::free, Device);
  }

  static constexpr sk::Device Device{DeviceType::PrivateUse1, 0};
};

void installPrivateUse1Allocator() {
  static HostAllocator Memory;
  setAllocator(DeviceType::PrivateUse1, &Memory);
}

/// A copy of the CPU tensor \p T on the PrivateUse1 device.
Tensor toPrivateUse1(const Tensor &T) {
  Tensor Contig = T.contiguous();
  Tensor Result =
      detail::empty_generic(T.sizes(), T.scalar_type(), HostAllocator::Device);
  std::memcpy(Result.data_ptr(), Contig.data_ptr(), Contig.nbytes());
  return Result;
}

/// The values of the contiguous PrivateUse1 float tensor \p T.
std::vector<double> privateUse1Values(const Tensor &T) {
  EXPECT_EQ(T.device().type(), DeviceType::PrivateUse1);
  EXPECT_TRUE(T.is_contiguous());
  const float *P = static_cast<const float *>(T.data_ptr());
  return {P, P + T.numel()};
}

OperatorHandle findOp(const char *Name, const char *Overload) {
  return Dispatcher::singleton().findSchemaOrThrow(Name, Overload);
}

//===----------------------------------------------------------------------===//
// gadd: a structured TensorIterator operator
//===----------------------------------------------------------------------===//

/// A [2, 3] float and a [3] int64 tensor: broadcasting and type promotion.
struct GAddTest : ::testing::Test {
  Tensor A = arange(6, TensorOptions().dtype(kFloat)).reshape({2, 3});
  Tensor B = arange(3, TensorOptions().dtype(kLong));
  /// A + 2 * B.
  std::vector<double> Expected = {0, 3, 6, 3, 6, 9};
};

TEST_F(GAddTest, FunctionalInplaceAndOutAgreeOnCPU) {
  Tensor F = sk::gadd(A, B, 2);
  EXPECT_EQ(F.dtype(), kFloat);
  EXPECT_EQ(vec(F.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(F), Expected);
  EXPECT_EQ(values(sk::cpu::gadd(A, B, 2)), Expected);

  Tensor Out = empty({2, 3}, TensorOptions().dtype(kFloat));
  Tensor &Returned = sk::gadd_out(Out, A, B, 2);
  EXPECT_TRUE(Returned.is_same(Out));
  EXPECT_EQ(values(Out), Expected);
  Out.zero_();
  sk::gadd_outf(A, B, 2, Out);
  EXPECT_EQ(values(Out), Expected);
  Out.zero_();
  sk::cpu::gadd_out(Out, A, B, 2);
  EXPECT_EQ(values(Out), Expected);

  Tensor Self = A.clone();
  Tensor &Same = sk::gadd_(Self, B, 2);
  EXPECT_TRUE(Same.is_same(Self));
  EXPECT_EQ(values(Self), Expected);
  Self = A.clone();
  sk::cpu::gadd_(Self, B, 2);
  EXPECT_EQ(values(Self), Expected);

  // The default alpha is 1.
  EXPECT_EQ(values(sk::gadd(A, B)), (std::vector<double>{0, 2, 4, 3, 5, 7}));
}

TEST_F(GAddTest, BoxedCallsAgreeWithUnboxed) {
  Stack S{A, B, Scalar(2)};
  findOp("gentest::gadd", "Tensor").callBoxed(S);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(values(S[0].toTensor()), Expected);

  Tensor Out = empty({0}, TensorOptions().dtype(kFloat));
  S = {A, B, Scalar(2), Out};
  findOp("gentest::gadd", "out").callBoxed(S);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].toTensor().is_same(Out));
  EXPECT_EQ(values(Out), Expected);

  Tensor Self = A.clone();
  S = {Self, B, Scalar(2)};
  findOp("gentest::gadd_", "Tensor").callBoxed(S);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].toTensor().is_same(Self));
  EXPECT_EQ(values(Self), Expected);
}

TEST_F(GAddTest, PromotesToTheCommonDtype) {
  Tensor Halves = full({3}, 0.5, TensorOptions().dtype(kDouble));
  Tensor R = sk::gadd(B, Halves, 4);
  EXPECT_EQ(R.dtype(), kDouble);
  EXPECT_EQ(values(R), (std::vector<double>{2, 3, 4}));
  // int64 + int64 stays int64.
  Tensor L = sk::gadd(B, B, 3);
  EXPECT_EQ(L.dtype(), kLong);
  EXPECT_EQ(values(L), (std::vector<double>{0, 4, 8}));
}

TEST_F(GAddTest, MetaGivesTheShapesDtypesAndStridesOfCPU) {
  // A transposed input: TensorIterator keeps its memory format, on CPU and
  // on Meta alike.
  Tensor T = arange(6, TensorOptions().dtype(kFloat)).reshape({3, 2}).t();
  Tensor MT = metaEmpty({3, 2}, kFloat).t();
  Tensor MA = metaEmpty({2, 3}, kFloat);
  Tensor MB = metaEmpty({3}, kLong);
  struct Case {
    Tensor CPU, Meta;
  };
  std::vector<Case> Cases = {{sk::gadd(A, B, 2), sk::gadd(MA, MB, 2)},
                             {sk::gadd(T, B, 2), sk::gadd(MT, MB, 2)},
                             {sk::gadd(B, T), sk::gadd(MB, MT)}};
  for (const Case &C : Cases) {
    EXPECT_TRUE(C.Meta.is_meta());
    EXPECT_EQ(vec(C.Meta.sizes()), vec(C.CPU.sizes()));
    EXPECT_EQ(vec(C.Meta.strides()), vec(C.CPU.strides()));
    EXPECT_EQ(C.Meta.dtype(), C.CPU.dtype());
  }
  EXPECT_EQ(vec(Cases[1].CPU.strides()), (std::vector<int64_t>{1, 2}));

  // out= and inplace on Meta: the same checks and resizes as on CPU.
  Tensor MOut = metaEmpty({0}, kFloat);
  Tensor &R = sk::gadd_out(MOut, MA, MB, 2);
  EXPECT_TRUE(R.is_same(MOut));
  EXPECT_EQ(vec(MOut.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(vec(MOut.strides()), (std::vector<int64_t>{3, 1}));
  Tensor MSelf = metaEmpty({2, 3}, kFloat);
  EXPECT_TRUE(sk::gadd_(MSelf, MB, 2).is_same(MSelf));
  EXPECT_EQ(vec(MSelf.sizes()), (std::vector<int64_t>{2, 3}));
  Tensor MNarrow = metaEmpty({2, 3}, kLong);
  SK_EXPECT_ERROR(sk::gadd_out(MNarrow, MA, MB, 2),
                  "result type Float can't be cast to the desired output "
                  "type Long");
  Tensor MSmall = metaEmpty({3}, kFloat);
  SK_EXPECT_ERROR(sk::gadd_(MSmall, MA, 2),
                  "output with shape [3] doesn't match the broadcast shape "
                  "[2, 3]");
}

TEST_F(GAddTest, OutResizesANonEmptyOutWithAWarning) {
  WarningCapture Capture;
  Tensor Out = zeros({5}, TensorOptions().dtype(kFloat));
  sk::gadd_out(Out, A, B, 2);
  ASSERT_EQ(Capture.Warnings.size(), 1u);
  EXPECT_NE(Capture.Warnings[0].find(
                "An output with one or more elements was resized since it "
                "had shape [5], which does not match the required output "
                "shape [2, 3]"),
            std::string::npos)
      << Capture.Warnings[0];
  EXPECT_EQ(vec(Out.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(Out), Expected);
}

TEST_F(GAddTest, OutResizesAnEmptyOutSilently) {
  WarningCapture Capture;
  Tensor Out = empty({0}, TensorOptions().dtype(kFloat));
  sk::gadd_out(Out, A, B, 2);
  EXPECT_TRUE(Capture.Warnings.empty());
  EXPECT_EQ(vec(Out.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(Out), Expected);
}

TEST_F(GAddTest, OutOfTheRightShapeKeepsItsStrides) {
  WarningCapture Capture;
  // A [2, 3] out with column-major strides: no resize, so no restride, and
  // TensorIterator writes through any strides (no proxy).
  Tensor Out = empty({3, 2}, TensorOptions().dtype(kFloat)).t();
  const void *Data = Out.data_ptr();
  sk::gadd_out(Out, A, B, 2);
  EXPECT_TRUE(Capture.Warnings.empty());
  EXPECT_EQ(vec(Out.strides()), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Out.data_ptr(), Data);
  EXPECT_EQ(values(Out), Expected);
}

TEST_F(GAddTest, OutAndInplaceGoThroughTensorIteratorsChecks) {
  // A TensorIterator meta function sees the given out (maybe_get_output())
  // and asks for its dtype, so a wider out is written with a cast and the
  // wrapper's own dtype check passes...
  Tensor Wide = empty({2, 3}, TensorOptions().dtype(kDouble));
  sk::gadd_out(Wide, A, B, 2);
  EXPECT_EQ(Wide.dtype(), kDouble);
  EXPECT_EQ(values(Wide), Expected);
  // ...and a narrower one is TensorIterator's error, as in PyTorch.
  Tensor Narrow = empty({2, 3}, TensorOptions().dtype(kLong));
  SK_EXPECT_ERROR(sk::gadd_out(Narrow, A, B, 2),
                  "result type Float can't be cast to the desired output "
                  "type Long");
  // Likewise a self that would have to grow to the broadcast shape.
  Tensor Small = arange(3, TensorOptions().dtype(kFloat));
  SK_EXPECT_ERROR(sk::gadd_(Small, A, 2),
                  "output with shape [3] doesn't match the broadcast shape "
                  "[2, 3]");
  EXPECT_EQ(values(Small), (std::vector<double>{0, 1, 2}));
}

//===----------------------------------------------------------------------===//
// gscale: a plain meta function; the wrappers' own checks
//===----------------------------------------------------------------------===//

/// A [2, 3] and a [3] tensor, both float: the output is [2, 3] float.
struct GScaleTest : ::testing::Test {
  Tensor A = arange(6, TensorOptions().dtype(kFloat)).reshape({2, 3});
  Tensor F = floats({3}, {1, 2, -1});
  std::vector<double> Expected = {0, 2, -2, 3, 8, -5};
};

TEST_F(GScaleTest, VariantsAgree) {
  EXPECT_EQ(values(sk::gscale(A, F)), Expected);
  Tensor Out = empty({2, 3}, TensorOptions().dtype(kFloat));
  sk::gscale_out(Out, A, F);
  EXPECT_EQ(values(Out), Expected);
  Tensor Self = A.clone();
  sk::cpu::gscale_(Self, F);
  EXPECT_EQ(values(Self), Expected);
  // Promotion: int64 * float is float.
  Tensor L = arange(3, TensorOptions().dtype(kLong));
  Tensor P = sk::gscale(L, F);
  EXPECT_EQ(P.dtype(), kFloat);
  EXPECT_EQ(values(P), (std::vector<double>{0, 2, -2}));
}

TEST_F(GScaleTest, OutChecksItsDtype) {
  // No cast: the out must have exactly the meta function's dtype.
  Tensor Out = empty({2, 3}, TensorOptions().dtype(kDouble));
  SK_EXPECT_ERROR(sk::gscale_out(Out, A, F),
                  "Expected out tensor to have dtype Float, but got Double "
                  "instead");
  SK_EXPECT_ERROR(sk::cpu::gscale_out(Out, A, F),
                  "Expected out tensor to have dtype Float, but got Double "
                  "instead");
  Tensor MOut = metaEmpty({2, 3}, kDouble);
  SK_EXPECT_ERROR(
      sk::gscale_out(MOut, metaEmpty({2, 3}, kFloat), metaEmpty({3}, kFloat)),
      "Expected out tensor to have dtype Float, but got Double "
      "instead");
}

TEST_F(GScaleTest, InplaceChecksItsSelf) {
  Tensor Small = F.clone();
  SK_EXPECT_ERROR(sk::gscale_(Small, A),
                  "Bad in-place call: input tensor size [3] and output "
                  "tensor size [2, 3] should match");
  SK_EXPECT_ERROR(sk::cpu::gscale_(Small, A),
                  "Bad in-place call: input tensor size [3] and output "
                  "tensor size [2, 3] should match");
  EXPECT_EQ(values(Small), (std::vector<double>{1, 2, -1}));
  Tensor Long = arange(3, TensorOptions().dtype(kLong));
  SK_EXPECT_ERROR(sk::gscale_(Long, F),
                  "Bad in-place call: input tensor dtype Long and output "
                  "tensor dtype Float should match");
  // The same checks on Meta.
  Tensor MSmall = metaEmpty({3}, kFloat);
  SK_EXPECT_ERROR(sk::gscale_(MSmall, metaEmpty({2, 3}, kFloat)),
                  "Bad in-place call: input tensor size [3] and output "
                  "tensor size [2, 3] should match");
}

//===----------------------------------------------------------------------===//
// grow_cumsum: a kernel that needs a contiguous output (proxies)
//===----------------------------------------------------------------------===//

struct RowCumsumTest : ::testing::Test {
  Tensor X = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  std::vector<double> Expected = {1, 3, 6, 4, 9, 15};
  gentest::RowCumsumProbe &Probe = gentest::rowCumsumProbe();

  /// A [2, 3] float tensor with column-major strides [1, 2].
  static Tensor transposed() {
    return empty({3, 2}, TensorOptions().dtype(kFloat)).t();
  }
};

TEST_F(RowCumsumTest, Functional) {
  Tensor F = sk::grow_cumsum(X);
  EXPECT_EQ(values(F), Expected);
  EXPECT_EQ(Probe.OutData, F.data_ptr());
  EXPECT_EQ(values(sk::cpu::grow_cumsum(X)), Expected);
  // A transposed input gives a row-major output all the same.
  Tensor XT = transposed();
  XT.copy_(X);
  Tensor FT = sk::grow_cumsum(XT);
  EXPECT_EQ(vec(FT.strides()), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(values(FT), Expected);
}

TEST_F(RowCumsumTest, OutWithOtherStridesGetsAProxy) {
  Tensor Out = transposed();
  const void *Data = Out.data_ptr();
  int Calls = Probe.Calls;
  sk::grow_cumsum_out(Out, X);
  EXPECT_EQ(Probe.Calls, Calls + 1);
  // impl() wrote a row-major proxy, not the user's tensor...
  EXPECT_NE(Probe.OutData, Data);
  EXPECT_EQ(Probe.OutStrides, (std::vector<int64_t>{3, 1}));
  // ...which was copied back into the user's tensor, strides untouched.
  EXPECT_EQ(Out.data_ptr(), Data);
  EXPECT_EQ(vec(Out.strides()), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values(Out), Expected);

  // A row-major out is written directly.
  Tensor Direct = empty({2, 3}, TensorOptions().dtype(kFloat));
  sk::cpu::grow_cumsum_out(Direct, X);
  EXPECT_EQ(Probe.OutData, Direct.data_ptr());
  EXPECT_EQ(values(Direct), Expected);
}

TEST_F(RowCumsumTest, InplaceWithOtherStridesPassesTheProxyToImpl) {
  Tensor Self = transposed();
  Self.copy_(X);
  const void *Data = Self.data_ptr();
  sk::grow_cumsum_(Self);
  // torchgen hands impl() self here and copies an unwritten proxy back;
  // skc's wrapper hands it the proxy (reference/torchgen.md §4.4).
  EXPECT_NE(Probe.OutData, Data);
  EXPECT_EQ(Probe.OutStrides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(Self.data_ptr(), Data);
  EXPECT_EQ(vec(Self.strides()), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values(Self), Expected);

  // A row-major self needs no proxy.
  Tensor Direct = X.clone();
  sk::cpu::grow_cumsum_(Direct);
  EXPECT_EQ(Probe.OutData, Direct.data_ptr());
  EXPECT_EQ(values(Direct), Expected);
}

TEST_F(RowCumsumTest, MetaAllocatesRowMajorAndKeepsTheOutsStrides) {
  Tensor MX = metaEmpty({3, 2}, kFloat).t();
  Tensor F = sk::grow_cumsum(MX);
  EXPECT_TRUE(F.is_meta());
  EXPECT_EQ(vec(F.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(vec(F.strides()), (std::vector<int64_t>{3, 1}));
  Tensor MOut = metaEmpty({3, 2}, kFloat).t();
  sk::grow_cumsum_out(MOut, MX);
  EXPECT_EQ(vec(MOut.strides()), (std::vector<int64_t>{1, 2}));
  SK_EXPECT_ERROR(sk::grow_cumsum(metaEmpty({2}, kLong)),
                  "grow_cumsum(): expected a float tensor");
}

//===----------------------------------------------------------------------===//
// gminmax: two outputs
//===----------------------------------------------------------------------===//

struct MinMaxTest : ::testing::Test {
  Tensor X = floats({3, 2}, {3, -1, 0, 7, 5, 5});
  std::vector<double> Min = {-1, 0, 5};
  std::vector<double> Max = {3, 7, 5};
};

TEST_F(MinMaxTest, FunctionalAndOutAgree) {
  auto [Lo, Hi] = sk::gminmax(X);
  EXPECT_EQ(values(Lo), Min);
  EXPECT_EQ(values(Hi), Max);
  auto [CpuLo, CpuHi] = sk::cpu::gminmax(X);
  EXPECT_EQ(values(CpuLo), Min);
  EXPECT_EQ(values(CpuHi), Max);

  WarningCapture Capture;
  Tensor OutLo = empty({0}, TensorOptions().dtype(kFloat));
  // A strided out: written through its strides, no proxy.
  Tensor Wide = zeros({3, 2}, TensorOptions().dtype(kFloat));
  Tensor OutHi = Wide.select(1, 1);
  auto Returned = sk::gminmax_out(OutLo, OutHi, X);
  EXPECT_TRUE(std::get<0>(Returned).is_same(OutLo));
  EXPECT_TRUE(std::get<1>(Returned).is_same(OutHi));
  EXPECT_EQ(values(OutLo), Min);
  EXPECT_EQ(values(OutHi), Max);
  EXPECT_EQ(values(Wide), (std::vector<double>{0, 3, 0, 7, 0, 5}));
  EXPECT_TRUE(Capture.Warnings.empty());

  Tensor Lo2 = empty({3}, TensorOptions().dtype(kFloat));
  Tensor Hi2 = empty({3}, TensorOptions().dtype(kFloat));
  sk::gminmax_outf(X, Lo2, Hi2);
  EXPECT_EQ(values(Lo2), Min);
  EXPECT_EQ(values(Hi2), Max);
}

TEST_F(MinMaxTest, EachOutIsCheckedAndResized) {
  WarningCapture Capture;
  Tensor Lo = empty({3}, TensorOptions().dtype(kFloat));
  Tensor Hi = ones({4}, TensorOptions().dtype(kFloat));
  sk::gminmax_out(Lo, Hi, X);
  ASSERT_EQ(Capture.Warnings.size(), 1u);
  EXPECT_NE(Capture.Warnings[0].find("had shape [4], which does not match "
                                     "the required output shape [3]"),
            std::string::npos)
      << Capture.Warnings[0];
  EXPECT_EQ(values(Hi), Max);

  Tensor BadHi = empty({3}, TensorOptions().dtype(kLong));
  SK_EXPECT_ERROR(sk::gminmax_out(Lo, BadHi, X),
                  "Expected out tensor to have dtype Float, but got Long "
                  "instead");
}

TEST_F(MinMaxTest, BoxedAndMeta) {
  Stack S{X};
  findOp("gentest::gminmax", "").callBoxed(S);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(values(S[0].toTensor()), Min);
  EXPECT_EQ(values(S[1].toTensor()), Max);

  auto [MLo, MHi] = sk::gminmax(metaEmpty({3, 2}, kFloat));
  EXPECT_TRUE(MLo.is_meta());
  EXPECT_TRUE(MHi.is_meta());
  EXPECT_EQ(vec(MLo.sizes()), (std::vector<int64_t>{3}));
  EXPECT_EQ(vec(MHi.sizes()), (std::vector<int64_t>{3}));
  EXPECT_EQ(MHi.dtype(), kFloat);
}

//===----------------------------------------------------------------------===//
// gsum_dim: precomputed fields
//===----------------------------------------------------------------------===//

TEST(PrecomputedTest, ImplGetsTheWrappedDim) {
  Tensor X = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(values(sk::gsum_dim(X, -1)), (std::vector<double>{6, 15}));
  EXPECT_EQ(gentest::lastSumDim(), 1);
  EXPECT_EQ(values(sk::gsum_dim(X, 0)), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(gentest::lastSumDim(), 0);

  Tensor Out = empty({0}, TensorOptions().dtype(kFloat));
  sk::gsum_dim_out(Out, X, -2);
  EXPECT_EQ(gentest::lastSumDim(), 0);
  EXPECT_EQ(values(Out), (std::vector<double>{5, 7, 9}));

  Tensor M = sk::gsum_dim(metaEmpty({2, 3}, kFloat), -1);
  EXPECT_TRUE(M.is_meta());
  EXPECT_EQ(vec(M.sizes()), (std::vector<int64_t>{2}));
  SK_EXPECT_ERROR(sk::gsum_dim(X, 2), "gsum_dim(): dim 2 out of range");
}

//===----------------------------------------------------------------------===//
// gneg, gmul: functional-only PrivateUse1 kernels (seed 002)
//===----------------------------------------------------------------------===//

struct PrivateUse1Test : ::testing::Test {
  void SetUp() override { installPrivateUse1Allocator(); }
  Tensor X = floats({2, 3}, {1, -2, 3, -4, 5, -6});
  Tensor Y = floats({2, 3}, {2, 2, 2, 3, 3, 3});
};

TEST_F(PrivateUse1Test, FunctionalKernel) {
  Tensor P = toPrivateUse1(X);
  Tensor R = sk::gneg(P);
  EXPECT_EQ(R.device(), HostAllocator::Device);
  EXPECT_EQ(privateUse1Values(R), (std::vector<double>{-1, 2, -3, 4, -5, 6}));
  EXPECT_EQ(privateUse1Values(sk::privateuse1::gneg(P)),
            (std::vector<double>{-1, 2, -3, 4, -5, 6}));
}

// The generated out= and inplace kernels store their results with the
// backend's own copy (sk::_copy_from, registered in PrivateUse1Kernels.cpp).
TEST_F(PrivateUse1Test, GeneratedOutAndInplaceKernels) {
  Tensor P = toPrivateUse1(X);
  Tensor Q = toPrivateUse1(Y);
  std::vector<double> Product = {2, -4, 6, -12, 15, -18};

  Tensor Out = toPrivateUse1(zeros({2, 3}));
  EXPECT_TRUE(sk::gmul_out(Out, P, Q).is_same(Out));
  EXPECT_EQ(privateUse1Values(Out), Product);
  Tensor NegOut = toPrivateUse1(zeros({2, 3}));
  sk::privateuse1::gneg_outf(P, NegOut);
  EXPECT_EQ(privateUse1Values(NegOut),
            (std::vector<double>{-1, 2, -3, 4, -5, 6}));

  Tensor Self = toPrivateUse1(X);
  EXPECT_TRUE(sk::gmul_(Self, Q).is_same(Self));
  EXPECT_EQ(privateUse1Values(Self), Product);
  sk::gneg_(Self);
  EXPECT_EQ(privateUse1Values(Self),
            (std::vector<double>{-2, 4, -6, 12, -15, 18}));

  // The generated out= kernel resizes as the structured ones do.
  WarningCapture Capture;
  Tensor Grown = toPrivateUse1(zeros({4}));
  sk::gneg_out(Grown, P);
  ASSERT_EQ(Capture.Warnings.size(), 1u);
  EXPECT_NE(Capture.Warnings[0].find("had shape [4]"), std::string::npos);
  EXPECT_EQ(vec(Grown.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(privateUse1Values(Grown),
            (std::vector<double>{-1, 2, -3, 4, -5, 6}));
}

TEST_F(PrivateUse1Test, GeneratedKernelsCheckTheirOutputs) {
  // The out= and inplace schemas have no kernel of their own: these errors
  // come from the kernels skc generated for PrivateUse1, which check the
  // functional kernel's result against the given tensor before copying.
  EXPECT_TRUE(findOp("gentest::gneg", "out")
                  .hasKernelForDispatchKey(DispatchKey::PrivateUse1));
  EXPECT_TRUE(findOp("gentest::gmul_", "")
                  .hasKernelForDispatchKey(DispatchKey::PrivateUse1));
  EXPECT_FALSE(
      findOp("gentest::gmul_", "").hasKernelForDispatchKey(DispatchKey::CPU));
  Tensor P = toPrivateUse1(X);
  Tensor LongOut = toPrivateUse1(zeros({2, 3}, TensorOptions().dtype(kLong)));
  SK_EXPECT_ERROR(sk::gneg_out(LongOut, P),
                  "Expected out tensor to have dtype Float, but got Long "
                  "instead");
  // gmul's kernel broadcasts a one-element tensor: the result is [2, 3].
  Tensor One = toPrivateUse1(ones({1}));
  SK_EXPECT_ERROR(sk::gmul_(One, P), "Bad in-place call: input tensor size "
                                     "[1] and output tensor size [2, 3] "
                                     "should match");
}

TEST_F(PrivateUse1Test, MixedDevicesAreAnError) {
  Tensor P = toPrivateUse1(X);
  SK_EXPECT_ERROR(sk::gmul(X, P),
                  "Expected all tensors to be on the same device");
  SK_EXPECT_ERROR(sk::gmul(P, X),
                  "Expected all tensors to be on the same device");
}

//===----------------------------------------------------------------------===//
// The Tracer sees the generated operators
//===----------------------------------------------------------------------===//

TEST(TracerTest, SeesTheGeneratedOperatorsByName) {
  Tensor A = arange(6, TensorOptions().dtype(kFloat)).reshape({2, 3});
  Tensor Out = empty({0}, TensorOptions().dtype(kFloat));
  Tensor M = metaEmpty({2, 3}, kFloat);
  std::vector<std::string> Names;
  {
    TraceGuard Trace;
    sk::gadd(A, A);
    sk::gadd_out(Out, A, A, 3);
    sk::gminmax(A);
    sk::gsum_dim(M, 1);
    for (const TracedCall &C : Trace.calls())
      Names.push_back(C.Name.str());
  }
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "gentest::gadd.Tensor", "gentest::gadd.out",
                       "gentest::gminmax", "gentest::gsum_dim"}));
  // Nothing is recorded once the guard is gone.
  TraceGuard After;
  EXPECT_TRUE(After.calls().empty());
}

} // namespace
