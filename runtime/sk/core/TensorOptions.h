//===--- TensorOptions.h - dtype, device and memory format ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `TensorOptions` (c10::TensorOptions): the dtype, device and memory
/// format a factory is asked for, each of which may be unset.
///
/// Note [TensorOptions in one word]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// As three std::optionals, TensorOptions would be seven bytes that GCC
/// writes one byte at a time and then reads back as one word; every such
/// read waits for the byte stores before it (a store-forwarding stall, ~12
/// cycles), several times per factory call. So it is one 64-bit word, a
/// byte per field plus a byte of "is set" flags, built with shifts in a
/// register and passed in one. An unset field holds its default (float32,
/// the CPU, contiguous), so dtype() and device() are a byte extraction
/// without a branch; the `*_opt()` accessors look at the flags.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_TENSOROPTIONS_H
#define SK_CORE_TENSOROPTIONS_H

#include "sk/core/Device.h"
#include "sk/core/MemoryFormat.h"
#include "sk/core/ScalarType.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

namespace sk {

namespace detail {
// The encoding of Note [TensorOptions in one word]: a byte per field.
constexpr unsigned kOptionsDtypeShift = 0;
constexpr unsigned kOptionsDeviceShift = 8; // type, then index at 16
constexpr unsigned kOptionsFormatShift = 24;
constexpr uint64_t optionsByte(int8_t V) {
  return static_cast<uint64_t>(static_cast<uint8_t>(V));
}
constexpr uint64_t encodeOptionsDtype(ScalarType D) {
  return optionsByte(static_cast<int8_t>(D)) << kOptionsDtypeShift;
}
constexpr uint64_t encodeOptionsDevice(Device D) {
  return (optionsByte(static_cast<int8_t>(D.type())) << kOptionsDeviceShift) |
         (optionsByte(D.index()) << (kOptionsDeviceShift + 8));
}
constexpr uint64_t encodeOptionsFormat(MemoryFormat F) {
  return optionsByte(static_cast<int8_t>(F)) << kOptionsFormatShift;
}
/// Every field unset, holding its default.
constexpr uint64_t kDefaultOptionBits =
    encodeOptionsDtype(ScalarType::Float) | encodeOptionsDevice(kCPU) |
    encodeOptionsFormat(MemoryFormat::Contiguous);
/// Every std::optional<Device>: std::nullopt, then Device(T, I) at
/// 1 + 256 * T + uint8_t(I) (Note [Optional devices from a table]).
template <size_t... Is>
constexpr std::array<std::optional<Device>, 1 + sizeof...(Is)>
makeDeviceOpts(std::index_sequence<Is...>) {
  return {{std::nullopt,
           Device(static_cast<DeviceType>(Is / 256),
                  static_cast<int8_t>(static_cast<uint8_t>(Is % 256)))...}};
}
inline constexpr auto kDeviceOpts =
    makeDeviceOpts(std::make_index_sequence<256 * NumDeviceTypes>());
} // namespace detail

/// What a factory makes: `TensorOptions().dtype(kHalf).device(kMeta)`.
/// Unset fields take the defaults: float32 on the CPU, contiguous. Trivially
/// copyable and one word wide (Note [TensorOptions in one word]): pass it
/// by value.
class TensorOptions {
public:
  constexpr TensorOptions() = default;
  constexpr TensorOptions(ScalarType D)
      : TensorOptions(withDtype(kDefaults, D)) {}
  constexpr TensorOptions(Device D) : TensorOptions(withDevice(kDefaults, D)) {}
  constexpr TensorOptions(DeviceType T)
      : TensorOptions(withDevice(kDefaults, Device(T))) {}

  constexpr TensorOptions dtype(std::optional<ScalarType> D) const {
    return D ? withDtype(Bits, *D) : clear(Bits, DtypeShift, HasDtype);
  }
  constexpr TensorOptions device(std::optional<Device> D) const {
    return D ? withDevice(Bits, *D) : clear(Bits, DeviceShift, HasDevice);
  }
  constexpr TensorOptions memory_format(std::optional<MemoryFormat> F) const {
    return F ? withFormat(Bits, *F) : clear(Bits, FormatShift, HasFormat);
  }

