//===--- GeneratorTest.cpp - Seedable random number generators ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/ops/Generator.h"

#include "gtest/gtest.h"

#include <cmath>
#include <thread>
#include <vector>

using namespace sk;

namespace {

std::vector<double> draw(Generator &G, int N) {
  std::lock_guard<std::mutex> Lock(G.mutex());
  std::vector<double> V;
  for (int I = 0; I != N; ++I)
    V.push_back(I % 2 ? G.normal() : G.uniform(53));
  return V;
}

TEST(GeneratorTest, SameSeed_SameStream) {
  Generator A(42), B(42), C(7);
  std::vector<double> VA = draw(A, 9);
  EXPECT_EQ(VA, draw(B, 9));
  EXPECT_NE(VA, draw(C, 9));
  EXPECT_EQ(A.initial_seed(), 42u);
  EXPECT_EQ(Generator().initial_seed(), Generator::kDefaultSeed);
}

TEST(GeneratorTest, ManualSeed_RestartsTheStreamAndDropsCachedNormals) {
  Generator G(1);
  std::vector<double> First = draw(G, 3); // leaves a cached normal behind
  G.manual_seed(1);
  EXPECT_EQ(draw(G, 3), First);
  manual_seed(99);
  std::vector<double> D = draw(getDefaultGenerator(), 4);
  manual_seed(99);
  EXPECT_EQ(draw(getDefaultGenerator(), 4), D);
  EXPECT_EQ(getDefaultGenerator().initial_seed(), 99u);
}

TEST(GeneratorTest, Uniform_IsAMultipleOfItsResolution) {
  Generator G(3);
  std::lock_guard<std::mutex> Lock(G.mutex());
  for (int Bits : {8, 11, 24, 53}) {
    for (int I = 0; I != 1000; ++I) {
      double U = G.uniform(Bits);
      ASSERT_GE(U, 0.0);
      ASSERT_LT(U, 1.0);
      double Scaled = std::ldexp(U, Bits);
      ASSERT_EQ(Scaled, std::floor(Scaled));
    }
  }
}

TEST(GeneratorTest, SharedAcrossThreads_EveryNumberDrawnOnce) {
  Generator Shared(5), Reference(5);
  std::vector<double> Got[2];
  std::thread T0([&] { Got[0] = draw(Shared, 500); });
  std::thread T1([&] { Got[1] = draw(Shared, 500); });
  T0.join();
  T1.join();
  // Each thread held the lock for its whole draw: one took the first 500
  // numbers of the stream, the other the next 500.
  std::vector<double> Expected = draw(Reference, 500);
  EXPECT_TRUE(Got[0] == Expected || Got[1] == Expected);
}

TEST(GeneratorTest, ReservePhilox_AdvancesAndManualSeedRestarts) {
  Generator G(11);
  Generator::PhiloxState First = G.reservePhilox(8);
  Generator::PhiloxState Second = G.reservePhilox(4);
  Generator::PhiloxState Third = G.reservePhilox(0);
  EXPECT_EQ(First.Seed, 11u);
  EXPECT_EQ(First.Offset, 0u);
  EXPECT_EQ(Second.Offset, 8u);
  EXPECT_EQ(Third.Offset, 12u);
  // Host draws do not move the device offset, nor the other way round.
  double U = G.uniform(53);
  EXPECT_EQ(G.reservePhilox(0).Offset, 12u);
  G.manual_seed(12);
  Generator::PhiloxState Reseeded = G.reservePhilox(4);
  EXPECT_EQ(Reseeded.Seed, 12u);
  EXPECT_EQ(Reseeded.Offset, 0u);
  Generator Fresh(11);
  Fresh.reservePhilox(100);
  EXPECT_EQ(Fresh.uniform(53), U);
}

} // namespace
