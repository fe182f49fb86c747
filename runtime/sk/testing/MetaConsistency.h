//===--- MetaConsistency.h - Meta against CPU, from the schema --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Checks that an operator's Meta kernel agrees with its CPU kernel (or
/// another backend's): both run over argument lists generated from the
/// operator's schema, and every tensor the backend's kernel returns must
/// come back from the Meta kernel with the same sizes, strides and dtype.
/// PyTorch keeps this check by hand (OpInfo sample inputs); here the
/// schema gives the samples (SchemaSamples.h), and `skc --emit-meta-tests`
/// writes one GoogleTest per operator that calls checkMetaConsistency (Note
/// [Meta consistency samples]).
///
/// Library skc::runtime_testing; it uses only the dispatcher's boxed calls,
/// so it serves any kernel library.
///
//===----------------------------------------------------------------------===//

#ifndef SK_TESTING_METACONSISTENCY_H
#define SK_TESTING_METACONSISTENCY_H

#include "sk/core/Device.h"

#include <string>
#include <string_view>
#include <vector>

namespace sk {
namespace testing {

struct MetaConsistencyReport {
  /// Argument lists tried.
  unsigned Samples = 0;
  /// Lists both kernels accepted; their outputs were compared.
  unsigned Compared = 0;
  /// Lists the backend's kernel rejected. The Meta kernel may accept those whose
  /// fault lies in the values (an index out of range), which it cannot see.
  unsigned RejectedOnCPU = 0;
  /// Lists the Meta kernel refused while the backend's kernel ran them.
  unsigned RefusedOnMeta = 0;
  /// One line per disagreement, naming the sample and what differed.
  std::vector<std::string> Failures;
  /// The first message the Meta kernel refused a sample with.
  std::string FirstMetaRefusal;
};

/// Runs operator `Name.Overload` (`aten::add`, `Tensor`) on \p Backend (the
/// CPU, or a device such as `cuda:0`) and on Meta over samples generated
/// from its schema and compares the results. Samples are made on the CPU
/// and copied to \p Backend, strides included.
/// A sample the Meta kernel refuses but the CPU kernel runs is a failure,
/// unless \p ExpectMetaRefusal (operators whose output shape depends on
/// their input's values), in which case it is counted in RefusedOnMeta.
/// Throws sk::Error when the operator is unknown or its schema has a type
/// no sample can be made for.
MetaConsistencyReport checkMetaConsistency(std::string_view Name,
                                           std::string_view Overload,
                                           bool ExpectMetaRefusal = false,
                                           Device Backend = Device(kCPU));

/// Whether tensors can be made on a device of type \p T: its backend is
/// linked in and has a device (for CUDA, a GPU). Generated tests for a
/// backend skip without one.
bool isDeviceAvailable(DeviceType T);

} // namespace testing
} // namespace sk

#endif // SK_TESTING_METACONSISTENCY_H
