//===--- Device.cpp - Where a tensor lives --------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Device.h"
#include "sk/util/Exception.h"

#include <charconv>

namespace sk {

std::string_view toString(DeviceType T) {
  switch (T) {
  case DeviceType::CPU:
    return "cpu";
  case DeviceType::CUDA:
    return "cuda";
  case DeviceType::Meta:
    return "meta";
  case DeviceType::PrivateUse1:
    return "privateuseone";
  }
  return "unknown";
}

/// The device type named \p Name; an error quoting \p Spec otherwise.
static DeviceType parseDeviceType(std::string_view Name,
                                  std::string_view Spec) {
  if (Name == "cpu")
    return DeviceType::CPU;
  if (Name == "cuda")
    return DeviceType::CUDA;
  if (Name == "meta")
    return DeviceType::Meta;
  if (Name == "privateuseone")
    return DeviceType::PrivateUse1;
  SK_CHECK(false,
           "Device: expected one of cpu, cuda, meta, privateuseone "
           "device type at start of device string: ",
           Spec);
  return DeviceType::CPU;
}

Device::Device(std::string_view Spec) : Bits(encode(DeviceType::CPU, -1)) {
  std::string_view Name = Spec.substr(0, Spec.find(':'));
  DeviceType Type = parseDeviceType(Name, Spec);
  Bits = encode(Type, -1);
  if (Name.size() == Spec.size())
    return;
  std::string_view IndexText = Spec.substr(Name.size() + 1);
  int Value = -1;
  auto [End, Ec] = std::from_chars(IndexText.data(),
                                   IndexText.data() + IndexText.size(), Value);
  SK_CHECK(Ec == std::errc() && End == IndexText.data() + IndexText.size() &&
               Value >= 0 && Value < 128,
           "Device: invalid device index in '", Spec, "'");
  Bits = encode(Type, static_cast<int8_t>(Value));
}

std::string Device::str() const {
  std::string S(toString(type()));
  if (has_index())
    S += ":" + std::to_string(index());
  return S;
}

std::ostream &operator<<(std::ostream &OS, const Device &D) {
  return OS << D.str();
}

} // namespace sk
