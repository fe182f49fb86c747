//===--- DeviceCheck.cpp - All tensor arguments on one device -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/DeviceCheck.h"
#include "sk/util/Exception.h"

namespace sk {

void impl::commonDeviceCheckFailure(Device Common, const Tensor &T,
                                    std::string_view MethodName,
                                    std::string_view ArgName) {
  // PyTorch's wording, so that messages users search for still match.
  throw Error(detail::str(
      "Expected all tensors to be on the same device, but found at least two "
      "devices, ",
      Common, " and ", T.device(), "! (when checking argument for argument ",
      ArgName, " in method ", MethodName, ")"));
}

} // namespace sk
