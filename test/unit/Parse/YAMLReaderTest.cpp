//===--- YAMLReaderTest.cpp - Tests of the yaml-cpp boundary --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Parse/YAMLNode.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

class YAMLReaderTest : public ::testing::Test {
protected:
  YAMLReaderTest() : Diags(SM, Stored) {}

  std::optional<YAMLNode> read(StringRef Text) {
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Text, "test.yaml"), SMLoc());
    return readYAML(ID, Diags);
  }
  std::pair<unsigned, unsigned> lineCol(SMLoc Loc) {
    return SM.getLineAndColumn(Loc);
  }

  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags;
};

TEST_F(YAMLReaderTest, DuplicateKeysAreErrorsWithANote) {
  // yaml-cpp alone would accept this and keep 'add'.
  std::optional<YAMLNode> N = read("op: add\nop: mul\n");
  ASSERT_TRUE(N);
  ASSERT_EQ(Stored.Diagnostics.size(), 2u);
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_yaml_duplicate_key");
  EXPECT_EQ(lineCol(Stored.Diagnostics[0].Loc), std::make_pair(2u, 1u));
  EXPECT_EQ(Stored.Diagnostics[1].getID(), "note_previous_key");
  EXPECT_EQ(lineCol(Stored.Diagnostics[1].Loc), std::make_pair(1u, 1u));
  EXPECT_EQ(N->getEntries().size(), 1u);
}

TEST_F(YAMLReaderTest, SyntaxErrorIsADiagnosticAtItsMark) {
  EXPECT_FALSE(read("- func: [unclosed\n").has_value());
  ASSERT_EQ(Stored.Diagnostics.size(), 1u);
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_yaml_syntax");
  EXPECT_EQ(lineCol(Stored.Diagnostics[0].Loc).first, 2u);
}

TEST_F(YAMLReaderTest, VerbatimScalarsMapOffsetsToColumns) {
  std::optional<YAMLNode> N =
      read("- func: 'quoted(Tensor x) -> ()'\n  plain: abc def\n");
  ASSERT_TRUE(N);
  const YAMLNode &Entry = N->getItems()[0];
  const YAMLScalar &Quoted = Entry.getEntries()[0].second.getScalar();
  EXPECT_TRUE(Quoted.Verbatim);
  EXPECT_FALSE(Quoted.Plain);
  EXPECT_EQ(lineCol(Quoted.locAt(7)), std::make_pair(1u, 17u));
  const YAMLScalar &Plain = Entry.getEntries()[1].second.getScalar();
  EXPECT_TRUE(Plain.Verbatim && Plain.Plain);
  EXPECT_EQ(lineCol(Plain.locAt(4)), std::make_pair(2u, 14u));
}

TEST_F(YAMLReaderTest, EscapedScalarsPointAtTheirStart) {
  std::optional<YAMLNode> N = read("k: \"a\\tb\"\n");
  ASSERT_TRUE(N);
  const YAMLScalar &S = N->getEntries()[0].second.getScalar();
  EXPECT_EQ(S.Value, "a\tb");
  EXPECT_FALSE(S.Verbatim);
  EXPECT_EQ(S.locAt(2), S.Loc);
}

TEST_F(YAMLReaderTest, AliasExpansionIsBounded) {
  // Each level doubles the tree; the reader stops at its node budget.
  std::string Text = "a: &a [x, x]\n";
  for (char C = 'b'; C <= 'z'; ++C)
    Text += std::string(1, C) + ": &" + C + " [*" + char(C - 1) + ", *" +
            char(C - 1) + "]\n";
  EXPECT_FALSE(read(Text).has_value());
  ASSERT_FALSE(Stored.Diagnostics.empty());
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_yaml_syntax");
}

} // namespace
