//===--- TracerTest.cpp - The Tracer key's boxed fallback -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Library.h"
#include "sk/dispatch/Tracer.h"
#include "sk/ops/Factories.h"

#include "TestUtils.h"

using namespace sk;

namespace {

Tensor repeatKernel(const Tensor &Self, int64_t Times) {
  return detail::empty_cpu({Self.numel() * Times}, Self.dtype());
}

Tensor twiceKernel(const Tensor &Self) {
  // Calls another operator: the trace must show only the outer call.
  static auto Repeat = Dispatcher::singleton()
                           .findSchemaOrThrow("dtrace::repeat", "")
                           .typed<Tensor(const Tensor &, int64_t)>();
  return Repeat.call(Self, 2);
}

SK_LIBRARY(dtrace, m) {
  m.def("repeat(Tensor self, int times) -> Tensor");
  m.def("twice(Tensor self) -> Tensor");
}

SK_LIBRARY_IMPL(dtrace, CPU, m) {
  m.impl("repeat", SK_FN(repeatKernel));
  m.impl("twice", SK_FN(twiceKernel));
}

auto repeatOp() {
  return Dispatcher::singleton()
      .findSchemaOrThrow("dtrace::repeat", "")
      .typed<Tensor(const Tensor &, int64_t)>();
}

TEST(TracerTest, RecordsCallsWithArgumentsAndReturns) {
  Tensor T = detail::empty_cpu({2}, kFloat);
  TraceGuard Trace;
  Tensor R = repeatOp().call(T, 3);
  EXPECT_EQ(R.numel(), 6); // the kernel below the Tracer still ran
  ASSERT_EQ(Trace.calls().size(), 1u);
  EXPECT_EQ(Trace.calls()[0].str(),
            "dtrace::repeat(tensor(float32[2], cpu), 3) -> "
            "tensor(float32[6], cpu)");
}

TEST(TracerTest, RecordsOnlyTopLevelCalls) {
  auto Twice = Dispatcher::singleton()
                   .findSchemaOrThrow("dtrace::twice", "")
                   .typed<Tensor(const Tensor &)>();
  TraceGuard Trace;
  Twice.call(detail::empty_cpu({4}, kHalf));
  ASSERT_EQ(Trace.calls().size(), 1u);
  EXPECT_EQ(Trace.calls()[0].Name.str(), "dtrace::twice");
  EXPECT_EQ(Trace.calls()[0].Returns[0], "tensor(float16[8], cpu)");
}

TEST(TracerTest, BoxedCallsAreTracedToo) {
  OperatorHandle H =
      Dispatcher::singleton().findSchemaOrThrow("dtrace::repeat", "");
  TraceGuard Trace;
  Stack S{IValue(detail::empty_cpu({1}, kLong)), IValue(int64_t(5))};
  H.callBoxed(S);
  ASSERT_EQ(Trace.calls().size(), 1u);
  EXPECT_EQ(Trace.calls()[0].Arguments[1], "5");
}

TEST(TracerTest, NoTraceWithoutAGuard) {
  {
    TraceGuard Trace;
    EXPECT_TRUE(Trace.calls().empty());
  }
  // After the guard, calls go straight to the kernel.
  EXPECT_FALSE(tlsIncludedKeys().has(DispatchKey::Tracer));
  EXPECT_EQ(repeatOp().call(detail::empty_cpu({1}, kFloat), 2).numel(), 2);
}

TEST(TracerTest, NestedGuardsEachSeeTheirCalls) {
  TraceGuard Outer;
  repeatOp().call(detail::empty_cpu({1}, kFloat), 1);
  {
    TraceGuard Inner;
    repeatOp().call(detail::empty_cpu({1}, kFloat), 2);
    EXPECT_EQ(Inner.calls().size(), 1u);
  }
  EXPECT_EQ(Outer.calls().size(), 2u);
}

TEST(TracerTest, FactoriesAreOperatorsToo) {
  // Factories go through BackendSelect, below the Tracer.
  TraceGuard Trace;
  Tensor Z = sk::zeros({2, 3}, TensorOptions(kMeta).dtype(kHalf));
  EXPECT_TRUE(Z.is_meta());
  ASSERT_EQ(Trace.calls().size(), 1u);
  EXPECT_EQ(Trace.calls()[0].str(),
            "sk::zeros([2, 3], 6, meta) -> tensor(float16[2, 3], meta)");
}

TEST(TracerTest, FactoryKernelsCanBeAddedForNewBackends) {
  // A backend registers a factory kernel; BackendSelect finds it.
  Library L(Library::Impl, "sk", DispatchKey::PrivateUse1, "t.cpp", 1);
  L.impl("zeros", [](IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                     std::optional<Device>) {
    return detail::empty_meta(Sizes, Dtype.value_or(kFloat));
  });
  Tensor Z = sk::zeros({4}, TensorOptions(Device(DeviceType::PrivateUse1)));
  EXPECT_EQ(Z.numel(), 4);
  SK_EXPECT_ERROR(sk::ones({4}, TensorOptions(Device(DeviceType::PrivateUse1))),
                  "ones(): no kernel for device 'privateuseone'");
}

} // namespace
