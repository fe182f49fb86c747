//===--- AllocatorTest.cpp - The CPU allocator's large blocks -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

using namespace sk;

namespace {

/// One mapping of /proc/self/smaps: its range and its VmFlags.
struct Mapping {
  uintptr_t Begin = 0, End = 0;
  std::string Flags;
};

/// The mapping that holds \p Address, or an empty one.
Mapping findMapping(const void *Address) {
  auto A = reinterpret_cast<uintptr_t>(Address);
  std::ifstream Smaps("/proc/self/smaps");
  std::string Line;
  Mapping Current;
  bool Found = false;
  while (std::getline(Smaps, Line)) {
    if (Line.rfind("VmFlags:", 0) == 0) {
      if (Found) {
        Current.Flags = Line.substr(8) + " ";
        return Current;
      }
      continue;
    }
    // A mapping's first line: "begin-end perms offset dev inode path".
    std::istringstream In(Line);
    uintptr_t Begin, End;
    char Dash;
    if (!(In >> std::hex >> Begin >> Dash >> End) || Dash != '-')
      continue;
    Current = Mapping{Begin, End, ""};
    Found = Begin <= A && A < End;
  }
  return Mapping();
}

bool hasFlag(const Mapping &M, const char *Flag) {
  return M.Flags.find(std::string(" ") + Flag + " ") != std::string::npos;
}

/// Where the kernel has transparent huge pages and the allocator uses
/// them; the tests below skip elsewhere.
bool hugePagesTestable() {
  return detail::cpuHugePagesEnabled() &&
         std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

} // namespace

TEST(CPUAllocatorTest, LargeBlocks_StartOnAHugePageAndAdviseItsWholePages) {
  if (!hugePagesTestable())
    GTEST_SKIP() << "no transparent huge pages here, or SKC_CPU_HUGE_PAGES=0";
  // A huge page and 4 KiB past the threshold: the last 4 KiB are not a
  // whole huge page, so they stay out of the advice.
  const size_t NBytes = kCPUHugePageBlockBytes + kCPUHugePageBytes + 4096;
  DataPtr P = getCPUAllocator()->allocate(NBytes);
  auto Begin = reinterpret_cast<uintptr_t>(P.get());
  EXPECT_EQ(Begin % kCPUHugePageBytes, 0u);
  Mapping Advised = findMapping(P.get());
  ASSERT_NE(Advised.End, 0u) << "no mapping holds the block";
  EXPECT_TRUE(hasFlag(Advised, "hg")) << "VmFlags:" << Advised.Flags;
  EXPECT_EQ(Advised.Begin, Begin);
  EXPECT_EQ(Advised.End, Begin + kCPUHugePageBlockBytes + kCPUHugePageBytes);
  Mapping Tail = findMapping(static_cast<char *>(P.get()) + NBytes - 1);
  EXPECT_FALSE(hasFlag(Tail, "hg")) << "VmFlags:" << Tail.Flags;
}

TEST(CPUAllocatorTest, BlocksBelowTheThreshold_AreNotAdvised) {
  if (!hugePagesTestable())
    GTEST_SKIP() << "no transparent huge pages here, or SKC_CPU_HUGE_PAGES=0";
  DataPtr P = getCPUAllocator()->allocate(kCPUHugePageBlockBytes / 2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P.get()) % kCPUAlignment, 0u);
  Mapping M = findMapping(P.get());
  ASSERT_NE(M.End, 0u) << "no mapping holds the block";
  EXPECT_FALSE(hasFlag(M, "hg")) << "VmFlags:" << M.Flags;
}

TEST(CPUAllocatorTest, LargeBlocks_AreWritableToTheLastByte) {
  const size_t NBytes = kCPUHugePageBlockBytes + 12345;
  DataPtr P = getCPUAllocator()->allocate(NBytes);
  auto *Bytes = static_cast<unsigned char *>(P.get());
  Bytes[0] = 1;
  Bytes[NBytes - 1] = 2;
  EXPECT_EQ(Bytes[0] + Bytes[NBytes - 1], 3);
}
