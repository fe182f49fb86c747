//===--- SchemaSamples.h - Argument lists made from a schema ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Argument lists for an operator made from its schema alone (Note [Schema
/// samples]): what the generated meta-consistency tests run on CPU and
/// Meta (MetaConsistency.h), and what the differential test against
/// libtorch starts from. Library skc::runtime_testing.
///
//===----------------------------------------------------------------------===//

#ifndef SK_TESTING_SCHEMASAMPLES_H
#define SK_TESTING_SCHEMASAMPLES_H

#include "sk/dispatch/IValue.h"
#include "sk/dispatch/OperatorSchema.h"

#include <random>
#include <string>
#include <vector>

namespace sk {
namespace testing {

/// One argument list, its tensors on the CPU.
struct SchemaSample {
  Stack Args;
  /// The shapes and dtypes of its tensors and its other arguments' values,
  /// for a failure's message.
  std::string Description;
};

/// The argument lists of Note [Schema samples] for \p Schema, always in
/// the same order; tensor values are drawn from \p Random. Throws sk::Error
/// when an argument's type has no samples.
std::vector<SchemaSample> makeSchemaSamples(const OperatorSchema &Schema,
                                            std::mt19937 &Random);

} // namespace testing
} // namespace sk

#endif // SK_TESTING_SCHEMASAMPLES_H
