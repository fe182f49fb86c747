//===--- PlainValues.h - Runtime values as the bridge's ones ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime's side of TorchBridge.h: its tensors and IValues as the
/// bridge's plain values and back, for the differential test and the
/// benchmarks against libtorch. C++17, with the runtime's headers.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_DIFFERENTIAL_PLAINVALUES_H
#define SKC_TEST_DIFFERENTIAL_PLAINVALUES_H

#include "TorchBridge.h"

#include "sk/core/Tensor.h"
#include "sk/dispatch/IValue.h"
#include "sk/dispatch/OperatorSchema.h"

namespace skdiff {

/// \p T's whole storage, sizes, strides and offset; empty when undefined.
PlainTensor toPlain(const sk::Tensor &T);
/// A tensor of its own storage on \p Device, laid out as \p P says.
sk::Tensor fromPlain(const PlainTensor &P,
                     sk::Device Device = sk::Device(sk::DeviceType::CPU));
/// \p V, an argument of type \p T (a ScalarType travels by name).
PlainValue toPlain(const sk::IValue &V, const sk::SchemaType &T);

} // namespace skdiff

#endif // SKC_TEST_DIFFERENTIAL_PLAINVALUES_H
