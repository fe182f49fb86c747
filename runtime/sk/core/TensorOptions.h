//===--- TensorOptions.h - dtype, device and memory format ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_TENSOROPTIONS_H
#define SK_CORE_TENSOROPTIONS_H

#include "sk/core/Device.h"
#include "sk/core/MemoryFormat.h"
#include "sk/core/ScalarType.h"

#include <optional>

namespace sk {

/// What a factory makes: `TensorOptions().dtype(kHalf).device(kMeta)`.
/// Unset fields take the defaults: float32 on the CPU, contiguous.
class TensorOptions {
public:
  TensorOptions() = default;
  TensorOptions(ScalarType D) : Dtype(D) {}
  TensorOptions(Device D) : Dev(D) {}
  TensorOptions(DeviceType T) : Dev(Device(T)) {}

  TensorOptions dtype(std::optional<ScalarType> D) const {
    TensorOptions O = *this;
    O.Dtype = D;
    return O;
  }
  TensorOptions device(std::optional<Device> D) const {
    TensorOptions O = *this;
    O.Dev = D;
    return O;
  }
  TensorOptions memory_format(std::optional<MemoryFormat> F) const {
    TensorOptions O = *this;
    O.Format = F;
    return O;
  }

  ScalarType dtype() const { return Dtype.value_or(kFloat); }
  Device device() const { return Dev.value_or(kCPU); }
  std::optional<MemoryFormat> memory_format_opt() const { return Format; }
  bool has_dtype() const { return Dtype.has_value(); }
  bool has_device() const { return Dev.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return Dtype; }
  std::optional<Device> device_opt() const { return Dev; }

  /// Fields set in \p O override ours.
  TensorOptions merged_with(const TensorOptions &O) const {
    TensorOptions R = *this;
    if (O.Dtype)
      R.Dtype = O.Dtype;
    if (O.Dev)
      R.Dev = O.Dev;
    if (O.Format)
      R.Format = O.Format;
    return R;
  }

private:
  std::optional<ScalarType> Dtype;
  std::optional<Device> Dev;
  std::optional<MemoryFormat> Format;
};

inline TensorOptions dtype(ScalarType D) { return TensorOptions().dtype(D); }
inline TensorOptions device(Device D) { return TensorOptions().device(D); }

} // namespace sk

#endif // SK_CORE_TENSOROPTIONS_H
