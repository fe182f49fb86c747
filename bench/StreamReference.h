//===--- StreamReference.h - References of memory-bound benches -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the 64M-float benchmarks of skc-bench-runtime-iter and
/// skc-bench-kernels share: the inputs, the STREAM-style reference loops
/// they are measured against in the same run, the thread count of a run
/// and the bytes a call moves.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BENCH_STREAMREFERENCE_H
#define SKC_BENCH_STREAMREFERENCE_H

#include "sk/core/EmptyTensor.h"
#include "sk/iter/Parallel.h"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace skc_bench {

constexpr int64_t kBig = int64_t(64) << 20; // 64M elements
constexpr int64_t kBigBytes = kBig * int64_t(sizeof(float));

/// Three 64M-float tensors, first touched in parallel (so their pages
/// spread as the parallel loops will use them), kept for the whole run.
struct BigInputs {
  sk::Tensor A, B, C;
  BigInputs() {
    A = sk::detail::empty_cpu({kBig}, sk::kFloat);
    B = sk::detail::empty_cpu({kBig}, sk::kFloat);
    C = sk::detail::empty_cpu({kBig}, sk::kFloat);
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

/// The reference of add_out: `c[i] = a[i] + b[i]` on \p Threads threads.
inline void streamAdd(const BigInputs &In, int Threads) {
  const float *A = In.A.data_ptr<float>(), *B = In.B.data_ptr<float>();
  float *C = In.C.data_ptr<float>();
#pragma omp parallel for num_threads(Threads) schedule(static)
  for (int64_t I = 0; I < kBig; ++I)
    C[I] = A[I] + B[I];
  benchmark::ClobberMemory();
}

/// The reference of a full sum: `s += a[i]`, vectorised by the compiler.
inline float streamRead(const BigInputs &In, int Threads) {
  const float *A = In.A.data_ptr<float>();
  float S = 0;
#pragma omp parallel for simd num_threads(Threads) reduction(+ : S)
  for (int64_t I = 0; I < kBig; ++I)
    S += A[I];
  return S;
}

/// Runs a benchmark body on State.range(0) threads of the runtime.
class ThreadCount {
public:
  explicit ThreadCount(const benchmark::State &State)
      : Saved(sk::get_num_threads()) {
    sk::set_num_threads(static_cast<int>(State.range(0)));
  }
  ~ThreadCount() { sk::set_num_threads(Saved); }
  ThreadCount(const ThreadCount &) = delete;
  ThreadCount &operator=(const ThreadCount &) = delete;

private:
  int Saved;
};

/// Reports \p BytesPerCall moved by each iteration.
inline void setBytes(benchmark::State &State, int64_t BytesPerCall) {
  State.SetBytesProcessed(State.iterations() * BytesPerCall);
}

} // namespace skc_bench

#endif // SKC_BENCH_STREAMREFERENCE_H
