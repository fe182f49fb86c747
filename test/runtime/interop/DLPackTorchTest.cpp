//===--- DLPackTorchTest.cpp - DLPack against libtorch --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc's DLPack tensors through at::fromDLPack and libtorch's through
/// sk::fromDLPack, in one process: the same memory on both sides, freed on
/// the side that owns it. An executable of its own, so that the runtime's
/// other tests do not load libtorch; it skips, saying why, without it.
///
//===----------------------------------------------------------------------===//

#include "sk/interop/DLPack.h"

#include "DLPackTestUtils.h"
#include "TorchDLPack.h"

#include <gtest/gtest.h>

#include <string>

using namespace sk;
using namespace sk::test;

namespace {

#define SKIP_WITHOUT_LIBTORCH()                                                \
  do {                                                                         \
    std::string Why;                                                           \
    if (!torchside::available(Why))                                            \
      GTEST_SKIP() << Why;                                                     \
  } while (false)

TEST(DLPackTorchTest, SkcTensors_AreLibtorchTensorsOverTheSameMemory) {
  SKIP_WITHOUT_LIBTORCH();
  for (auto [Dtype, Name] : Dtypes) {
    SCOPED_TRACE(Name);
    Tensor T = stridedView(Dtype);
    torchside::Seen S = torchside::importIntoTorch(toDLPack(T));
    EXPECT_EQ(S.Data, T.data_ptr());
    EXPECT_EQ(S.Dtype, Name);
    EXPECT_EQ(S.Sizes, T.sizes().vec());
    EXPECT_EQ(S.Strides, T.strides().vec());
    EXPECT_EQ(S.Values, valuesOf(T));
    // libtorch frees its tensor, and with it skc's reference.
    EXPECT_EQ(T.use_count(), 2u);
    torchside::releaseImported();
    EXPECT_EQ(T.use_count(), 1u);
  }
}

TEST(DLPackTorchTest, LibtorchTensors_AreSkcTensorsOverTheSameMemory) {
  SKIP_WITHOUT_LIBTORCH();
  for (auto [Dtype, Name] : Dtypes) {
    SCOPED_TRACE(Name);
    DLManagedTensor *M = torchside::exportFromTorch(Name);
    const void *Data = M->dl_tensor.data;
    {
      Tensor T = fromDLPack(M);
      EXPECT_EQ(T.data_ptr(), Data);
      EXPECT_EQ(T.dtype(), Dtype);
      Tensor Expected = stridedView(Dtype);
      EXPECT_EQ(T.sizes(), Expected.sizes());
      EXPECT_EQ(T.strides(), Expected.strides());
      EXPECT_EQ(valuesOf(T), valuesOf(Expected));
      EXPECT_EQ(torchside::torchUseCount(), 2);
    }
    // skc's tensor is gone: libtorch's deleter ran once.
    EXPECT_EQ(torchside::torchUseCount(), 1);
  }
}

} // namespace
