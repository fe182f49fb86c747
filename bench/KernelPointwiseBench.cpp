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

#include <benchmark/benchmark.h>

#include <omp.h>

namespace {

using namespace sk;

constexpr int64_t kBig = int64_t(64) << 20; // 64M elements

//===--- add_out of 64M floats --------------------------------------------===//

/// Three 64M-float tensors, first touched in parallel (so their pages
/// spread as the parallel loops will use them), kept for the whole run.
struct BigInputs {
  Tensor A, B, C;
  BigInputs() {
    A = detail::empty_cpu({kBig}, kFloat);
    B = detail::empty_cpu({kBig}, kFloat);
    C = detail::empty_cpu({kBig}, kFloat);
    float *PA = A.data_ptr<float>(), *PB = B.data_ptr<float>(),
          *PC = C.data_ptr<float>();
#pragma omp parallel for schedule(static)
    for (int64_t I = 0; I < kBig; ++I) {
      PA[I] = static_cast<float>(I & 1023);
      PB[I] = 1.0f;
      PC[I] = 0.0f;
    }
  }
  static BigInputs &get() {
    static BigInputs Inputs;
    return Inputs;
  }
};

/// Bytes moved per call: two reads and one write of 64M floats.
void setStreamBytes(benchmark::State &State) {
  State.SetBytesProcessed(State.iterations() * 3 * kBig *
                          static_cast<int64_t>(sizeof(float)));
}

void BM_PointwiseAddOut64M(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  int Saved = get_num_threads();
  set_num_threads(static_cast<int>(State.range(0)));
  for (auto _ : State) {
    sk::add_out(In.C, In.A, In.B);
    benchmark::ClobberMemory();
  }
  set_num_threads(Saved);
  setStreamBytes(State);
}
BENCHMARK(BM_PointwiseAddOut64M)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_PointwiseStreamAdd64M(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  const float *A = In.A.data_ptr<float>(), *B = In.B.data_ptr<float>();
  float *C = In.C.data_ptr<float>();
  int Threads = static_cast<int>(State.range(0));
  for (auto _ : State) {
#pragma omp parallel for num_threads(Threads) schedule(static)
    for (int64_t I = 0; I < kBig; ++I)
      C[I] = A[I] + B[I];
    benchmark::ClobberMemory();
  }
  setStreamBytes(State);
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
