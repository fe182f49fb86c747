//===--- TypePromotion.h - result_type and wrapped numbers ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PyTorch's result_type (aten/src/ATen/native/TypeProperties.cpp): the
/// dtype an elementwise op computes in when its operands differ.
///
/// Note [Result type computation]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// Operands fall into three priority classes:
///
///   1. tensors with one or more dimensions,
///   2. 0-dim tensors that are not wrapped numbers (`tensor(5)`),
///   3. wrapped numbers: Scalars turned into 0-dim tensors (`5`, `2.5`).
///
/// Within a class dtypes promote with promoteTypes. A lower class changes
/// the result only when it is of a higher *category* (bool < integral <
/// floating) than the classes above it; it then contributes its own dtype,
/// except a wrapped floating-point number, which counts as the default
/// dtype (float32). So `int8 tensor + 1000` is int8, `int32 tensor + 2.5`
/// is float32, `float16 tensor * 2.5` is float16, and `int32 tensor +
/// tensor(2.5, dtype=float64)` is float64.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_TYPEPROMOTION_H
#define SK_ITER_TYPEPROMOTION_H

#include "sk/core/Tensor.h"

namespace sk {

/// The dtype that wrapped floating-point numbers count as, and that
/// integer inputs become in ops that promote them to float.
constexpr ScalarType get_default_dtype() { return kFloat; }

/// The dtype each priority class has promoted to so far; Undefined while
/// a class has seen no operand.
struct ResultTypeState {
  ScalarType dimResult = ScalarType::Undefined;
  ScalarType zeroResult = ScalarType::Undefined;
  ScalarType wrappedResult = ScalarType::Undefined;
};

/// \p State with \p T added in its class; an undefined \p T changes nothing.
ResultTypeState update_result_type_state(const Tensor &T,
                                         const ResultTypeState &State);
/// \p State with \p S added as a wrapped number.
ResultTypeState update_result_type_state(const Scalar &S,
                                         const ResultTypeState &State);
/// The result dtype of the operands added to \p State.
ScalarType result_type(const ResultTypeState &State);

ScalarType result_type(ArrayRef<Tensor> Tensors);
ScalarType result_type(const Tensor &A, const Tensor &B);
ScalarType result_type(const Tensor &A, const Scalar &B);
ScalarType result_type(const Scalar &A, const Tensor &B);
ScalarType result_type(const Scalar &A, const Scalar &B);

/// A 0-dim tensor holding \p S, in the dtype \p S was given in (bool,
/// int64 or float64), on the CPU or the meta device (which holds no
/// value).
Tensor scalar_to_tensor(const Scalar &S, Device Dev = kCPU);
/// scalar_to_tensor marked as a wrapped number: how a Scalar operand takes
/// part in a TensorIterator and in type promotion.
Tensor wrapped_scalar_tensor(const Scalar &S, Device Dev = kCPU);

namespace detail {
/// The dtype as PyTorch's C++ messages print it ("Float", "Long",
/// "BFloat16"): the iterator's errors quote these names.
const char *typeName(ScalarType T);
} // namespace detail

} // namespace sk

#endif // SK_ITER_TYPEPROMOTION_H
