#include "Factor.h"
#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {

SK_META_FUNC(twice)(const Tensor &self) {
  build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(twice_out)(const Tensor &self, const Tensor &out) {
  cpu_kernel(*this, [](float X) { return X * kFactor; });
}

} // namespace sk
