//===--- TypePromotion.cpp - result_type and wrapped numbers --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/TypePromotion.h"

#include "sk/core/EmptyTensor.h"

namespace sk {

/// promoteTypes, where Undefined is the identity.
static ScalarType promoteSkipUndefined(ScalarType A, ScalarType B) {
  if (A == ScalarType::Undefined)
    return B;
  if (B == ScalarType::Undefined)
    return A;
  return promoteTypes(A, B);
}

/// Combines the result of a higher-priority class with that of a lower one
/// (Note [Result type computation]).
static ScalarType combineCategories(ScalarType Higher, ScalarType Lower) {
  if (isFloatingType(Higher))
    return Higher;
  if (Higher == kBool || isFloatingType(Lower))
    return promoteSkipUndefined(Higher, Lower);
  if (Higher != ScalarType::Undefined)
    return Higher;
  return Lower;
}

ResultTypeState update_result_type_state(const Tensor &T,
                                         const ResultTypeState &State) {
  if (!T.defined())
    return State;
  ResultTypeState New = State;
  ScalarType Current = T.scalar_type();
  bool Wrapped = T.unsafeGetTensorImpl()->is_wrapped_number();
  if (Wrapped && isFloatingType(Current))
    Current = get_default_dtype();
  if (T.dim() > 0)
    New.dimResult = promoteSkipUndefined(State.dimResult, Current);
  else if (Wrapped)
    New.wrappedResult = promoteSkipUndefined(State.wrappedResult, Current);
  else
    New.zeroResult = promoteSkipUndefined(State.zeroResult, Current);
  return New;
}

ResultTypeState update_result_type_state(const Scalar &S,
                                         const ResultTypeState &State) {
  ResultTypeState New = State;
  ScalarType Current = S.type();
  if (isFloatingType(Current))
    Current = get_default_dtype();
  New.wrappedResult = promoteSkipUndefined(State.wrappedResult, Current);
  return New;
}

ScalarType result_type(const ResultTypeState &State) {
  return combineCategories(
      State.dimResult,
      combineCategories(State.zeroResult, State.wrappedResult));
}

ScalarType result_type(ArrayRef<Tensor> Tensors) {
  ResultTypeState State;
  for (const Tensor &T : Tensors)
    State = update_result_type_state(T, State);
  return result_type(State);
}

ScalarType result_type(const Tensor &A, const Tensor &B) {
  return result_type(
      update_result_type_state(B, update_result_type_state(A, {})));
}

ScalarType result_type(const Tensor &A, const Scalar &B) {
  return result_type(
      update_result_type_state(B, update_result_type_state(A, {})));
}

ScalarType result_type(const Scalar &A, const Tensor &B) {
  return result_type(B, A);
}

ScalarType result_type(const Scalar &A, const Scalar &B) {
  return result_type(
      update_result_type_state(B, update_result_type_state(A, {})));
}

Tensor scalar_to_tensor(const Scalar &S, Device Dev) {
  SK_CHECK_NOT_IMPLEMENTED(Dev.is_cpu() || Dev.is_meta(),
                           "scalar_to_tensor: device ", Dev,
                           " is not supported; use cpu or meta");
  Tensor T = detail::empty_generic({}, S.type(), Dev);
  if (Dev.is_meta())
    return T;
  visitScalarType(S.type(), [&](auto Tag) {
    using T_ = decltype(Tag);
    *static_cast<T_ *>(T.data_ptr()) = S.toUnchecked<T_>();
  });
  return T;
}

Tensor wrapped_scalar_tensor(const Scalar &S, Device Dev) {
  Tensor T = scalar_to_tensor(S, Dev);
  T.unsafeGetTensorImpl()->set_wrapped_number(true);
  return T;
}

const char *detail::typeName(ScalarType T) {
  switch (T) {
#define SK_TYPE_NAME_CASE(CppType, Name, PyName)                               \
  case ScalarType::Name:                                                       \
    return #Name;
    SK_FORALL_SCALAR_TYPES(SK_TYPE_NAME_CASE)
#undef SK_TYPE_NAME_CASE
  case ScalarType::Undefined:
    break;
  }
  return "Undefined";
}

} // namespace sk
