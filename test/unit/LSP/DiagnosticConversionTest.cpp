//===--- DiagnosticConversionTest.cpp - Tests of diagnostics in LSP terms -===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LSP/DiagnosticConversion.h"
#include "LSP/SourcePositions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

TEST(DiagnosticConversionTest, ColumnsAreUTF16CodeUnits) {
  SourceMgr SM;
  // "é" is two bytes and one UTF-16 unit; "😀" four bytes and two units.
  const char Text[] = "ab\n# \xC3\xA9 \xF0\x9F\x98\x80 x\n";
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "/t.yaml"), SMLoc());
  const char *Start = SM.getMemoryBuffer(ID)->getBufferStart();
  lsp::Position B = toLSPPosition(SM, SMLoc::getFromPointer(Start + 1));
  EXPECT_EQ(B.line, 0);
  EXPECT_EQ(B.character, 1);
  // The `x`: after "# é 😀 " (2 + 1 + 1 + 2 + 1 units).
  const char *X = std::strchr(Start, 'x');
  lsp::Position P = toLSPPosition(SM, SMLoc::getFromPointer(X));
  EXPECT_EQ(P.line, 1);
  EXPECT_EQ(P.character, 7);
  // And back: the same byte, and a column past the line's end is its end.
  EXPECT_EQ(fromLSPPosition(SM, ID, P).getPointer(), X);
  EXPECT_EQ(fromLSPPosition(SM, ID, lsp::Position(0, 40)).getPointer(),
            Start + 2);
  EXPECT_FALSE(fromLSPPosition(SM, ID, lsp::Position(9, 0)).isValid());
}

TEST(DiagnosticConversionTest, NotesBecomeRelatedInformationByFile) {
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy("one\ntwo\n", "/ops.yaml"), SMLoc());
  const char *Start = SM.getMemoryBuffer(ID)->getBufferStart();
  Diagnostic Error;
  Error.Kind = diag::err_duplicate_operator;
  Error.Severity = DiagSeverity::Error;
  Error.Loc = SMLoc::getFromPointer(Start + 4);
  Error.Ranges.push_back(SMRange(Error.Loc, SMLoc::getFromPointer(Start + 7)));
  Error.Message = "redefinition of operator 'two'";
  Diagnostic Note;
  Note.Kind = diag::note_previous_definition;
  Note.Severity = DiagSeverity::Note;
  Note.Loc = SMLoc::getFromPointer(Start);
  Note.Message = "previous definition is here";
  StringMap<std::vector<json::Value>> ByFile =
      toLSPDiagnostics(SM, {Error, Note}, "https://docs/d.md");
  ASSERT_EQ(ByFile.size(), 1u);
  ASSERT_EQ(ByFile["/ops.yaml"].size(), 1u);
  const json::Object &D = *ByFile["/ops.yaml"][0].getAsObject();
  EXPECT_EQ(D.getString("code"), "err_duplicate_operator");
  EXPECT_EQ(D.getObject("codeDescription")->getString("href"),
            "https://docs/d.md#err_duplicate_operator");
  EXPECT_EQ(D.getInteger("severity"), 1);
  const json::Object &Range = *D.getObject("range");
  EXPECT_EQ(Range.getObject("start")->getInteger("line"), 1);
  EXPECT_EQ(Range.getObject("end")->getInteger("character"), 3);
  const json::Array &Related = *D.getArray("relatedInformation");
  ASSERT_EQ(Related.size(), 1u);
  EXPECT_EQ(Related[0].getAsObject()->getString("message"),
            "previous definition is here");
  // No documentation URL: no link.
  StringMap<std::vector<json::Value>> Plain =
      toLSPDiagnostics(SM, {Error, Note}, "");
  EXPECT_EQ(Plain["/ops.yaml"][0].getAsObject()->get("codeDescription"),
            nullptr);
}

TEST(DiagnosticConversionTest, FixItsOfTheDiagnosticAndItsNotesAreItsFixes) {
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy("return S.set_kH(1);\n", "/k.cpp"),
      SMLoc());
  const char *Start = SM.getMemoryBuffer(ID)->getBufferStart();
  SMLoc End = SMLoc::getFromPointer(Start + 18); // after `)`
  Diagnostic Error;
  Error.Kind = diag::err_precomputed_unset;
  Error.Severity = DiagSeverity::Error;
  Error.Loc = SMLoc::getFromPointer(Start + 7);
  Error.Message = "meta function of 'pool' never sets precomputed field 'kW'";
  Diagnostic Note;
  Note.Kind = diag::note_precomputed_setter;
  Note.Severity = DiagSeverity::Note;
  Note.Loc = End;
  Note.Message = "set it with 'set_kW'";
  Note.FixIts.push_back(FixItHint::insert(End, ".set_kW(kW)"));
  StringMap<std::vector<json::Value>> ByFile =
      toLSPDiagnostics(SM, {Error, Note}, "");
  const json::Object &D = *ByFile["/k.cpp"][0].getAsObject();
  const json::Array &Fixes = *D.getObject("data")->getArray("fixes");
  ASSERT_EQ(Fixes.size(), 1u);
  const json::Object &Fix = *Fixes[0].getAsObject();
  EXPECT_EQ(Fix.getString("title"), "insert '.set_kW(kW)'");
  const json::Object &Edit = *(*Fix.getArray("edits"))[0].getAsObject();
  EXPECT_EQ(Edit.getString("file"), "/k.cpp");
  EXPECT_EQ(Edit.getString("newText"), ".set_kW(kW)");
  EXPECT_EQ(
      Edit.getObject("range")->getObject("start")->getInteger("character"), 18);
}

} // namespace

namespace {

TEST(SourcePositionsTest, ChangesCountUTF16Columns) {
  // "é" is one UTF-16 unit, "😀" two: the `x` after them is column 5.
  std::string Text = "- \xC3\xA9\xF0\x9F\x98\x80x\nsecond\n";
  lsp::TextDocumentContentChangeEvent Change;
  Change.range = lsp::Range(lsp::Position(0, 5), lsp::Position(0, 6));
  Change.text = "y";
  ASSERT_TRUE(applyChanges({Change}, Text));
  EXPECT_EQ(Text, "- \xC3\xA9\xF0\x9F\x98\x80y\nsecond\n");
  // A column past the line's end is its end, as LSP says.
  Change.range = lsp::Range(lsp::Position(1, 99), lsp::Position(1, 99));
  Change.text = "!";
  ASSERT_TRUE(applyChanges({Change}, Text));
  EXPECT_EQ(Text, "- \xC3\xA9\xF0\x9F\x98\x80y\nsecond!\n");
  // A line past the end is refused, and the text kept.
  Change.range = lsp::Range(lsp::Position(7, 0), lsp::Position(7, 0));
  EXPECT_FALSE(applyChanges({Change}, Text));
  EXPECT_EQ(Text, "- \xC3\xA9\xF0\x9F\x98\x80y\nsecond!\n");
}

} // namespace
