//===--- DeviceCheckTest.cpp - All tensor arguments on one device ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/DeviceCheck.h"
#include "sk/core/EmptyTensor.h"

#include "TestUtils.h"

using namespace sk;
using impl::check_and_update_common_device;

namespace {

/// A tensor that claims to live on \p D, without storage: the check looks
/// at devices only, and this build may have no CUDA.
Tensor on(Device D, std::vector<int64_t> Sizes = {2}) {
  int64_t Numel = 1;
  for (int64_t S : Sizes)
    Numel *= S;
  return Tensor(IntrusivePtr<TensorImpl>::make(TensorImpl::ContiguousTag(),
                                               Storage(), kFloat, D,
                                               IntArrayRef(Sizes), Numel));
}

const Device Cuda0(DeviceType::CUDA, 0);
const Device Cuda1(DeviceType::CUDA, 1);

TEST(DeviceCheckTest, FirstDefinedTensorSetsTheDevice) {
  std::optional<Device> Common;
  check_and_update_common_device(Common, Tensor(), "m", "undefined");
  EXPECT_FALSE(Common);
  check_and_update_common_device(Common, std::optional<Tensor>(), "m", "none");
  EXPECT_FALSE(Common);
  check_and_update_common_device(Common, TensorList(), "m", "empty");
  EXPECT_FALSE(Common);
  check_and_update_common_device(Common, on(Cuda0), "m", "self");
  EXPECT_EQ(Common, Cuda0);
  check_and_update_common_device(Common, on(Cuda0), "m", "other");
  check_and_update_common_device(Common, Tensor(), "m", "undefined");
  EXPECT_EQ(Common, Cuda0);
}

TEST(DeviceCheckTest, MismatchNamesBothDevicesTheArgumentAndTheMethod) {
  std::optional<Device> Common;
  check_and_update_common_device(Common, on(kCPU), "wrapper_CUDA_add_Tensor",
                                 "self");
  SK_EXPECT_ERROR(
      check_and_update_common_device(Common, on(Cuda0),
                                     "wrapper_CUDA_add_Tensor", "other"),
      "Expected all tensors to be on the same device, but found at least two "
      "devices, cpu and cuda:0! (when checking argument for argument other "
      "in method wrapper_CUDA_add_Tensor)");
}

TEST(DeviceCheckTest, DeviceIndicesMustMatchToo) {
  std::optional<Device> Common = Cuda0;
  SK_EXPECT_ERROR(check_and_update_common_device(Common, on(Cuda1), "m", "b"),
                  "cuda:0 and cuda:1!");
}

// Note [No exemption for CPU scalars] in sk/dispatch/DeviceCheck.h.
TEST(DeviceCheckTest, ZeroDimCPUTensorIsNotExempt) {
  std::optional<Device> Common = Cuda0;
  SK_EXPECT_ERROR(check_and_update_common_device(Common, on(kCPU, {}),
                                                 "wrapper_CUDA_mul_Tensor",
                                                 "other"),
                  "cuda:0 and cpu!");
}

TEST(DeviceCheckTest, OptionalsAndListsCheckEveryDefinedTensor) {
  std::optional<Device> Common;
  check_and_update_common_device(Common, std::optional<Tensor>(on(kMeta)),
                                 "m", "weight");
  EXPECT_EQ(Common, kMeta);
  std::vector<Tensor> Ok = {on(kMeta), Tensor(), on(kMeta)};
  check_and_update_common_device(Common, TensorList(Ok), "m", "tensors");
  std::vector<Tensor> Bad = {on(kMeta), on(kCPU)};
  SK_EXPECT_ERROR(
      check_and_update_common_device(Common, TensorList(Bad), "m", "tensors"),
      "meta and cpu! (when checking argument for argument tensors in method "
      "m)");
  SK_EXPECT_ERROR(check_and_update_common_device(
                      Common, std::optional<Tensor>(on(Cuda0)), "m", "bias"),
                  "argument bias");
}

} // namespace
