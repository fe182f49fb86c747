//===--- DeviceCheck.h - All tensor arguments on one device -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device check of generated backend wrappers
/// (c10/ATen/core/op_registration/adaption.h): for an op with
/// `device_check: ExactSame` (the default), the wrapper threads one
/// `std::optional<Device>` through every tensor argument:
///
///   std::optional<Device> Common;
///   sk::impl::check_and_update_common_device(Common, self,
///       "wrapper_CUDA_add_Tensor", "self");
///   sk::impl::check_and_update_common_device(Common, other,
///       "wrapper_CUDA_add_Tensor", "other");
///
/// The first defined tensor sets the device; every later one must match it
/// exactly (type and index). Undefined tensors, absent optionals and empty
/// lists are skipped.
///
/// Note [No exemption for CPU scalars]
/// PyTorch lets a zero-dim CPU tensor take part in a CUDA op (`cuda_t +
/// torch.tensor(2.)`), but not here: PyTorch 1.13's
/// check_and_update_common_device (adaption.h/.cpp) compares devices and
/// nothing else. The exemption lives in TensorIterator's own device check,
/// and torchgen emits this check only for ops without one (non-structured
/// ops and those with `device_check: ExactSame` whose kernels do not use
/// TensorIterator); ops that take CPU scalars declare `device_check:
/// NoCheck`. We mirror 1.13 so that an op behaves the same under both.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_DEVICECHECK_H
#define SK_DISPATCH_DEVICECHECK_H

#include "sk/core/Tensor.h"

#include <optional>
#include <string_view>

namespace sk {
namespace impl {

/// Reports the mismatch of \p T with \p Common (out of line: the check
/// passes on every call but the failing one).
[[noreturn]] void commonDeviceCheckFailure(Device Common, const Tensor &T,
                                           std::string_view MethodName,
                                           std::string_view ArgName);

/// Sets \p Common to the device of \p T if it has none yet; otherwise
/// throws sk::Error unless \p T is on \p Common. \p MethodName (the
/// wrapper) and \p ArgName (the schema argument) name the culprit.
inline void check_and_update_common_device(std::optional<Device> &Common,
                                           const Tensor &T,
                                           std::string_view MethodName,
                                           std::string_view ArgName) {
  if (!T.defined())
    return;
  if (!Common) {
    Common = T.device();
    return;
  }
  if (SK_UNLIKELY(*Common != T.device()))
    commonDeviceCheckFailure(*Common, T, MethodName, ArgName);
}

inline void check_and_update_common_device(std::optional<Device> &Common,
                                           const std::optional<Tensor> &T,
                                           std::string_view MethodName,
                                           std::string_view ArgName) {
  if (T)
    check_and_update_common_device(Common, *T, MethodName, ArgName);
}

inline void check_and_update_common_device(std::optional<Device> &Common,
                                           TensorList L,
                                           std::string_view MethodName,
                                           std::string_view ArgName) {
  for (const Tensor &T : L)
    check_and_update_common_device(Common, T, MethodName, ArgName);
}

} // namespace impl
} // namespace sk

#endif // SK_DISPATCH_DEVICECHECK_H
