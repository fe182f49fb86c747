//===--- DeviceGuardTest.cpp - Current-device guards ----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/DeviceGuard.h"
#include "sk/core/EmptyTensor.h"

#include "TestUtils.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

using namespace sk;

namespace {

/// A PrivateUse1 backend whose current device is a plain variable, and
/// which counts the calls guards make.
struct FakeGuardImpl final : impl::DeviceGuardImplInterface {
  DeviceType type() const override { return DeviceType::PrivateUse1; }
  Device exchangeDevice(Device D) const override {
    ++Calls;
    Device Old = Current;
    Current = D;
    return Old;
  }
  Device getDevice() const override {
    ++Calls;
    return Current;
  }
  void setDevice(Device D) const override {
    ++Calls;
    SK_CHECK(!FailSetDevice, "fake setDevice failed");
    Current = D;
  }
  void synchronizeDevice(Device D) const override { Synchronized = D; }

  mutable Device Current{DeviceType::PrivateUse1, 0};
  mutable int Calls = 0;
  /// The device synchronizeDevice was last asked for.
  mutable std::optional<Device> Synchronized;
  /// setDevice throws, as cudaSetDevice's errors do.
  bool FailSetDevice = false;
};

Device pu1(int8_t Index) { return Device(DeviceType::PrivateUse1, Index); }

/// Registers a fresh FakeGuardImpl for the test's duration.
class DeviceGuardTest : public ::testing::Test {
protected:
  void SetUp() override {
    impl::registerDeviceGuardImpl(DeviceType::PrivateUse1, &Fake);
  }
  void TearDown() override {
    impl::registerDeviceGuardImpl(DeviceType::PrivateUse1, nullptr);
  }
  FakeGuardImpl Fake;
};

TEST_F(DeviceGuardTest, SetsTheDeviceAndRestoresItOnExit) {
  {
    DeviceGuard G(pu1(2));
    EXPECT_EQ(Fake.Current, pu1(2));
    EXPECT_EQ(G.original_device(), pu1(0));
    EXPECT_EQ(G.current_device(), pu1(2));
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

TEST_F(DeviceGuardTest, NestedGuardsRestoreInReverseOrder) {
  {
    DeviceGuard Outer(pu1(1));
    {
      DeviceGuard Inner(pu1(3));
      EXPECT_EQ(Fake.Current, pu1(3));
      EXPECT_EQ(Inner.original_device(), pu1(1));
    }
    EXPECT_EQ(Fake.Current, pu1(1));
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

TEST_F(DeviceGuardTest, SetDeviceInsideTheScopeStillRestoresTheOriginal) {
  {
    DeviceGuard G(pu1(1));
    G.set_device(pu1(4));
    EXPECT_EQ(Fake.Current, pu1(4));
    EXPECT_EQ(G.original_device(), pu1(0));
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

TEST_F(DeviceGuardTest, DeviceWithoutIndexKeepsTheCurrentOneAndRestoresIt) {
  Fake.Current = pu1(5);
  {
    DeviceGuard G(Device(DeviceType::PrivateUse1));
    EXPECT_EQ(Fake.Current, pu1(5));
    EXPECT_EQ(G.current_device(), pu1(5));
    // Something in the scope switches devices behind the guard's back.
    Fake.Current = pu1(6);
  }
  EXPECT_EQ(Fake.Current, pu1(5));
}

TEST_F(DeviceGuardTest, SetDeviceOfAnotherTypeIsAnError) {
  DeviceGuard G(pu1(1));
  SK_EXPECT_ERROR(G.set_device(kCPU), "use reset_device");
}

TEST_F(DeviceGuardTest, ResetDeviceToAnotherTypeRestoresTheFirst) {
  {
    DeviceGuard G(pu1(2));
    G.reset_device(kCPU);
    EXPECT_EQ(Fake.Current, pu1(0));
    EXPECT_EQ(G.current_device(), kCPU);
    G.reset_device(pu1(3));
    EXPECT_EQ(Fake.Current, pu1(3));
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

TEST_F(DeviceGuardTest, CPUAndMetaGuardsCallNoImpl) {
  Fake.Calls = 0;
  {
    DeviceGuard G(kCPU);
    EXPECT_EQ(G.original_device(), kCPU);
    EXPECT_EQ(G.current_device(), kCPU);
    DeviceGuard M(kMeta);
    G.set_device(kCPU);
    OptionalDeviceGuard O(kCPU);
    EXPECT_EQ(O.original_device(), kCPU);
    O.reset_device(kMeta);
    EXPECT_EQ(O.current_device(), kMeta);
  }
  EXPECT_EQ(Fake.Calls, 0);
  EXPECT_EQ(Fake.Current, pu1(0));
  EXPECT_EQ(impl::getDeviceGuardImpl(DeviceType::CPU), nullptr);
  EXPECT_EQ(impl::getDeviceGuardImpl(DeviceType::Meta), nullptr);
  // No allocation and no hidden state: the guard is a pointer and two
  // devices, destroyed without a call when the pointer is null.
  static_assert(sizeof(DeviceGuard) <= 2 * sizeof(void *));
  static_assert(!std::is_copy_constructible_v<DeviceGuard>);
  static_assert(!std::is_move_constructible_v<DeviceGuard>);
}

TEST_F(DeviceGuardTest, SynchronizeDeviceAsksTheImplOfItsType) {
  synchronizeDevice(pu1(3));
  EXPECT_EQ(Fake.Synchronized, pu1(3));
  // CPU and Meta have nothing queued and no impl.
  Fake.Synchronized.reset();
  synchronizeDevice(Device(DeviceType::CPU));
  synchronizeDevice(Device(DeviceType::Meta));
  EXPECT_FALSE(Fake.Synchronized.has_value());
}

TEST_F(DeviceGuardTest, OptionalGuardOpensOnlyWithADevice) {
  {
    OptionalDeviceGuard G;
    EXPECT_FALSE(G.original_device());
    EXPECT_FALSE(G.current_device());
    OptionalDeviceGuard None(std::nullopt);
    EXPECT_FALSE(None.current_device());
  }
  EXPECT_EQ(Fake.Calls, 0);
  {
    OptionalDeviceGuard G(pu1(2));
    EXPECT_EQ(Fake.Current, pu1(2));
    EXPECT_EQ(G.original_device(), pu1(0));
    G.reset_device(pu1(3));
    EXPECT_EQ(Fake.Current, pu1(3));
    EXPECT_EQ(G.original_device(), pu1(0));
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

TEST_F(DeviceGuardTest, OptionalGuardOpenedLaterRestoresOnExit) {
  {
    OptionalDeviceGuard G;
    G.reset_device(pu1(7));
    EXPECT_EQ(Fake.Current, pu1(7));
    G.reset();
    EXPECT_EQ(Fake.Current, pu1(0));
    EXPECT_FALSE(G.current_device());
    G.reset_device(pu1(1));
    G.reset_device(kCPU);
    EXPECT_EQ(Fake.Current, pu1(0));
    EXPECT_EQ(G.original_device(), kCPU);
  }
  EXPECT_EQ(Fake.Current, pu1(0));
}

// Guards must not throw from their destructors: a failed restore is a
// warning, and the device stays where it was.
TEST_F(DeviceGuardTest, FailedRestoreOnExitIsAWarning) {
  std::vector<std::string> Warnings;
  WarningHandler Previous = setWarningHandler(
      [&Warnings](const std::string &W) { Warnings.push_back(W); });
  {
    DeviceGuard G(pu1(2));
    Fake.FailSetDevice = true;
  }
  {
    OptionalDeviceGuard O;
    Fake.FailSetDevice = false;
    O.reset_device(pu1(3));
    Fake.FailSetDevice = true;
  }
  setWarningHandler(std::move(Previous));
  EXPECT_EQ(Fake.Current, pu1(3));
  ASSERT_EQ(Warnings.size(), 2u);
  EXPECT_EQ(Warnings[0], "could not restore the current privateuseone device "
                         "to 'privateuseone:0': fake setDevice failed");
  EXPECT_EQ(Warnings[1], "could not restore the current privateuseone device "
                         "to 'privateuseone:2': fake setDevice failed");
}

TEST_F(DeviceGuardTest, RegisteringAnImplForAnotherTypeIsAnError) {
  SK_EXPECT_ERROR(impl::registerDeviceGuardImpl(DeviceType::CUDA, &Fake),
                  "an impl for device type 'privateuseone' cannot be "
                  "registered for device type 'cuda'");
}

TEST(DeviceOfTest, TensorsOptionalsAndLists) {
  Tensor Cpu = detail::empty_cpu({2}, kFloat);
  Tensor Meta = detail::empty_meta({2}, kFloat);
  EXPECT_EQ(device_of(Cpu), kCPU);
  EXPECT_EQ(device_of(Tensor()), std::nullopt);
  EXPECT_EQ(device_of(std::optional<Tensor>(Meta)), kMeta);
  EXPECT_EQ(device_of(std::optional<Tensor>()), std::nullopt);
  std::vector<Tensor> L = {Meta, Cpu};
  EXPECT_EQ(device_of(TensorList(L)), kMeta);
  EXPECT_EQ(device_of(TensorList()), std::nullopt);
}

} // namespace
