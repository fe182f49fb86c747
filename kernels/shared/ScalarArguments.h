//===--- ScalarArguments.h - Scalar arguments of pointwise ops --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How the CPU and CUDA pointwise kernels treat a Scalar argument: the
/// dtype an op with one computes in, and the value it takes in that dtype
/// (Note [Scalar operands kept out of the iterator] in cpu/BinaryOps.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_SCALARARGUMENTS_H
#define SKC_KERNELS_SHARED_SCALARARGUMENTS_H

#include "sk/core/OptionalRef.h"
#include "sk/core/Scalar.h"
#include "sk/core/Tensor.h"
#include "sk/iter/TensorIterator.h"
#include "sk/iter/TypePromotion.h"

#include <cstdint>

namespace sk {
namespace kernels {

/// \p S as the compute type \p M of an op, the way PyTorch casts a wrapped
/// number to the common dtype (integers wrap, bool is 0 or 1).
template <typename M> M scalarAs(const Scalar &S) {
  if (S.isFloatingPoint())
    return static_cast<M>(S.toDouble());
  if (S.isBoolean())
    return static_cast<M>(S.toUnchecked<int64_t>() != 0);
  return static_cast<M>(S.toUnchecked<int64_t>());
}

/// The dtype `Self op Other` computes in: result_type, then float32 for
/// integral results of true divisions (\p IntegerToFloat).
inline ScalarType scalarOpDtype(const Tensor &Self, const Scalar &Other,
                                bool IntegerToFloat) {
  ScalarType Dtype = result_type(Self, Other);
  if (IntegerToFloat && isIntegralType(Dtype, /*IncludeBool=*/true))
    Dtype = get_default_dtype();
  return Dtype;
}

/// Configures \p Config for `Out = Self op <Scalar>` computed in \p Dtype;
/// see Note [Scalar operands kept out of the iterator] in
/// cpu/BinaryOps.cpp. A given output
/// must be castable from \p Dtype.
inline TensorIteratorConfig &scalarOpConfig(TensorIteratorConfig &Config,
                                            const Tensor &Out,
                                            const Tensor &Self,
                                            ScalarType Dtype) {
  if (Out.defined() && Out.dtype() != Dtype) {
    SK_CHECK(canCast(Dtype, Out.dtype()), "result type ",
             detail::typeName(Dtype),
             " can't be cast to the desired output "
             "type ",
             detail::typeName(Out.dtype()));
  }
  return Config.set_check_mem_overlap(true)
      .cast_common_dtype_to_outputs(true)
      .declare_static_dtype(Dtype)
      .add_output(Out)
      .add_input(Self);
}

/// The dtype of clamp(self, min, max) with Scalar bounds: self's when it
/// is floating, else the result type of self and the bounds.
inline ScalarType clampResultType(const Tensor &Self, OptionalScalarRef Min,
                                  OptionalScalarRef Max) {
  if (isFloatingType(Self.dtype()))
    return Self.dtype();
  ResultTypeState State;
  State = update_result_type_state(Self, State);
  if (Min)
    State = update_result_type_state(*Min, State);
  if (Max)
    State = update_result_type_state(*Max, State);
  return result_type(State);
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_SCALARARGUMENTS_H
