#include "NativeFunctions.h"

namespace sk {

SK_META_FUNC(neg)(const Tensor &self) {
  set_output_raw_strided(0, self.sizes(), {}, self.options());
}

SK_IMPL_FUNC(neg_out)(const Tensor &self, const Tensor &out) {
  (void)self;
  (void)out;
}

} // namespace sk
