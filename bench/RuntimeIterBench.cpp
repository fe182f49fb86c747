//===--- RuntimeIterBench.cpp - TensorIterator benchmarks -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The TensorIterator against its references, in one binary:
///
///  - building a broadcast binary op on meta tensors ({1, 1024} + {1024, 1},
///    float32, functional output), directly and through a structured
///    functional wrapper (target: <= 40 ns);
///  - add_out of 64M float32 with cpu_kernel_vec, against a STREAM-style
///    `c[i] = a[i] + b[i]` loop, on 1 and 2 threads (target: >= 95 %);
///  - a full sum of 64M float32 with cpu_reduce_vec, against a streaming
///    read loop.
///
/// Run from a Release build:
///
///   build-bench/bench/skc-bench-runtime-iter --benchmark_repetitions=5
///       --benchmark_report_aggregates_only=true
///
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/iter/Loops.h"
#include "sk/iter/Reduce.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/iter/StructuredHelpers.h"
#include "sk/iter/TensorIterator.h"

#include "StreamReference.h"

#include <benchmark/benchmark.h>

#include <omp.h>

#include <array>

namespace {

using namespace sk;
using namespace skc_bench;

//===--- Building on meta tensors -----------------------------------------===//

void BM_MetaBroadcastBuild(benchmark::State &State) {
  Tensor A = detail::empty_meta({1, 1024}, kFloat);
  Tensor B = detail::empty_meta({1024, 1}, kFloat);
  Tensor Undefined;
  for (auto _ : State) {
    TensorIterator Iter;
    Iter.build_borrowing_binary_op(Undefined, A, B);
    benchmark::DoNotOptimize(Iter.output().unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_MetaBroadcastBuild);

/// A structured add as skc generates it for the Meta key: the meta struct
/// is a TensorIteratorBase; the functional variant allocates.
struct BenchAddMeta : TensorIteratorBase {
  void meta(const Tensor &Self, const Tensor &Other) {
    build_borrowing_binary_op(maybe_get_output(), Self, Other);
  }
};
struct BenchAddMetaFunctional final : BenchAddMeta {
  void set_output_raw_strided(int64_t Idx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    outputs_[Idx] = impl::create_out(Sizes, Strides, Options.device(kMeta));
    BenchAddMeta::set_output_raw_strided(Idx, Sizes, Strides, Options);
  }
  using BenchAddMeta::maybe_get_output;
  const Tensor &maybe_get_output(int64_t Idx) override { return outputs_[Idx]; }
  std::array<Tensor, 1> outputs_;
};

void BM_MetaBroadcastStructuredFunctional(benchmark::State &State) {
  Tensor A = detail::empty_meta({1, 1024}, kFloat);
  Tensor B = detail::empty_meta({1024, 1}, kFloat);
  for (auto _ : State) {
    BenchAddMetaFunctional Op;
    Op.meta(A, B);
    Tensor Out = std::move(Op.outputs_[0]);
    benchmark::DoNotOptimize(Out.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_MetaBroadcastStructuredFunctional);

/// For scale: allocating the meta output alone.
void BM_MetaEmptyStrided(benchmark::State &State) {
  for (auto _ : State) {
    Tensor T = detail::empty_strided_meta({1024, 1024}, {1024, 1}, kFloat);
    benchmark::DoNotOptimize(T.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_MetaEmptyStrided);

//===--- add_out of 64M floats --------------------------------------------===//

void BM_AddOut_CpuKernelVec(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  ThreadCount Threads(State);
  for (auto _ : State) {
    TensorIterator Iter = TensorIterator::borrowing_binary_op(In.C, In.A, In.B);
    cpu_kernel_vec(
        Iter, [](float X, float Y) { return X + Y; },
        [](auto X, auto Y) { return hn::Add(X, Y); });
    benchmark::ClobberMemory();
  }
  setBytes(State, 3 * kBigBytes);
}
BENCHMARK(BM_AddOut_CpuKernelVec)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_AddOut_StreamLoop(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  for (auto _ : State)
    streamAdd(In, static_cast<int>(State.range(0)));
  setBytes(State, 3 * kBigBytes);
}
BENCHMARK(BM_AddOut_StreamLoop)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

//===--- Full sum of 64M floats -------------------------------------------===//

void BM_SumFull_CpuReduceVec(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  ThreadCount Threads(State);
  Tensor Out = detail::empty_cpu({}, kFloat);
  for (auto _ : State) {
    TensorIterator Iter = make_reduction(In.A, Out, {}, false);
    cpu_reduce_vec(
        Iter, 0.0f, [](float X, float Y) { return X + Y; },
        [](auto X, auto Y) { return hn::Add(X, Y); });
    benchmark::DoNotOptimize(*Out.data_ptr<float>());
  }
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_SumFull_CpuReduceVec)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_SumFull_StreamReadLoop(benchmark::State &State) {
  BigInputs &In = BigInputs::get();
  for (auto _ : State)
    benchmark::DoNotOptimize(streamRead(In, static_cast<int>(State.range(0))));
  setBytes(State, kBigBytes);
}
BENCHMARK(BM_SumFull_StreamReadLoop)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
