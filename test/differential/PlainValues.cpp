//===--- PlainValues.cpp - Runtime values as the bridge's plain ones ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "PlainValues.h"

#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include <cstring>

using namespace sk;

namespace skdiff {

PlainTensor toPlain(const Tensor &T) {
  PlainTensor P;
  if (!T.defined())
    return P;
  P.Dtype = std::string(toString(T.dtype()));
  P.Sizes.assign(T.sizes().begin(), T.sizes().end());
  P.Strides.assign(T.strides().begin(), T.strides().end());
  P.StorageOffset = T.storage_offset();
  const Storage &S = T.unsafeGetTensorImpl()->storage();
  const auto *Bytes = static_cast<const unsigned char *>(S->data());
  P.Storage.assign(Bytes, Bytes + S->nbytes());
  return P;
}

static ScalarType getScalarType(const std::string &Name) {
  for (int I = 0; I != static_cast<int>(ScalarType::NumOptions); ++I)
    if (toString(static_cast<ScalarType>(I)) == Name)
      return static_cast<ScalarType>(I);
  SK_CHECK(false, "libtorch returned a tensor of dtype ", Name,
           ", which the runtime lacks");
  return kFloat;
}

Tensor fromPlain(const PlainTensor &P, Device Device) {
  if (P.Dtype.empty())
    return Tensor();
  ScalarType T = getScalarType(P.Dtype);
  int64_t Elements = static_cast<int64_t>(P.Storage.size() / elementSize(T));
  Tensor Base = empty({Elements}, TensorOptions().dtype(T));
  if (!P.Storage.empty())
    std::memcpy(Base.data_ptr(), P.Storage.data(), P.Storage.size());
  // The whole storage moves, so that the layout survives.
  if (Device != Base.device())
    Base = Base.to(Device);
  return Base.as_strided(P.Sizes, P.Strides, P.StorageOffset);
}

PlainValue toPlain(const IValue &V, const SchemaType &T) {
  using Kind = PlainValue::Kind;
  PlainValue P;
  if (T.Base == ValueKind::ScalarType && V.isInt()) {
    P.K = Kind::ScalarType;
    P.String = std::string(toString(static_cast<ScalarType>(V.toInt())));
  } else if (V.isTensor()) {
    P.K = Kind::Tensor;
    P.Tensors.push_back(toPlain(V.toTensor()));
  } else if (V.isTensorList()) {
    P.K = Kind::TensorList;
    for (const Tensor &T : V.toTensorList())
      P.Tensors.push_back(toPlain(T));
  } else if (V.isInt()) {
    P.K = Kind::Int;
    P.Int = V.toInt();
  } else if (V.isDouble()) {
    P.K = Kind::Double;
    P.Double = V.toDouble();
  } else if (V.isBool()) {
    P.K = Kind::Bool;
    P.Bool = V.toBool();
  } else if (V.isString()) {
    P.K = Kind::String;
    P.String = V.toStringRef();
  } else if (V.isIntList()) {
    P.K = Kind::IntList;
    P.Ints = V.toIntList();
  } else if (V.isDoubleList()) {
    P.K = Kind::DoubleList;
    P.Doubles = V.toDoubleList();
  } else if (V.isBoolList()) {
    P.K = Kind::BoolList;
    P.Bools = V.toBoolList();
  } else {
    SK_CHECK(V.isNone(), "no PlainValue for the argument ", V);
  }
  return P;
}

} // namespace skdiff
