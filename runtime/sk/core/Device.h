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
class Device {
public:
  constexpr Device(DeviceType Type, int8_t Index = -1)
      : Type(Type), Index(Index) {}
  /// Parses "cpu", "cuda", "cuda:1", "meta"; throws sk::Error otherwise.
  explicit Device(std::string_view Spec);

  constexpr DeviceType type() const { return Type; }
  constexpr int8_t index() const { return Index; }
  constexpr bool has_index() const { return Index >= 0; }
  constexpr bool is_cpu() const { return Type == DeviceType::CPU; }
  constexpr bool is_cuda() const { return Type == DeviceType::CUDA; }
  constexpr bool is_meta() const { return Type == DeviceType::Meta; }

  constexpr bool operator==(const Device &O) const {
    return Type == O.Type && Index == O.Index;
  }
  constexpr bool operator!=(const Device &O) const { return !(*this == O); }

  /// "cpu", "cuda:0", "meta".
  std::string str() const;

private:
  DeviceType Type;
  int8_t Index;
};

constexpr Device kCPU{DeviceType::CPU};
constexpr Device kMeta{DeviceType::Meta};

std::ostream &operator<<(std::ostream &OS, const Device &D);

} // namespace sk

#endif // SK_CORE_DEVICE_H
