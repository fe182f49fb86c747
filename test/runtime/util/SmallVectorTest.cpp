//===--- SmallVectorTest.cpp - Inline vectors -----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/util/SmallVector.h"

#include "sk/core/EmptyTensor.h"

#include "gtest/gtest.h"

#include <stdexcept>
#include <string>

using namespace sk;

namespace {

TEST(IterSmallVectorTest, FewElements_StayInline) {
  SmallVector<int64_t, 4> V;
  for (int64_t I = 0; I < 4; ++I)
    V.push_back(I);
  EXPECT_TRUE(V.isSmall());
  EXPECT_EQ(V.size(), 4u);
  V.push_back(4);
  EXPECT_FALSE(V.isSmall());
  EXPECT_EQ(IntArrayRef(V), IntArrayRef({0, 1, 2, 3, 4}));
}

TEST(IterSmallVectorTest, CopyAndMove_KeepElements) {
  SmallVector<std::string, 2> A{"a", "b", "c"};
  SmallVector<std::string, 2> B = A;
  EXPECT_EQ(B.size(), 3u);
  EXPECT_EQ(B[2], "c");
  SmallVector<std::string, 2> C = std::move(A);
  EXPECT_EQ(C.size(), 3u);
  EXPECT_TRUE(A.empty());
  SmallVector<std::string, 2> D{"x"};
  SmallVector<std::string, 2> E = std::move(D);
  EXPECT_EQ(E[0], "x");
  E = C;
  EXPECT_EQ(E, C);
}

TEST(IterSmallVectorTest, InsertEraseResize_Work) {
  DimVector V{1, 2, 4};
  V.insert(V.begin() + 2, 3);
  EXPECT_EQ(IntArrayRef(V), IntArrayRef({1, 2, 3, 4}));
  V.erase(V.begin());
  EXPECT_EQ(IntArrayRef(V), IntArrayRef({2, 3, 4}));
  V.resize(5, 7);
  EXPECT_EQ(IntArrayRef(V), IntArrayRef({2, 3, 4, 7, 7}));
  V.resize(2);
  EXPECT_EQ(IntArrayRef(V), IntArrayRef({2, 3}));
  V.assign(8, 1);
  EXPECT_EQ(V.size(), 8u);
  EXPECT_FALSE(V.isSmall());
}

TEST(IterSmallVectorTest, AppendInPlace_BuildsInOrder) {
  SmallVector<std::string, 2> V{"a"};
  int Next = 0;
  V.append_in_place(3, [&](std::string *P) noexcept {
    new (P) std::string(1, static_cast<char>('b' + Next++));
  });
  ASSERT_EQ(V.size(), 4u);
  EXPECT_EQ(V[1] + V[2] + V[3], "bcd");
  EXPECT_FALSE(V.isSmall());
  // A throwing constructor leaves the elements built so far.
  SmallVector<std::string, 4> W;
  EXPECT_THROW(W.append_in_place(3,
                                 [&, I = 0](std::string *P) mutable {
                                   if (I++ == 2)
                                     throw std::runtime_error("third");
                                   new (P) std::string("x");
                                 }),
               std::runtime_error);
  EXPECT_EQ(W.size(), 2u);
}

TEST(IterSmallVectorTest, TensorElements_AreReleased) {
  Tensor T = detail::empty_meta({2}, kFloat);
  {
    SmallVector<Tensor, 2> V;
    for (int I = 0; I < 5; ++I)
      V.push_back(T);
    EXPECT_EQ(T.use_count(), 6u);
    SmallVector<Tensor, 2> W = std::move(V);
    EXPECT_EQ(T.use_count(), 6u);
  }
  EXPECT_EQ(T.use_count(), 1u);
}

} // namespace
