//===--- TensorOptionsTest.cpp - dtype, device and memory format ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/TensorOptions.h"

#include "gtest/gtest.h"

#include <type_traits>

using namespace sk;

namespace {

static_assert(sizeof(TensorOptions) == sizeof(uint64_t),
              "Note [TensorOptions in one word]");
static_assert(std::is_trivially_copyable_v<TensorOptions>);
static_assert(sizeof(Device) == 2 && std::is_trivially_copyable_v<Device>);
static_assert(TensorOptions().dtype() == kFloat);
static_assert(TensorOptions(kHalf).device(kMeta).dtype() == kHalf);
static_assert(TensorOptions(kMeta).device() == kMeta);

TEST(TensorOptionsTest, Default_HasNothingSetAndDefaultValues) {
  TensorOptions O;
  EXPECT_FALSE(O.has_dtype());
  EXPECT_FALSE(O.has_device());
  EXPECT_FALSE(O.has_memory_format());
  EXPECT_EQ(O.dtype(), kFloat);
  EXPECT_EQ(O.device(), kCPU);
  EXPECT_EQ(O.dtype_opt(), std::nullopt);
  EXPECT_EQ(O.device_opt(), std::nullopt);
  EXPECT_EQ(O.memory_format_opt(), std::nullopt);
}

TEST(TensorOptionsTest, Setters_SetOnlyTheirField) {
  TensorOptions O = TensorOptions().dtype(kHalf);
  EXPECT_EQ(O.dtype_opt(), kHalf);
  EXPECT_FALSE(O.has_device());
  O = O.device(kMeta);
  EXPECT_EQ(O.dtype_opt(), kHalf);
  EXPECT_EQ(O.device_opt(), kMeta);
  EXPECT_FALSE(O.has_memory_format());
  O = O.memory_format(MemoryFormat::ChannelsLast);
  EXPECT_EQ(O.memory_format_opt(), MemoryFormat::ChannelsLast);
  EXPECT_EQ(O.dtype(), kHalf);
  EXPECT_EQ(O.device(), kMeta);
}

TEST(TensorOptionsTest, Nullopt_UnsetsAField) {
  TensorOptions O = TensorOptions(kDouble)
                        .device(Device(DeviceType::CUDA, 3))
                        .memory_format(MemoryFormat::Preserve);
  O = O.dtype(std::nullopt).device(std::nullopt).memory_format(std::nullopt);
  EXPECT_EQ(O, TensorOptions());
  EXPECT_EQ(O.dtype(), kFloat);
  EXPECT_EQ(O.device(), kCPU);
}

TEST(TensorOptionsTest, Constructors_SetOneField) {
  EXPECT_EQ(TensorOptions(kLong).dtype_opt(), kLong);
  EXPECT_FALSE(TensorOptions(kLong).has_device());
  EXPECT_EQ(TensorOptions(kMeta).device_opt(), kMeta);
  EXPECT_EQ(TensorOptions(DeviceType::CUDA).device_opt(),
            Device(DeviceType::CUDA));
  EXPECT_FALSE(TensorOptions(kMeta).has_dtype());
  EXPECT_EQ(dtype(kBool).dtype_opt(), kBool);
  EXPECT_EQ(device(kMeta).device_opt(), kMeta);
}

TEST(TensorOptionsTest, DeviceOpt_RoundTripsEveryDevice) {
  // device_opt() reads a table of every optional device (Note [Optional
  // devices from a table]).
  for (int T = 0; T != NumDeviceTypes; ++T) {
    for (int I = -128; I != 128; ++I) {
      Device D(static_cast<DeviceType>(T), static_cast<int8_t>(I));
      std::optional<Device> Opt = TensorOptions(kHalf).device(D).device_opt();
      ASSERT_TRUE(Opt.has_value());
      EXPECT_EQ(Opt->type(), D.type());
      EXPECT_EQ(Opt->index(), D.index());
    }
  }
}

TEST(TensorOptionsTest, MergedWith_TakesTheOtherSidesSetFields) {
  TensorOptions Mine = TensorOptions(kHalf).device(kMeta);
  EXPECT_EQ(Mine.merged_with(TensorOptions()), Mine);
  TensorOptions R = Mine.merged_with(TensorOptions(Device(DeviceType::CUDA, 1))
                                         .memory_format(
                                             MemoryFormat::ChannelsLast));
  EXPECT_EQ(R.dtype_opt(), kHalf);
  EXPECT_EQ(R.device_opt(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(R.memory_format_opt(), MemoryFormat::ChannelsLast);
  EXPECT_EQ(TensorOptions().merged_with(Mine), Mine);
  EXPECT_EQ(Mine.merged_with(TensorOptions(kLong)).dtype(), kLong);
}

TEST(DeviceTest, TypeAndIndex_SurviveTheEncoding) {
  Device D(DeviceType::CUDA, 7);
  EXPECT_EQ(D.type(), DeviceType::CUDA);
  EXPECT_EQ(D.index(), 7);
  EXPECT_TRUE(D.has_index());
  EXPECT_TRUE(D.is_cuda());
  EXPECT_FALSE(kMeta.has_index());
  EXPECT_EQ(kMeta.index(), -1);
  EXPECT_NE(Device(DeviceType::CUDA, 0), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(Device("cuda:127"), Device(DeviceType::CUDA, 127));
  EXPECT_EQ(Device("meta").str(), "meta");
  EXPECT_EQ(Device("cuda:2").str(), "cuda:2");
}

} // namespace
