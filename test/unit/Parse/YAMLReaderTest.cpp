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

/// Whether \p A and \p B are the same tree at the same places.
void expectSameTree(const YAMLNode &A, const YAMLNode &B) {
  ASSERT_EQ(A.getKind(), B.getKind());
  EXPECT_EQ(A.getLoc().getPointer(), B.getLoc().getPointer());
  auto SameScalar = [](const YAMLScalar &X, const YAMLScalar &Y) {
    EXPECT_EQ(X.Value, Y.Value);
    EXPECT_EQ(X.Loc.getPointer(), Y.Loc.getPointer());
    EXPECT_EQ(X.ValueLoc.getPointer(), Y.ValueLoc.getPointer());
    EXPECT_EQ(X.Verbatim, Y.Verbatim);
    EXPECT_EQ(X.Plain, Y.Plain);
  };
  if (A.isScalar())
    SameScalar(A.getScalar(), B.getScalar());
  if (A.isSequence()) {
    ASSERT_EQ(A.getItems().size(), B.getItems().size());
    for (size_t I = 0; I != A.getItems().size(); ++I)
      expectSameTree(A.getItems()[I], B.getItems()[I]);
  }
  if (A.isMapping()) {
    ASSERT_EQ(A.getEntries().size(), B.getEntries().size());
    for (size_t I = 0; I != A.getEntries().size(); ++I) {
      SameScalar(A.getEntries()[I].first, B.getEntries()[I].first);
      expectSameTree(A.getEntries()[I].second, B.getEntries()[I].second);
    }
  }
}

TEST_F(YAMLReaderTest, ReadingItemByItemReadsTheSameTree) {
  YAMLReadCache Cache;
  std::string Text = "# A schema.\n\n"
                     "- func: add(Tensor self) -> Tensor\n"
                     "  dispatch:\n    CPU: add_cpu\n# between\n"
                     "- func: 'mul(Tensor self) -> Tensor'\n"
                     "  tags: [core, pointwise]\n"
                     "- func: >\n    neg(Tensor self) -> Tensor\n";
  // Twice with the cache (the second from it), then after an edit of the
  // second item, each time as the whole document's read has it.
  for (std::string T :
       {Text, Text, std::string(Text).replace(Text.find("mul"), 3, "div")}) {
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(T, "test.yaml"), SMLoc());
    std::optional<YAMLNode> Whole = readYAML(ID, Diags);
    std::optional<YAMLNode> ByItem = readYAML(ID, Diags, &Cache);
    ASSERT_TRUE(Whole && ByItem);
    expectSameTree(*Whole, *ByItem);
  }
  EXPECT_TRUE(Stored.Diagnostics.empty());
}

TEST_F(YAMLReaderTest, ReadingItemByItemLeavesProblemsToTheWholeRead) {
  YAMLReadCache Cache;
  // A duplicate key, an alias to another item, a second document: each is
  // reported (or resolved) as the whole document's read does.
  for (StringRef Text : {"- a: 1\n  a: 2\n- b: 3\n", "- &x a: 1\n- *x\n",
                         "- a: 1\n---\n- b: 2\n"}) {
    Stored.Diagnostics.clear();
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Text, "test.yaml"), SMLoc());
    std::optional<YAMLNode> Whole = readYAML(ID, Diags);
    size_t Reported = Stored.Diagnostics.size();
    std::optional<YAMLNode> ByItem = readYAML(ID, Diags, &Cache);
    EXPECT_EQ(Stored.Diagnostics.size(), 2 * Reported) << Text.str();
    ASSERT_EQ(bool(Whole), bool(ByItem)) << Text.str();
    if (Whole)
      expectSameTree(*Whole, *ByItem);
  }
}

TEST_F(YAMLReaderTest, ReadingPyTorchsSchemaItemByItemReadsTheSameTree) {
  for (StringRef Dir : {SKC_VENDORED_PYTORCH_DIR, SKC_PYTORCH_YAML_DIR}) {
    auto File = MemoryBuffer::getFile(Dir.str() + "/native_functions.yaml");
    if (!File)
      continue;
    YAMLReadCache Cache;
    unsigned ID = SM.AddNewSourceBuffer(std::move(*File), SMLoc());
    std::optional<YAMLNode> Whole = readYAML(ID, Diags);
    std::optional<YAMLNode> ByItem = readYAML(ID, Diags, &Cache);
    std::optional<YAMLNode> Again = readYAML(ID, Diags, &Cache);
    ASSERT_TRUE(Whole && ByItem && Again) << Dir.str();
    expectSameTree(*Whole, *ByItem);
    expectSameTree(*Whole, *Again);
  }
}
