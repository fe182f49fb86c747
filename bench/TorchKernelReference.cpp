//===--- TorchKernelReference.cpp - libtorch 1.13 on the kernel benchmarks ===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// libtorch 1.13 on the operators and shapes skc-bench-kernels measures,
/// built into that binary only when libtorch (Debian's libtorch-dev) is
/// installed, so that skc, the STREAM-style references and libtorch are
/// timed in one run. A separate file: ATen's headers stay out of the
/// sources that include the runtime's.
///
//===----------------------------------------------------------------------===//

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <benchmark/benchmark.h>

namespace {

constexpr int64_t kBigNumel = int64_t(64) << 20;
constexpr int64_t kBigBytes = kBigNumel * int64_t(sizeof(float));
constexpr int64_t kMatmulN = 1024;

/// Sets libtorch's intra-op thread count for one benchmark.
class TorchThreads {
public:
  explicit TorchThreads(const benchmark::State &State)
      : Saved(at::get_num_threads()) {
    at::set_num_threads(static_cast<int>(State.range(0)));
  }
  ~TorchThreads() { at::set_num_threads(Saved); }
  TorchThreads(const TorchThreads &) = delete;
  TorchThreads &operator=(const TorchThreads &) = delete;

private:
  int Saved;
};

struct TorchBigInputs {
  at::Tensor A = at::rand({kBigNumel});
  at::Tensor B = at::rand({kBigNumel});
  at::Tensor C = at::empty({kBigNumel});

  static TorchBigInputs &get() {
    static TorchBigInputs In;
    return In;
  }
};

void BM_TorchAddOut64M(benchmark::State &State) {
  TorchBigInputs &In = TorchBigInputs::get();
  TorchThreads Threads(State);
  for (auto _ : State) {
    at::add_out(In.C, In.A, In.B);
    benchmark::ClobberMemory();
  }
  State.SetBytesProcessed(State.iterations() * 3 * kBigBytes);
}
BENCHMARK(BM_TorchAddOut64M)
    ->Name("torch/PointwiseAddOut64M")
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_TorchSumFull64M(benchmark::State &State) {
  TorchBigInputs &In = TorchBigInputs::get();
  TorchThreads Threads(State);
  for (auto _ : State) {
    at::Tensor S = at::sum(In.A);
    benchmark::DoNotOptimize(S.unsafeGetTensorImpl());
  }
  State.SetBytesProcessed(State.iterations() * kBigBytes);
}
BENCHMARK(BM_TorchSumFull64M)
    ->Name("torch/ReduceSumFull")
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_TorchAddOneElement(benchmark::State &State) {
  at::Tensor A = at::ones({1});
  at::Tensor B = at::ones({1});
  for (auto _ : State) {
    at::Tensor C = at::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchAddOneElement)->Name("torch/PointwiseAddOneElement");

void BM_TorchAddMetaBroadcast(benchmark::State &State) {
  at::Tensor A = at::empty({64, 1, 128}, at::device(at::kMeta));
  at::Tensor B = at::empty({1, 32, 128}, at::device(at::kMeta));
  for (auto _ : State) {
    at::Tensor C = at::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_TorchAddMetaBroadcast)->Name("torch/PointwiseAddMetaBroadcast");

void BM_TorchMmOut(benchmark::State &State) {
  at::Tensor A = at::randn({kMatmulN, kMatmulN});
  at::Tensor B = at::randn({kMatmulN, kMatmulN});
  at::Tensor C = at::empty({kMatmulN, kMatmulN});
  for (auto _ : State) {
    at::mm_out(C, A, B);
    benchmark::ClobberMemory();
  }
  State.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * kMatmulN * kMatmulN * kMatmulN *
          static_cast<double>(State.iterations()),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_TorchMmOut)
    ->Name("torch/MmOut")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
