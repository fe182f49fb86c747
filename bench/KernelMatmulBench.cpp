//===--- KernelMatmulBench.cpp - sk::mm against a direct sgemm ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// sk::mm of 1024 x 1024 x 1024 float32 against cblas_sgemm called
/// directly on the same data in the same run (target: within 5 %):
///
///  - BM_CblasSgemm: the reference, into a preallocated C;
///  - BM_MmOut: sk::mm_out into a preallocated C (dispatch, the structured
///    out= wrapper, the meta function, the strides logic, then sgemm);
///  - BM_Mm: the functional sk::mm, which also allocates C;
///  - BM_MmTransposedA / BM_CblasSgemmTransA: A given as the transpose of
///    a contiguous matrix, which sk::mm hands to BLAS with the Trans flag
///    rather than copying.
///
/// OpenBLAS threads itself; times are wall-clock. Run from a Release
/// build:
///
///   build/bench/skc-bench-kernels --benchmark_filter='Sgemm|Mm'
///       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
///
//===----------------------------------------------------------------------===//

#include "Functions.h"

#include "sk/ops/Factories.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

namespace {

using namespace sk;

constexpr int64_t kN = 1024;

/// Multiply-adds of one product, as FLOPs (2 per multiply-add).
void setFlops(benchmark::State &State) {
  State.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * kN * kN * kN * static_cast<double>(State.iterations()),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

struct Operands {
  Tensor A = randn({kN, kN});
  Tensor B = randn({kN, kN});
  Tensor C = empty({kN, kN});
};

void BM_CblasSgemm(benchmark::State &State) {
  Operands Ops;
  const float *A = Ops.A.data_ptr<float>();
  const float *B = Ops.B.data_ptr<float>();
  float *C = Ops.C.data_ptr<float>();
  for (auto _ : State) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kN, kN, kN, 1.0f, A,
                kN, B, kN, 0.0f, C, kN);
    benchmark::ClobberMemory();
  }
  setFlops(State);
}
BENCHMARK(BM_CblasSgemm)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MmOut(benchmark::State &State) {
  Operands Ops;
  for (auto _ : State) {
    sk::mm_out(Ops.C, Ops.A, Ops.B);
    benchmark::ClobberMemory();
  }
  setFlops(State);
}
BENCHMARK(BM_MmOut)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Mm(benchmark::State &State) {
  Operands Ops;
  for (auto _ : State) {
    Tensor C = sk::mm(Ops.A, Ops.B);
    benchmark::DoNotOptimize(C.data_ptr());
  }
  setFlops(State);
}
BENCHMARK(BM_Mm)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CblasSgemmTransA(benchmark::State &State) {
  Operands Ops;
  // A^T stored row-major: the data of Ops.A read as its transpose.
  const float *A = Ops.A.data_ptr<float>();
  const float *B = Ops.B.data_ptr<float>();
  float *C = Ops.C.data_ptr<float>();
  for (auto _ : State) {
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, kN, kN, kN, 1.0f, A,
                kN, B, kN, 0.0f, C, kN);
    benchmark::ClobberMemory();
  }
  setFlops(State);
}
BENCHMARK(BM_CblasSgemmTransA)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MmTransposedA(benchmark::State &State) {
  Operands Ops;
  Tensor AT = Ops.A.t();
  for (auto _ : State) {
    sk::mm_out(Ops.C, AT, Ops.B);
    benchmark::ClobberMemory();
  }
  setFlops(State);
}
BENCHMARK(BM_MmTransposedA)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
