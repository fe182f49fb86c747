//===--- DispatcherTest.cpp - Registration, dispatch and errors -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/dispatch/Library.h"

#include "TestUtils.h"

#include <atomic>
#include <thread>

using namespace sk;

namespace {

Tensor cpuTensor(int64_t N = 2) { return detail::empty_cpu({N}, kFloat); }
Tensor metaTensor(int64_t N = 2) { return detail::empty_meta({N}, kFloat); }

// A tensor whose only job is to say which kernel ran: its size.
Tensor ranCPU(const Tensor &) { return detail::empty_cpu({1}, kFloat); }
Tensor ranMeta(const Tensor &) { return detail::empty_meta({2}, kFloat); }
Tensor ranComposite(const Tensor &) { return detail::empty_cpu({3}, kFloat); }

SK_LIBRARY(dtest, m) {
  m.def("which(Tensor self) -> Tensor");
  m.def("composite_only(Tensor self) -> Tensor");
  m.def("explicit_and_direct(Tensor self) -> Tensor");
  m.def("scale(Tensor self, int factor, *, float bias=0., bool flag=False) "
        "-> Tensor");
  m.def("split2(Tensor self) -> (Tensor, Tensor)");
  m.def("optionals(Tensor self, Tensor? other, int[] dims, ScalarType? "
        "dtype=None, Scalar alpha=1) -> Tensor");
  m.def("cpu_only(Tensor self) -> Tensor");
  m.impl("composite_only", DispatchKey::CompositeImplicitAutograd,
         SK_FN(ranComposite));
  m.impl("explicit_and_direct", DispatchKey::CompositeExplicitAutograd,
         SK_FN(ranComposite));
}

SK_LIBRARY_IMPL(dtest, CPU, m) {
  m.impl("which", SK_FN(ranCPU));
  m.impl("explicit_and_direct", SK_FN(ranCPU));
  m.impl("scale", [](const Tensor &Self, int64_t Factor, double Bias,
                     bool Flag) {
    return detail::empty_cpu(
        {Self.size(0) * Factor + static_cast<int64_t>(Bias) + (Flag ? 100 : 0)},
        kFloat);
  });
  m.impl("split2", [](const Tensor &Self) {
    return std::make_tuple(Self, detail::empty_cpu({7}, kFloat));
  });
  m.impl("optionals",
         [](const Tensor &Self, const std::optional<Tensor> &Other,
            IntArrayRef Dims, std::optional<ScalarType> Dtype,
            const Scalar &Alpha) {
           int64_t Code = Self.size(0) + (Other ? 10 : 0) +
                          100 * static_cast<int64_t>(Dims.size()) +
                          (Dtype ? 1000 : 0) + 10000 * Alpha.toLong();
           return detail::empty_cpu({Code}, kFloat);
         });
  m.impl("cpu_only", SK_FN(ranCPU));
}

SK_LIBRARY_IMPL(dtest, Meta, m) { m.impl("which", SK_FN(ranMeta)); }

template <typename Sig>
TypedOperatorHandle<Sig> op(const char *Name, const char *Overload = "") {
  return Dispatcher::singleton().findSchemaOrThrow(Name, Overload).typed<Sig>();
}

TEST(DispatcherTest, DispatchesOnTheTensorsBackend) {
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  EXPECT_EQ(Which.call(cpuTensor()).size(0), 1);
  EXPECT_EQ(Which.call(metaTensor()).size(0), 2);
}

TEST(DispatcherTest, AliasKeysServeEveryBackend) {
  auto Composite = op<Tensor(const Tensor &)>("dtest::composite_only");
  EXPECT_EQ(Composite.call(cpuTensor()).size(0), 3);
  EXPECT_EQ(Composite.call(metaTensor()).size(0), 3);
  // A direct kernel beats CompositeExplicitAutograd.
  auto Mixed = op<Tensor(const Tensor &)>("dtest::explicit_and_direct");
  EXPECT_EQ(Mixed.call(cpuTensor()).size(0), 1);
  EXPECT_EQ(Mixed.call(metaTensor()).size(0), 3);
}

TEST(DispatcherTest, UnknownOperatorIsAnError) {
  SK_EXPECT_ERROR(Dispatcher::singleton().findSchemaOrThrow("dtest::nope", ""),
                  "Could not find schema for dtest::nope: no operator of "
                  "that name is registered");
}

TEST(DispatcherTest, MissingKernelNamesTheOpTheKeyAndTheKeysThatHaveOne) {
  auto CPUOnly = op<Tensor(const Tensor &)>("dtest::cpu_only");
  SK_EXPECT_ERROR_TYPE(CPUOnly.call(metaTensor()), NotImplementedError,
                       "Could not run 'dtest::cpu_only' with arguments from "
                       "the 'Meta' backend. 'dtest::cpu_only' has kernels "
                       "only for these keys: [CPU]");
}

TEST(DispatcherTest, UnboxedKernelsAreCallableBoxed) {
  OperatorHandle Scale = Dispatcher::singleton().findSchemaOrThrow(
      "dtest::scale", "");
  Stack S;
  S.push_back(cpuTensor(3));
  S.push_back(int64_t(2));
  S.push_back(4.0);
  S.push_back(true);
  Scale.callBoxed(S);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].toTensor().size(0), 3 * 2 + 4 + 100);
}

