//===--- TypeShape.cpp - Which schema types have runtime C++ types --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/schema/TypeShape.h"

namespace sk::schema {

std::optional<TypeShape> TypeShape::get(ValueKind Base,
                                        const TypeSuffix *Suffixes, size_t N) {
  TypeShape S;
  S.Base = Base;
  for (size_t I = 0; I != N; ++I) {
    if (!Suffixes[I].IsList) {
      if (S.IsOptional)
        return std::nullopt;
      S.IsOptional = true;
      continue;
    }
    if (S.IsList)
      return std::nullopt;
    // `T?[]`: the `?` seen so far belongs to the elements.
    S.IsElementOptional = S.IsOptional;
    S.IsOptional = false;
    S.IsList = true;
    S.ListSize = Suffixes[I].ListSize;
  }
  return S;
}

// Note [Runtime types of schema types]
// An operator has a typed C++ API and unboxed kernels only when every one of
// its types maps to a runtime C++ type. skc's KernelSignature.cpp prints
// those types; this is the one statement of which exist:
//
//   Tensor int SymInt float bool SymBool str Scalar ScalarType Device
//   MemoryFormat, any of those with '?', and Generator? (as Generator *)
//   int[] SymInt[] float[] Scalar[] Tensor[] bool[N]   (N fixed)
//   int[]? SymInt[]? float[]?
//   returns: Tensor, Tensor[], Tensor?, and the plain value types above
//
// Everything else (Dimname, Layout, Tensor?[], bool[], int[] returns, ...)
// parses, and can have boxed kernels only.

/// Whether a value of kind \p K has a runtime C++ type.
static bool hasValueType(ValueKind K) {
  switch (K) {
  case ValueKind::Tensor:
  case ValueKind::Int:
  case ValueKind::Float:
  case ValueKind::Bool:
  case ValueKind::Str:
  case ValueKind::Scalar:
  case ValueKind::ScalarType:
  case ValueKind::Device:
  case ValueKind::MemoryFormat:
    return true;
  case ValueKind::Layout:
  case ValueKind::Generator:
  case ValueKind::Dimname:
  case ValueKind::Other:
    return false;
  }
  return false;
}

bool TypeShape::hasArgumentCppType() const {
  if (IsList) {
    if (IsElementOptional)
      return false;
    if (IsOptional)
      return Base == ValueKind::Int || Base == ValueKind::Float;
    return Base == ValueKind::Int || Base == ValueKind::Float || Base == ValueKind::Tensor || Base == ValueKind::Scalar ||
           (Base == ValueKind::Bool && ListSize != 0);
  }
  if (IsOptional && Base == ValueKind::Generator)
    return true;
  return hasValueType(Base);
}

bool TypeShape::hasReturnCppType() const {
  if (IsList)
    return Base == ValueKind::Tensor && !IsOptional && !IsElementOptional;
  if (IsOptional)
    return Base == ValueKind::Tensor;
  return hasValueType(Base);
}

} // namespace sk::schema
