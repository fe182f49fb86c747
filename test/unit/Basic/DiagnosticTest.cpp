//===--- DiagnosticTest.cpp - Tests of the diagnostics engine -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Suggest.h"
#include "skc/Basic/TextDiagnosticPrinter.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

TEST(DiagnosticTest, FormatSubstitutesArguments) {
  EXPECT_EQ(formatDiagnostic("unknown key '%0' in '%1'", {"a", "b"}),
            "unknown key 'a' in 'b'");
  EXPECT_EQ(formatDiagnostic("%0 and %0", {int64_t(7)}), "7 and 7");
}

TEST(DiagnosticTest, FormatSelectPicksByIndex) {
  EXPECT_EQ(formatDiagnostic("%select{meta|impl}0 here", {int64_t(1)}),
            "impl here");
}

TEST(DiagnosticTest, FormatPluralS) {
  EXPECT_EQ(formatDiagnostic("%0 argument%s0", {int64_t(1)}), "1 argument");
  EXPECT_EQ(formatDiagnostic("%0 argument%s0", {int64_t(2)}), "2 arguments");
}

TEST(DiagnosticTest, EveryKindHasAStableIDAndLookupRoundTrips) {
  for (unsigned I = 0; I != diag::NumKinds; ++I) {
    auto K = static_cast<diag::Kind>(I);
    const DiagnosticKindInfo &Info = getDiagnosticKindInfo(K);
    std::optional<diag::Kind> Found = lookupDiagnosticKind(Info.ID);
    ASSERT_TRUE(Found.has_value()) << Info.ID.str();
    EXPECT_EQ(*Found, K);
    // The prefix says the severity (STYLE.md point 6).
    StringRef Prefix = Info.Severity == DiagSeverity::Error     ? "err_"
                       : Info.Severity == DiagSeverity::Warning ? "warn_"
                                                                : "note_";
    EXPECT_TRUE(Info.ID.starts_with(Prefix)) << Info.ID.str();
    // Wording: lower-case start, no trailing period.
    EXPECT_FALSE(Info.Format.empty());
    EXPECT_FALSE(isupper(static_cast<unsigned char>(Info.Format.front())))
        << Info.ID.str();
    EXPECT_FALSE(Info.Format.ends_with(".")) << Info.ID.str();
  }
  EXPECT_FALSE(lookupDiagnosticKind("err_no_such_diagnostic").has_value());
}

TEST(DiagnosticTest, EngineCountsAndPromotesWarnings) {
  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags(SM, Stored);
  Diags.report(SMLoc(), diag::warn_schema_not_canonical) << "f() -> ()";
  EXPECT_EQ(Diags.getNumWarnings(), 1u);
  EXPECT_FALSE(Diags.hasErrors());
  Diags.setWarningsAsErrors(true);
  Diags.report(SMLoc(), diag::warn_schema_not_canonical) << "f() -> ()";
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  ASSERT_EQ(Stored.Diagnostics.size(), 2u);
  EXPECT_EQ(Stored.Diagnostics[1].Severity, DiagSeverity::Error);
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "warn_schema_not_canonical");
}

TEST(TextDiagnosticPrinterTest, PrintsLocationCaretIDAndCount) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer("- func: f(Tensr self) -> Tensor\n", "a.yaml"),
      SMLoc());
  const char *Start = SM.getMemoryBuffer(1)->getBufferStart();
  std::string Out;
  raw_string_ostream OS(Out);
  TextDiagnosticPrinter Printer(OS, SM, /*ShowColors=*/false);
  DiagnosticsEngine Diags(SM, Printer);
  SMLoc Loc = SMLoc::getFromPointer(Start + 10);
  SMRange R(Loc, SMLoc::getFromPointer(Start + 15));
  Diags.report(Loc, diag::err_schema_unknown_type_suggest)
      << "Tensr" << "Tensor" << R << FixItHint::replace(R, "Tensor");
  Diags.finish();
  EXPECT_EQ(Out, "a.yaml:1:11: error: unknown type 'Tensr'; did you mean "
                 "'Tensor'? [err_schema_unknown_type_suggest]\n"
                 "- func: f(Tensr self) -> Tensor\n"
                 "          ^~~~~\n"
                 "          Tensor\n"
                 "1 error generated.\n");
}

TEST(SuggestTest, PicksCloseCandidatesOnly) {
  StringRef Candidates[] = {"structured", "structured_delegate", "variants"};
  EXPECT_EQ(suggestClosest("structued", Candidates), "structured");
  EXPECT_EQ(suggestClosest("varients", Candidates), "variants");
  EXPECT_EQ(suggestClosest("zzz", Candidates), "");
}

} // namespace