TEST(DispatcherTest, TupleReturnsBoxAndUnbox) {
  OperatorHandle Split = Dispatcher::singleton().findSchemaOrThrow(
      "dtest::split2", "");
  Stack S{IValue(cpuTensor(5))};
  Split.callBoxed(S);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[1].toTensor().size(0), 7);
  auto Typed = Split.typed<std::tuple<Tensor, Tensor>(const Tensor &)>();
  auto [A, B] = Typed.call(cpuTensor(5));
  EXPECT_EQ(A.size(0), 5);
  EXPECT_EQ(B.size(0), 7);
}

TEST(DispatcherTest, OptionalsListsAndScalarsBox) {
  OperatorHandle H =
      Dispatcher::singleton().findSchemaOrThrow("dtest::optionals", "");
  Stack S{IValue(cpuTensor(1)), IValue(), IValue(std::vector<int64_t>{1, 2}),
          IValue(static_cast<int64_t>(kHalf)), IValue(int64_t(3))};
  H.callBoxed(S);
  EXPECT_EQ(S[0].toTensor().size(0), 1 + 200 + 1000 + 30000);
  auto Typed = H.typed<Tensor(const Tensor &, const std::optional<Tensor> &,
                              IntArrayRef, std::optional<ScalarType>,
                              const Scalar &)>();
  EXPECT_EQ(Typed.call(cpuTensor(1), cpuTensor(), {5}, std::nullopt, 0)
                .size(0),
            1 + 10 + 100);
}

TEST(DispatcherTest, TypedCallWithTheWrongSignatureIsAnError) {
  OperatorHandle H = Dispatcher::singleton().findSchemaOrThrow("dtest::scale", "");
  SK_EXPECT_ERROR((H.typed<Tensor(const Tensor &, double, double, bool)>()),
                  "argument 1 ('factor') is 'int' in the schema but 'float' "
                  "in C++");
  SK_EXPECT_ERROR((H.typed<Tensor(const Tensor &, int64_t, double, bool,
                                  bool)>()),
                  "the schema has 4 arguments but the C++ signature has 5");
}

Tensor wrongKernel(const Tensor &, double) { return Tensor(); }
Tensor otherKernel(const Tensor &) { return Tensor(); }

TEST(DispatcherTest, RegistrationErrors) {
  // A kernel whose C++ signature does not fit the schema.
  Library L(Library::Impl, "dtest", DispatchKey::PrivateUse1, "here.cpp", 1);
  SK_EXPECT_ERROR(L.impl("which", SK_FN(wrongKernel)),
                  "Mismatch in kernel C++ signature for operator dtest::which: "
                  "the schema has 1 arguments but the C++ signature has 2");
  // A second kernel for the same key, naming both places.
  Library L2(Library::Impl, "dtest", DispatchKey::CPU, "there.cpp", 7);
  SK_EXPECT_ERROR(L2.impl("which", SK_FN(otherKernel)),
                  "Tried to register a kernel for operator dtest::which and "
                  "dispatch key CPU twice");
  SK_EXPECT_ERROR(L2.impl("which", SK_FN(otherKernel)), "there.cpp:7");
  // A second schema.
  Library L3(Library::Fragment, "dtest", std::nullopt, "again.cpp", 3);
  SK_EXPECT_ERROR(L3.def("which(Tensor self) -> Tensor"),
                  "Tried to register operator dtest::which twice");
  // Another library's namespace.
  SK_EXPECT_ERROR(L3.def("other::which(Tensor self) -> Tensor"),
                  "Library for namespace 'dtest' cannot register operator "
                  "other::which");
}

