//===--- FactoriesTest.cpp - empty, zeros, full, arange, rand, *_like -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/ops/Factories.h"
#include "sk/dispatch/Library.h"
#include "sk/dispatch/Tracer.h"
#include "sk/ops/FactoryKernels.h"

#include "OpsTestUtils.h"

#include <cmath>

using namespace sk;
using namespace sk::test;

namespace {

using Doubles = std::vector<double>;
using Ints = std::vector<int64_t>;

const ScalarType AllDtypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                kLong, kHalf, kBFloat16, kFloat, kDouble};
const ScalarType FloatingDtypes[] = {kHalf, kBFloat16, kFloat, kDouble};

void expectMeta(const Tensor &T, Ints Sizes, ScalarType Dtype) {
  EXPECT_TRUE(T.is_meta());
  EXPECT_FALSE(T.unsafeGetTensorImpl()->has_storage());
  EXPECT_EQ(T.sizes().vec(), Sizes);
  EXPECT_EQ(T.dtype(), Dtype);
  T.unsafeGetTensorImpl()->checkInvariants();
}

//===----------------------------------------------------------------------===//
// empty, empty_strided
//===----------------------------------------------------------------------===//

TEST(EmptyTest, Empty_DefaultsToContiguousFloatOnCpu) {
  Tensor T = empty({2, 3});
  EXPECT_EQ(T.dtype(), kFloat);
  EXPECT_TRUE(T.is_cpu());
  EXPECT_EQ(vec(T.strides()), Ints({3, 1}));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(T.data_ptr()) % kCPUAlignment, 0u);
  EXPECT_EQ(empty({}, kLong).dim(), 0);
  EXPECT_EQ(empty({0, 5}, kHalf).numel(), 0);
}

TEST(EmptyTest, Empty_MemoryFormat_FromEitherPlace) {
  Tensor A = empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  Tensor B = empty({2, 3, 4, 5},
                   TensorOptions().memory_format(MemoryFormat::ChannelsLast));
  EXPECT_EQ(vec(A.strides()), Ints({60, 1, 15, 3}));
  EXPECT_EQ(vec(B.strides()), Ints({60, 1, 15, 3}));
  expectError(
      [] {
        empty({2, 3, 4, 5},
              TensorOptions().memory_format(MemoryFormat::ChannelsLast),
              MemoryFormat::Contiguous);
      },
      "empty(): Cannot set memory_format both in TensorOptions and explicit "
      "argument; please delete the redundant setter.");
  expectError(
      [] {
        empty({2, 3}, {}, MemoryFormat::ChannelsLast);
      },
      "needs a 4-d size");
  expectError(
      [] {
        empty({2, -3});
      },
      "Trying to create tensor with negative dimension -3");
}

TEST(EmptyTest, EmptyStrided_UsesTheStrides) {
  Tensor T = empty_strided({2, 3}, {1, 2}, kDouble);
  EXPECT_EQ(vec(T.strides()), Ints({1, 2}));
  EXPECT_EQ(T.dtype(), kDouble);
  T.unsafeGetTensorImpl()->checkInvariants();
  expectMeta(empty_strided({2, 3}, {1, 2}, kMeta), {2, 3}, kFloat);
  expectError(
      [] {
        empty_strided({2, 3}, {1});
      },
      "empty_strided(): mismatch in length of sizes (2) and strides "
      "(1)");
}

TEST(EmptyTest, Cuda_IsNotAvailable) {
  expectError([] { empty({2}, Device("cuda")); },
              "empty(): CUDA is not available in this build");
  expectError([] { zeros({2}, Device("cuda:1")); },
              "zeros(): CUDA is not available in this build: cannot create a "
              "tensor on 'cuda:1'");
  expectError([] { rand({2}, Device("privateuseone")); },
              "rand(): no kernel for device 'privateuseone'");
  EXPECT_THROW(arange(3, Device("cuda")), NotImplementedError);
}

//===----------------------------------------------------------------------===//
// Note [One-hop factory calls]: the public factories skip the BackendSelect
// hop only when the dispatcher would take it; every thread-local key above
// BackendSelect still sees the call.
//===----------------------------------------------------------------------===//

