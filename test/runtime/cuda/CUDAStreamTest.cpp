//===--- CUDAStreamTest.cpp - Streams and the current stream --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDAStream.h"

#include <thread>

using namespace sk;
using namespace sk::cuda;

namespace {

class CUDAStreamTest : public test::CUDATest {
protected:
  void SetUp() override {
    test::CUDATest::SetUp();
    if (!IsSkipped())
      set_device(0);
  }
};

TEST_F(CUDAStreamTest, CurrentStream_StartsAsTheDefault) {
  CUDAStream S = getCurrentCUDAStream();
  EXPECT_EQ(S, getDefaultCUDAStream(0));
  EXPECT_TRUE(S.is_default());
  EXPECT_EQ(S.device(), Device("cuda:0"));
}

TEST_F(CUDAStreamTest, SetCurrent_IsPerThread) {
  CUDAStream Pool = getStreamFromPool(0);
  EXPECT_FALSE(Pool.is_default());
  setCurrentCUDAStream(Pool);
  EXPECT_EQ(getCurrentCUDAStream(0), Pool);
  std::thread([] { EXPECT_TRUE(getCurrentCUDAStream(0).is_default()); }).join();
  setCurrentCUDAStream(getDefaultCUDAStream(0));
  EXPECT_TRUE(getCurrentCUDAStream(0).is_default());
}

TEST_F(CUDAStreamTest, Guard_RestoresTheStream) {
  CUDAStream Pool = getStreamFromPool(0);
  {
    CUDAStreamGuard Guard(Pool);
    EXPECT_EQ(getCurrentCUDAStream(), Pool);
    EXPECT_TRUE(Guard.original_stream().is_default());
  }
  EXPECT_TRUE(getCurrentCUDAStream().is_default());
}

TEST_F(CUDAStreamTest, Pool_HandsOutRoundRobin) {
  CUDAStream A = getStreamFromPool(0);
  bool SawAnother = false;
  for (int I = 0; I != 8; ++I)
    SawAnother |= getStreamFromPool(0) != A;
  EXPECT_TRUE(SawAnother);
}

TEST_F(CUDAStreamTest, QueryAndSynchronize) {
  CUDAStream S = getStreamFromPool(0);
  S.synchronize();
  EXPECT_TRUE(S.query());
}

TEST_F(CUDAStreamTest, BadDevice_Fails) {
  SK_EXPECT_ERROR(getCurrentCUDAStream(100), "invalid device index 100");
}
} // namespace