  constexpr ScalarType dtype() const {
    return static_cast<ScalarType>(field(DtypeShift));
  }
  constexpr Device device() const {
    return Device(static_cast<DeviceType>(field(DeviceShift)),
                  static_cast<int8_t>(field(IndexShift)));
  }
  constexpr bool has_dtype() const { return Bits & HasDtype; }
  constexpr bool has_device() const { return Bits & HasDevice; }
  constexpr bool has_memory_format() const { return Bits & HasFormat; }
  constexpr std::optional<ScalarType> dtype_opt() const {
    return has_dtype() ? std::optional<ScalarType>(dtype()) : std::nullopt;
  }
  /// Note [Optional devices from a table]: GCC builds a std::optional<
  /// Device> (four bytes, one of them padding) on the stack one field at a
  /// time and then loads it whole to pass it, which stalls as in Note
  /// [TensorOptions in one word]; merging two ways of making one, it splits
  /// them into fields too. Copied from a constant table of all 1025 values,
  /// it is one load, always.
  constexpr std::optional<Device> device_opt() const {
    size_t Index = 0;
    if (has_device())
      Index =
          1 + 256 * static_cast<size_t>(field(DeviceShift)) + field(IndexShift);
    return detail::kDeviceOpts[Index];
  }
  constexpr std::optional<MemoryFormat> memory_format_opt() const {
    return has_memory_format()
               ? std::optional<MemoryFormat>(
                     static_cast<MemoryFormat>(field(FormatShift)))
               : std::nullopt;
  }

  /// Fields set in \p O override ours.
  constexpr TensorOptions merged_with(TensorOptions O) const {
    // Each field's byte, with its flag, comes from O where O sets it.
    uint64_t FromO = 0;
    if (O.Bits & HasDtype)
      FromO |= (uint64_t(0xff) << DtypeShift) | HasDtype;
    if (O.Bits & HasDevice)
      FromO |= (uint64_t(0xffff) << DeviceShift) | HasDevice;
    if (O.Bits & HasFormat)
      FromO |= (uint64_t(0xff) << FormatShift) | HasFormat;
    return fromBits((Bits & ~FromO) | (O.Bits & FromO));
  }

  constexpr bool operator==(TensorOptions O) const { return Bits == O.Bits; }
  constexpr bool operator!=(TensorOptions O) const { return Bits != O.Bits; }

private:
  static constexpr unsigned DtypeShift = detail::kOptionsDtypeShift;
  static constexpr unsigned DeviceShift = detail::kOptionsDeviceShift;
  static constexpr unsigned IndexShift = detail::kOptionsDeviceShift + 8;
  static constexpr unsigned FormatShift = detail::kOptionsFormatShift;
  static constexpr uint64_t HasDtype = uint64_t(1) << 32;
  static constexpr uint64_t HasDevice = uint64_t(1) << 33;
  static constexpr uint64_t HasFormat = uint64_t(1) << 34;

  static constexpr uint64_t kDefaults = detail::kDefaultOptionBits;

  static constexpr TensorOptions fromBits(uint64_t B) {
    TensorOptions O;
    O.Bits = B;
    return O;
  }
  static constexpr TensorOptions withDtype(uint64_t B, ScalarType D) {
    return fromBits((B & ~(uint64_t(0xff) << DtypeShift)) |
                    detail::encodeOptionsDtype(D) | HasDtype);
  }
  static constexpr TensorOptions withDevice(uint64_t B, Device D) {
    return fromBits((B & ~(uint64_t(0xffff) << DeviceShift)) |
                    detail::encodeOptionsDevice(D) | HasDevice);
  }
  static constexpr TensorOptions withFormat(uint64_t B, MemoryFormat F) {
    return fromBits((B & ~(uint64_t(0xff) << FormatShift)) |
                    detail::encodeOptionsFormat(F) | HasFormat);
  }
  /// \p B with the field at \p Shift back to its default and \p Flag unset.
  static constexpr TensorOptions clear(uint64_t B, unsigned Shift,
                                       uint64_t Flag) {
    uint64_t Mask = (Shift == DeviceShift ? uint64_t(0xffff) : uint64_t(0xff))
                    << Shift;
    return fromBits((B & ~Mask & ~Flag) | (kDefaults & Mask));
  }
  constexpr uint8_t field(unsigned Shift) const {
    return static_cast<uint8_t>(Bits >> Shift);
  }

  uint64_t Bits = kDefaults;
};

inline TensorOptions dtype(ScalarType D) { return TensorOptions().dtype(D); }
inline TensorOptions device(Device D) { return TensorOptions().device(D); }

} // namespace sk

#endif // SK_CORE_TENSOROPTIONS_H
