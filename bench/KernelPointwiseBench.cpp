//===--- KernelPointwiseBench.cpp - The pointwise kernels' benchmarks -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pointwise kernels of issue 6 against references measured in the
/// same run:
///
///  - `sk::add_out(out, a, b)` on 64M float32, on 1 and 2 threads, against
///    a STREAM-style `c[i] = a[i] + b[i]` OpenMP loop on as many threads
///    (target: >= 95 %; libtorch 1.13 reaches about 71 % on one thread);
///  - the functional `sk::add` of two 1-element CPU tensors (target:
///    <= 60 ns; libtorch about 500 ns), and for the breakdown the same
///    call without the dispatcher (`sk::cpu::add`) and its parts: the
///    allocation of the output and a TensorIterator build with its loop;
///  - `sk::add` on meta tensors with broadcasting, [64, 1, 128] +
///    [1, 32, 128] (target: <= 40 ns; libtorch about 410 ns), with the
///    same breakdown: `sk::meta::add` (no dispatcher), the bare iterator
///    build and the meta allocation alone.
///
/// Run from a Release build:
///
///   build/bench/skc-bench-kernels --benchmark_filter='Pointwise'
///       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"
#include "MetaFunctions.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/Loops.h"
#include "sk/iter/Parallel.h"
#include "sk/iter/TensorIterator.h"

#include "StreamReference.h"

#include <benchmark/benchmark.h>

#include <omp.h>

namespace {

using namespace sk;
using namespace skc_bench;

//===--- add_out of 64M floats --------------------------------------------===//

void BM_PointwiseAddOut64M(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  ThreadCount Threads(State);
  for (auto _ : State) {
    sk::add_out(In.C, In.A, In.B);
    benchmark::ClobberMemory();
  }
  setBytes(State, 3 * kBigBytes);
}
BENCHMARK(BM_PointwiseAddOut64M)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_PointwiseStreamAdd64M(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  for (auto _ : State)
    streamAdd(In, static_cast<int>(State.range(0)));
  setBytes(State, 3 * kBigBytes);
}
BENCHMARK(BM_PointwiseStreamAdd64M)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

//===--- Functional add of 1-element tensors ------------------------------===//

void BM_PointwiseAddOneElement(benchmark::State &State) {
  Tensor A = detail::empty_cpu({1}, kFloat);
  Tensor B = detail::empty_cpu({1}, kFloat);
  A.data_ptr<float>()[0] = 1;
  B.data_ptr<float>()[0] = 2;
  for (auto _ : State) {
    Tensor C = sk::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseAddOneElement);

/// The same without the dispatcher.
void BM_PointwiseAddOneElementDirect(benchmark::State &State) {
  Tensor A = detail::empty_cpu({1}, kFloat);
  Tensor B = detail::empty_cpu({1}, kFloat);
  A.data_ptr<float>()[0] = 1;
  B.data_ptr<float>()[0] = 2;
  for (auto _ : State) {
    Tensor C = sk::cpu::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseAddOneElementDirect);

/// Its parts: the output's allocation ...
void BM_PointwiseEmptyOneElement(benchmark::State &State) {
  for (auto _ : State) {
    Tensor C = detail::empty_cpu({1}, kFloat);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseEmptyOneElement);

/// ... and a TensorIterator built over a given output, with the loop.
void BM_PointwiseIterOneElementOut(benchmark::State &State) {
  Tensor A = detail::empty_cpu({1}, kFloat);
  Tensor B = detail::empty_cpu({1}, kFloat);
  Tensor C = detail::empty_cpu({1}, kFloat);
  A.data_ptr<float>()[0] = 1;
  B.data_ptr<float>()[0] = 2;
  for (auto _ : State) {
    TensorIterator Iter = TensorIterator::borrowing_binary_op(C, A, B);
    cpu_kernel_vec(
        Iter, [](float X, float Y) { return X + Y; },
        [](auto X, auto Y) { return hn::Add(X, Y); });
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PointwiseIterOneElementOut);

//===--- add on meta tensors, broadcasting --------------------------------===//

void BM_PointwiseAddMetaBroadcast(benchmark::State &State) {
  Tensor A = detail::empty_meta({64, 1, 128}, kFloat);
  Tensor B = detail::empty_meta({1, 32, 128}, kFloat);
  for (auto _ : State) {
    Tensor C = sk::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseAddMetaBroadcast);

/// The same without the dispatcher: the generated Meta wrapper.
void BM_PointwiseAddMetaBroadcastDirect(benchmark::State &State) {
  Tensor A = detail::empty_meta({64, 1, 128}, kFloat);
  Tensor B = detail::empty_meta({1, 32, 128}, kFloat);
  for (auto _ : State) {
    Tensor C = sk::meta::add(A, B);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseAddMetaBroadcastDirect);

/// Its parts: the iterator build (allocating the meta output) ...
void BM_PointwiseIterMetaBroadcast(benchmark::State &State) {
  Tensor A = detail::empty_meta({64, 1, 128}, kFloat);
  Tensor B = detail::empty_meta({1, 32, 128}, kFloat);
  Tensor Undefined;
  for (auto _ : State) {
    TensorIterator Iter;
    Iter.build_borrowing_binary_op(Undefined, A, B);
    benchmark::DoNotOptimize(Iter.output().unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseIterMetaBroadcast);

/// ... and the meta allocation alone.
void BM_PointwiseEmptyMeta(benchmark::State &State) {
  for (auto _ : State) {
    Tensor C = detail::empty_meta({64, 32, 128}, kFloat);
    benchmark::DoNotOptimize(C.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_PointwiseEmptyMeta);

} // namespace
