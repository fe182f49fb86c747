#include "NativeFunctions.h"

namespace sk {

Tensor SK_NATIVE_FUNC(clamp_min_zero_cpu)(const Tensor &self) {
  Tensor Result = self.contiguous().clone();
  float *Data = Result.data_ptr<float>();
  for (int64_t I = 0, N = Result.numel(); I != N; ++I)
    Data[I] = Data[I] < 0 ? 0 : Data[I];
  return Result;
}

Tensor SK_NATIVE_FUNC(shift_cpu)(const Tensor &self, double by) {
  Tensor Result = self.contiguous().clone();
  float *Data = Result.data_ptr<float>();
  for (int64_t I = 0, N = Result.numel(); I != N; ++I)
    Data[I] += static_cast<float>(by);
  return Result;
}

} // namespace sk
