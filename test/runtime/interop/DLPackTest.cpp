//===--- DLPackTest.cpp - toDLPack and fromDLPack -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/interop/DLPack.h"

#include "sk/core/EmptyTensor.h"
#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include "DLPackTestUtils.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

TEST(DLPackTest, RoundTrip_KeepsTheMemoryStridesAndOffset) {
  for (auto [Dtype, Name] : Dtypes) {
    SCOPED_TRACE(Name);
    Tensor T = stridedView(Dtype);
    DLManagedTensor *M = toDLPack(T);
    EXPECT_EQ(T.use_count(), 2u);
    EXPECT_EQ(M->dl_tensor.data, T.data_ptr());
    EXPECT_EQ(M->dl_tensor.ndim, 2);
    EXPECT_EQ(M->dl_tensor.strides[0], 1);
    EXPECT_EQ(M->dl_tensor.strides[1], 6);
    EXPECT_EQ(M->dl_tensor.dtype.bits, elementSize(Dtype) * 8);
    Tensor Back = fromDLPack(M);
    EXPECT_EQ(Back.data_ptr(), T.data_ptr());
    EXPECT_EQ(Back.sizes(), T.sizes());
    EXPECT_EQ(Back.strides(), T.strides());
    EXPECT_EQ(Back.dtype(), Dtype);
    EXPECT_EQ(valuesOf(Back), valuesOf(T));
    // The DLPack tensor's deleter runs with the last tensor over it.
    Back = Tensor();
    EXPECT_EQ(T.use_count(), 1u);
  }
}

/// A DLManagedTensor over a buffer of its own, counting its deleter's calls.
struct Foreign {
  std::vector<float> Buffer = std::vector<float>(16);
  std::vector<int64_t> Shape = {3};
  int Deleted = 0;
  DLManagedTensor M{};

  Foreign() {
    for (int I = 0; I < 16; ++I)
      Buffer[I] = float(I);
    M.dl_tensor.data = Buffer.data();
    M.dl_tensor.device = {kDLCPU, 0};
    M.dl_tensor.ndim = 1;
    M.dl_tensor.dtype = {kDLFloat, 32, 1};
    M.dl_tensor.shape = Shape.data();
    M.dl_tensor.strides = nullptr;
    M.dl_tensor.byte_offset = 8;
    M.manager_ctx = this;
    M.deleter = [](DLManagedTensor *Self) {
      ++static_cast<Foreign *>(Self->manager_ctx)->Deleted;
    };
  }
};

TEST(DLPackTest, Import_HonoursByteOffsetNullStridesAndTheDeleter) {
  Foreign F;
  {
    Tensor T = fromDLPack(&F.M);
    EXPECT_EQ(T.data_ptr<float>(), F.Buffer.data() + 2);
    EXPECT_EQ(T.strides()[0], 1);
    EXPECT_EQ(valuesOf(T), (std::vector<double>{2, 3, 4}));
    Tensor View = T.narrow(0, 1, 2);
    T = Tensor();
    EXPECT_EQ(F.Deleted, 0);
  }
  EXPECT_EQ(F.Deleted, 1);
}

TEST(DLPackTest, WhatTheRuntimeLacks_IsAnErrorAndLeavesTheTensorAlone) {
  Foreign F;
  F.M.dl_tensor.dtype = {kDLComplex, 64, 1};
  SK_EXPECT_ERROR(fromDLPack(&F.M), "skc's runtime has no 64-bit complex type");
  F.M.dl_tensor.dtype = {kDLFloat, 32, 4};
  SK_EXPECT_ERROR(fromDLPack(&F.M), "4 lanes");
  F.M.dl_tensor.dtype = {kDLFloat, 32, 1};
  F.M.dl_tensor.device = {kDLOpenCL, 0};
  SK_EXPECT_ERROR(fromDLPack(&F.M), "no device for DLPack's device type 4");
  EXPECT_EQ(F.Deleted, 0);

  SK_EXPECT_ERROR(toDLPack(detail::empty_meta({2}, kFloat)),
                  "a meta tensor has no memory to share");
}

} // namespace
