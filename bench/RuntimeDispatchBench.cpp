//===--- RuntimeDispatchBench.cpp - Dispatcher and allocation overheads ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime's fixed costs, each next to its reference in the same
/// binary (libtorch 1.13's figures come from TorchReference.cpp when
/// libtorch-dev is installed):
///
///   direct/Noop                  a direct call of the no-op kernel
///   sk/UnboxedDispatchNoop       the same kernel through the dispatcher
///   sk/BoxedDispatchNoop         ... through a boxed call
///   sk/EmptyCPU, sk/EmptyMeta    empty({1}) through BackendSelect
///
/// Targets (issue 3): unboxed dispatch at most 2 ns over direct, boxed at
/// most 15 ns, empty({1}) at most 25 ns on CPU and 15 ns on Meta.
///
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/dispatch/Library.h"
#include "sk/ops/Factories.h"

#include <benchmark/benchmark.h>

using namespace sk;

namespace {

/// The no-op kernel: returns its argument (one refcount increment, as any
/// kernel returning a tensor pays).
[[gnu::noinline]] Tensor noopKernel(const Tensor &Self) { return Self; }

void noopBoxed(const OperatorHandle &, DispatchKeySet, Stack *S) {
  // Leaves the argument on the stack as the return.
  (void)S;
}

SK_LIBRARY(skbench, m) {
  m.def("noop(Tensor self) -> Tensor");
  m.def("noop_boxed(Tensor self) -> Tensor");
}
SK_LIBRARY_IMPL(skbench, CPU, m) {
  m.impl("noop", SK_FN(noopKernel));
  m.impl("noop_boxed", CppFunction::makeFromBoxedFunction<&noopBoxed>());
}

void BM_DirectNoop(benchmark::State &State) {
  Tensor T = detail::empty_cpu({1}, kFloat);
  for (auto _ : State) {
    Tensor R = noopKernel(T);
    benchmark::DoNotOptimize(R.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_DirectNoop)->Name("direct/Noop");

void BM_UnboxedDispatchNoop(benchmark::State &State) {
  static auto Op = Dispatcher::singleton()
                       .findSchemaOrThrow("skbench::noop", "")
                       .typed<Tensor(const Tensor &)>();
  Tensor T = detail::empty_cpu({1}, kFloat);
  for (auto _ : State) {
    Tensor R = Op.call(T);
    benchmark::DoNotOptimize(R.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_UnboxedDispatchNoop)->Name("sk/UnboxedDispatchNoop");

/// A boxed call of operator \p Name with one tensor argument, reusing one
/// stack (the allocation of a fresh stack is not the dispatcher's cost).
void BM_BoxedCall(benchmark::State &State, const char *Name) {
  OperatorHandle Op = Dispatcher::singleton().findSchemaOrThrow(Name, "");
  Tensor T = detail::empty_cpu({1}, kFloat);
  Stack S;
  S.reserve(4);
  for (auto _ : State) {
    S.emplace_back(T);
    Op.callBoxed(S);
    benchmark::DoNotOptimize(S.back());
    S.clear();
  }
}
// A boxed kernel, and the unboxed no-op kernel called through its
// generated boxed entry point.
BENCHMARK_CAPTURE(BM_BoxedCall, Boxed, "skbench::noop_boxed")
    ->Name("sk/BoxedDispatchNoop");
BENCHMARK_CAPTURE(BM_BoxedCall, Unboxed, "skbench::noop")
    ->Name("sk/BoxedCallOfUnboxedKernel");

void BM_EmptyCPU(benchmark::State &State) {
  for (auto _ : State) {
    Tensor T = sk::empty({1});
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_EmptyCPU)->Name("sk/EmptyCPU");

void BM_EmptyMeta(benchmark::State &State) {
  for (auto _ : State) {
    Tensor T = sk::empty({1}, TensorOptions(kMeta));
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_EmptyMeta)->Name("sk/EmptyMeta");

void BM_EmptyCPUNoDispatch(benchmark::State &State) {
  for (auto _ : State) {
    Tensor T = detail::empty_cpu({1}, kFloat);
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_EmptyCPUNoDispatch)->Name("sk/EmptyCPUNoDispatch");

} // namespace

BENCHMARK_MAIN();
