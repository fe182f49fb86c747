//===--- CUDAPrintTest.cpp - Printing CUDA tensors ------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/ops/Factories.h"

using namespace sk;

namespace {

class CUDAPrintTest : public test::CUDATest {};

TEST_F(CUDAPrintTest, PrintsValuesFromTheHostThenTheDevice) {
  Tensor T = arange(3, kFloat).to(Device("cuda:0"));
  EXPECT_EQ(T.toString(), "tensor([0., 1., 2.], device='cuda:0')");
  EXPECT_EQ(arange(3).to(Device("cuda:0")).toString(),
            "tensor([0, 1, 2], device='cuda:0')");
  EXPECT_EQ(ones({2}, TensorOptions(Device("cuda:0")).dtype(kHalf)).toString(),
            "tensor([1., 1.], device='cuda:0', dtype=torch.float16)");
  EXPECT_EQ(zeros({0}, Device("cuda:0")).toString(),
            "tensor([], device='cuda:0')");
}
} // namespace