using EmptySig = Tensor(IntArrayRef, std::optional<ScalarType>,
                        std::optional<Device>, std::optional<MemoryFormat>);

/// Calls of the Autograd kernel that OneHop tests register for empty.
int AutogradEmptyCalls = 0;

/// An Autograd kernel for sk::empty that counts its calls and redispatches
/// below itself, as a real autograd kernel would.
Tensor autogradEmpty(DispatchKeySet KS, IntArrayRef Sizes,
                     std::optional<ScalarType> Dtype, std::optional<Device> Dev,
                     std::optional<MemoryFormat> Format) {
  ++AutogradEmptyCalls;
  static auto Op = Dispatcher::singleton()
                       .findSchemaOrThrow("sk::empty", "memory_format")
                       .typed<EmptySig>();
  return Op.redispatch(KS & DispatchKeySet::below(DispatchKey::Autograd), Sizes,
                       Dtype, Dev, Format);
}

TEST(OneHopFactoryTest, Tracer_SeesEveryFactoryCall) {
  TraceGuard Trace;
  Tensor E = empty({2}, TensorOptions(kMeta).dtype(kHalf));
  Tensor C = empty({3});
  Tensor Z = zeros({1}, kMeta);
  expectMeta(E, {2}, kHalf);
  EXPECT_TRUE(C.is_cpu());
  ASSERT_EQ(Trace.calls().size(), 3u);
  EXPECT_EQ(Trace.calls()[0].Name.str(), "sk::empty.memory_format");
  EXPECT_EQ(Trace.calls()[0].Returns[0], "tensor(float16[2], meta)");
  EXPECT_EQ(Trace.calls()[1].Returns[0], "tensor(float32[3], cpu)");
  EXPECT_EQ(Trace.calls()[2].Name.str(), "sk::zeros");
  {
    // Excluded, the Tracer sees nothing.
    ExcludeDispatchKeyGuard NoTrace(DispatchKey::Tracer);
    (void)empty({4}, kMeta);
  }
  EXPECT_EQ(Trace.calls().size(), 3u);
}

TEST(OneHopFactoryTest, IncludedKeyAboveBackendSelect_RunsItsKernel) {
  Library L(Library::Impl, "sk", DispatchKey::Autograd, "t.cpp", 1);
  L.impl("empty.memory_format", SK_FN(autogradEmpty));
  AutogradEmptyCalls = 0;
  (void)empty({2}, kMeta);
  EXPECT_EQ(AutogradEmptyCalls, 0); // not included: not called
  {
    IncludeDispatchKeyGuard Include(DispatchKey::Autograd);
    expectMeta(empty({2}, kMeta), {2}, kFloat);
    EXPECT_TRUE(empty({2}).is_cpu());
    EXPECT_EQ(AutogradEmptyCalls, 2);
    ExcludeDispatchKeyGuard Exclude(DispatchKey::Autograd);
    (void)empty({2}, kMeta);
    EXPECT_EQ(AutogradEmptyCalls, 2); // included but excluded
  }
}

TEST(OneHopFactoryTest, ExcludedBackendSelect_FailsAsACallWould) {
  ExcludeDispatchKeyGuard NoBackendSelect(DispatchKey::BackendSelect);
  // No key is left to dispatch on, exactly as for the dispatcher's call().
  EXPECT_THROW(empty({2}, kMeta), Error);
  EXPECT_THROW(zeros({2}), Error);
}

TEST(OneHopFactoryTest, IncludedBackendKeys_PlayNoPart) {
  // BackendSelect redispatches to the device's backend alone; so does the
  // one-hop path.
  IncludeDispatchKeyGuard Include(DispatchKey::CPU);
  expectMeta(empty({2}, kMeta), {2}, kFloat);
  expectMeta(ones({2}, kMeta), {2}, kFloat);
  EXPECT_TRUE(empty({2}).is_cpu());
}

TEST(OneHopFactoryTest, NoKernelForTheDevice_FailsOnEitherPath) {
  expectError([] { empty({2}, Device("privateuseone")); },
              "empty(): no kernel for device 'privateuseone'");
  TraceGuard Trace;
  expectError([] { empty({2}, Device("privateuseone")); },
              "empty(): no kernel for device 'privateuseone'");
}

