//===--- DataDependentShape.cpp - Outputs sized by input data -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/DataDependentShape.h"
#include "sk/util/Exception.h"

namespace sk {

void refuse_meta_input(const char *Op, const char *Input, const Tensor &T) {
  SK_CHECK_NOT_IMPLEMENTED(
      !T.is_meta(), Op, "(): the output's size depends on the values of '",
      Input,
      "', which a meta tensor does not have; call it on a tensor with data "
      "(CPU) to get the output's shape (the output has a data-dependent "
      "shape; see the dynamic_output_shape tag)");
}

} // namespace sk
