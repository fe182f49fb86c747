//===--- CUDAFunctionsTest.cpp - Devices and registrations ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/core/DeviceGuard.h"
#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/ops/Factories.h"

using namespace sk;

TEST(CUDAFunctionsTest, DeviceCount_NeverThrows) {
  int N = -1;
  EXPECT_NO_THROW(N = cuda::device_count());
  EXPECT_GE(N, 0);
  EXPECT_EQ(cuda::is_available(), N > 0);
  // Asked twice, the same answer, and no error left behind for the next
  // call to report.
  EXPECT_EQ(cuda::device_count(), N);
}

// Linking skc::runtime_cuda is enough: these registrations come from an
// object nothing in this program names (Note [CUDA registrations]).
TEST(CUDAFunctionsTest, Linking_RegistersAllocatorGuardAndKernels) {
  EXPECT_EQ(getAllocator(DeviceType::CUDA), cuda::CUDACachingAllocator::get());
  EXPECT_EQ(impl::getDeviceGuardImpl(DeviceType::CUDA),
            &cuda::getCUDAGuardImpl());
  for (const char *Op : {"sk::_copy_from", "sk::_fill_", "sk::zeros",
                         "sk::empty_strided", "sk::full"}) {
    std::string Name = Op;
    std::string Overload;
    EXPECT_TRUE(Dispatcher::singleton()
                    .findSchemaOrThrow(Name, Overload)
                    .hasKernelForDispatchKey(DispatchKey::CUDA))
        << Op;
  }
  EXPECT_TRUE(Dispatcher::singleton()
                  .findSchemaOrThrow("sk::empty", "memory_format")
                  .hasKernelForDispatchKey(DispatchKey::CUDA));
}

TEST(CUDAFunctionsTest, NoDevice_FactoryAndCopyFailClearly) {
  if (cuda::device_count() != 0)
    GTEST_SKIP() << "a CUDA device is present";
  SK_EXPECT_ERROR(zeros({2}, Device("cuda")),
                  "CUDA: no CUDA device is available (asked for 'cuda')");
  SK_EXPECT_ERROR(ones({2}).to(Device("cuda:0")),
                  "no CUDA device is available");
}

TEST(CUDAFunctionsTest, NoDevice_AllocatorReportsTheFailedCall) {
  if (cuda::device_count() != 0)
    GTEST_SKIP() << "a CUDA device is present";
  SK_EXPECT_ERROR_TYPE(getAllocator(DeviceType::CUDA)->allocate(16), CUDAError,
                       "CUDA error: 'cudaGetDevice(&D)' failed");
}

class CUDADeviceTest : public test::CUDATest {};

TEST_F(CUDADeviceTest, ResolveDevice_FillsTheCurrentIndex) {
  cuda::set_device(0);
  EXPECT_EQ(cuda::resolveDevice(Device("cuda")), Device("cuda:0"));
  EXPECT_EQ(cuda::resolveDevice(Device("cuda:0")), Device("cuda:0"));
  SK_EXPECT_ERROR(cuda::resolveDevice(Device(DeviceType::CUDA, 100)),
                  "invalid device 'cuda:100'");
}