//===----------------------------------------------------------------------===//
// zeros, ones, full
//===----------------------------------------------------------------------===//

TEST(ZerosOnesTest, ZerosAndOnes_EveryDtype) {
  for (ScalarType D : AllDtypes) {
    SCOPED_TRACE(testing::Message() << D);
    Tensor Z = zeros({2, 3}, D);
    EXPECT_EQ(Z.dtype(), D);
    EXPECT_EQ(values(Z), Doubles(6, 0.0));
    EXPECT_EQ(values(ones({3}, D)), Doubles(3, 1.0));
  }
  EXPECT_EQ(zeros({2}).dtype(), kFloat);
  EXPECT_EQ(ones({}).item<float>(), 1.f);
}

TEST(FullTest, Full_InfersTheDtypeFromTheValue) {
  Tensor B = full({2}, true);
  EXPECT_EQ(B.dtype(), kBool);
  EXPECT_EQ(values(B), Doubles({1, 1}));
  Tensor I = full({2, 2}, 7);
  EXPECT_EQ(I.dtype(), kLong);
  EXPECT_EQ(values(I), Doubles(4, 7.0));
  Tensor F = full({3}, 2.5);
  EXPECT_EQ(F.dtype(), kFloat);
  EXPECT_EQ(values(F), Doubles(3, 2.5));
  Tensor H = full({1}, 7, kHalf);
  EXPECT_EQ(H.dtype(), kHalf);
  EXPECT_EQ(values(H), Doubles({7}));
}

TEST(FullTest, Full_ValueOverflow_Fails) {
  expectError([] { full({2}, 300, kByte); },
              "full(): value 300 cannot be converted to type uint8 without "
              "overflow");
  expectError([] { full({2}, 1e5, TensorOptions(kMeta).dtype(kHalf)); },
              "full(): value 100000 cannot be converted to type float16");
}

//===----------------------------------------------------------------------===//
// arange
//===----------------------------------------------------------------------===//

TEST(ArangeTest, Arange_IntegersGiveInt64) {
  Tensor A = arange(5);
  EXPECT_EQ(A.dtype(), kLong);
  EXPECT_EQ(values(A), Doubles({0, 1, 2, 3, 4}));
  EXPECT_EQ(values(arange(10, 0, -3)), Doubles({10, 7, 4, 1}));
  EXPECT_EQ(values(arange(2, 9, 3)), Doubles({2, 5, 8}));
  EXPECT_EQ(arange(3, 3).numel(), 0);
  EXPECT_EQ(values(arange(0, 3, kDouble)), Doubles({0, 1, 2}));
  EXPECT_EQ(arange(0, 3, kDouble).dtype(), kDouble);
  // Near the ends of int64, without overflow.
  int64_t Min = std::numeric_limits<int64_t>::min();
  int64_t Max = std::numeric_limits<int64_t>::max();
  Tensor Wide = arange(Min, Max, int64_t(1) << 62);
  EXPECT_EQ(Wide.numel(), 4);
  EXPECT_EQ(Wide.data_ptr<int64_t>()[3], int64_t(1) << 62); // -2^63 + 3 * 2^62
}

TEST(ArangeTest, Arange_FloatsGiveFloat32) {
  Tensor A = arange(0, 1, 0.25);
  EXPECT_EQ(A.dtype(), kFloat);
  EXPECT_EQ(values(A), Doubles({0, 0.25, 0.5, 0.75}));
  // ceil((2.5 - 1) / 0.5) = 3 elements.
  EXPECT_EQ(values(arange(1, 2.5, 0.5)), Doubles({1, 1.5, 2}));
  EXPECT_EQ(arange(1, 2.6, 0.5).numel(), 4);
  EXPECT_EQ(arange(2.5).numel(), 3);
  EXPECT_EQ(values(arange(0, 2, 0.5, kHalf)), Doubles({0, 0.5, 1, 1.5}));
  // An integer dtype with fractional steps truncates each value.
  EXPECT_EQ(values(arange(0, 2, 0.5, kInt)), Doubles({0, 0, 1, 1}));
}

