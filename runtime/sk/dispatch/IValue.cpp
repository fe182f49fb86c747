//===--- IValue.cpp - A boxed value on the dispatcher's stack -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/IValue.h"

namespace sk {

std::string_view IValue::getTagName(Tag T) {
  switch (T) {
  case Tag::None:
    return "None";
  case Tag::Tensor:
    return "Tensor";
  case Tag::Double:
    return "Double";
  case Tag::Int:
    return "Int";
  case Tag::Bool:
    return "Bool";
  case Tag::String:
    return "String";
  case Tag::IntList:
    return "IntList";
  case Tag::DoubleList:
    return "DoubleList";
  case Tag::BoolList:
    return "BoolList";
  case Tag::ScalarList:
    return "ScalarList";
  case Tag::TensorList:
    return "TensorList";
  case Tag::Device:
    return "Device";
  case Tag::Generator:
    return "Generator";
  }
  return "Unknown";
}

void IValue::tagMismatch(Tag Expected) const {
  throw TypeError(detail::str("IValue: expected ", getTagName(Expected),
                              " but got ", tagName()));
}

double IValue::toDouble() const {
  if (isInt())
    return static_cast<double>(toInt());
  return get<double>(Tag::Double);
}

Scalar IValue::toScalar() const {
  if (isDouble())
    return Scalar(std::get<double>(V));
  if (isBool())
    return Scalar(std::get<bool>(V));
  return Scalar(toInt());
}

template <typename T>
static void printList(std::ostream &OS, const std::vector<T> &L) {
  OS << '[';
  for (size_t I = 0; I != L.size(); ++I)
    OS << (I ? ", " : "") << L[I];
  OS << ']';
}

static void printTensorSummary(std::ostream &OS, const Tensor &T) {
  if (!T.defined()) {
    OS << "None";
    return;
  }
  OS << "tensor(" << T.dtype() << T.sizes() << ", " << T.device() << ')';
}

void IValue::print(std::ostream &OS) const {
  switch (tag()) {
  case Tag::None:
    OS << "None";
    return;
  case Tag::Tensor:
    printTensorSummary(OS, std::get<Tensor>(V));
    return;
  case Tag::Double:
    OS << std::get<double>(V);
    return;
  case Tag::Int:
    OS << std::get<int64_t>(V);
    return;
  case Tag::Bool:
    OS << (std::get<bool>(V) ? "True" : "False");
    return;
  case Tag::String:
    OS << '\'' << std::get<std::string>(V) << '\'';
    return;
  case Tag::IntList:
    printList(OS, std::get<std::vector<int64_t>>(V));
    return;
  case Tag::DoubleList:
    printList(OS, std::get<std::vector<double>>(V));
    return;
  case Tag::BoolList:
    printList(OS, std::get<std::vector<bool>>(V));
    return;
  case Tag::ScalarList:
    printList(OS, std::get<std::vector<Scalar>>(V));
    return;
  case Tag::TensorList: {
    const auto &L = std::get<std::vector<Tensor>>(V);
    OS << '[';
    for (size_t I = 0; I != L.size(); ++I) {
      OS << (I ? ", " : "");
      printTensorSummary(OS, L[I]);
    }
    OS << ']';
    return;
  }
  case Tag::Device:
    OS << std::get<Device>(V);
    return;
  case Tag::Generator:
    OS << "Generator";
    return;
  }
}

std::ostream &operator<<(std::ostream &OS, const IValue &V) {
  V.print(OS);
  return OS;
}

} // namespace sk
