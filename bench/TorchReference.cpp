//===--- TorchReference.cpp - libtorch 1.13 on the same benchmarks --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Built into the runtime benchmarks only when libtorch (Debian's
/// libtorch-dev) is installed, so that ratios are taken in one run.
///
//===----------------------------------------------------------------------===//

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <benchmark/benchmark.h>

namespace {

[[gnu::noinline]] at::Tensor torchNoop(const at::Tensor &Self) { return Self; }

TORCH_LIBRARY(torchbench, m) { m.def("noop(Tensor self) -> Tensor"); }
TORCH_LIBRARY_IMPL(torchbench, CPU, m) { m.impl("noop", TORCH_FN(torchNoop)); }

void BM_TorchUnboxedDispatchNoop(benchmark::State &State) {
  static auto Op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("torchbench::noop", "")
                       .typed<at::Tensor(const at::Tensor &)>();
  at::Tensor T = at::empty({1});
  for (auto _ : State) {
    at::Tensor R = Op.call(T);
    benchmark::DoNotOptimize(R.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchUnboxedDispatchNoop)->Name("torch/UnboxedDispatchNoop");

void BM_TorchBoxedDispatchNoop(benchmark::State &State) {
  static auto Op =
      c10::Dispatcher::singleton().findSchemaOrThrow("torchbench::noop", "");
  at::Tensor T = at::empty({1});
  torch::jit::Stack S;
  S.reserve(4);
  for (auto _ : State) {
    S.emplace_back(T);
    Op.callBoxed(&S);
    benchmark::DoNotOptimize(S.back());
    S.clear();
  }
}
BENCHMARK(BM_TorchBoxedDispatchNoop)->Name("torch/BoxedCallOfUnboxedKernel");

void BM_TorchEmptyCPU(benchmark::State &State) {
  for (auto _ : State) {
    at::Tensor T = at::empty({1});
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchEmptyCPU)->Name("torch/EmptyCPU");

void BM_TorchEmptyMeta(benchmark::State &State) {
  for (auto _ : State) {
    at::Tensor T = at::empty({1}, at::TensorOptions().device(at::kMeta));
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchEmptyMeta)->Name("torch/EmptyMeta");

void BM_TorchAddMetaBroadcast(benchmark::State &State) {
  at::Tensor A = at::empty({1, 1024}, at::TensorOptions().device(at::kMeta));
  at::Tensor B = at::empty({1024, 1}, at::TensorOptions().device(at::kMeta));
  for (auto _ : State) {
    at::Tensor C = at::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchAddMetaBroadcast)->Name("torch/AddMetaBroadcast");

} // namespace