TEST(ArangeTest, Arange_BadRanges_Fail) {
  expectError([] { arange(0, 5, 0); }, "arange(): step must be nonzero");
  expectError([] { arange(0, 5, -1); },
              "arange(): upper bound and larger bound inconsistent with step "
              "sign");
  expectError([] { arange(5, 0, 0.5); }, "inconsistent with step sign");
  expectError([] { arange(0, INFINITY); }, "arange(): unsupported range");
  expectError([] { arange(0, 1e300, 1e-300); },
              "arange(): invalid size, possible overflow?");
  expectError([] { arange(3, kBool); }, "not implemented for dtype bool");
}

TEST(ArangeTest, Arange_Meta_OnlySize) {
  expectMeta(arange(0, 10, 3, kMeta), {4}, kLong);
  expectMeta(arange(0, 1, 0.1, kMeta), {10}, kFloat);
  expectError([] { arange(0, 1, 0, kMeta); }, "step must be nonzero");
}

//===----------------------------------------------------------------------===//
// rand, randn
//===----------------------------------------------------------------------===//

TEST(RandTest, Rand_InUnitIntervalForEveryFloatingDtype) {
  Generator G(7);
  for (ScalarType D : FloatingDtypes) {
    SCOPED_TRACE(testing::Message() << D);
    Tensor R = rand({4000}, &G, D);
    EXPECT_EQ(R.dtype(), D);
    double Sum = 0;
    for (double V : values(R)) {
      EXPECT_GE(V, 0.0);
      EXPECT_LT(V, 1.0);
      Sum += V;
    }
    EXPECT_NEAR(Sum / 4000, 0.5, 0.03);
  }
}

TEST(RandTest, Rand_SameSeed_SameValues) {
  Generator A(42), B(42), C(43);
  Doubles VA = values(rand({100}, &A));
  EXPECT_EQ(VA, values(rand({100}, &B)));
  EXPECT_NE(VA, values(rand({100}, &C)));
  A.manual_seed(42);
  EXPECT_EQ(VA, values(rand({100}, &A)));
  EXPECT_EQ(A.initial_seed(), 42u);
  // The default generator, through manual_seed.
  manual_seed(5);
  Doubles D1 = values(randn({50}, kDouble));
  manual_seed(5);
  EXPECT_EQ(D1, values(randn({50}, kDouble)));
}

TEST(RandTest, Randn_IsStandardNormal) {
  Generator G(1);
  Doubles V = values(randn({20000}, &G, kDouble));
  double Sum = 0, SumSq = 0;
  for (double X : V) {
    Sum += X;
    SumSq += X * X;
  }
  double Mean = Sum / V.size();
  EXPECT_NEAR(Mean, 0.0, 0.03);
  EXPECT_NEAR(SumSq / V.size() - Mean * Mean, 1.0, 0.05);
  for (ScalarType D : {kHalf, kBFloat16, kFloat})
    EXPECT_EQ(randn({3}, &G, D).dtype(), D);
}

TEST(RandTest, RandOfIntegers_Fails) {
  expectError([] { rand({2}, kLong); },
              "rand(): expected a floating-point dtype, but got int64");
  expectError([] { randn({2}, TensorOptions(kMeta).dtype(kInt)); },
              "randn(): expected a floating-point dtype, but got int32");
  EXPECT_THROW(rand_like(zeros({2}, kBool)), TypeError);
}

//===----------------------------------------------------------------------===//
// Meta
//===----------------------------------------------------------------------===//

TEST(MetaFactoryTest, EveryFactory_AllocatesNothing) {
  TensorOptions M(kMeta);
  Ints Huge = {70000, 8192, 8192};
  expectMeta(empty(Huge, M), Huge, kFloat);
  expectMeta(zeros(Huge, M.dtype(kHalf)), Huge, kHalf);
  expectMeta(ones(Huge, M), Huge, kFloat);
  expectMeta(full(Huge, 3, M), Huge, kLong);
  expectMeta(full(Huge, 3.5, M), Huge, kFloat);
  expectMeta(rand(Huge, M), Huge, kFloat);
  expectMeta(randn(Huge, M.dtype(kBFloat16)), Huge, kBFloat16);
  expectMeta(empty({2, 3, 4, 5}, M, MemoryFormat::ChannelsLast), {2, 3, 4, 5},
             kFloat);
  // Meta factories leave the generator alone.
  Generator G(3), Fresh(3);
  rand({10}, &G, M);
  EXPECT_EQ(values(rand({4}, &G)), values(rand({4}, &Fresh)));
}

