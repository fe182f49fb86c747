//===--- CUDAGuardTest.cpp - DeviceGuard on CUDA devices ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDAGuard.h"

using namespace sk;
using namespace sk::cuda;

namespace {

class CUDAGuardTest : public test::CUDATest {};

TEST_F(CUDAGuardTest, ImplReportsAndSetsTheCurrentDevice) {
  const impl::DeviceGuardImplInterface &Impl = getCUDAGuardImpl();
  EXPECT_EQ(Impl.type(), DeviceType::CUDA);
  Impl.setDevice(Device("cuda:0"));
  EXPECT_EQ(Impl.getDevice(), Device("cuda:0"));
  EXPECT_EQ(current_device(), 0);
}

TEST_F(CUDAGuardTest, Guard_SwitchesAndRestores) {
  set_device(0);
  int Last = device_count() - 1;
  {
    CUDAGuard Guard(static_cast<DeviceIndex>(Last));
    EXPECT_EQ(current_device(), Last);
    EXPECT_EQ(Guard.original_device(), Device("cuda:0"));
  }
  EXPECT_EQ(current_device(), 0);
}

TEST_F(CUDAGuardTest, GuardWithoutIndex_KeepsTheDevice) {
  set_device(0);
  DeviceGuard Guard(Device("cuda"));
  EXPECT_EQ(Guard.current_device(), Device("cuda:0"));
  EXPECT_EQ(current_device(), 0);
}
} // namespace
