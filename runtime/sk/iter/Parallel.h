//===--- Parallel.h - Intra-op parallelism ----------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// at::parallel_for on OpenMP: a range is cut into at most one chunk per
/// thread, each at least \p GrainSize long; below one grain, inside another
/// parallel region, or with one thread the body runs inline on the caller.
/// An exception thrown by a chunk is rethrown on the caller (the first one
/// wins), never out of the OpenMP region.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_PARALLEL_H
#define SK_ITER_PARALLEL_H

#include "sk/util/FunctionRef.h"

#include <cstdint>

namespace sk {

/// Grain size of elementwise loops, in elements (at::internal::GRAIN_SIZE).
constexpr int64_t kGrainSize = 32768;

/// The number of threads parallel_for may use.
int get_num_threads();
/// Sets the number of threads parallel_for may use; \p N must be positive.
void set_num_threads(int N);
/// The index of the calling thread inside parallel_for, 0 outside.
int get_thread_num();
/// Whether the caller runs inside a parallel_for chunk.
bool in_parallel_region();

/// Calls \p Fn(ChunkBegin, ChunkEnd) over disjoint chunks covering
/// [Begin, End), in parallel when the range holds more than one grain.
void parallel_for(int64_t Begin, int64_t End, int64_t GrainSize,
                  FunctionRef<void(int64_t, int64_t)> Fn);

} // namespace sk

#endif // SK_ITER_PARALLEL_H
