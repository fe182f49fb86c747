//===--- DispatchKeySetTest.cpp - Keys, priorities and TLS guards ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/DispatchKeySet.h"
#include "sk/dispatch/LocalDispatchKeySet.h"

#include "gtest/gtest.h"

#include <sstream>
#include <thread>

using namespace sk;

namespace {

TEST(DispatchKeySetTest, HighestPriorityKeyWins) {
  DispatchKeySet KS{DispatchKey::CPU, DispatchKey::Tracer,
                    DispatchKey::BackendSelect};
  EXPECT_EQ(KS.highestPriorityKey(), DispatchKey::Tracer);
  EXPECT_EQ(KS.remove(DispatchKey::Tracer).highestPriorityKey(),
            DispatchKey::BackendSelect);
  EXPECT_EQ(DispatchKeySet().highestPriorityKey(), DispatchKey::Undefined);
}

TEST(DispatchKeySetTest, BelowHasOnlyLowerKeys) {
  DispatchKeySet Below = DispatchKeySet::below(DispatchKey::Meta);
  EXPECT_TRUE(Below.has(DispatchKey::CPU));
  EXPECT_TRUE(Below.has(DispatchKey::CUDA));
  EXPECT_FALSE(Below.has(DispatchKey::Meta));
  EXPECT_FALSE(Below.has(DispatchKey::Tracer));
  EXPECT_FALSE(Below.has(DispatchKey::Undefined));
}

TEST(DispatchKeySetTest, SetOperations) {
  DispatchKeySet A{DispatchKey::CPU, DispatchKey::Meta};
  DispatchKeySet B{DispatchKey::Meta};
  EXPECT_EQ(A - B, DispatchKeySet(DispatchKey::CPU));
  EXPECT_EQ(A & B, B);
  EXPECT_EQ((A | DispatchKeySet(DispatchKey::Tracer)).highestPriorityKey(),
            DispatchKey::Tracer);
  std::ostringstream OS;
  OS << A;
  EXPECT_EQ(OS.str(), "DispatchKeySet(Meta, CPU)");
}

TEST(DispatchKeySetTest, ParseAndPrintKeys) {
  EXPECT_EQ(parseDispatchKey("CompositeImplicitAutograd"),
            DispatchKey::CompositeImplicitAutograd);
  EXPECT_EQ(parseDispatchKey("Nope"), std::nullopt);
  EXPECT_TRUE(isAliasKey(DispatchKey::CompositeExplicitAutograd));
  EXPECT_FALSE(isAliasKey(DispatchKey::CPU));
}

TEST(LocalDispatchKeySetTest, DefaultsIncludeBackendSelect) {
  EXPECT_EQ(tlsIncludedKeys(), DispatchKeySet(DispatchKey::BackendSelect));
  EXPECT_TRUE(tlsExcludedKeys().empty());
}

TEST(LocalDispatchKeySetTest, GuardsNestAndRestore) {
  {
    IncludeDispatchKeyGuard Include(DispatchKey::Tracer);
    EXPECT_TRUE(tlsIncludedKeys().has(DispatchKey::Tracer));
    {
      ExcludeDispatchKeyGuard Exclude(DispatchKey::Tracer);
      EXPECT_TRUE(tlsExcludedKeys().has(DispatchKey::Tracer));
    }
    EXPECT_FALSE(tlsExcludedKeys().has(DispatchKey::Tracer));
  }
  EXPECT_FALSE(tlsIncludedKeys().has(DispatchKey::Tracer));
  EXPECT_TRUE(tlsIncludedKeys().has(DispatchKey::BackendSelect));
}

TEST(LocalDispatchKeySetTest, GuardsAreThreadLocal) {
  IncludeDispatchKeyGuard Include(DispatchKey::Tracer);
  bool OtherThreadSees = true;
  std::thread([&] {
    OtherThreadSees = tlsIncludedKeys().has(DispatchKey::Tracer);
  }).join();
  EXPECT_FALSE(OtherThreadSees);
}

} // namespace
