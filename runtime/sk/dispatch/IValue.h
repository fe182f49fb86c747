//===--- IValue.h - A boxed value on the dispatcher's stack -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `IValue` (c10::IValue) holds any argument or return of an operator, so
/// that boxed kernels (fallbacks, tracers) can handle every op with one
/// signature: `void(const OperatorHandle&, DispatchKeySet, Stack*)`.
///
/// Enumerations (ScalarType, MemoryFormat, Layout) travel as Int, as in
/// TorchScript; a Scalar travels as Int, Double or Bool; `str?`, `int[]?`
/// and the other optionals travel as None or the value. Lists own their
/// elements (IntList, DoubleList, BoolList, ScalarList, TensorList), so
/// that ArrayRef arguments unboxed from a stack view them.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_IVALUE_H
#define SK_DISPATCH_IVALUE_H

#include "sk/core/Tensor.h"

#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace sk {

class Generator;

class IValue {
public:
  enum class Tag : uint8_t {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    String,
    IntList,
    DoubleList,
    BoolList,
    ScalarList,
    TensorList,
    Device,
    Generator,
  };

  IValue() = default;
  IValue(std::nullopt_t) {}
  IValue(Tensor T) : V(std::move(T)) {}
  IValue(double D) : V(D) {}
  IValue(int64_t I) : V(I) {}
  IValue(int I) : V(static_cast<int64_t>(I)) {}
  IValue(bool B) : V(B) {}
  IValue(std::string S) : V(std::move(S)) {}
  IValue(const char *S) : V(std::string(S)) {}
  IValue(std::vector<int64_t> L) : V(std::move(L)) {}
  IValue(std::vector<double> L) : V(std::move(L)) {}
  IValue(std::vector<bool> L) : V(std::move(L)) {}
  /// `Scalar[]`: each element keeps its own kind (int, double, bool).
  IValue(std::vector<Scalar> L) : V(std::move(L)) {}
  IValue(std::vector<Tensor> L) : V(std::move(L)) {}
  IValue(Device D) : V(D) {}
  /// A random generator, not owned; null boxes as None.
  IValue(Generator *G) {
    if (G)
      V = G;
  }
  IValue(const Scalar &S) {
    if (S.isFloatingPoint())
      V = S.toDouble();
    else if (S.isBoolean())
      V = S.toBool();
    else
      V = S.toLong();
  }
  template <typename T> IValue(std::optional<T> O) {
    if (O)
      *this = IValue(std::move(*O));
  }

  Tag tag() const { return static_cast<Tag>(V.index()); }
  std::string_view tagName() const { return getTagName(tag()); }
  static std::string_view getTagName(Tag T);

  bool isNone() const { return tag() == Tag::None; }
  bool isTensor() const { return tag() == Tag::Tensor; }
  bool isDouble() const { return tag() == Tag::Double; }
  bool isInt() const { return tag() == Tag::Int; }
  bool isBool() const { return tag() == Tag::Bool; }
  bool isString() const { return tag() == Tag::String; }
  bool isIntList() const { return tag() == Tag::IntList; }
  bool isDoubleList() const { return tag() == Tag::DoubleList; }
  bool isBoolList() const { return tag() == Tag::BoolList; }
  bool isScalarList() const { return tag() == Tag::ScalarList; }
  bool isTensorList() const { return tag() == Tag::TensorList; }
  bool isGenerator() const { return tag() == Tag::Generator; }
  bool isDevice() const { return tag() == Tag::Device; }
  bool isScalar() const { return isDouble() || isInt() || isBool(); }

  // Accessors check the tag and throw an sk::Error naming both tags.
  const Tensor &toTensor() const { return get<Tensor>(Tag::Tensor); }
  Tensor &toTensor() { return get<Tensor>(Tag::Tensor); }
  double toDouble() const;
  int64_t toInt() const { return get<int64_t>(Tag::Int); }
  bool toBool() const { return get<bool>(Tag::Bool); }
  const std::string &toStringRef() const {
    return get<std::string>(Tag::String);
  }
  const std::vector<int64_t> &toIntList() const {
    return get<std::vector<int64_t>>(Tag::IntList);
  }
  const std::vector<double> &toDoubleList() const {
    return get<std::vector<double>>(Tag::DoubleList);
  }
  const std::vector<bool> &toBoolList() const {
    return get<std::vector<bool>>(Tag::BoolList);
  }
  const std::vector<Scalar> &toScalarList() const {
    return get<std::vector<Scalar>>(Tag::ScalarList);
  }
  const std::vector<Tensor> &toTensorList() const {
    return get<std::vector<Tensor>>(Tag::TensorList);
  }
  Device toDevice() const { return get<Device>(Tag::Device); }
  Generator *toGenerator() const { return get<Generator *>(Tag::Generator); }
  Scalar toScalar() const;

  /// TorchScript-like text, for traces: `tensor(float32[2, 3], cpu)`, `1`,
  /// `[1, 2]`, `None`.
  void print(std::ostream &OS) const;

private:
  template <typename T> const T &get(Tag Expected) const {
    if (SK_UNLIKELY(tag() != Expected))
      tagMismatch(Expected);
    return std::get<T>(V);
  }
  template <typename T> T &get(Tag Expected) {
    if (SK_UNLIKELY(tag() != Expected))
      tagMismatch(Expected);
    return std::get<T>(V);
  }
  [[noreturn]] void tagMismatch(Tag Expected) const;

  std::variant<std::monostate, Tensor, double, int64_t, bool, std::string,
               std::vector<int64_t>, std::vector<double>, std::vector<bool>,
               std::vector<Scalar>, std::vector<Tensor>, Device, Generator *>
      V;
};

std::ostream &operator<<(std::ostream &OS, const IValue &V);

using Stack = std::vector<IValue>;

} // namespace sk

#endif // SK_DISPATCH_IVALUE_H
