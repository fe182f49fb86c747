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

#include "StreamReference.h"

#include <benchmark/benchmark.h>

namespace {

using namespace sk;
using namespace skc_bench;

//===--- Full sum of 64M floats: the target -------------------------------===//

void BM_ReduceSumFull_SkSum(benchmark::State &State) {
  const Tensor &A = BigInputs::get().A;
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor S = sk::sum(A);
    benchmark::DoNotOptimize(S.data_ptr());
  }
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_ReduceSumFull_SkSum)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ReduceSumFull_StreamReadLoop(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  for (auto _ : State)
    benchmark::DoNotOptimize(streamRead(In, static_cast<int>(State.range(0))));
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_ReduceSumFull_StreamReadLoop)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

//===--- For scale --------------------------------------------------------===//

void BM_ReduceAmaxFull(benchmark::State &State) {
  const Tensor &A = BigInputs::get().A;
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor M = sk::amax(A);
    benchmark::DoNotOptimize(M.data_ptr());
  }
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_ReduceAmaxFull)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ReduceArgmaxFull(benchmark::State &State) {
  const Tensor &A = BigInputs::get().A;
  ThreadCount Threads(State);
  for (auto _ : State) {
    Tensor I = sk::argmax(A);
    benchmark::DoNotOptimize(I.data_ptr());
  }
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_ReduceArgmaxFull)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// sum over dim State.range(1) of the 64M floats as an 8192 x 8192 matrix.
void BM_ReduceSumDim(benchmark::State &State) {
  Tensor M = BigInputs::get().A.view({8192, 8192});
  ThreadCount Threads(State);
  int64_t Dim = State.range(1);
  for (auto _ : State) {
    Tensor S = sk::sum(M, IntArrayRef(Dim));
    benchmark::DoNotOptimize(S.data_ptr());
  }
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_ReduceSumDim)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
