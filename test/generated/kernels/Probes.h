//===--- Probes.h - What the test kernels record for the test ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the kernels of test/generated record about their last call, so that
/// GeneratedTest.cpp can tell which tensor the generated wrapper handed to
/// impl() (the user's, or a proxy) and what precomputed fields it got.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_GENERATED_KERNELS_PROBES_H
#define SKC_TEST_GENERATED_KERNELS_PROBES_H

#include <cstdint>
#include <vector>

namespace gentest {

/// The output grow_cumsum's impl() last wrote.
struct RowCumsumProbe {
  const void *OutData = nullptr;
  std::vector<int64_t> OutStrides;
  int Calls = 0;
};
RowCumsumProbe &rowCumsumProbe();

/// The `wrapped_dim` gsum_dim's impl() last got from the precompute struct.
int64_t &lastSumDim();

} // namespace gentest

#endif // SKC_TEST_GENERATED_KERNELS_PROBES_H
