//===--- Parallel.cpp - Intra-op parallelism ------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/Parallel.h"

#include "sk/util/Exception.h"

#include <algorithm>
#include <atomic>
#include <exception>

#include <omp.h>

namespace sk {

int get_num_threads() {
  return in_parallel_region() ? 1 : omp_get_max_threads();
}

void set_num_threads(int N) {
  SK_CHECK(N > 0,
           "set_num_threads: expected a positive number of threads, "
           "but got ",
           N);
  omp_set_num_threads(N);
}

int get_thread_num() { return omp_get_thread_num(); }

bool in_parallel_region() { return omp_in_parallel(); }

void parallel_for(int64_t Begin, int64_t End, int64_t GrainSize,
                  FunctionRef<void(int64_t, int64_t)> Fn) {
  if (Begin >= End)
    return;
  int64_t Range = End - Begin;
  int64_t MaxThreads = get_num_threads();
  if (GrainSize > 0)
    MaxThreads = std::min(MaxThreads, (Range + GrainSize - 1) / GrainSize);
  if (MaxThreads <= 1) {
    Fn(Begin, End);
    return;
  }

  std::atomic_flag Failed = ATOMIC_FLAG_INIT;
  std::exception_ptr FirstError;
  int NumThreadsToUse = static_cast<int>(MaxThreads);
#pragma omp parallel num_threads(NumThreadsToUse)
  {
    int64_t NumThreads = omp_get_num_threads();
    int64_t Tid = omp_get_thread_num();
    int64_t Chunk = (Range + NumThreads - 1) / NumThreads;
    int64_t ChunkBegin = Begin + Tid * Chunk;
    if (ChunkBegin < End) {
      try {
        Fn(ChunkBegin, std::min(End, ChunkBegin + Chunk));
      } catch (...) {
        if (!Failed.test_and_set())
          FirstError = std::current_exception();
      }
    }
  }
  if (FirstError)
    std::rethrow_exception(FirstError);
}

} // namespace sk