TEST(DispatcherTest, RegistrationHandlesUndoThemselves) {
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  // A PrivateUse1 kernel, reached through a guard that includes the key.
  {
    Library L(Library::Impl, "dtest", DispatchKey::PrivateUse1, "t.cpp", 1);
    L.impl("which", [](const Tensor &) { return detail::empty_cpu({9}, kFloat); });
    IncludeDispatchKeyGuard G(DispatchKey::PrivateUse1);
    EXPECT_EQ(Which.call(cpuTensor()).size(0), 9);
  }
  IncludeDispatchKeyGuard G(DispatchKey::PrivateUse1);
  SK_EXPECT_ERROR(Which.call(cpuTensor()),
                  "with arguments from the 'PrivateUse1' backend");
}

Tensor tabled(const Tensor &Self, int64_t N) {
  return detail::empty_cpu({Self.size(0) + N}, kFloat);
}
Tensor tabledTwice(const Tensor &Self, int64_t N) {
  return detail::empty_cpu({Self.size(0) + 2 * N}, kFloat);
}

TEST(DispatcherTest, KernelTablesRegisterEveryRowForTheLibrarysKey) {
  // What generated Register<Key>.cpp files do: constant data, one loop.
  static constexpr KernelRegistration Kernels[] = {
      {"table_a", SK_KERNEL(tabled)}, {"table_b", SK_KERNEL(tabledTwice)}};
  Library Def(Library::Fragment, "dtest", std::nullopt, "t.cpp", 1);
  Def.def("table_a(Tensor self, int n) -> Tensor");
  Def.def("table_b(Tensor self, int n) -> Tensor");
  {
    Library L(Library::Impl, "dtest", DispatchKey::PrivateUse2, "t.cpp", 2);
    L.impl(Kernels);
    IncludeDispatchKeyGuard G(DispatchKey::PrivateUse2);
    using Sig = Tensor(const Tensor &, int64_t);
    EXPECT_EQ(op<Sig>("dtest::table_a").call(cpuTensor(3), 4).size(0), 7);
    EXPECT_EQ(op<Sig>("dtest::table_b").call(cpuTensor(3), 4).size(0), 11);
    // Both share one boxed entry point, which must still reach each row's
    // own kernel.
    for (auto [Name, Want] : {std::pair("table_a", 7), {"table_b", 11}}) {
      Stack S;
      S.push_back(cpuTensor(3));
      S.push_back(int64_t(4));
      Dispatcher::singleton().findSchemaOrThrow(
          std::string("dtest::") + Name, "").callBoxed(S);
      ASSERT_EQ(S.size(), 1u);
      EXPECT_EQ(S[0].toTensor().size(0), Want) << Name;
    }
  }
  Library NoKey(Library::Fragment, "dtest", std::nullopt, "t.cpp", 3);
  SK_EXPECT_ERROR(NoKey.impl(Kernels), "impl() of a table needs");
}

TEST(DispatcherTest, FunctionPointersRegisterAsCallables) {
  Library Def(Library::Fragment, "dtest", std::nullopt, "t.cpp", 1);
  Def.def("by_pointer(Tensor self, int n) -> Tensor");
  Library L(Library::Impl, "dtest", DispatchKey::PrivateUse3, "t.cpp", 2);
  Tensor (*Fn)(const Tensor &, int64_t) = &tabledTwice;
  L.impl("by_pointer", Fn);
  IncludeDispatchKeyGuard G(DispatchKey::PrivateUse3);
  EXPECT_EQ(op<Tensor(const Tensor &, int64_t)>("dtest::by_pointer")
                .call(cpuTensor(1), 1)
                .size(0),
            3);
}