TEST(MetaFactoryTest, Kernels_CanBeCalledDirectly) {
  expectMeta(native::empty_meta({2}, kHalf, kMeta, std::nullopt), {2}, kHalf);
  expectMeta(native::full_meta({2}, true, std::nullopt, kMeta), {2}, kBool);
  Tensor C = native::ones_cpu({2}, kInt, kCPU);
  EXPECT_EQ(values(C), Doubles({1, 1}));
  EXPECT_EQ(native::arange_cpu(0, 3, 1, std::nullopt, std::nullopt).dtype(),
            kLong);
}

//===----------------------------------------------------------------------===//
// *_like
//===----------------------------------------------------------------------===//

TEST(LikeTest, Like_KeepsDtypeDeviceAndDenseLayout) {
  Tensor T = empty({3, 2}, kHalf).t();
  Tensor E = empty_like(T);
  EXPECT_EQ(E.dtype(), kHalf);
  EXPECT_EQ(vec(E.strides()), Ints({1, 2}));
  Tensor CL = empty({2, 3, 4, 5}, kInt, MemoryFormat::ChannelsLast);
  Tensor Z = zeros_like(CL);
  EXPECT_TRUE(Z.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(Z.dtype(), kInt);
  EXPECT_EQ(values(Z), Doubles(120, 0.0));
  Tensor O = ones_like(CL, kDouble);
  EXPECT_EQ(O.dtype(), kDouble);
  EXPECT_TRUE(O.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(values(O), Doubles(120, 1.0));
  EXPECT_TRUE(zeros_like(CL, {}, MemoryFormat::Contiguous).is_contiguous());
}

TEST(LikeTest, Like_NonDenseInput_GivesContiguous) {
  Tensor S = zeros({4, 6}).slice(1, 0, std::nullopt, 2);
  Tensor E = empty_like(S);
  EXPECT_EQ(vec(E.sizes()), Ints({4, 3}));
  EXPECT_EQ(vec(E.strides()), Ints({3, 1}));
}

TEST(LikeTest, FullLike_KeepsTheInputDtype) {
  Tensor I = zeros({2}, kInt);
  Tensor F = full_like(I, 2.9);
  EXPECT_EQ(F.dtype(), kInt);
  EXPECT_EQ(values(F), Doubles({2, 2}));
  expectError([&] { full_like(zeros({2}, kChar), 200); },
              "full_like(): value 200 cannot be converted to type int8");
  EXPECT_EQ(full_like(I, 2.5, kFloat).dtype(), kFloat);
}

TEST(LikeTest, RandLike_FollowsTheInput) {
  Tensor CL = empty({1, 2, 3, 4}, kDouble, MemoryFormat::ChannelsLast);
  Generator G(11);
  Tensor R = rand_like(CL, &G);
  EXPECT_EQ(R.dtype(), kDouble);
  EXPECT_TRUE(R.is_contiguous(MemoryFormat::ChannelsLast));
  for (double V : values(R)) {
    EXPECT_GE(V, 0.0);
    EXPECT_LT(V, 1.0);
  }
  EXPECT_EQ(randn_like(CL, nullptr, kHalf).dtype(), kHalf);
}

TEST(LikeTest, Like_Meta_StaysMetaAndAllocatesNothing) {
  Tensor M = empty({2, 3, 4, 5}, TensorOptions(kMeta).dtype(kBFloat16),
                   MemoryFormat::ChannelsLast);
  for (const Tensor &T : {empty_like(M), zeros_like(M), ones_like(M),
                          full_like(M, 1.5), rand_like(M), randn_like(M)}) {
    expectMeta(T, {2, 3, 4, 5}, kBFloat16);
    EXPECT_TRUE(T.is_contiguous(MemoryFormat::ChannelsLast));
  }
  Tensor OnCpu = zeros_like(M, kCPU);
  EXPECT_TRUE(OnCpu.is_cpu());
  EXPECT_EQ(values(OnCpu), Doubles(120, 0.0));
}

} // namespace
