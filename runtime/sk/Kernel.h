//===--- Kernel.h - Everything a kernel author includes ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime side of the authoring model (DESIGN.md). skc's generated
/// NativeFunctions.h includes this header, so a kernel source needs only:
///
///   #include "NativeFunctions.h"          // generated from ops.yaml
///
///   SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
///                             const Scalar &alpha) {
///     build_borrowing_binary_op(maybe_get_output(), self, other);
///   }
///   SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
///                         const Scalar &alpha, const Tensor &out) { ... }
///   Tensor SK_NATIVE_FUNC(relu_cpu)(const Tensor &self) { ... }
///
/// SK_META_FUNC defines the meta() of the generated struct
/// `sk::meta::structured_<op>[_<overload>]`, SK_IMPL_FUNC the impl() of
/// `sk::native::structured_<kernel>`, SK_NATIVE_FUNC a non-structured or
/// composite kernel `sk::native::<kernel>`. skc reads these definitions with
/// Clang and checks each against its schema.
///
/// This is the authoring surface only: tensors, the structured-kernel bases
/// (MetaBase, TensorIterator), the helpers meta functions use, dtype
/// dispatch, factories and views. Kernel sources include the loops they
/// run: sk/iter/Loops.h (CPU elementwise, with Highway), sk/iter/Reduce.h
/// (CPU reductions); sk/core/OpMathType.h for opmath_type.
///
//===----------------------------------------------------------------------===//

#ifndef SK_KERNEL_H
#define SK_KERNEL_H

#include "sk/core/EmptyTensor.h"
#include "sk/core/OptionalRef.h"
#include "sk/core/Tensor.h"
#include "sk/iter/DataDependentShape.h"
#include "sk/iter/DtypeDispatch.h"
#include "sk/iter/MetaBase.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/iter/StructuredHelpers.h"
#include "sk/iter/TensorIterator.h"
#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"
#include "sk/util/Analysis.h"

#include <array>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

/// A non-structured (or composite) kernel `sk::native::Name`, named in a
/// schema's `dispatch:`. The parentheses keep `Tensor ::sk::...` from
/// parsing as one nested name.
#define SK_NATIVE_FUNC(Name)                                                   \
  (::sk::native::Name SK_KERNEL_DEFINITION("native"))

#endif // SK_KERNEL_H