TEST(DispatcherTest, FallthroughKernelsAreSkipped) {
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  Library L(Library::Impl, "dtest", DispatchKey::PrivateUse1, "t.cpp", 1);
  L.impl("which", CppFunction::makeFallthrough());
  IncludeDispatchKeyGuard G(DispatchKey::PrivateUse1);
  // PrivateUse1 is the highest key, but falls through to CPU.
  EXPECT_EQ(Which.call(cpuTensor()).size(0), 1);
}

Tensor redispatchingKernel(DispatchKeySet KS, const Tensor &Self) {
  static auto Which = op<Tensor(const Tensor &)>("dtest::which");
  Tensor R = Which.redispatch(KS & DispatchKeySet::below(DispatchKey::Autograd),
                              Self);
  return detail::empty_cpu({R.size(0) + 40}, kFloat);
}

TEST(DispatcherTest, KernelsCanRedispatch) {
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  Library L(Library::Impl, "dtest", DispatchKey::Autograd, "t.cpp", 1);
  L.impl("which", SK_FN(redispatchingKernel));
  IncludeDispatchKeyGuard G(DispatchKey::Autograd);
  EXPECT_EQ(Which.call(cpuTensor()).size(0), 41);
  EXPECT_EQ(Which.call(metaTensor()).size(0), 42);
}

int FallbackCalls = 0;
void countingFallback(const OperatorHandle &Op, DispatchKeySet KS, Stack *S) {
  ++FallbackCalls;
  Op.redispatchBoxed(KS.remove(DispatchKey::PrivateUse2), *S);
}

TEST(DispatcherTest, BoxedFallbacksServeTypedCalls) {
  Library L(Library::Impl, "_", DispatchKey::PrivateUse2, "t.cpp", 1);
  L.fallback(CppFunction::makeFromBoxedFunction<&countingFallback>());
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  IncludeDispatchKeyGuard G(DispatchKey::PrivateUse2);
  EXPECT_EQ(Which.call(metaTensor()).size(0), 2);
  EXPECT_EQ(FallbackCalls, 1);
  Library L2(Library::Impl, "_", DispatchKey::PrivateUse2, "u.cpp", 2);
  SK_EXPECT_ERROR(L2.fallback(CppFunction::makeFallthrough()),
                  "Tried to register multiple backend fallbacks for the same "
                  "dispatch key PrivateUse2");
}

TEST(DispatcherTest, RegisteredOperatorsAreListed) {
  std::vector<OperatorName> Names =
      Dispatcher::singleton().getRegisteredOperators();
  bool Found = false;
  for (const OperatorName &N : Names)
    Found |= N.str() == "dtest::split2";
  EXPECT_TRUE(Found);
}

/// Note [Registration races]: one thread registers and deregisters a
/// kernel while others call the operator; under TSan this must be clean,
/// and every call either runs a kernel or reports a missing one.
TEST(DispatcherTest, RegistrationIsThreadSafeAgainstCalls) {
  auto Which = op<Tensor(const Tensor &)>("dtest::which");
  std::atomic<bool> Stop{false};
  std::atomic<int> Started{0}, Ran{0}, Missing{0};
  std::vector<std::thread> Callers;
  for (int I = 0; I < 2; ++I) {
    Callers.emplace_back([&] {
      IncludeDispatchKeyGuard G(DispatchKey::PrivateUse3);
      Tensor T = cpuTensor();
      ++Started;
      while (!Stop.load()) {
        try {
          Which.call(T);
          ++Ran;
        } catch (const NotImplementedError &) {
          ++Missing;
        }
      }
    });
  }
  // Registration must overlap with calls in flight.
  while (Started.load() < 2)
    std::this_thread::yield();
  for (int Round = 0; Round < 200; ++Round) {
    Library L(Library::Impl, "dtest", DispatchKey::PrivateUse3, "r.cpp",
              Round);
    L.impl("which", SK_FN(ranCPU));
  }
  while (Ran.load() + Missing.load() < 1000)
    std::this_thread::yield();
  Stop = true;
  for (std::thread &T : Callers)
    T.join();
  // With no kernel registered at the end, the calls after the loop missed.
  EXPECT_GT(Missing.load(), 0);
}

} // namespace
