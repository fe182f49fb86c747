//===--- Device.h - Where a tensor lives ------------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_DEVICE_H
#define SK_CORE_DEVICE_H

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace sk {

/// CPU and CUDA hold data; Meta tensors have shape, dtype and strides but
/// no storage (seed 004): they are for shape inference.
enum class DeviceType : int8_t { CPU, CUDA, Meta, PrivateUse1 };

constexpr int NumDeviceTypes = 4;

std::string_view toString(DeviceType T);

/// A device type and an index (-1: the current device of that type).
///
/// Note [Device in one integer]: both bytes live in one uint16_t, so that
/// GCC keeps a Device (and a std::optional<Device>, which the dispatcher
/// passes by value) in a register. As a struct of two int8_t it was built
/// byte by byte on the stack and then loaded as a word, a store-forwarding
/// stall on every factory call.
class Device {
public:
  constexpr Device(DeviceType Type, int8_t Index = -1)
      : Bits(encode(Type, Index)) {}
  /// Parses "cpu", "cuda", "cuda:1", "meta"; throws sk::Error otherwise.
  explicit Device(std::string_view Spec);

  constexpr DeviceType type() const {
    return static_cast<DeviceType>(static_cast<int8_t>(Bits & 0xff));
  }
  constexpr int8_t index() const { return static_cast<int8_t>(Bits >> 8); }
  constexpr bool has_index() const { return index() >= 0; }
  constexpr bool is_cpu() const { return type() == DeviceType::CPU; }
  constexpr bool is_cuda() const { return type() == DeviceType::CUDA; }
  constexpr bool is_meta() const { return type() == DeviceType::Meta; }

  constexpr bool operator==(const Device &O) const { return Bits == O.Bits; }
  constexpr bool operator!=(const Device &O) const { return !(*this == O); }

  /// "cpu", "cuda:0", "meta".
  std::string str() const;

private:
  static constexpr uint16_t encode(DeviceType Type, int8_t Index) {
    return static_cast<uint16_t>(
        static_cast<uint8_t>(static_cast<int8_t>(Type)) |
        (static_cast<uint16_t>(static_cast<uint8_t>(Index)) << 8));
  }

  /// The type in the low byte, the index in the high one.
  uint16_t Bits;
};

constexpr Device kCPU{DeviceType::CPU};
constexpr Device kMeta{DeviceType::Meta};

std::ostream &operator<<(std::ostream &OS, const Device &D);

} // namespace sk

#endif // SK_CORE_DEVICE_H
