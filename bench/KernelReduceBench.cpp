//===--- KernelReduceBench.cpp - The reduction kernels --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reduction kernels against a reference measured in the same run:
///
///  - sk::sum of 64M float32 (the composite full reduction, through the
///    dispatcher, the structured sum.dim_IntList and Reduce.h's loop)
///    against a streaming read loop, `s += a[i]` vectorized by the
///    compiler (OpenMP simd reduction), on 1 and 2 threads
///    (target: >= 90 %);
///  - for scale, sk::amax and sk::argmax of the same array, and sk::sum of
///    an 8192 x 8192 matrix over each dimension.
///
/// Run from a Release build:
///
///   build/bench/skc-bench-kernels --benchmark_filter=Reduce
///       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
///
//===----------------------------------------------------------------------===//

#include "Functions.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/Parallel.h"

#include <benchmark/benchmark.h>

namespace {

using namespace sk;

constexpr int64_t kBig = int64_t(64) << 20; // 64M elements

/// 64M float32, written once (in parallel, so that each thread's pages are
/// its own where that matters).
const Tensor &bigInput() {
  static Tensor A = [] {
    Tensor T = detail::empty_cpu({kBig}, kFloat);
    float *P = T.data_ptr<float>();
#pragma omp parallel for
    for (int64_t I = 0; I < kBig; ++I)
      P[I] = static_cast<float>(I & 1023) * 0.25f;
    return T;
  }();
  return A;
}

/// Runs the benchmark body on State.range(0) threads of the runtime.
class ThreadCount {
public:
  explicit ThreadCount(const benchmark::State &State)
      : Saved(get_num_threads()) {
    set_num_threads(static_cast<int>(State.range(0)));
  }
  ~ThreadCount() { set_num_threads(Saved); }

private:
  int Saved;
};

void setBytes(benchmark::State &State, int64_t Bytes) {
  State.SetBytesProcessed(State.iterations() * Bytes);
}

//===--- Full sum of 64M floats: the target -------------------------------===//

void BM_ReduceSumFull_SkSum(benchmark::State &State) {
  const Tensor &A = bigInput();
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor S = sk::sum(A);
    benchmark::DoNotOptimize(S.data_ptr());
  }
  setBytes(State, kBig * 4);
}
BENCHMARK(BM_ReduceSumFull_SkSum)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ReduceSumFull_StreamReadLoop(benchmark::State &State) {
  const float *A = bigInput().data_ptr<float>();
  int Threads = static_cast<int>(State.range(0));
  for (auto _ : State) {
    float S = 0;
#pragma omp parallel for simd num_threads(Threads) reduction(+ : S)
    for (int64_t I = 0; I < kBig; ++I)
      S += A[I];
    benchmark::DoNotOptimize(S);
  }
  setBytes(State, kBig * 4);
}
BENCHMARK(BM_ReduceSumFull_StreamReadLoop)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

//===--- For scale --------------------------------------------------------===//

void BM_ReduceAmaxFull(benchmark::State &State) {
  const Tensor &A = bigInput();
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor M = sk::amax(A);
    benchmark::DoNotOptimize(M.data_ptr());
  }
  setBytes(State, kBig * 4);
}
BENCHMARK(BM_ReduceAmaxFull)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ReduceArgmaxFull(benchmark::State &State) {
  const Tensor &A = bigInput();
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor I = sk::argmax(A);
    benchmark::DoNotOptimize(I.data_ptr());
  }
  setBytes(State, kBig * 4);
}
BENCHMARK(BM_ReduceArgmaxFull)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// sum over dim State.range(1) of the 64M floats as an 8192 x 8192 matrix.
void BM_ReduceSumDim(benchmark::State &State) {
  Tensor M = bigInput().view({8192, 8192});
  ThreadCount Threads(State);
  int64_t Dim = State.range(1);
  for (auto _ : State) {
    Tensor S = sk::sum(M, IntArrayRef(Dim));
    benchmark::DoNotOptimize(S.data_ptr());
  }
  setBytes(State, kBig * 4);
}
BENCHMARK(BM_ReduceSumDim)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
